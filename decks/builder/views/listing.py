"""A deck's list as the builder draws it: its rows (each card's facts, its rule marks, the
values its buttons send), its sections grouped by kind and counted against their targets,
and `list_view`, the same list drawn by the deck and share pages."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from catalogue.services import card_facts_by_names
from decks import lists
from decks.lists import ListEntry, SavedList
from decks.models import Deck, DeckVersion
from decks.presentation import kind_groups, section_order
from validation.registry import FormatDef, GameDef
from validation.runner import Report, validate
from validation.types import CardFacts
from validation.types import Deck as RulesDeck

from ..figures import _stats, curve_sections, points_meters

#: A row of the deck panel (an entry, its card's facts, its rule marks, its buttons'
#: values) and a section of the panel (its rows by kind, its count and target), as the
#: templates read them and a change's answer compares them.
Row = dict[str, Any]
Panel = dict[str, Any]


def group_rows(game: GameDef, rows: list[Row]) -> list[dict[str, Any]]:
    """A section's rows grouped by card kind as every export lists them
    (`decks.presentation.kind_groups`), each group with its copies counted."""
    return [
        {"kind": kind, "label": label, "total": sum(r["count"] for r in members), "rows": members}
        for kind, label, members in kind_groups(
            game, rows, lambda r: r["facts"], lambda r: r["card"]
        )
    ]


def hx_vals(**kw: Any) -> str:
    """Values for a control's `hx-vals` (JSON)."""
    return json.dumps(kw, ensure_ascii=False)


def shown_report(deck: Deck, version: DeckVersion | None, game: GameDef, options: dict) -> Report:
    """The verdict shown for `version`: the deck's stored report for its current version,
    the version's own otherwise, and an empty list's for a deck without versions."""
    if version is None:
        return validate(game, deck.format, RulesDeck(options=options))
    stored = deck.verdict if version.pk == deck.current_version_id else None
    return stored or version.verdict or Report(legal=False)


def rule_marks(report: Report | None) -> tuple[dict[str, list[str]], set[str]]:
    """The cards an error names (with the codes), and the cards a warning names."""
    errors_by_card: dict[str, list[str]] = {}
    warned: set[str] = set()
    if report is None:
        return errors_by_card, warned
    for v in report.errors:
        for name in v.cards:
            errors_by_card.setdefault(name, []).append(v.code)
    for v in report.warnings:
        warned.update(v.cards)
    return errors_by_card, warned


def row_dom_id(section: str, card: str, placement_text: str = "") -> str:
    """The stable id of a deck row in the page (a change's answer swaps the row by it)."""
    key = f"{section}\x1f{card.lower()}\x1f{placement_text}".encode()
    return "row-" + hashlib.blake2s(key, digest_size=6).hexdigest()


def version_entries(version: DeckVersion | None) -> list[ListEntry]:
    """The lines of `version` (none without a version)."""
    return lists.entries_from_json(version.entries) if version is not None else []


def entry_row(game: GameDef, e: ListEntry, facts, marks) -> Row:
    """One line of the deck panel: the entry, its card's facts and the buttons' values."""
    errors_by_card, warned = marks
    f = facts.get(e.card.lower())
    cell = e.placement
    row = {
        "section": e.section,
        "card": e.card,
        "count": e.count,
        "placement": list(cell) if cell is not None else None,
        "placement_text": e.placement_text,
        "facts": f,
        "kind": (game.kinds[f.kind].label if f and f.kind in game.kinds else ""),
        "faction": game.factions.get(f.faction, f.faction) if f else "",
        "cost": f.cost if f and game.has_cost(f.kind) else None,
        "errors": errors_by_card.get(e.card, []),
        "warned": e.card in warned,
    }
    key = {"section": e.section, "card": e.card}
    if cell:
        key["placement"] = row["placement_text"]
    row["dom_id"] = row_dom_id(e.section, e.card, row["placement_text"])
    # The row names its card once; its controls add only the operation (htmx merges them).
    row["vals"] = hx_vals(**key)
    return row


def section_panel(game: GameDef, fmt: FormatDef, name: str, rows: list[Row]) -> Panel:
    """A section of the deck panel: its rows grouped by kind, its count against the size
    its spec aims at (counting only the cards that belong in it), and the kinds it takes
    (a section the format lacks has no spec)."""
    spec = fmt.section(name)
    total = sum(
        r["count"] for r in rows if spec is None or r["facts"] is None or spec.accepts(r["facts"])
    )
    kinds = sorted(spec.kinds_of(tuple(game.kinds))) if spec else []
    return {
        "name": name,
        "label": game.section_label(name),
        "rows": rows,
        "groups": group_rows(game, rows),
        "total": total,
        "target": spec.target() if spec else "",
        "met": spec.met(total) if spec else False,
        "required": spec is not None and not spec.optional,
        "kinds": ", ".join(game.kinds[k].label for k in kinds),
        "placement": spec is not None and spec.placement is not None,
    }


def rows_by_section(
    game_slug: str,
    game: GameDef,
    fmt: FormatDef,
    entries: list[ListEntry],
    report: Report | None,
    facts: Mapping[str, CardFacts] | None = None,
) -> tuple[list[str], list[Row], dict[str, list[Row]]]:
    """A list's rows (one query: the card facts, unless `facts` gives them), with the rows a
    rule problem names marked: the section names in order (`deck_section_order`), every row, and
    the rows of each section."""
    if facts is None:
        facts = card_facts_by_names(game_slug=game_slug, names=[e.card for e in entries])
    marks = rule_marks(report)
    order = deck_section_order(fmt, entries)
    rows = [entry_row(game, e, facts, marks) for e in entries]
    by_section: dict[str, list[Row]] = {s: [] for s in order}
    for row in rows:
        by_section[row["section"]].append(row)
    return order, rows, by_section


def list_view(saved: SavedList, report: Report | None) -> dict[str, Any]:
    """The deck, share and decklist pages' list (`saved`), drawn as the builder draws it:
    each section's cards grouped by kind with their counts, the rows a rule problem names
    marked, and the stats (cost curve, copies by kind and faction). One query (the card facts
    of the list, given back as `facts` for the page's other uses of them)."""
    game = saved.game.definition
    fmt = game.format(saved.format)
    entries = list(saved.entries)
    facts = card_facts_by_names(game_slug=saved.game.slug, names=saved.card_names)
    order, rows, by_section = rows_by_section(saved.game.slug, game, fmt, entries, report, facts)
    sections = [section_panel(game, fmt, s, by_section[s]) for s in order if by_section[s]]
    return {
        "facts": facts,
        "sections": sections,
        "meters": points_meters(fmt, rows, dict(saved.options)),
        "stats": _stats(game, fmt, rows),
        "curve_of": " and ".join(game.section_label(s).lower() for s in curve_sections(game, fmt)),
    }


def deck_section_order(fmt: FormatDef, entries: list[ListEntry]) -> list[str]:
    """The deck panel's sections: the format's, then any other a list holds."""
    return section_order(fmt.section_names, (e.section for e in entries))


def placed_units(entries: list[ListEntry]) -> list[tuple[str, str, tuple[int, int]]]:
    """The units standing on a cell (what a placement map draws)."""
    return sorted((e.section, e.card, e.placement) for e in entries if e.placement)


def restricted(options: Mapping[str, Any]) -> bool:
    """Whether the deck is restricted to its owner's collection (the "Only cards in my
    collection" box, saved as the option `collection: true`)."""
    return options.get(lists.COLLECTION_OPTION) is True
