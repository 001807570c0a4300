"""The builder's search panel: the game's cards matching the query, the kind and faction
picked and the collection boxes, a page at a time, each with its collection figures and the
sections it goes to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Case, IntegerField, QuerySet, When
from django.shortcuts import render

from catalogue.models import Card
from catalogue.presentation import search_reading, stat_line
from catalogue.search import picked_kind_and_faction, search_cards
from decks import selectors
from decks.lists import holdings
from decks.lists.edits import section_kinds, sections_for
from decks.models import Deck
from validation.registry import FormatDef, GameDef

from .context import builder_urls, owned_deck
from .listing import hx_vals

SEARCH_LIMIT = 40
#: The search results the builder's page carries itself (more than its results box shows
#: at once); the rest of the first page of results comes in a request of its own right
#: after them, into the same box (it scrolls: nothing around it moves).
FIRST_RESULTS = 12
#: Deeper pages are refused: narrowing the search is the way there.
MAX_SEARCH_PAGE = 250


def _search_queryset(request, deck: Deck, game: GameDef, owned: bool, only_free: bool):
    """The search over the game's cards of the kind and faction picked, only those the user
    owns (or has free) when asked, and each card's copies in the user's other built decks
    when only what is free is kept."""
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
    """The page of results asked for (1 unless the request names a page up to the last)."""
    try:
        return max(1, min(int(request.GET.get("page", "1")), MAX_SEARCH_PAGE))
    except ValueError:
        return 1


def search_context(request, deck: Deck, *, owned: bool | None = None) -> dict[str, Any]:
    """The left panel's results for the request's query, kind, faction and collection
    boxes, a page of `SEARCH_LIMIT` rows with each card's collection figures."""
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
    qs = result.queryset
    if not qs.query.order_by and not result.read_as:
        qs = _main_section_first(qs, game, fmt)
    page = _page_number(request)
    start = (page - 1) * SEARCH_LIMIT
    cards = list(
        qs.only("id", "name", "kind", "faction", "cost", "attributes")[
            start : start + SEARCH_LIMIT + 1
        ]
    )
    figures = _card_figures(request, deck, cards[:SEARCH_LIMIT], used)
    rows = [_result_row(deck, game, fmt, card, figures) for card in cards[:SEARCH_LIMIT]]
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
        "urls": builder_urls(deck),
    }


def _main_section_first(qs: QuerySet[Card], game: GameDef, fmt: FormatDef) -> QuerySet[Card]:
    """The kinds of the deck's main section first (a deck opens on what most of it is made
    of, not on the cards of a small side deck), then by cost and name."""
    main = fmt.main_section
    main_kinds = sorted(section_kinds(game, fmt).get(main, ())) if main else []
    return qs.annotate(
        main_first=Case(When(kind__in=main_kinds, then=0), default=1, output_field=IntegerField())
    ).order_by("main_first", "cost", "name")


def _card_figures(
    request, deck: Deck, cards: list[Card], used: Mapping[str, list] | None
) -> Mapping[str, holdings.CardFigures]:
    """Each card's owned · in your built decks · free: from the cards' rows and the built
    decks already read when the search kept only what is free, else read here."""
    if used is not None:
        # Each card annotated with its owned copies by `holdings.only_free`.
        return {
            c.name: holdings.CardFigures(
                c.owned_copies,  # type: ignore[attr-defined]
                used.get(c.name, []),
            )
            for c in cards
        }
    return holdings.card_figures(
        owner=request.user,
        game_id=deck.game_id,
        names=[c.name for c in cards],
        exclude=deck.pk,
    )


def _result_row(
    deck: Deck,
    game: GameDef,
    fmt: FormatDef,
    card: Card,
    figures: Mapping[str, holdings.CardFigures],
) -> dict[str, Any]:
    """One result: the card, its figures and stat line, and the sections it may be added to
    or removed from."""
    return {
        "card": card,
        "figures": figures.get(card.name),
        "kind": game.kinds[card.kind].label if card.kind in game.kinds else card.kind,
        "faction": game.factions.get(card.faction, card.faction),
        "has_cost": game.has_cost(card.kind),
        "stats": stat_line(card, deck.game.slug, limit=len(game.kinds[card.kind].attrs))
        if card.kind in game.kinds
        else "",
        # The card once on the row (htmx merges a row's hx-vals into its buttons').
        "vals": hx_vals(card=card.name),
        "targets": [
            {
                "section": s,
                "label": game.section_label(s),
                "add": hx_vals(op="add", section=s),
                "remove": hx_vals(op="remove", section=s),
            }
            for s in sections_for(card, fmt)
        ],
    }


@login_required
def builder_search(request, pk: int):
    """Search results for the left panel (and, with `owned`, the collection's gaps); with
    `after`, the rest of the first page after the rows the builder's page opened on."""
    deck = owned_deck(request, pk)
    context = search_context(request, deck)
    after = _after(request)
    if after:
        context["results"] = context["results"][after:]
        return render(request, "decks/builder/_results_rest.html", context)
    if context["owned"] and deck.current_version is not None:
        context["missing"] = selectors.collection_missing(owner=request.user, deck=deck)
    context["oob_missing"] = True
    return render(request, "decks/builder/_results.html", context)
