"""Importing a collection (text lines): what it adds, what a deck then misses, replacing a
game's collection; a list with lines that cannot be read imports nothing."""

from __future__ import annotations

import pytest

from collection import services as collection_services
from collection.models import CollectionEntry
from decks import selectors, services


def test_collection_import_adds_and_reports_missing_cards(mini_catalogue, user, make_deck):
    deck = make_deck(user)
    n = collection_services.collection_import(
        owner=user, game_slug="redline", text="# mine\nArsenal:\n3 Tigercat\n10 supply drop\n"
    ).cards
    assert n == 13
    collection_services.collection_import(owner=user, game_slug="redline", text="1 Tigercat")
    owned = dict(CollectionEntry.objects.values_list("card__name", "count"))
    assert owned == {"Tigercat": 4, "Supply Drop": 10}
    missing = selectors.collection_missing(owner=user, deck=deck)
    assert missing == [
        {"card": "General Jeffrey Moore", "needed": 1, "owned": 0, "missing": 1},
        {"card": "Supply Drop", "needed": 20, "owned": 10, "missing": 10},
    ]
    collection_services.collection_import(
        owner=user, game_slug="redline", text="2 Rabbit", replace=True
    )
    assert dict(CollectionEntry.objects.values_list("card__name", "count")) == {"Rabbit": 2}


def test_collection_import_is_all_or_nothing(mini_catalogue, user):
    with pytest.raises(services.ListInvalid) as exc:
        collection_services.collection_import(
            owner=user, game_slug="redline", text="3 Tigercat\n2 Rabit\nx Supply Drop\n"
        )
    assert [e["line"] for e in exc.value.errors] == [2, 3]
    assert not CollectionEntry.objects.exists()
