"""The builder's working list: one change (add, remove, set a count, replace a section,
place a unit on a cell of its placement area) applied to a copy of a version's entries, with every input bounded;
and the sections of a format a card can go in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from validation import decklist
from validation.registry import FormatDef, GameDef

MAX_COUNT = 99
MAX_ENTRIES = decklist.MAX_ENTRIES


# --- Where a card goes ---------------------------------------------------------------------


def section_kinds(game: GameDef, fmt: FormatDef) -> dict[str, tuple[str, ...]]:
    """For each section of the format, the card kinds that belong in it (its SectionSpec)."""
    kinds = tuple(game.kinds)
    return {spec.name: spec.kinds_of(kinds) for spec in fmt.sections}


def sections_for(card: Any, fmt: FormatDef) -> list[str]:
    """The sections of `fmt` that `card` can go in: its kind belongs there, and a side
    section takes only cards of its faction."""
    return [spec.name for spec in fmt.sections if spec.accepts(card)]


# --- The working list ----------------------------------------------------------------------


def _cell(value: str | None) -> list[int] | None:
    """ "3,1" -> [3, 1] (column, row); empty -> None; ValueError when malformed."""
    if value in (None, ""):
        return None
    c, r = str(value).split(",")
    return [int(c), int(r)]


def _find(entries: list[dict], section: str, card: str, cell: list[int] | None) -> dict | None:
    for e in entries:
        if (
            e["section"] == section
            and e["card"].lower() == card.lower()
            and e.get(decklist.PLACEMENT) == cell
        ):
            return e
    return None


def _add(entries: list[dict], section: str, card: str, n: int, cell=None) -> None:
    e = _find(entries, section, card, cell)
    if e is not None:
        e["count"] = min(MAX_COUNT, e["count"] + n)
        return
    row: dict[str, Any] = {"section": section, "card": card, "count": min(MAX_COUNT, n)}
    if cell is not None:
        row[decklist.PLACEMENT] = cell
    entries.append(row)


def _take(entries: list[dict], section: str, card: str, n: int, cell=None) -> bool:
    """Remove n copies from a line (the unplaced line first when no cell is named)."""
    e = _find(entries, section, card, cell)
    if e is None and cell is None:
        placed = [
            x for x in entries if x["section"] == section and x["card"].lower() == card.lower()
        ]
        e = placed[-1] if placed else None
    if e is None:
        return False
    e["count"] -= n
    if e["count"] <= 0:
        entries.remove(e)
    return True


def apply_change(entries: list[dict], data: Mapping[str, Any], sections: Sequence[str]) -> list:
    """A copy of `entries` with one change applied. `data` holds `op` and its fields:

    - add / remove: `section`, `card`, optional `n` (1) and `placement` ("c,r"; its former
      name is read too, `decklist.PLACEMENT_ALIAS`)
    - set: `section`, `card`, `count` (0 removes the line), optional `placement`
    - replace: `section` and `cards` (a list, in order; blanks skipped), one copy each
    - place: `section`, `card`, `from` (a cell or blank for an unplaced copy), `to` (a cell)

    Raises ValueError for a malformed change.
    """
    out = [dict(e) for e in entries]
    op = data.get("op")
    section = data.get("section", "")
    if section not in sections:
        raise ValueError(f"no section {section!r} in this format")
    if op == "replace":
        names = [n.strip() for n in data.get("cards", []) if n and n.strip()]
        if len(names) > MAX_ENTRIES:
            raise ValueError(f"cards: {len(names):,} given; at most {MAX_ENTRIES} are read")
        out = [e for e in out if e["section"] != section]
        for name in names:
            _add(out, section, name[:200], 1)
        return out
    card = " ".join(str(data.get("card", "")).split())[:200]
    if not card:
        raise ValueError("no card named")
    written = data.get(decklist.PLACEMENT)
    cell = _cell(written if written not in (None, "") else data.get(decklist.PLACEMENT_ALIAS))
    if op == "add":
        _add(out, section, card, max(1, min(MAX_COUNT, _number(data, "n", 1))), cell)
    elif op == "remove":
        _take(out, section, card, max(1, _number(data, "n", 1)), cell)
    elif op == "set":
        count = max(0, min(MAX_COUNT, _number(data, "count", 0)))
        e = _find(out, section, card, cell)
        if e is None and count:
            _add(out, section, card, count, cell)
        elif e is not None and count:
            e["count"] = count
        elif e is not None:
            out.remove(e)
    elif op == "place":
        to = _cell(data.get("to"))
        if not _take(out, section, card, 1, _cell(data.get("from"))):
            raise ValueError(f"no {card} to place")
        _add(out, section, card, 1, to)
    else:
        raise ValueError(f"unknown change {op!r}")
    if len(out) > MAX_ENTRIES:
        raise ValueError(f"a deck has at most {MAX_ENTRIES} entries")
    return out


def _number(data: Mapping[str, Any], key: str, default: int) -> int:
    """A small whole number of the change, or a ValueError naming the field."""
    raw = data.get(key)
    if raw in (None, ""):
        return default
    text = str(raw).strip()
    if not text.lstrip("+-").isdigit() or len(text) > 6:
        raise ValueError(f"{key}: {text[:12]!r} is not a whole number up to {MAX_COUNT}")
    return int(text)
