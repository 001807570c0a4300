"""A deck's format is shown by its name as its game spells it ("Standard"), never by its
slug ("standard"): on the deck page and on My decks, for every format of every game; and
every menu that picks one of the reader's decks (the goldfish, the comparison's other decks,
a card's "add to a deck", a campaign's player) shows beside each name its format, version
and last change, so that two decks of the same name can be told apart."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Game
from decks.models import Deck
from validation.registry import registry

from .conftest import sample_list

pytestmark = pytest.mark.django_db

EVERY_FORMAT = [(g.slug, f.slug, f.name) for g in registry.all() for f in g.formats.values()]


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize(("game", "fmt", "name"), EVERY_FORMAT)
def test_the_deck_page_shows_the_formats_name(client, sample_catalogue, user, game, fmt, name):
    deck = Deck.objects.create(
        owner=user, game=Game.objects.get(slug=game), format=fmt, name="My first list"
    )
    client.force_login(user)
    page = client.get(deck.get_absolute_url()).content.decode()
    meta = re.search(r'<p class="muted">([^<]*) · by ', page)
    assert meta is not None
    assert meta.group(1) == f"{registry.get(game).name} · {name}"


def test_my_decks_shows_every_formats_name(client, sample_catalogue, user):
    made = {}
    for game, fmt, name in EVERY_FORMAT:
        deck = Deck.objects.create(
            owner=user, game=Game.objects.get(slug=game), format=fmt, name=f"{game} {fmt}"
        )
        made[str(deck.pk)] = name
    client.force_login(user)
    mine = client.get(reverse("decks:mine")).content.decode()
    shown = dict(re.findall(r'<tr data-deck="(\d+)">.*?<td data-label="Format">([^<]*)</td>', mine))
    assert shown == made


@pytest.fixture
def two_arsenals(user):
    """Two decks of the same name in two REDLINE formats, each with a saved version."""
    from decks.services import deck_create

    return [
        deck_create(
            owner=user,
            game_slug="redline",
            format=fmt,
            name="My first arsenal",
            text=sample_list("redline", fmt),
        )
        for fmt in ("standard", "scramble")
    ]


def _details(deck: Deck) -> str:
    day = timezone.localdate(deck.updated_at).isoformat()
    fmt = registry.get(deck.game.slug).format(deck.format).name
    return f"{fmt} · version {deck.current_version.number} · updated {day}"


def test_the_goldfish_menu_tells_two_decks_of_one_name_apart(
    client, sample_catalogue, user, two_arsenals
):
    client.force_login(user)
    goldfish = _text(client.get(reverse("play:goldfish", args=["redline"])).content.decode())
    for deck in two_arsenals:
        assert f"My first arsenal ({_details(deck)} · by alice)" in goldfish


def test_the_comparisons_other_decks_tell_two_decks_of_one_name_apart(
    client, sample_catalogue, user, other_user, two_arsenals
):
    standard, scramble = two_arsenals
    from decks.services import deck_create

    theirs = deck_create(
        owner=other_user,
        game_slug="redline",
        format="standard",
        name="My first arsenal",
        visibility="public",
        text=sample_list("redline", "standard"),
    )
    client.force_login(user)
    compare = _text(
        client.get(reverse("simulations:deck-compare", args=[standard.pk])).content.decode()
    )
    assert f"My first arsenal ({_details(scramble)})" in compare
    assert f"My first arsenal ({_details(theirs)} · by bob)" in compare


def test_a_cards_add_to_deck_menu_tells_two_decks_of_one_name_apart(
    client, sample_catalogue, user, two_arsenals
):
    client.force_login(user)
    card = sample_catalogue_card("Tigercat")
    to_deck = _text(
        client.get(reverse("decks:card-to-deck", args=["redline", card.pk])).content.decode()
    )
    for deck in two_arsenals:
        assert f"My first arsenal ({_details(deck)})" in to_deck


def sample_catalogue_card(name: str):
    from catalogue.models import Card

    return Card.objects.get(game__slug="redline", name=name)


def test_a_campaigns_player_picker_tells_two_forces_of_one_name_apart(
    client, sample_catalogue, user
):
    from decks.services import deck_create
    from play.campaign_services import campaign_create

    forces = [
        deck_create(
            owner=user,
            game_slug="tactical-assault",
            format=fmt,
            name="Ridge force",
            text=sample_list("tactical-assault", fmt),
        )
        for fmt in ("standard", "campaign")
    ]
    campaign = campaign_create(owner=user, game="tactical-assault", name="Autumn")
    client.force_login(user)
    page = _text(client.get(campaign.get_absolute_url()).content.decode())
    for deck in forces:
        assert f"Ridge force ({_details(deck)})" in page
