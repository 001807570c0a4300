"""One deck's page (by id, version or share link) and the diff of two of its versions."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from catalogue.services import card_facts_by_names
from validation.types import CardFacts

from .. import exports, selectors, verdicts
from .. import hooks as deck_hooks
from ..builder.views.listing import list_view
from ..lists import SavedList, holdings
from ..models import Deck, DeckVersion
from ..presentation import explained, totals_rows
from .lookups import deck_urls, int_param, readable, version_of

#: Versions listed per page of a deck's history.
HISTORY_PAGE = 20


def _detail(request, deck: Deck, *, token: str | None, number: int | None = None):
    version = version_of(deck, number)
    game = deck.game.definition
    is_current = version is not None and version.pk == deck.current_version_id
    report = deck.verdict if is_current else (version.verdict if version else None)
    listing = list_view(SavedList.of_deck(deck, version), report) if version else None
    history = Paginator(
        DeckVersion.objects.filter(deck=deck)
        .select_related("author")
        .defer("list_text", "entries", "options")
        .order_by("-number"),
        HISTORY_PAGE,
    ).get_page(request.GET.get("vp"))
    versions = list(history.object_list)
    user = request.user
    rule_sets = verdicts.deck_rule_sets(deck=deck, with_effect=is_current)
    code = report.rule_set if report is not None else None
    checked_under = next((rs for rs in rule_sets.choices if rs.code == code), None)
    missing = None
    availability = None
    is_owner = user.is_authenticated and deck.owner_id == user.pk
    if is_owner and is_current:
        # Per card: owned · in your other built decks (which) · free, and what is short.
        availability = holdings.availability(owner=user, deck=deck)
    elif user.is_authenticated and version is not None:
        if holdings.owns_any(owner=user, game_id=deck.game_id):
            missing = selectors.collection_missing(owner=user, deck=deck, version=version)
    return render(
        request,
        "decks/detail.html",
        {
            "deck": deck,
            "game": game,
            "version": version,
            "is_current": is_current,
            "listing": listing,
            "report": report,
            "violations": explained(report, game, deck.format, rule_set=checked_under),
            "totals": totals_rows(report.totals if report else None, game),
            "versions": versions,
            "is_owner": is_owner,
            "availability": availability,
            "short": [a for a in availability or () if a["short"]],
            "token": token,
            "urls": deck_urls(deck, token),
            "share_url": request.build_absolute_uri(deck.get_share_url()),
            "missing": missing,
            "history": history,
            "diff_a": versions[1].number if len(versions) > 1 else None,
            "diff_b": versions[0].number if versions else None,
            "rule_sets": rule_sets,
            "copies": _copies(deck, version, listing["facts"] if listing else None),
            "unit_sheet": bool(game.unit_sheet),
            "deck_links": deck_hooks.deck_links(deck) if token is None else [],
        },
    )


def _copies(deck: Deck, version, facts: Mapping[str, CardFacts] | None) -> list[dict[str, str]]:
    """The list as text, Markdown and BBCode, for the copy buttons, in the order the page
    lists it (`facts`: the cards' facts the page's list read; else one query, for the three)."""
    if version is None:
        return []
    if facts is None:
        facts = card_facts_by_names(
            game_slug=deck.game.slug, names=[e["card"] for e in version.entries]
        )
    return [
        {"kind": fmt.slug, "label": fmt.label, "body": fmt.copy_text(deck, version, facts=facts)}
        for fmt in exports.FORMATS.values()
        if fmt.copyable
    ]


def deck_detail(request, pk: int):
    return _detail(request, readable(request, pk=pk), token=None, number=int_param(request, "v"))


def deck_version(request, pk: int, number: int):
    return _detail(request, readable(request, pk=pk), token=None, number=number)


def deck_shared(request, token: str):
    deck = readable(request, token=token)
    return _detail(request, deck, token=token, number=int_param(request, "v"))


def _diff(request, deck: Deck, token: str | None):
    a = int_param(request, "a")
    b = int_param(request, "b")
    versions = {
        v.number: v for v in DeckVersion.objects.filter(deck=deck, number__in=[a or 0, b or 0])
    }
    if a not in versions or b not in versions:
        raise Http404("no such versions")
    for v in versions.values():
        v.deck = deck
    diff = selectors.deck_diff(version_a=versions[a], version_b=versions[b])
    context = {"deck": deck, "a": a, "b": b, "diff": diff, "urls": deck_urls(deck, token)}
    template = "decks/_diff.html" if request.htmx else "decks/diff.html"
    return render(request, template, context)


def deck_diff(request, pk: int):
    return _diff(request, readable(request, pk=pk), None)


def deck_shared_diff(request, token: str):
    return _diff(request, readable(request, token=token), token)
