"""The builder's state for a deck and a version: the deck read for its owner, the version a
change is based on, and everything the deck and live panels show (`builder_state`), with the
rule sets line an answer carries out of band."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.shortcuts import get_object_or_404, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse

from catalogue import rulesets
from catalogue.models import Card
from decks import selectors, verdicts
from decks.models import Deck, DeckVersion
from decks.presentation import explained, totals_rows
from validation.registry import FormatDef, GameDef
from validation.runner import Report

from ..figures import _stats, curve_sections, layout_view, placement_map, points_meters
from ..state import BuilderState
from .listing import (
    Row,
    restricted,
    rows_by_section,
    section_panel,
    shown_report,
    version_entries,
)


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


def owned_deck(request, pk: int) -> Deck:
    """The user's own deck (with its game and current version), else 404; a stale verdict
    (checked under yesterday's rule set) is re-checked at once."""
    qs = Deck.objects.owned_by(request.user).select_related("game", "owner", "current_version")
    deck = get_object_or_404(verdicts.with_in_force(qs), pk=pk)
    verdicts.decks_refresh([deck])
    return deck


def request_revision(request) -> int | None:
    """The working version's revision the page holds (None when the client sends none)."""
    try:
        return max(0, int(request.POST.get("rev", "")))
    except ValueError:
        return None


def base_version(deck: Deck, base: str | None) -> DeckVersion | None:
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
    entries = version_entries(version)
    options = dict(version.options) if version else {}
    report = shown_report(deck, version, game, options)
    order, rows, by_section = rows_by_section(deck.game.slug, game, fmt, entries, report)
    sections = [section_panel(game, fmt, s, by_section[s]) for s in order]
    placement_maps = _placement_maps(game, fmt, by_section)
    owned = (
        request.POST.get("owned") == "1"
        or request.GET.get("owned") == "1"
        or bool(version and restricted(version.options))
    )
    raw_totals = report.totals
    return BuilderState(
        deck=deck,
        game=game,
        fmt=fmt,
        version=version,
        base=version.number if version else "",
        report=report,
        violations=_violations(deck, game, report, rule_sets),
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
        adjustable=_adjustable(fmt, options),
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
        urls=builder_urls(deck),
        quick_into=into,
        quick_into_label=game.section_label(into) if into else "",
    )


def _placement_maps(
    game: GameDef, fmt: FormatDef, by_section: Mapping[str, list[Row]]
) -> list[dict[str, Any]]:
    """The placement area of each of the format's sections that has one, with its units."""
    return [
        placement_map(game.placement, spec.name, spec.placement, by_section[spec.name])
        for spec in fmt.sections
        if spec.placement is not None and game.placement is not None
    ]


def _violations(
    deck: Deck, game: GameDef, report: Report, rule_sets: verdicts.DeckRuleSets | None
) -> dict[str, list]:
    """The report's violations explained, the rule set they were checked under read only
    when a violation is the rule set's or names its costs."""
    return explained(
        report,
        game,
        deck.format,
        rule_set=lambda: (
            _checked_under(rule_sets, report.rule_set)
            or (
                rulesets.by_code(game.slug, deck.format, report.rule_set)
                if report.rule_set
                else None
            )
        ),
    )


def _adjustable(fmt: FormatDef, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The format's adjustable options with their values and choices."""
    return [
        {
            "key": k,
            "label": fmt.option_label(k),
            "value": options.get(k, v),
            "choices": [(c, fmt.option_label(c)) for c in fmt.choices.get(k, ())],
        }
        for k, v in fmt.options.items()
        if k in fmt.adjustable
    ]


def _checked_under(rule_sets: verdicts.DeckRuleSets | None, code: str | None):
    """The rule set of `code` among the deck's rule sets already read, or None."""
    if rule_sets is None or not code:
        return None
    return next((rs for rs in rule_sets.choices if rs.code == code), None)


def state_context(request, deck: Deck, version: DeckVersion | None, **kw: Any) -> dict[str, Any]:
    """The template context of `builder_state` (its fields by name, and `state` itself)."""
    return builder_state(request, deck, version, **kw).context()


def builder_urls(deck: Deck) -> dict[str, str]:
    return {
        name: reverse(f"builder:{name}", args=[deck.pk])
        for name in ("deck", "search", "change", "quick", "seal", "options", "meta")
    }


def with_rule_sets(request, deck: Deck, version: DeckVersion | None, **kw: Any) -> dict[str, Any]:
    """The state's context, and the deck's rule sets line that an answer to a change also
    carries, out of band: what the upcoming rule set will do to the list changes with it
    (the builder page's heading showed the effect of the list it was opened with until a
    reload)."""
    rule_sets = verdicts.deck_rule_sets(deck=deck)
    context = state_context(request, deck, version, rule_sets=rule_sets, **kw)
    context["rule_sets"] = rule_sets
    context["rule_sets_oob"] = True
    return context


def render_state(request, deck, version, **kw):
    context = with_rule_sets(request, deck, version, **kw)
    return render(request, "decks/builder/_state.html", context)


def quick_into(request, fmt: FormatDef) -> str:
    """The section a quick-add's card lines go to since a header line was typed ("" for
    the section that takes each card): the page sends it back with every change."""
    into = request.POST.get("into") or request.GET.get("into") or ""
    return into if into in fmt.section_names else ""
