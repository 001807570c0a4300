"""A card added to a deck from its page (decks.services.deck_add_card): one copy, in the
section the builder would put it in, saved as a new version of one of the owner's decks or
as a new deck's first; a card no section of the format takes is refused and nothing is
written."""

from __future__ import annotations

import pytest

from catalogue.models import Card
from decks import services
from decks.models import Deck, DeckVersion
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db


def _card(game: str, name: str) -> Card:
    return Card.objects.select_related("game").get(game__slug=game, name=name)


def _count(deck: Deck, card: str) -> int:
    deck.refresh_from_db()
    return sum(e["count"] for e in deck.current_version.entries if e["card"] == card)


def test_a_card_added_to_a_deck_is_one_more_copy_in_a_new_version(sample_catalogue, user):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Mine",
        text=sample_list("redline", "standard"),
    )
    before = _count(deck, "Tigercat")
    added, where = services.deck_add_card(owner=user, card=_card("redline", "Tigercat"), deck=deck)
    assert added == deck and where == "Arsenal"
    assert _count(deck, "Tigercat") == before + 1
    assert deck.current_version.number == 2 and deck.current_version.author == user


def test_a_card_added_to_no_deck_makes_a_new_deck_that_holds_it(sample_catalogue, user):
    deck, where = services.deck_add_card(
        owner=user, card=_card("redline", "Tigercat"), format="standard"
    )
    assert deck.owner == user and (deck.game.slug, deck.format) == ("redline", "standard")
    assert deck.current_version.entries == [{"section": "arsenal", "card": "Tigercat", "count": 1}]
    assert where == "Arsenal"


def test_a_card_the_main_section_does_not_take_goes_in_the_first_that_does(sample_catalogue, user):
    # Red Code's main section is the blue side; a red ship goes on the red side.
    deck, where = services.deck_add_card(
        owner=user, card=_card("red-code", "Stingray"), format="arena"
    )
    assert [e["section"] for e in deck.current_version.entries] == ["red"]
    assert where == deck.game.definition.section_label("red")


def test_a_card_no_section_takes_is_refused_and_nothing_is_written(sample_catalogue, user):
    with pytest.raises(ValueError, match="Movement goes in no section of a"):
        services.deck_add_card(owner=user, card=_card("red-code", "Movement"), format="arena")
    assert not Deck.objects.exists() and not DeckVersion.objects.exists()


def test_a_deck_named_in_other_digits_is_asked_for_again_not_a_server_error(
    client, sample_catalogue, user
):
    card = _card("redline", "Tigercat")
    deck = services.deck_create(owner=user, game_slug="redline", format="standard", name="Mine")
    client.force_login(user)
    response = client.post(f"/cards/redline/card/{card.pk}/add/", {"target": "deck:²"})
    assert response.status_code == 400
    assert "Pick one of your decks" in response.content.decode()
    assert not DeckVersion.objects.filter(deck=deck).exists()
