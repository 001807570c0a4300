"""An exported list names its deck, game and format (and the format's adjustable options)
in comment lines and imports back to the same deck; the import form puts the paste box
first; "Points" shows only where a format takes an agreed total."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from catalogue.services import sample_deck_files
from decks import services
from decks.models import Deck
from validation.registry import registry

pytestmark = pytest.mark.django_db

SAMPLES = [(s.game, s.format) for s in sample_deck_files()]


@pytest.fixture
def demo(django_user_model):
    user = django_user_model.objects.create_user("demo", "demo@example.com", "demo-pass-12345")
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    return user


def test_every_game_has_a_sample_list():
    assert {game for game, _ in SAMPLES} == {g.slug for g in registry.all()}


@pytest.mark.parametrize(("game", "fmt"), SAMPLES)
def test_an_exported_list_imports_back_to_the_same_deck(
    client, sample_catalogue, demo, user, game, fmt
):
    source = Deck.objects.get(owner=demo, game__slug=game, format=fmt)
    text = client.get(f"/decks/{source.pk}/export/text/").content.decode()
    game_def = registry.get(game)
    lines = text.splitlines()
    assert lines[0] == f"# Deck: {source.name}"
    assert lines[1] == f"# Game: {game_def.name} ({game})"
    assert lines[2] == f"# Format: {game_def.format(fmt).name} ({fmt})"
    for key, value in source.current_version.options.items():
        assert f"# {key.capitalize()}: {value}" in lines
    # The API's text export says the same.
    client.force_login(demo)
    assert client.get(f"/api/decks/{source.pk}/export/?format=text").content.decode() == text
    client.force_login(user)
    response = client.post("/decks/import/", {"list": text, "visibility": "private"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    copy = Deck.objects.get(owner=user)
    assert (copy.name, copy.game.slug, copy.format) == (source.name, game, fmt)
    assert copy.current_version.options == source.current_version.options
    # The same cards in the same sections (the export lists them as the deck page does).
    assert sorted(copy.current_version.entries, key=repr) == sorted(
        source.current_version.entries, key=repr
    )
    assert copy.legal == source.legal


def test_the_form_wins_over_the_header_and_a_list_of_no_game_must_say(
    client, sample_catalogue, demo, user
):
    source = Deck.objects.get(owner=demo, game__slug="redline", format="standard")
    text = client.get(f"/decks/{source.pk}/export/text/").content.decode()
    client.force_login(user)
    response = client.post(
        "/decks/import/",
        {
            "list": text,
            "name": "Renamed",
            "game_format": "redline/scramble",
            "visibility": "private",
        },
    )
    assert response.status_code == 302
    copy = Deck.objects.get(owner=user)
    assert (copy.name, copy.format) == ("Renamed", "scramble")
    # A list without # Game: and # Format: lines is read from its sections and cards
    # (tests/decks/test_import_defaults.py); one whose sections and cards are no game's
    # must say which game it is.
    response = client.post(
        "/decks/import/", {"list": "Sideboard:\n4 Nothing Known\n", "visibility": "private"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "the list has no # Game: and # Format: lines" in page
    assert Deck.objects.filter(owner=user).count() == 1


def test_the_import_form_puts_the_paste_box_first_and_points_where_they_apply(
    client, user, sample_catalogue
):
    client.force_login(user)
    page = client.get("/decks/import/").content.decode()
    fields = re.findall(r'<(?:textarea|select|input)[^>]*name="(\w+)"', page)
    fields = [f for f in fields if f != "csrfmiddlewaretoken"]
    assert fields[:2] == ["list", "file"]
    points = re.search(r'data-points-formats="([^"]*)"', page).group(1).split()
    expected = [
        f"{g.slug}/{slug}"
        for g in registry.all()
        for slug, f in g.formats.items()
        if "points" in f.adjustable
    ]
    assert points == expected and expected
    # The edit page of a deck whose format has no agreed total has no Points field.
    deck = services.deck_create(owner=user, game_slug="redline", format="standard", name="x")
    assert 'name="points"' not in client.get(f"/decks/{deck.pk}/edit/").content.decode()
    deck = services.deck_create(owner=user, game_slug="tactical-assault", format="custom", name="y")
    assert 'name="points"' in client.get(f"/decks/{deck.pk}/edit/").content.decode()
