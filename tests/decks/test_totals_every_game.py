"""Every game and every format: the sample deck's pages answer 200 and show the totals as
plain text (a Red Mittens deck holding an item card once answered 500: the template looked
up the section called "items" instead of the dict's items)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks import services
from decks.presentation import totals_rows
from validation.registry import registry

from .conftest import sample_list

pytestmark = pytest.mark.django_db

GAME_FORMATS = [(g.slug, f) for g in registry.all() for f in g.formats]
RAW_PYTHON = ("{'", "None", "[", "]", "}")


def _totals_table(html: str) -> str:
    m = re.search(r'<table id="totals">(.*?)</table>', html, re.S)
    assert m, "no totals table on the page"
    return m.group(1)


def _assert_plain(table: str) -> None:
    for raw in RAW_PYTHON:
        assert raw not in table, f"raw Python {raw!r} in the totals: {table}"


@pytest.mark.parametrize(("game", "fmt"), GAME_FORMATS)
def test_every_deck_page_of_every_game_shows_plain_totals(
    client, sample_catalogue, user, other_user, game, fmt
):
    text = sample_list(game, fmt)
    deck = services.deck_create(
        owner=user,
        game_slug=game,
        format=fmt,
        name=f"Sample {game} {fmt}",
        visibility="public",
        text=text,
    )
    services.deck_save_version(deck=deck, author=user, text=text, based_on=1)
    deck.refresh_from_db()

    pages = {
        "deck page (owner)": (user, reverse("decks:detail", args=[deck.pk])),
        "version page": (user, reverse("decks:version", args=[deck.pk, 1])),
        "share page": (None, reverse("decks:shared", args=[deck.share_token])),
        "public deck page (anonymous)": (None, reverse("decks:detail", args=[deck.pk])),
        "public deck page (another user)": (other_user, reverse("decks:detail", args=[deck.pk])),
    }
    for what, (who, url) in pages.items():
        client.logout()
        if who is not None:
            client.force_login(who)
        response = client.get(url)
        assert response.status_code == 200, f"{what} {url}: {response.status_code}"
        table = _totals_table(response.content.decode())
        _assert_plain(table)
        assert "Sections" in table, what

    client.logout()
    listing = client.get(reverse("decks:public-game", args=[game]))
    assert listing.status_code == 200 and deck.name in listing.content.decode()
    panel = client.get(reverse("simulations:deck-panel", args=[deck.pk]), {"v": 2})
    assert panel.status_code == 200


def test_red_mittens_deck_page_lists_its_section_counts(client, sample_catalogue, user):
    deck = services.deck_create(
        owner=user,
        game_slug="red-mittens",
        format="core",
        name="Mittens",
        text=sample_list("red-mittens", "core"),
    )
    client.force_login(user)
    response = client.get(reverse("decks:detail", args=[deck.pk]))
    assert response.status_code == 200
    table = _totals_table(response.content.decode())
    assert re.search(r"Unit deck \d+, Item deck \d+, Field deck \d+", table), table


def test_check_page_totals_are_plain_text(client, sample_catalogue):
    general_free = "Arsenal:\n4 Tigercat\n"
    response = client.post(
        reverse("decks:check"), {"game_format": "redline/standard", "list": general_free}
    )
    assert response.status_code == 200
    table = _totals_table(response.content.decode())
    _assert_plain(table)
    assert re.search(r'data-total="general">—<', table), table
    assert re.search(r'data-total="faction">—<', table), table
    assert "General 0, Arsenal 4, Mission deck 0, Critical hit deck 0" in table
    # the htmx fragment is the same table
    fragment = client.post(
        reverse("decks:check"),
        {"game_format": "red-mittens/core", "list": sample_list("red-mittens", "core")},
        HTTP_HX_REQUEST="true",
    )
    assert fragment.status_code == 200
    table = _totals_table(fragment.content.decode())
    _assert_plain(table)
    assert re.search(r"Unit deck \d+, Item deck \d+, Field deck \d+", table)


def test_totals_rows_helper_shows_labels_and_dashes():
    game = registry.get("redline")
    rows = totals_rows(
        {"sections": {"general": 1, "critical_hits": 2}, "general": None, "faction": "une"},
        game,
    )
    assert [(r.label, r.value) for r in rows] == [
        ("Sections", "General 1, Critical hit deck 2"),
        ("General", "—"),
        ("Faction", game.factions["une"]),
    ]
    assert totals_rows({"sections": {"units": 1}}, game, sections=False) == []
