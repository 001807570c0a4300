"""Query counts of the pages this release changed, pinned: they must not grow with the deck,
the history or the catalogue."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from decks import services
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = fn()
    assert response.status_code == 200
    return len(ctx.captured_queries)


def _deck(user, versions=1):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Q",
        text=sample_list("redline", "standard"),
        visibility="public",
    )
    for n in range(2, versions + 1):
        services.deck_save_version(
            deck=deck,
            author=user,
            text=sample_list("redline", "standard") + f"\n# {n}",
            based_on=n - 1,
        )
    return deck


def test_the_deck_page_costs_the_same_with_one_version_or_thirty(
    client, user, sample_catalogue, monkeypatch
):
    from datetime import date

    from catalogue import rulesets

    # A day with a sample rule set in effect and one upcoming (its effect is shown).
    monkeypatch.setattr(rulesets, "today", lambda: date(2026, 12, 15))
    small, large = _deck(user), _deck(user, versions=30)
    client.force_login(user)
    counts = [_count(lambda d=d: client.get(f"/decks/{d.pk}/")) for d in (small, large)]
    # session, user, deck, versions page (count, rows), the card facts of the list (grouped
    # by kind, with the cost curve); the format's rule sets (the upcoming one's effect on
    # the list is read from the deck: stored with its verdict); the owner's cards against
    # the deck (the owned copies, the other built decks)
    assert counts[0] == counts[1] == 6 + 1 + 2, counts


def test_a_page_of_builder_search_results(client, user, sample_catalogue):
    deck = _deck(user)
    client.force_login(user)
    url = f"/decks/{deck.pk}/build/search/"
    first = _count(lambda: client.get(url, **HTMX))
    second = _count(lambda: client.get(url, {"page": "2"}, **HTMX))
    # session, user, deck, one page of cards, its cards' figures (the owned copies, the
    # built decks)
    assert first == second == 4 + 2, (first, second)


def test_the_card_page_with_its_face(client, sample_catalogue):
    from catalogue.models import Card

    card = Card.objects.filter(game__slug="hex-skirmish", kind="unit").first()
    # the card with its game, its printings (the face needs no query of its own); its
    # standing in each format: the game's rule sets, the card's entries in them, their
    # expansions; the public decks holding it; the decklists holding it (counted from the
    # card's index)
    assert _count(lambda: client.get(f"/cards/hex-skirmish/card/{card.pk}/")) == 2 + 3 + 1 + 1
