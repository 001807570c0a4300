"""A stored list is checked through one type, `SavedList`: a deck's version read into it checks
as the deck does, a card gone from the catalogue makes it illegal by name, and the same list
in another format reads that format's default options."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue.models import Game
from decks.lists import ListEntry, SavedList, version_check
from decks.services import deck_create

from .conftest import MINI_LIST

pytestmark = pytest.mark.django_db


def test_a_deck_version_read_as_a_saved_list_checks_as_the_deck(mini_catalogue, user):
    deck = deck_create(
        owner=user, game_slug="redline", format="standard", name="Mini", text=MINI_LIST
    )
    version = deck.current_version
    with CaptureQueriesContext(connection) as reading:
        saved = SavedList.of_deck(deck, version)
    assert not reading.captured_queries
    assert all(isinstance(e, ListEntry) for e in saved.entries)
    assert [e.as_dict() for e in saved.entries] == version.entries
    assert (saved.game, saved.format, saved.pin, saved.owner_id) == (
        deck.game,
        "standard",
        None,
        user.pk,
    )
    assert (saved.version, saved.revision) == (version.pk, version.revision)
    assert version_check(saved).legal == deck.verdict.legal
    with pytest.raises(dataclasses.FrozenInstanceError):
        saved.format = "scramble"  # type: ignore[misc]


def test_a_card_gone_from_the_catalogue_makes_a_stored_list_illegal(mini_catalogue):
    game = Game.objects.get(slug="redline")
    saved = SavedList.stored(
        game=game,
        format="standard",
        entries=[
            {"section": "general", "card": "General Jeffrey Moore", "count": 1},
            {"section": "arsenal", "card": "No Such Card", "count": 2},
        ],
    )
    report = version_check(saved, rule_set=None)
    assert not report.legal
    assert [(e.code, e.cards) for e in report.errors] == [("deck.card", ("No Such Card",))]


def test_another_format_reads_its_own_default_options(mini_catalogue):
    game = Game.objects.get(slug="redline")
    saved = SavedList.stored(game=game, format="standard", entries=[], options={"points": 50})
    assert saved.in_format("standard") is saved
    other = saved.in_format("scramble")
    assert (other.format, dict(other.options), other.entries) == ("scramble", {}, saved.entries)
