"""The builder's answers to a change: a list autosaved from the version the page is based on
(`save_list`), answered with the whole state or, for a count change, with only what changed
(`_render_changes`); a refused change (a stale base, a list the rules cannot read) says
why."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.shortcuts import render

from catalogue.services import card_facts_by_names
from decks import lists, services
from decks.lists import ListEntry
from decks.models import Deck, DeckVersion
from validation.registry import GameDef
from validation.runner import Report

from .context import render_state, request_revision, with_rule_sets
from .listing import (
    Panel,
    Row,
    deck_section_order,
    entry_row,
    placed_units,
    restricted,
    rule_marks,
    section_panel,
    shown_report,
    version_entries,
)

#: The event an answer that saved the list fires in the page (the `HX-Trigger` header).
DECK_SAVED_EVENT = "deck-saved"
CONFLICT_MESSAGE = (
    "This deck was saved elsewhere since you opened it (version {n}). Your change was not "
    "saved: reload the builder to continue from version {n}."
)


def _neighbour(section: Mapping[str, Any], dom_id: str) -> str | None:
    """Where a row new to `section` goes (an htmx out-of-band swap): after the row before it
    in its kind's group, else before the row after it (None: alone in its group)."""
    for group in section["groups"]:
        ids = [r["dom_id"] for r in group["rows"]]
        if dom_id in ids:
            i = ids.index(dom_id)
            if i > 0:
                return f"afterend:#{ids[i - 1]}"
            return f"beforebegin:#{ids[i + 1]}" if len(ids) > 1 else None
    return None


def _unmarked(row: Row) -> Row:
    """A deck row without the rule marks (what a change's answer sends as `row-marks`)."""
    return {k: v for k, v in row.items() if k not in ("errors", "warned")}


def _old_rows(
    deck: Deck,
    game: GameDef,
    sections: list[Panel],
    old_entries: list[ListEntry],
    old_report: Report,
) -> dict[str, list[Row]]:
    """The rows the page showed, by section, marked by the verdict it showed (one query for
    the facts of the cards that left the list, when some did)."""
    facts = {r["card"].lower(): r["facts"] for s in sections for r in s["rows"]}
    gone = [e.card for e in old_entries if e.card.lower() not in facts]
    if gone:
        facts.update(card_facts_by_names(game_slug=deck.game.slug, names=gone))
    marks = rule_marks(old_report)
    old_rows_of: dict[str, list[Row]] = {}
    for e in old_entries:
        old_rows_of.setdefault(e.section, []).append(entry_row(game, e, facts, marks))
    return old_rows_of


@dataclass
class _Changes:
    """What a count change's answer carries, section by section (`_render_changes`)."""

    whole: list[Panel] = field(default_factory=list)
    heads: list[Panel] = field(default_factory=list)
    group_heads: list[tuple[Panel, dict]] = field(default_factory=list)
    changed: list[tuple[Panel, Row]] = field(default_factory=list)
    inserted: list[tuple[Panel, Row, str | None]] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    row_marks: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add_section(self, s: Panel, old: Panel, touched: set[str]) -> None:
        """Compare a section's panel now (`s`) with the one the page showed (`old`)."""
        old_rows = {r["dom_id"]: r for r in old["rows"]}
        new_rows = {r["dom_id"]: r for r in s["rows"]}
        added = [k for k in new_rows if k not in old_rows]
        removed = [k for k in old_rows if k not in new_rows]
        updated, marked = [], []
        for k, r in new_rows.items():
            if k not in old_rows:
                continue
            if k in touched or _unmarked(r) != _unmarked(old_rows[k]):
                updated.append(k)
            elif r != old_rows[k]:
                marked.append(k)
        self.row_marks.update(
            {
                k: {"codes": " ".join(new_rows[k]["errors"]), "warned": new_rows[k]["warned"]}
                for k in marked
            }
        )
        if not (added or removed or updated):
            return
        old_groups = {g["kind"]: g for g in old["groups"]}
        places = [_neighbour(s, k) for k in added]
        if list(old_groups) != [g["kind"] for g in s["groups"]] or len(added) > 1 or None in places:
            self.whole.append(s)
            return
        self.heads.append(s)
        if len(s["groups"]) > 1:
            self.group_heads += [
                (s, g) for g in s["groups"] if g["total"] != old_groups[g["kind"]]["total"]
            ]
        self.changed += [(s, new_rows[k]) for k in updated]
        self.inserted += [(s, new_rows[k], place) for k, place in zip(added, places, strict=True)]
        self.deleted += removed

    def context(self) -> dict[str, Any]:
        """The template context of `decks/builder/_changes.html`'s pieces."""
        return {
            "whole_sections": self.whole,
            "section_heads": self.heads,
            "group_heads": self.group_heads,
            "changed_rows": self.changed,
            "inserted_rows": self.inserted,
            "deleted_rows": self.deleted,
            "row_marks": json.dumps(self.row_marks) if self.row_marks else "",
        }


def _render_changes(
    request,
    deck: Deck,
    version: DeckVersion | None,
    before: tuple[list[ListEntry], Report],
    *,
    touched: set[str],
    notice: str = "",
):
    """The answer to a count change, carrying only what changed (a few KB whatever the
    deck's size), all of it out of band: the stamp (base version and revision), the deck
    heading, each row whose count changed (and the row the change named,
    which puts right the count the page showed at once), the rows whose only change is a
    rule mark as one `row-marks` list (static/js/builder_instant.js marks them: a
    points limit passed names every card of a deck), its section's count
    and its kind's subtotal, a row new to a section in its place, a row gone deleted, the
    game's own panel, the legality bar and the verdict panel. A section whose kinds changed
    (a first card of a kind, the last one gone) comes whole. `before` is the list and the
    verdict the page showed; the server stays the only judge of legality.

    Queries: those of `state_context`, plus one for the facts of the cards that left the
    list when some did."""
    old_entries, old_report = before
    context = with_rule_sets(request, deck, version, notice=notice)
    game, fmt, sections = context["game"], context["fmt"], context["sections"]
    if [s["name"] for s in sections] != deck_section_order(fmt, old_entries):
        return render(request, "decks/builder/_state.html", context)
    old_rows_of = _old_rows(deck, game, sections, old_entries, old_report)
    changes = _Changes()
    for s in sections:
        old = section_panel(game, fmt, s["name"], old_rows_of.get(s["name"], []))
        changes.add_section(s, old, touched)
    context.update(
        changes.context(),
        placement_kept=placed_units(old_entries) == placed_units(version_entries(version)),
    )
    response = render(request, "decks/builder/_changes.html", context)
    # Nothing in place: a search result's button may have left the page by the time the
    # answer comes, and htmx would find no target from it.
    response["HX-Reswap"] = "none"
    return response


def _with_restriction(request, options: dict) -> dict:
    """The options with the collection box as the page sent it: every htmx request of the
    builder includes the box (`owned=1` when ticked), so an htmx request without it means
    the box is clear. A plain form post does not carry the box and changes nothing."""
    if not request.htmx:
        return options
    options = dict(options)
    if request.POST.get("owned") == "1":
        options[lists.COLLECTION_OPTION] = True
    elif restricted(options):
        del options[lists.COLLECTION_OPTION]
    return options


def save_list(
    request,
    deck: Deck,
    base: DeckVersion | None,
    entries: list[ListEntry],
    options: dict,
    added: str = "",
    touched: set[str] | None = None,
):
    """Autosave a version from `base`; answer with the outcome (`added` says what a
    quick-add did). A count change (`touched` names the row it changed) is answered with
    only what changed (`_render_changes`) unless settings.BUILDER_FULL_ANSWERS; anything
    else, and a refused change, with the whole state."""
    before = None
    if touched is not None and request.htmx and not settings.BUILDER_FULL_ANSWERS:
        game = deck.game.definition
        base_options = dict(base.options) if base else {}
        before = (version_entries(base), shown_report(deck, base, game, base_options))

    def answer(version, notice=""):
        if before is None:
            return render_state(request, deck, version, notice=notice)
        return _render_changes(
            request, deck, version, before, touched=touched or set(), notice=notice
        )

    options = _with_restriction(request, options)
    if base is not None and entries == version_entries(base) and options == dict(base.options):
        return answer(base)
    if base is None and not entries and not options:
        return answer(base)
    try:
        version = services.deck_autosave(
            deck=deck,
            author=request.user,
            sections=lists.as_sections(entries),
            options=options,
            based_on=base.number if base else None,
            revision=request_revision(request),
        )
    except services.VersionConflict as exc:
        return render_state(
            request, deck, base, conflict=CONFLICT_MESSAGE.format(n=exc.current_number)
        )
    except services.ListInvalid as exc:
        message = "; ".join(e["message"] for e in exc.line_errors)
        return render_state(request, deck, base, error=f"Not saved: {message}")
    version.deck = deck
    saved = (
        f"Saved version {version.number}."
        if version.revision == 0
        else f"Saved (working version {version.number})."
    )
    notice = f"{added} {saved}" if added else saved
    response = answer(version, notice)
    # The page's other views of the list (the collection panel) count it again.
    response["HX-Trigger"] = DECK_SAVED_EVENT
    return response
