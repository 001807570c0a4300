"""What a player meets first: sample lists published as public decks, the deck and share
pages grouped by kind with counts and a cost curve, no cost badge on cards without a cost,
a corrected search shown as the catalogue spells the name, the home page's Build link per
game, and "Add to deck" on a card page."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from catalogue.models import Card
from catalogue.services import sample_deck_files
from decks import services
from decks.list_header import header_options
from decks.models import Deck, DeckVersion
from tests.decks.conftest import sample_list
from validation.registry import registry

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(django_user_model):
    return django_user_model.objects.create_user("demo", "demo@example.com", "demo-pass-12345")


def test_sample_lists_become_public_legal_decks_of_the_demo_account_once(
    client, sample_catalogue, demo
):
    files = sample_deck_files()
    assert files
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    decks = Deck.objects.filter(owner=demo)
    assert decks.count() == len(files)
    assert all(d.visibility == "public" and d.legal for d in decks), [
        (d.name, d.report.get("errors")) for d in decks if not d.legal
    ]
    # Twice: nothing more.
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    assert Deck.objects.filter(owner=demo).count() == len(files)
    page = client.get("/decks/public/").content.decode()
    for deck in decks:
        assert deck.name in page
    for game in registry.all():
        assert game.name in page


def test_a_list_header_gives_the_adjustable_options():
    fmt = registry.get("tactical-assault").format("custom")
    text = sample_list("tactical-assault", "custom")
    assert header_options(text, fmt) == {"points": 50}
    assert header_options("points: 50\n", fmt) == {}  # a card line, not a comment
    standard = registry.get("tactical-assault").format("standard")
    assert header_options(text, standard) == {}  # standard's points are fixed


@pytest.mark.parametrize("shared", [False, True])
def test_the_deck_and_share_pages_group_the_list_by_kind_with_a_cost_curve(
    client, sample_catalogue, user, shared
):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="UNE",
        visibility="unlisted",
        text=sample_list("redline", "standard"),
    )
    url = deck.get_share_url() if shared else deck.get_absolute_url()
    if not shared:
        client.force_login(user)
    page = client.get(url).content.decode()
    groups = re.findall(r'<h4 class="kind-group" data-kind="(\w+)">(.+?) <small', page)
    kinds = [k for k, _ in groups]
    order = list(registry.get("redline").kinds)
    assert kinds == sorted(kinds, key=order.index)  # the game's kind order
    assert {"efreet", "equipment", "tactic", "resource"} <= set(kinds)
    # Each group's count is the sum of its rows.
    efreets = sum(e["count"] for e in deck.current_version.entries if e["card"] in _names("efreet"))
    assert f'data-kind="efreet">Efreet <small class="muted">({efreets})</small>' in page
    assert 'class="b-curve"' in page and "Cost curve" in page


def _names(kind):
    return set(Card.objects.filter(game__slug="redline", kind=kind).values_list("name", flat=True))


def test_no_cost_badge_on_cards_of_a_kind_without_a_cost(client, sample_catalogue):
    grid = client.get("/cards/red-mittens/").content.decode()
    assert 'class="face' in grid and 'class="cost"' not in grid
    grid = client.get("/cards/redline/", {"q": "kind:resource"}).content.decode()
    assert 'class="face' in grid and 'class="cost"' not in grid
    grid = client.get("/cards/redline/", {"q": "kind:efreet"}).content.decode()
    assert 'class="cost"' in grid
    card = Card.objects.filter(game__slug="tactical-assault", kind="combat_card").first()
    page = client.get(f"/cards/tactical-assault/card/{card.pk}/").content.decode()
    assert 'class="cf-cost"' not in page and "<th>Cost</th>" not in page
    face = client.get(f"/cards/tactical-assault/card/{card.pk}/face/").content.decode()
    assert 'class="cf-cost"' not in face
    unit = Card.objects.filter(game__slug="tactical-assault", kind="unit_type").first()
    page = client.get(f"/cards/tactical-assault/card/{unit.pk}/").content.decode()
    assert 'class="cf-cost"' in page and "<th>Cost</th>" in page


def test_a_typo_shows_the_results_for_the_name_as_the_catalogue_spells_it(
    client, sample_catalogue, user
):
    page = client.get("/cards/redline/", {"q": "tigrcat"}).content.decode()
    assert "Showing results for <strong>Tigercat</strong>" in page
    assert "Read as" not in page
    # Spelt right, or a start of the name: no correction.
    for q in ("tigercat", "tiger"):
        page = client.get("/cards/redline/", {"q": q}).content.decode()
        assert "Showing results for" not in page and "Read as" not in page
    # The builder's search says the same.
    deck = services.deck_create(owner=user, game_slug="redline", format="standard", name="x")
    client.force_login(user)
    html = client.get(
        f"/decks/{deck.pk}/build/search/", {"q": "tigrcat"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Showing results for <strong>Tigercat</strong>" in html


def test_the_home_pages_build_link_opens_the_builder_for_that_game(client, user):
    client.force_login(user)
    home = client.get("/").content.decode()
    for game in registry.all():
        link = re.search(rf'href="([^"]*\?game={game.slug})">Build</a>', home)
        assert link, game.slug
        response = client.get(link.group(1).replace("&amp;", "&"))
        if len(game.formats) == 1:
            (fmt,) = game.formats
            assert response.status_code == 302
            assert response["Location"] == f"/build/{game.slug}/{fmt}/new/"
        else:
            page = response.content.decode()
            assert f"Build: {game.name}" in page
            for fmt in game.formats:
                assert f"/build/{game.slug}/{fmt}/new/" in page
            for other in registry.all():
                if other.slug != game.slug:
                    assert f"/build/{other.slug}/" not in page


def test_add_to_deck_from_a_card_page(client, sample_catalogue, user, other_user):
    card = Card.objects.get(game__slug="redline", name="Tigercat")
    page = client.get(f"/cards/redline/card/{card.pk}/").content.decode()
    add_url = f"/cards/redline/card/{card.pk}/add/"
    assert f'href="{add_url}"' in page and "Add to deck" in page
    assert client.get(add_url).status_code == 302  # signing in first
    mine = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Mine",
        text=sample_list("redline", "standard"),
    )
    services.deck_create(owner=other_user, game_slug="redline", format="standard", name="Bob's")
    client.force_login(user)
    form = client.get(add_url).content.decode()
    assert "Mine" in form and "Bob&#x27;s" not in form and "A new Standard deck" in form
    before = next(e["count"] for e in mine.current_version.entries if e["card"] == "Tigercat")
    response = client.post(add_url, {"target": f"deck:{mine.pk}"})
    assert response.status_code == 302 and response["Location"] == f"/decks/{mine.pk}/build/"
    mine.refresh_from_db()
    assert mine.current_version.number == 2
    after = next(e["count"] for e in mine.current_version.entries if e["card"] == "Tigercat")
    assert after == before + 1
    # A new deck with the one card.
    response = client.post(add_url, {"target": "new:standard"})
    new = Deck.objects.filter(owner=user).exclude(pk=mine.pk).get()
    assert response["Location"] == f"/decks/{new.pk}/build/"
    assert new.current_version.entries == [{"section": "arsenal", "card": "Tigercat", "count": 1}]
    # Another user's deck, or nothing picked: refused, nothing written.
    bobs = Deck.objects.get(owner=other_user)
    response = client.post(add_url, {"target": f"deck:{bobs.pk}"})
    assert response.status_code == 400 and "Pick one of your decks" in response.content.decode()
    assert not DeckVersion.objects.filter(deck=bobs).exists()
