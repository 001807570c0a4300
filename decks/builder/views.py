"""The interactive deck builder (htmx): search on the left, the deck by section in the
middle, the live verdict and stats on the right.

The server keeps the working list: every change (add, remove, set a count, pick a general,
place a unit on a cell of its placement area, change a format option, deal a new map;
`decks.lists.edits.apply_change`) is
applied to the version the page was based on and autosaved through `services.deck_autosave`:
the same author's edits within a few minutes rewrite one working version (its revision
counted), "Save version" or leaving the page seals it; a stale base or revision is refused
(VersionConflict) and the page says so instead of overwriting. The cost curve, placement
area and map layout are drawn by `decks.builder.figures`.

Nothing here knows a game by name. What differs between games is read from the rules core
(the format's sections, size and kind rules, placement areas, adjustable options) or looked
up by convention: the partial `games/<slug>/builder_extra.html` when it exists, and the
game definition's `map_layout` for games whose matches deal a map from their cards.

Query budget (pinned in tests/decks/test_builder.py): a page or a change costs a constant
number of queries whatever the number of cards: one for the deck (with its game and current
version), one for the card facts of the list, one for search results, one per card kind a
game partial lists (a picker of leaders, say), and the save's own fixed handful.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Case, IntegerField, When
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from cardsite.account_needed import account_needed
from catalogue import rulesets
from catalogue.models import Card
from catalogue.presentation import search_reading, stat_line
from catalogue.search import picked_kind_and_faction, search_cards
from catalogue.services import card_facts_by_names
from decks import lists, selectors, services, verdicts
from decks.lists import ListEntry, holdings
from decks.lists.edits import apply_change, section_kinds, sections_for
from decks.models import Deck, DeckVersion, Visibility
from decks.presentation import explained, kind_groups, section_order, totals_rows
from validation import decklist
from validation.registry import FormatDef, GameDef, registry
from validation.runner import Report, validate
from validation.types import CardFacts
from validation.types import Deck as RulesDeck

from .figures import _stats, curve_sections, layout_view, placement_map, points_meters
from .state import BuilderState

SEARCH_LIMIT = 40
#: The search results the builder's page carries itself (more than its results box shows
#: at once); the rest of the first page of results comes in a request of its own right
#: after them, into the same box (it scrolls: nothing around it moves).
FIRST_RESULTS = 12
#: Deeper pages are refused: narrowing the search is the way there.
MAX_SEARCH_PAGE = 250
#: The changes answered with only what changed (decks.builder.views._render_changes): a count.
COUNT_OPS = frozenset({"add", "remove", "set"})
#: The event an answer that saved the list fires in the page (the `HX-Trigger` header).
DECK_SAVED_EVENT = "deck-saved"
CONFLICT_MESSAGE = (
    "This deck was saved elsewhere since you opened it (version {n}). Your change was not "
    "saved: reload the builder to continue from version {n}."
)


# --- What the rules core tells the builder -----------------------------------------------


def extra_template(game_slug: str, name: str = "builder_extra") -> str:
    """The game's own partial `games/<slug>/<name>.html`, or an empty fallback."""
    candidate = f"games/{game_slug}/{name}.html"
    try:
        get_template(candidate)
    except TemplateDoesNotExist:
        return "decks/builder/_no_extra.html"
    return candidate


class CardsByKind(Mapping):
    """kind -> the game's cards of that kind (name, faction, cost), each kind loaded with
    one query on first use; game partials use it for pickers (`cards_by_kind.general`)."""

    def __init__(self, game_id: int, kinds: Mapping[str, Any]):
        self.game_id = game_id
        self.kinds = kinds
        self._loaded: dict[str, list[dict[str, Any]]] = {}

    def __getitem__(self, kind: str) -> list[dict[str, Any]]:
        if kind not in self.kinds:
            raise KeyError(kind)
        if kind not in self._loaded:
            self._loaded[kind] = list(
                Card.objects.filter(game_id=self.game_id, kind=kind)  # type: ignore[arg-type]
                .order_by("faction", "name")
                .values("name", "faction", "cost")
            )
        return self._loaded[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self.kinds)

    def __len__(self) -> int:
        return len(self.kinds)


def _change_data(request) -> dict[str, Any]:
    data: dict[str, Any] = {k: request.POST.get(k) for k in request.POST if k != "cards"}
    data["cards"] = request.POST.getlist("cards")
    return data


# --- Rendering -----------------------------------------------------------------------------


def _owned_deck(request, pk: int) -> Deck:
    """The user's own deck (with its game and current version), else 404; a stale verdict
    (checked under yesterday's rule set) is re-checked at once."""
    qs = Deck.objects.owned_by(request.user).select_related("game", "owner", "current_version")
    deck = get_object_or_404(verdicts.with_in_force(qs), pk=pk)
    verdicts.decks_refresh([deck])
    return deck


def _revision(request) -> int | None:
    """The working version's revision the page holds (None when the client sends none)."""
    try:
        return max(0, int(request.POST.get("rev", "")))
    except ValueError:
        return None


def _base_version(deck: Deck, base: str | None) -> DeckVersion | None:
    """The version the page is based on: the current one unless the page names another."""
    current = deck.current_version
    if base is None:
        return current
    if base == "":
        return None  # the page had no version yet; saving will tell if one appeared since
    try:
        number = int(base)
    except ValueError:
        return current
    if current is not None and current.number == number:
        return current
    return DeckVersion.objects.filter(deck=deck, number=number).first()


def group_rows(game: GameDef, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A section's rows grouped by card kind as every export lists them
    (`decks.presentation.kind_groups`), each group with its copies counted."""
    return [
        {"kind": kind, "label": label, "total": sum(r["count"] for r in members), "rows": members}
        for kind, label, members in kind_groups(
            game, rows, lambda r: r["facts"], lambda r: r["card"]
        )
    ]


def _vals(**kw: Any) -> str:
    return json.dumps(kw, ensure_ascii=False)


def _report(deck: Deck, version: DeckVersion | None, game: GameDef, options: dict) -> Report:
    """The verdict shown for `version`: the deck's stored report for its current version,
    the version's own otherwise, and an empty list's for a deck without versions."""
    if version is None:
        return validate(game, deck.format, RulesDeck(options=options))
    stored = deck.verdict if version.pk == deck.current_version_id else None
    return stored or version.verdict or Report(legal=False)


def _marks(report: Report | None) -> tuple[dict[str, list[str]], set[str]]:
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


def _entries(version: DeckVersion | None) -> list[ListEntry]:
    """The lines of `version` (none without a version)."""
    return lists.entries_from_json(version.entries) if version is not None else []


def _entry_row(game: GameDef, e: ListEntry, facts, marks) -> dict[str, Any]:
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
    row["vals"] = _vals(**key)
    return row


def _section_panel(game: GameDef, fmt: FormatDef, name: str, rows: list[dict]) -> dict:
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


def _rows_by_section(
    deck: Deck,
    game: GameDef,
    fmt: FormatDef,
    entries: list[ListEntry],
    report: Report | None,
    facts: Mapping[str, CardFacts] | None = None,
) -> tuple[list[str], list[dict], dict[str, list[dict]]]:
    """A list's rows (one query: the card facts, unless `facts` gives them), with the rows a
    rule problem names marked: the section names in order (`_section_order`), every row, and
    the rows of each section."""
    if facts is None:
        facts = card_facts_by_names(game_slug=deck.game.slug, names=[e.card for e in entries])
    marks = _marks(report)
    order = _section_order(fmt, entries)
    rows = [_entry_row(game, e, facts, marks) for e in entries]
    by_section: dict[str, list[dict]] = {s: [] for s in order}
    for row in rows:
        by_section[row["section"]].append(row)
    return order, rows, by_section


def list_view(deck: Deck, version: DeckVersion, report: Report | None) -> dict[str, Any]:
    """The deck and share pages' list, drawn as the builder draws it: each section's cards
    grouped by kind with their counts, the rows a rule problem names marked, and the stats
    (cost curve, copies by kind and faction). One query (the card facts of the list, given
    back as `facts` for the page's other uses of them)."""
    game = deck.game.definition
    fmt = game.format(deck.format)
    entries = _entries(version)
    facts = card_facts_by_names(game_slug=deck.game.slug, names=[e.card for e in entries])
    order, rows, by_section = _rows_by_section(deck, game, fmt, entries, report, facts)
    sections = [_section_panel(game, fmt, s, by_section[s]) for s in order if by_section[s]]
    return {
        "facts": facts,
        "sections": sections,
        "meters": points_meters(fmt, rows, dict(version.options)),
        "stats": _stats(game, fmt, rows),
        "curve_of": " and ".join(game.section_label(s).lower() for s in curve_sections(game, fmt)),
    }


def builder_state(
    request,
    deck: Deck,
    version: DeckVersion | None,
    *,
    conflict: str = "",
    error: str = "",
    notice: str = "",
    rule_sets: verdicts.DeckRuleSets | None = None,
    into: str | None = None,
) -> BuilderState:
    """Everything the deck and live panels show for `version` of `deck`. `rule_sets`, the
    deck's rule sets when the caller has read them: a violation's "Why?" quotes the rule set
    the report was checked under from them instead of reading it again. `into`, the section
    quick-add's card lines go to (else the one the request names, `quick_into`)."""
    game = deck.game.definition
    fmt = game.format(deck.format)
    if into is None:
        into = quick_into(request, fmt)
    entries = _entries(version)
    options = dict(version.options) if version else {}
    report = _report(deck, version, game, options)
    order, rows, by_section = _rows_by_section(deck, game, fmt, entries, report)
    sections = [_section_panel(game, fmt, s, by_section[s]) for s in order]
    placement_maps = [
        placement_map(game.placement, spec.name, spec.placement, by_section[spec.name])
        for spec in fmt.sections
        if spec.placement is not None and game.placement is not None
    ]
    owned = (
        request.POST.get("owned") == "1"
        or request.GET.get("owned") == "1"
        or bool(version and _restricted(version.options))
    )
    raw_totals = report.totals
    return BuilderState(
        deck=deck,
        game=game,
        fmt=fmt,
        version=version,
        base=version.number if version else "",
        report=report,
        violations=explained(
            report,
            game,
            deck.format,
            # Read only when a violation is the rule set's or names its costs.
            rule_set=lambda: (
                _checked_under(rule_sets, report.rule_set)
                or (
                    rulesets.by_code(game.slug, deck.format, report.rule_set)
                    if report.rule_set
                    else None
                )
            ),
        ),
        totals=totals_rows(raw_totals, game, sections=False),
        totals_map={
            k: game.factions.get(v, v) if isinstance(v, str) else v
            for k, v in raw_totals.items()
            if k != "sections"
        },
        sections=sections,
        sections_by_name={s["name"]: s for s in sections},
        required_sections=[s for s in sections if s["required"]],
        stats=_stats(game, fmt, rows),
        curve_of=" and ".join(game.section_label(s).lower() for s in curve_sections(game, fmt)),
        meters=points_meters(fmt, rows, options),
        placement_maps=placement_maps,
        placement_map=placement_maps[0] if placement_maps else None,
        layout=layout_view(game.map_layout, deck.game_id, options) if game.map_layout else None,
        options=options,
        adjustable=[
            {
                "key": k,
                "label": fmt.option_label(k),
                "value": options.get(k, v),
                "choices": [(c, fmt.option_label(c)) for c in fmt.choices.get(k, ())],
            }
            for k, v in fmt.options.items()
            if k in fmt.adjustable
        ],
        cards_by_kind=CardsByKind(deck.game_id, game.kinds),
        extra_template=extra_template(deck.game.slug),
        conflict=conflict,
        error=error,
        notice=notice,
        owned=owned,
        missing=(
            selectors.collection_missing(owner=request.user, deck=deck, version=version)
            if owned and version is not None
            else None
        ),
        urls=_urls(deck),
        quick_into=into,
        quick_into_label=game.section_label(into) if into else "",
    )


def _checked_under(rule_sets: verdicts.DeckRuleSets | None, code: str | None):
    """The rule set of `code` among the deck's rule sets already read, or None."""
    if rule_sets is None or not code:
        return None
    return next((rs for rs in rule_sets.choices if rs.code == code), None)


def state_context(request, deck: Deck, version: DeckVersion | None, **kw: Any) -> dict[str, Any]:
    """The template context of `builder_state` (its fields by name, and `state` itself)."""
    return builder_state(request, deck, version, **kw).context()


def _urls(deck: Deck) -> dict[str, str]:
    return {
        name: reverse(f"builder:{name}", args=[deck.pk])
        for name in ("deck", "search", "change", "quick", "seal", "options", "meta")
    }


def _with_rule_sets(request, deck: Deck, version: DeckVersion | None, **kw: Any) -> dict[str, Any]:
    """The state's context, and the deck's rule sets line that an answer to a change also
    carries, out of band: what the upcoming rule set will do to the list changes with it
    (the builder page's heading showed the effect of the list it was opened with until a
    reload)."""
    rule_sets = verdicts.deck_rule_sets(deck=deck)
    context = state_context(request, deck, version, rule_sets=rule_sets, **kw)
    context["rule_sets"] = rule_sets
    context["rule_sets_oob"] = True
    return context


def _render_state(request, deck, version, **kw):
    context = _with_rule_sets(request, deck, version, **kw)
    return render(request, "decks/builder/_state.html", context)


def _section_order(fmt: FormatDef, entries: list[ListEntry]) -> list[str]:
    """The deck panel's sections: the format's, then any other a list holds."""
    return section_order(fmt.section_names, (e.section for e in entries))


def _placed(entries: list[ListEntry]) -> list[tuple[str, str, tuple[int, int]]]:
    """The units standing on a cell (what a placement map draws)."""
    return sorted((e.section, e.card, e.placement) for e in entries if e.placement)


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


def _unmarked(row: Mapping[str, Any]) -> dict[str, Any]:
    """A deck row without the rule marks (what a change's answer sends as `row-marks`)."""
    return {k: v for k, v in row.items() if k not in ("errors", "warned")}


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
    context = _with_rule_sets(request, deck, version, notice=notice)
    game, fmt, sections = context["game"], context["fmt"], context["sections"]
    if [s["name"] for s in sections] != _section_order(fmt, old_entries):
        return render(request, "decks/builder/_state.html", context)
    facts = {r["card"].lower(): r["facts"] for s in sections for r in s["rows"]}
    gone = [e.card for e in old_entries if e.card.lower() not in facts]
    if gone:
        facts.update(card_facts_by_names(game_slug=deck.game.slug, names=gone))
    marks = _marks(old_report)
    old_rows_of: dict[str, list[dict]] = {}
    for e in old_entries:
        old_rows_of.setdefault(e.section, []).append(_entry_row(game, e, facts, marks))
    whole, heads, group_heads, changed, inserted, deleted = [], [], [], [], [], []
    row_marks: dict[str, dict] = {}
    for s in sections:
        old = _section_panel(game, fmt, s["name"], old_rows_of.get(s["name"], []))
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
        row_marks.update(
            {
                k: {"codes": " ".join(new_rows[k]["errors"]), "warned": new_rows[k]["warned"]}
                for k in marked
            }
        )
        if not (added or removed or updated):
            continue
        old_groups = {g["kind"]: g for g in old["groups"]}
        places = [_neighbour(s, k) for k in added]
        if list(old_groups) != [g["kind"] for g in s["groups"]] or len(added) > 1 or None in places:
            whole.append(s)
            continue
        heads.append(s)
        if len(s["groups"]) > 1:
            group_heads += [
                (s, g) for g in s["groups"] if g["total"] != old_groups[g["kind"]]["total"]
            ]
        changed += [(s, new_rows[k]) for k in updated]
        inserted += [(s, new_rows[k], place) for k, place in zip(added, places, strict=True)]
        deleted += removed
    context.update(
        whole_sections=whole,
        section_heads=heads,
        group_heads=group_heads,
        changed_rows=changed,
        inserted_rows=inserted,
        deleted_rows=deleted,
        row_marks=json.dumps(row_marks) if row_marks else "",
        placement_kept=_placed(old_entries) == _placed(_entries(version)),
    )
    response = render(request, "decks/builder/_changes.html", context)
    # Nothing in place: a search result's button may have left the page by the time the
    # answer comes, and htmx would find no target from it.
    response["HX-Reswap"] = "none"
    return response


def _restricted(options: Mapping[str, Any]) -> bool:
    """Whether the deck is restricted to its owner's collection (the "Only cards in my
    collection" box, saved as the option `collection: true`)."""
    return options.get(lists.COLLECTION_OPTION) is True


def _with_restriction(request, options: dict) -> dict:
    """The options with the collection box as the page sent it: every htmx request of the
    builder includes the box (`owned=1` when ticked), so an htmx request without it means
    the box is clear. A plain form post does not carry the box and changes nothing."""
    if not request.htmx:
        return options
    options = dict(options)
    if request.POST.get("owned") == "1":
        options[lists.COLLECTION_OPTION] = True
    elif _restricted(options):
        del options[lists.COLLECTION_OPTION]
    return options


def _save(
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
        before = (_entries(base), _report(deck, base, game, base_options))

    def answer(version, notice=""):
        if before is None:
            return _render_state(request, deck, version, notice=notice)
        return _render_changes(
            request, deck, version, before, touched=touched or set(), notice=notice
        )

    options = _with_restriction(request, options)
    if base is not None and entries == _entries(base) and options == dict(base.options):
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
            revision=_revision(request),
        )
    except services.VersionConflict as exc:
        return _render_state(
            request, deck, base, conflict=CONFLICT_MESSAGE.format(n=exc.current_number)
        )
    except services.ListInvalid as exc:
        message = "; ".join(e["message"] for e in exc.line_errors)
        return _render_state(request, deck, base, error=f"Not saved: {message}")
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


# --- Views ---------------------------------------------------------------------------------


def _search_queryset(request, deck: Deck, game: GameDef, owned: bool, only_free: bool):
    qs = picked_kind_and_faction(
        Card.objects.filter(game_id=deck.game_id),
        game,
        kind=request.GET.get("kind", ""),
        faction=request.GET.get("faction", ""),
    )
    if owned:
        # Owned: loose copies, or a printing in a product the user owns.
        qs = qs.filter(holdings.owned_cards(owner=request.user))
    used = None
    if only_free:
        # Only what is free: a copy left after the user's other built decks, tested in the
        # cards' query (each card's owned copies in its row).
        qs, used = holdings.only_free(qs, owner=request.user, game_id=deck.game_id, exclude=deck.pk)
    result = search_cards(query=request.GET.get("q", ""), queryset=qs, game_slug=deck.game.slug)
    return result, used


def _after(request) -> int:
    """How many rows of the first page of results the page has (`after`), 0 for none."""
    try:
        return max(0, min(int(request.GET.get("after", "0")), SEARCH_LIMIT))
    except ValueError:
        return 0


def _page_number(request) -> int:
    try:
        return max(1, min(int(request.GET.get("page", "1")), MAX_SEARCH_PAGE))
    except ValueError:
        return 1


def _search_context(request, deck: Deck, *, owned: bool | None = None) -> dict[str, Any]:
    game = deck.game.definition
    fmt = game.format(deck.format)
    if owned is None:
        owned = request.GET.get("owned") == "1"
    only_free = request.GET.get("free") == "1"
    # Each card's owned · in your built decks · free (this deck left out of the built decks):
    # when the search keeps only what is free, the built decks read first and each card's
    # owned copies in its row; else the page's cards' figures read below. Two queries
    # either way.
    result, used = _search_queryset(request, deck, game, owned, only_free)
    kinds_by_section = section_kinds(game, fmt)
    main = fmt.main_section
    qs = result.queryset
    if not qs.query.order_by and not result.read_as:
        # The kinds of the deck's main section first (a deck opens on what most of it is
        # made of, not on the cards of a small side deck), then by cost and name.
        main_kinds = sorted(kinds_by_section.get(main, ())) if main else []
        qs = qs.annotate(
            main_first=Case(
                When(kind__in=main_kinds, then=0), default=1, output_field=IntegerField()
            )
        ).order_by("main_first", "cost", "name")
    page = _page_number(request)
    start = (page - 1) * SEARCH_LIMIT
    cards = list(
        qs.only("id", "name", "kind", "faction", "cost", "attributes")[
            start : start + SEARCH_LIMIT + 1
        ]
    )
    if used is not None:
        figures = {
            c.name: holdings.CardFigures(c.owned_copies, used.get(c.name, []))
            for c in cards[:SEARCH_LIMIT]
        }
    else:
        figures = holdings.card_figures(
            owner=request.user,
            game_id=deck.game_id,
            names=[c.name for c in cards[:SEARCH_LIMIT]],
            exclude=deck.pk,
        )
    rows = []
    for card in cards[:SEARCH_LIMIT]:
        rows.append(
            {
                "card": card,
                "figures": figures.get(card.name),
                "kind": game.kinds[card.kind].label if card.kind in game.kinds else card.kind,
                "faction": game.factions.get(card.faction, card.faction),
                "has_cost": game.has_cost(card.kind),
                "stats": stat_line(card, deck.game.slug, limit=len(game.kinds[card.kind].attrs))
                if card.kind in game.kinds
                else "",
                # The card once on the row (htmx merges a row's hx-vals into its buttons').
                "vals": _vals(card=card.name),
                "targets": [
                    {
                        "section": s,
                        "label": game.section_label(s),
                        "add": _vals(op="add", section=s),
                        "remove": _vals(op="remove", section=s),
                    }
                    for s in sections_for(card, fmt)
                ],
            }
        )
    return {
        "deck": deck,
        "game": game,
        "results": rows,
        "more": len(cards) > SEARCH_LIMIT,
        # Set by the builder's page, which carries only the first rows (FIRST_RESULTS).
        "rest": False,
        "rest_query": "",
        "page": page,
        "first": start + 1,
        "last": start + len(rows),
        "search": result,
        "reading": search_reading(request.GET.get("q", ""), result, [r["card"] for r in rows]),
        "q": request.GET.get("q", ""),
        "kind": request.GET.get("kind", ""),
        "faction": request.GET.get("faction", ""),
        "owned": owned,
        "free": only_free,
        "urls": _urls(deck),
    }


@account_needed
def builder_start(request):
    """Choose a game and format for a new deck."""
    return render(request, "decks/builder/start.html", {"games": registry.all()})


@account_needed
@require_http_methods(["GET", "POST"])
def builder_new(request, game: str, format: str):
    """Name a new deck of `game`/`format` and open it in the builder."""
    if game not in registry:
        raise Http404(f"no game {game!r}")
    game_def = registry.get(game)
    if format not in game_def.formats:
        raise Http404(f"no format {format!r}")
    fmt = game_def.format(format)
    name = f"My {game_def.name.split(':')[0]} {fmt.name.lower()} deck"
    error = ""
    if request.method == "POST":
        name = request.POST.get("name", "").strip()[:200]
        if not name:
            error = "Give the deck a name."
        else:
            deck = services.deck_create(
                owner=request.user, game_slug=game, format=format, name=name
            )
            return redirect("builder:deck", deck.pk)
    return render(
        request,
        "decks/builder/new.html",
        {"game": game_def, "fmt": fmt, "name": name, "error": error},
        status=400 if error else 200,
    )


@login_required
def builder_deck(request, pk: int):
    """The builder page of one of the user's decks."""
    deck = _owned_deck(request, pk)
    rule_sets = verdicts.deck_rule_sets(deck=deck)
    context = state_context(request, deck, deck.current_version, rule_sets=rule_sets)
    # A deck restricted to the collection opens with the box ticked.
    version = deck.current_version
    owned = request.GET.get("owned") == "1" or bool(version and _restricted(version.options))
    # The first page of results opens on its first rows (a small first document: a phone
    # paints it sooner); the rest come right after (`rest`, decks/builder/_results.html).
    # Without JavaScript the rest are behind a link to this page with them all (`rows=all`).
    search = _search_context(request, deck, owned=owned)
    whole = request.GET.get("rows") == "all"
    if search["page"] == 1 and len(search["results"]) > FIRST_RESULTS and not whole:
        search["results"] = search["results"][:FIRST_RESULTS]
        search["rest"] = True
        query = request.GET.copy()
        query["rows"] = "all"
        search["rest_query"] = query.urlencode()
    context.update({"search_" + k: v for k, v in search.items()})
    context["visibilities"] = Visibility.choices
    context["share_url"] = request.build_absolute_uri(deck.get_share_url())
    context["rule_sets"] = rule_sets
    return render(request, "decks/builder/builder.html", context)


@login_required
def builder_availability(request, pk: int):
    """The deck's cards against the collection (owned · in your other built decks · free,
    and what is short), drawn in the builder's panel; its own request, so the builder's
    answers do not read it."""
    deck = _owned_deck(request, pk)
    availability = holdings.availability(owner=request.user, deck=deck)
    return render(
        request,
        "decks/_availability.html",
        {
            "deck": deck,
            "availability": availability,
            "short": [a for a in availability if a["short"]],
            "next": reverse("builder:deck", args=[deck.pk]),
        },
    )


@login_required
def builder_search(request, pk: int):
    """Search results for the left panel (and, with `owned`, the collection's gaps); with
    `after`, the rest of the first page after the rows the builder's page opened on."""
    deck = _owned_deck(request, pk)
    context = _search_context(request, deck)
    after = _after(request)
    if after:
        context["results"] = context["results"][after:]
        return render(request, "decks/builder/_results_rest.html", context)
    if context["owned"] and deck.current_version is not None:
        context["missing"] = selectors.collection_missing(owner=request.user, deck=deck)
    context["oob_missing"] = True
    return render(request, "decks/builder/_results.html", context)


@login_required
@require_POST
def builder_change(request, pk: int):
    """Apply one change to the working list and autosave it."""
    deck = _owned_deck(request, pk)
    base = _base_version(deck, request.POST.get("base", ""))
    fmt = deck.game.definition.format(deck.format)
    try:
        entries = apply_change(_entries(base), _change_data(request), fmt.section_names)
    except (ValueError, TypeError) as exc:
        return HttpResponseBadRequest(str(exc))
    touched = None
    if request.POST.get("op") in COUNT_OPS:
        touched = {
            row_dom_id(
                request.POST.get("section", ""),
                request.POST.get("card", ""),
                request.POST.get(decklist.PLACEMENT)
                or request.POST.get(decklist.PLACEMENT_ALIAS, ""),
            )
        }
    response = _save(
        request, deck, base, entries, dict(base.options) if base else {}, touched=touched
    )
    return response if request.htmx else redirect("builder:deck", deck.pk)


class TooManyMatches(Exception):
    """A quick-add's name matches too many cards to say which is meant."""


def quick_match(deck: Deck, name: str) -> Card | None:
    """The card a quick-add means: the exact name (any case), else the best match of the
    typo-forgiving search over the deck's game. TooManyMatches when the search matches too
    many cards to be ranked (`SearchResult.estimate`): the first by name would be a guess."""
    name = " ".join(name.split())[:200]
    if not name:
        return None
    exact = Card.objects.filter(game_id=deck.game_id, name__iexact=name).first()
    if exact is not None:
        return exact
    result = search_cards(
        query=name, queryset=Card.objects.filter(game_id=deck.game_id), game_slug=deck.game.slug
    )
    if result.estimate is not None and result.estimate.past_cap:
        raise TooManyMatches(f"about {result.estimate.about:,}")
    qs = result.queryset
    if not qs.query.order_by:
        qs = qs.order_by("name")
    return qs.first()


def quick_into(request, fmt: FormatDef) -> str:
    """The section a quick-add's card lines go to since a header line was typed ("" for
    the section that takes each card): the page sends it back with every change."""
    into = request.POST.get("into") or request.GET.get("into") or ""
    return into if into in fmt.section_names else ""


@login_required
@require_POST
def builder_quick_add(request, pk: int):
    """Keyboard quick-add: one line of a list as the list text format writes it. A card
    line (`4 <card name>`, or the name alone: one copy, the name forgiving typos, `@column,row` in a
    placement section) adds its copies to the section a header line named before it when
    the card goes there, else to the first section that takes it (the deck's main section
    when it does); a header line (`Missions:`) names the section for the lines after it."""
    deck = _owned_deck(request, pk)
    base = _base_version(deck, request.POST.get("base", ""))
    game = deck.game.definition
    fmt = game.format(deck.format)
    typed = request.POST.get("name", "")
    shown = " ".join(typed.split())[:80]
    line = decklist.read_typed_line(typed, game)
    into = quick_into(request, fmt)

    def refused(error: str):
        return _render_state(request, deck, base, error=error)

    if line.error:
        return refused(f"Not added: “{shown}”: {line.error}.")
    if line.header:
        if line.section not in fmt.section_names:
            return refused(
                f"{fmt.name} decks have no section “{line.header}”: they have "
                f"{', '.join(game.section_label(s) for s in fmt.section_names)}."
            )
        into = line.section
        notice = f"The next cards go to {game.section_label(into)}."
        if not request.htmx:
            return _back_to_builder(deck, into)
        return _render_state(request, deck, base, notice=notice, into=into)
    if not line.name:
        if not shown:
            return refused("Type a card name.")
        # A comment line of a list: nothing to add, nothing wrong.
        if not request.htmx:
            return _back_to_builder(deck, into)
        return _render_state(request, deck, base, notice="A comment line: nothing to add.")
    try:
        card = quick_match(deck, line.name)
    except TooManyMatches as many:
        return refused(
            f"{str(many).capitalize()} cards of {game.name} match “{line.name}”: "
            "type more of the name."
        )
    if card is None:
        return refused(f"No card of {game.name} matches “{line.name}”.")
    targets = sections_for(card, fmt)
    if not targets:
        return refused(f"{card.name} has no section in {fmt.name} decks.")
    main = fmt.main_section
    section = into if into in targets else main if main in targets else targets[0]
    change: dict[str, Any] = {"op": "add", "section": section, "card": card.name, "n": line.count}
    placed = ""
    if line.placement is not None:
        if section not in game.placement_sections:
            return refused(
                f"Not added: “{shown}”: {game.section_label(section)} places no card on a cell."
            )
        placed = "{},{}".format(*line.placement)
        change[decklist.PLACEMENT] = placed
    entries = apply_change(_entries(base), change, fmt.section_names)
    response = _save(
        request,
        deck,
        base,
        entries,
        dict(base.options) if base else {},
        added=f"Added {line.count} {card.name} to {game.section_label(section)}.",
        touched={row_dom_id(section, card.name, placed)},
    )
    return response if request.htmx else _back_to_builder(deck, into)


def _back_to_builder(deck: Deck, into: str):
    """The builder page again after a form posted without JavaScript, quick-add's section
    kept (`quick_into`)."""
    where = reverse("builder:deck", args=[deck.pk])
    return redirect(f"{where}?into={into}" if into else where)


@login_required
@require_POST
def builder_seal(request, pk: int):
    """Seal the current version with an optional note ("Save version", or the page being
    left): the next change starts a new version."""
    deck = _owned_deck(request, pk)
    base = _base_version(deck, request.POST.get("base", ""))
    if base is None or base.pk != deck.current_version_id:
        current = deck.current_version.number if deck.current_version else None
        return _render_state(request, deck, base, conflict=CONFLICT_MESSAGE.format(n=current))
    version = services.deck_seal_version(deck=deck, note=request.POST.get("note", ""))
    if not request.htmx:
        return redirect("builder:deck", deck.pk)
    note = f" ({version.note})" if version.note else ""
    return _render_state(request, deck, version, notice=f"Version {version.number} saved{note}.")


@login_required
@require_POST
def builder_options(request, pk: int):
    """Change the format's adjustable options, or deal a new map (`layout`), and autosave."""
    deck = _owned_deck(request, pk)
    base = _base_version(deck, request.POST.get("base", ""))
    game = deck.game.definition
    fmt = game.format(deck.format)
    options = dict(base.options) if base else {}
    for key in fmt.adjustable:
        if key in request.POST:
            raw = request.POST[key]
            if key in fmt.choices:
                value = raw
            else:
                try:
                    value = int(raw)
                except ValueError:
                    return HttpResponseBadRequest(f"{key} must be a whole number")
            problem = fmt.option_problem(key, value)
            if problem:
                return HttpResponseBadRequest(problem)
            options[key] = value
    hook = game.map_layout
    if hook is not None and "layout" in request.POST:
        raw = request.POST.get("seed", "").strip()
        try:
            seed = int(raw) if raw else random.SystemRandom().randrange(1, 10**6)
        except ValueError:
            return HttpResponseBadRequest("the seed must be a whole number")
        cards = [
            c.facts()
            for c in Card.objects.filter(game_id=deck.game_id, kind=hook.kind).only(
                *Card.FACT_FIELDS
            )
        ]
        try:
            options[hook.option] = hook.generate(cards, seed)
        except ValueError as exc:
            return _render_state(request, deck, base, error=f"No map: {exc}")
    entries = _entries(base)
    response = _save(request, deck, base, entries, options)
    return response if request.htmx else redirect("builder:deck", deck.pk)


@login_required
@require_POST
def builder_meta(request, pk: int):
    """Save the deck's name and visibility (its list is autosaved already)."""
    deck = _owned_deck(request, pk)
    name = request.POST.get("name", "").strip()[:200] or deck.name
    visibility = request.POST.get("visibility", deck.visibility)
    if visibility not in Visibility.values:
        return HttpResponseBadRequest("unknown visibility")
    services.deck_update(deck=deck, name=name, visibility=visibility)
    context = {
        "deck": deck,
        "visibilities": Visibility.choices,
        "share_url": request.build_absolute_uri(deck.get_share_url()),
        "urls": _urls(deck),
        "saved": True,
    }
    if not request.htmx:
        return redirect("builder:deck", deck.pk)
    return render(request, "decks/builder/_meta.html", context)
