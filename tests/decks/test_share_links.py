"""Share links that can be revoked: leaving "unlisted" retires the link, and "New link" on
the page and the API replaces it; only the owner can do either."""

from __future__ import annotations

import pytest

from decks import services
from decks.models import Deck
from tests.decks.conftest import MINI_LIST

pytestmark = pytest.mark.django_db


def _deck(user, make_deck):
    return make_deck(user, "unlisted", text=MINI_LIST)


def test_leaving_unlisted_retires_the_link(client, mini_catalogue, user, make_deck):
    deck = _deck(user, make_deck)
    old = deck.share_token
    assert client.get(f"/decks/shared/{old}/").status_code == 200
    services.deck_update(deck=deck, visibility="private")
    deck.refresh_from_db()
    assert deck.share_token != old
    assert client.get(f"/decks/shared/{old}/").status_code == 404
    services.deck_update(deck=deck, visibility="unlisted")
    deck.refresh_from_db()
    assert client.get(f"/decks/shared/{old}/").status_code == 404
    assert client.get(f"/decks/shared/{deck.share_token}/").status_code == 200
    # A name change keeps the link.
    token = deck.share_token
    services.deck_update(deck=deck, name="Renamed")
    deck.refresh_from_db()
    assert deck.share_token == token


def test_the_settings_page_retires_the_link_too(client, mini_catalogue, user, make_deck):
    deck = _deck(user, make_deck)
    old = deck.share_token
    client.force_login(user)
    response = client.post(
        f"/decks/{deck.pk}/settings/",
        {"name": deck.name, "description": "", "visibility": "public"},
    )
    assert response.status_code in (200, 302)
    deck.refresh_from_db()
    assert deck.visibility == "public" and deck.share_token != old
    assert client.get(f"/api/decks/shared/{old}/").status_code == 404


def test_new_link_on_the_page(client, mini_catalogue, user, other_user, make_deck):
    deck = _deck(user, make_deck)
    old = deck.share_token
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert f'action="/decks/{deck.pk}/new-link/"' in page and "New link" in page
    response = client.post(f"/decks/{deck.pk}/new-link/")
    assert response.status_code == 302
    deck.refresh_from_db()
    assert deck.share_token != old
    assert client.get(f"/decks/shared/{old}/").status_code == 404
    assert deck.share_token in client.get(f"/decks/{deck.pk}/").content.decode()
    # Someone else cannot, and a GET changes nothing.
    client.force_login(other_user)
    assert client.post(f"/decks/{deck.pk}/new-link/").status_code == 404
    client.force_login(user)
    assert client.get(f"/decks/{deck.pk}/new-link/").status_code == 405
    assert Deck.objects.get(pk=deck.pk).share_token == deck.share_token


def test_new_link_on_the_api(client, mini_catalogue, user, other_user, make_deck):
    deck = _deck(user, make_deck)
    old = deck.share_token
    client.force_login(other_user)
    assert client.post(f"/api/decks/{deck.pk}/new-link/").status_code == 404
    client.force_login(user)
    response = client.post(f"/api/decks/{deck.pk}/new-link/")
    assert response.status_code == 200
    deck.refresh_from_db()
    assert deck.share_token != old
    assert response.json()["share_url"].endswith(f"/api/decks/shared/{deck.share_token}/")
    assert client.get(f"/api/decks/shared/{old}/").status_code == 404
    client.logout()
    assert client.post(f"/api/decks/{deck.pk}/new-link/").status_code in (401, 403)


def test_a_replaced_link_says_the_owner_replaced_it(client, mini_catalogue, user, make_deck):
    deck = _deck(user, make_deck)
    old = deck.share_token
    services.deck_new_share_link(deck=deck)
    response = client.get(f"/decks/shared/{old}/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "The owner replaced this link" in page
    assert "Ask the person who sent it for the new link" in page
    # Every page under the old link says the same, and a made-up token only "not here".
    assert (
        "The owner replaced this link" in client.get(f"/decks/shared/{old}/diff/").content.decode()
    )
    other = client.get("/decks/shared/made-up-token/")
    assert other.status_code == 404
    assert "replaced" not in other.content.decode()
    assert "There is no page here" in other.content.decode()


def test_a_withdrawn_link_says_the_deck_is_no_longer_shared(
    client, mini_catalogue, user, make_deck
):
    deck = _deck(user, make_deck)
    old = deck.share_token
    services.deck_update(deck=deck, visibility="private")
    page = client.get(f"/decks/shared/{old}/").content.decode()
    assert "The owner stopped sharing this deck by link" in page
    # Deleting the deck forgets its links.
    services.deck_delete(deck=deck)
    page = client.get(f"/decks/shared/{old}/").content.decode()
    assert "stopped sharing" not in page and "There is no page here" in page
