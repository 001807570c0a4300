"""Restricting a deck to the owner's collection feeds the collection's counts to the rules
core, so that army.collection reports a shortage (2 copies with 1 owned was legal)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from collection import services as collection_services
from collection.models import CollectionEntry
from decks import services, verdicts
from decks.models import Deck
from tests.problems import field_errors, first_field, line_errors  # noqa: F401

from .conftest import sample_list

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SHORTAGE = "2 copies of March; the collection holds 1"
ARMY = sample_list("hex-skirmish", "standard")


@pytest.fixture
def one_march_short(sample_catalogue, user):
    """The user owns every card of the sample army, but one March of the two it uses."""
    cards = re.sub(r"\s*@\d+,\d+", "", ARMY)  # a collection has no deployment hexes
    collection_services.collection_import(owner=user, game_slug="hex-skirmish", text=cards)
    CollectionEntry.objects.filter(owner=user, card__name="March").update(count=1)
    return user


def api_validate(client, **body):
    return client.post("/api/validate/", body, content_type="application/json")


def _collection_errors(report):
    return [e["message"] for e in report["errors"] if e["code"] == "army.collection"]


def test_api_validate_checks_the_users_collection(client, one_march_short):
    client.force_login(one_march_short)
    body = {"game": "hex-skirmish", "format": "standard", "list": ARMY}
    free = api_validate(client, **body)
    assert free.status_code == 200 and free.json()["legal"] is True
    restricted = api_validate(client, **body, options={"collection": True})
    assert restricted.status_code == 200
    assert restricted.json()["legal"] is False
    # the check of a list as written names the line of the card
    assert _collection_errors(restricted.json()) == [f"Line 9: {SHORTAGE}"]


def test_api_validate_without_an_account_cannot_use_a_collection(client, sample_catalogue):
    response = api_validate(
        client, game="hex-skirmish", format="standard", list=ARMY, options={"collection": True}
    )
    assert response.status_code == 400
    assert field_errors(response.json()) == {
        "options": "collection: sign in to check a list against your collection"
    }
    bad = api_validate(
        client, game="hex-skirmish", format="standard", list=ARMY, options={"collection": "yes"}
    )
    assert bad.status_code == 400 and "options" in field_errors(bad.json())


def test_api_deck_restricted_to_the_collection_follows_it(client, one_march_short):
    client.force_login(one_march_short)
    response = client.post(
        "/api/decks/",
        {
            "game": "hex-skirmish",
            "format": "standard",
            "name": "Owned army",
            "list": ARMY,
            "options": {"collection": True},
        },
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["legal"] is False
    assert _collection_errors(data["report"]) == [SHORTAGE]
    assert data["version"]["options"] == {"collection": True}

    # the second March arrives: the deck, checked again, is legal
    CollectionEntry.objects.filter(owner=one_march_short, card__name="March").update(count=2)
    deck = Deck.objects.select_related("game", "owner", "current_version").get(pk=data["id"])
    report = verdicts.deck_revalidate(deck=deck)
    assert report.legal is True

    # a new version without the restriction ignores the collection
    CollectionEntry.objects.filter(owner=one_march_short, card__name="March").update(count=1)
    response = client.post(
        f"/api/decks/{deck.pk}/versions/",
        {"list": ARMY, "based_on": 1, "options": {}},
        content_type="application/json",
    )
    assert response.status_code == 201
    assert response.json()["report"]["legal"] is True


def test_check_page_restricted_to_the_collection(client, one_march_short):
    client.force_login(one_march_short)
    response = client.post(
        reverse("decks:check"),
        {"game_format": "hex-skirmish/standard", "list": ARMY, "collection": "on"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-code="army.collection"' in html and SHORTAGE in html
    client.logout()
    response = client.post(
        reverse("decks:check"),
        {"game_format": "hex-skirmish/standard", "list": ARMY, "collection": "on"},
    )
    assert "Sign in to check a list against your collection." in response.content.decode()


def test_edit_page_restriction_shows_on_the_deck_page(client, one_march_short):
    user = one_march_short
    deck = services.deck_create(
        owner=user, game_slug="hex-skirmish", format="standard", name="Army", text=ARMY
    )
    client.force_login(user)
    page = reverse("decks:detail", args=[deck.pk])
    assert 'data-code="army.collection"' not in client.get(page).content.decode()
    response = client.post(
        reverse("decks:edit", args=[deck.pk]),
        {"list": ARMY, "base_version": 1, "collection": "on"},
    )
    assert response.status_code == 302
    html = client.get(page).content.decode()
    assert 'data-code="army.collection"' in html and SHORTAGE in html
    edit = client.get(reverse("decks:edit", args=[deck.pk])).content.decode()
    assert 'name="collection" id="id_collection" checked' in edit


def test_builder_box_restricts_the_deck_to_the_collection(client, one_march_short):
    user = one_march_short
    deck = services.deck_create(
        owner=user, game_slug="hex-skirmish", format="standard", name="Army", text=ARMY
    )
    client.force_login(user)
    change = reverse("builder:change", args=[deck.pk])
    r = client.post(
        change,
        {"op": "set", "section": "cards", "card": "Advance", "count": "1", "base": "1"}
        | {"owned": "1"},
        **HTMX,
    )
    html = r.content.decode()
    assert 'data-code="army.collection"' in html and SHORTAGE in html
    deck.refresh_from_db()
    assert deck.current_version.options == {"collection": True} and deck.legal is False

    # the builder opens with the box ticked
    page = client.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert 'id="restrict-owned" type="checkbox" name="owned" value="1" checked' in page

    # clearing the box (an htmx request without `owned`) lifts the restriction
    r = client.post(reverse("builder:options", args=[deck.pk]), {"base": "2"}, **HTMX)
    assert 'data-code="army.collection"' not in r.content.decode()
    deck.refresh_from_db()
    assert deck.current_version.number == 3 and deck.current_version.options == {}
    assert deck.legal is True

    # ticking it again, with no other change, checks the deck against the collection
    r = client.post(reverse("builder:options", args=[deck.pk]), {"base": "3", "owned": "1"}, **HTMX)
    assert SHORTAGE in r.content.decode()
