"""A deck taken to the table: the page lists what this device keeps (the deck, its cards'
pages and images, its sheets and proxies, its campaigns) and shows the tables the game's
tools compute for the deck, drawn by the server (Tactical Assault's combat odds of the
force's unit types against every target)."""

from __future__ import annotations

import json
import re

import pytest

from catalogue.models import Card
from catalogue.services import cards_by_kind
from decks.services import deck_create
from play import campaign_services
from validation import packages
from validation.games.tactical_assault import combat_odds as co
from validation.packages import sample_list
from validation.registry import registry

from .conftest import make_force

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)


def _deck(owner, game="tactical-assault", fmt="standard", visibility="private"):
    return deck_create(
        owner=owner,
        game_slug=game,
        format=fmt,
        name="At the table",
        visibility=visibility,
        text=sample_list(game, fmt).text(),
    )


def _kept(page: str) -> dict:
    match = re.search(r'<script id="table-keep" type="application/json">(.*?)</script>', page)
    assert match, "the page lists nothing to keep"
    return json.loads(match.group(1))


def test_the_deck_page_offers_to_take_the_deck_to_the_table(client, user, sample_catalogue):
    deck = _deck(user)
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert f'href="/decks/{deck.pk}/table/" id="take-to-table"' in page


def test_the_table_page_keeps_the_deck_its_cards_pages_and_images_and_its_documents(
    client, user, sample_catalogue
):
    deck = _deck(user)
    client.force_login(user)
    response = client.get(f"/decks/{deck.pk}/table/")
    assert response.status_code == 200
    kept = _kept(response.content.decode())
    urls = set(kept["urls"])
    assert f"/decks/{deck.pk}/table/" in urls and f"/decks/{deck.pk}/" in urls
    for kind in ("print", "sheet", "proxies", "units"):
        assert f"/decks/{deck.pk}/export/{kind}/?v=1" in urls
    names = {e["card"] for e in deck.current_version.entries}
    for card in Card.objects.filter(game__slug="tactical-assault", name__in=names):
        assert card.get_absolute_url() in urls
        assert any(
            u.startswith(f"/cards/tactical-assault/card/{card.pk}/image.png?v=") for u in urls
        )
    # Every address kept answers now (what the browser stores is what it will read offline).
    for url in sorted(urls):
        answer = client.get(url, follow=True)
        assert answer.status_code == 200, url


def test_the_odds_of_every_unit_type_of_the_force_against_every_target_are_on_the_page(
    client, user, sample_catalogue
):
    deck = _deck(user)
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/table/").content.decode()
    force = sorted({e["card"] for e in deck.current_version.entries if e["section"] == "force"})
    pool = cards_by_kind(game_slug="tactical-assault", kinds=("unit_type", "combat_card"))
    targets = [u for u in pool["unit_type"] if co.attack_refused(u) is None]
    for attack in ("firepower", "close-combat"):
        tables = re.findall(
            rf'<table id="odds-\d+-{attack}" class="odds">(.*?)</table>', page, re.S
        )
        assert len(tables) == len(force)
        for table in tables:
            assert len(re.findall(r'<th scope="row">', table)) == len(targets)
    # One cell checked against the tool's own computation.
    attacker = next(u for u in pool["unit_type"] if u.name == force[0])
    target = targets[0]
    odds = co.combat_odds(
        attacker, target, co.standard_deck(pool["combat_card"]), {"attack": "firepower"}
    )
    first = re.search(r'<table id="odds-1-firepower" class="odds">(.*?)</table>', page, re.S).group(
        1
    )
    row = re.search(rf'<th scope="row">{re.escape(target.name)}</th>(.*?)</tr>', first, re.S).group(
        1
    )
    expected = f"{odds['results']['eliminated']['probability'] * 100:.1f} %"
    assert re.findall(r"<td>(.*?)</td>", row)[0] == expected
    # Bunkers and obstacles are never targets.
    assert '<th scope="row">Bunker</th>' not in page


def test_a_game_without_a_deck_table_shows_no_odds(client, user, sample_catalogue):
    deck = _deck(user, "redline")
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/table/").content.decode()
    assert 'class="odds"' not in page
    assert not any("/export/units/" in u for u in _kept(page)["urls"])


def test_the_campaign_a_force_is_kept_in_is_kept_for_the_table(client, user, sample_catalogue):
    campaign = campaign_services.campaign_create(owner=user, game="tactical-assault", name="Hills")
    force = make_force(user, "Ann's force")
    campaign_services.campaign_player_add(campaign=campaign, name="Ann", deck=force)
    client.force_login(user)
    kept = _kept(client.get(f"/decks/{force.pk}/table/").content.decode())
    assert campaign.get_absolute_url() in kept["urls"]
    assert campaign.get_absolute_url() + "standings/" in kept["urls"]


def test_a_deck_you_cannot_read_cannot_be_taken(client, user, other_user, sample_catalogue):
    deck = _deck(other_user)
    client.force_login(user)
    assert client.get(f"/decks/{deck.pk}/table/").status_code == 404
    public = _deck(other_user, visibility="public")
    assert client.get(f"/decks/{public.pk}/table/").status_code == 200


def test_every_game_with_a_deck_table_draws_it_for_its_sample_decks(client, user, sample_catalogue):
    client.force_login(user)
    for game in registry.all():
        if not any(t.deck_table for t in game.tools):
            continue
        deck = _deck(user, game.slug, packages.sample_lists(game.slug)[0].format)
        page = client.get(f"/decks/{deck.pk}/table/").content.decode()
        assert 'class="odds"' in page, game.slug
