"""The builder's working list: one change (add, remove, set a count, replace a section,
place a unit on a cell of its placement area) applied to a copy of a version's lines
(`ListEntry`s, entries.py), with every input bounded; and the sections of a format a card
can go in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from validation import decklist
from validation.registry import FormatDef, GameDef

from .entries import Cell, ListEntry

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


def _cell(value: str | None) -> Cell | None:
    """ "3,1" -> (3, 1) (column, row); empty -> None; ValueError when malformed."""
    if value in (None, ""):
        return None
    c, r = str(value).split(",")
    return (int(c), int(r))


def _find(entries: list[ListEntry], section: str, card: str, cell: Cell | None) -> int | None:
    """The index of the line of `card` in `section` on `cell`, None when there is none."""
    for i, e in enumerate(entries):
        if e.is_line(section, card, cell):
            return i
    return None


def _add(
    entries: list[ListEntry], section: str, card: str, n: int, cell: Cell | None = None
) -> None:
    i = _find(entries, section, card, cell)
    if i is not None:
        entries[i] = replace(entries[i], count=min(MAX_COUNT, entries[i].count + n))
        return
    entries.append(ListEntry(section, card, min(MAX_COUNT, n), cell))


def _take(
    entries: list[ListEntry], section: str, card: str, n: int, cell: Cell | None = None
) -> bool:
    """Remove n copies from a line (the unplaced line first when no cell is named)."""
    i = _find(entries, section, card, cell)
    if i is None and cell is None:
        placed = [
            j
            for j, x in enumerate(entries)
            if x.section == section and x.card.lower() == card.lower()
        ]
        i = placed[-1] if placed else None
    if i is None:
        return False
    left = entries[i].count - n
    if left <= 0:
        del entries[i]
    else:
        entries[i] = replace(entries[i], count=left)
    return True


def apply_change(
    entries: Sequence[ListEntry], data: Mapping[str, Any], sections: Sequence[str]
) -> list[ListEntry]:
    """A copy of `entries` with one change applied. `data` holds `op` and its fields:

    - add / remove: `section`, `card`, optional `n` (1) and `placement` ("c,r"; its former
      name is read too, `decklist.PLACEMENT_ALIAS`)
    - set: `section`, `card`, `count` (0 removes the line), optional `placement`
    - replace: `section` and `cards` (a list, in order; blanks skipped), one copy each
    - place: `section`, `card`, `from` (a cell or blank for an unplaced copy), `to` (a cell)

    Raises ValueError for a malformed change.
    """
    out = list(entries)
    op = data.get("op")
    section = data.get("section", "")
    if section not in sections:
        raise ValueError(f"no section {section!r} in this format")
    if op == "replace":
        names = [n.strip() for n in data.get("cards", []) if n and n.strip()]
        if len(names) > MAX_ENTRIES:
            raise ValueError(f"cards: {len(names):,} given; at most {MAX_ENTRIES} are read")
        out = [e for e in out if e.section != section]
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
        i = _find(out, section, card, cell)
        if i is None and count:
            _add(out, section, card, count, cell)
        elif i is not None and count:
            out[i] = replace(out[i], count=count)
        elif i is not None:
            del out[i]
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
