"""`?format=` is a parameter of the operations that have one (the deck list's filter, the
export's kind), never DRF's renderer override: an unknown export format is a 400 listing the
formats; where an operation has no `format` (the text export, the deck list, whose filter is
`fmt`) it is an unknown parameter, a 400 naming it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", ["nosuch", "api"])
def test_an_unknown_export_format_is_a_400_listing_the_formats(client, user, redline_deck, kind):
    client.force_login(user)
    response = client.get(f"/api/decks/{redline_deck.pk}/export/", {"format": kind})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")
    error = response.json()["errors"][0]
    assert error["field"] == "format" and "text, json" in error["message"]


@pytest.mark.parametrize("kind", ["json", "api", "nosuch"])
def test_format_on_the_text_export_is_an_unknown_parameter(client, user, redline_deck, kind):
    client.force_login(user)
    response = client.get(f"/api/decks/{redline_deck.pk}/export/text/", {"format": kind})
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "format" and error["code"] == "unknown_parameter"
    assert "this operation takes v" in error["message"]


def test_the_text_export_answers_text_to_a_json_accept(client, user, redline_deck):
    client.force_login(user)
    response = client.get(
        f"/api/decks/{redline_deck.pk}/export/text/", HTTP_ACCEPT="application/json"
    )
    assert response["Content-Type"] == "text/plain; charset=utf-8"


def test_format_is_not_the_deck_lists_filter(client, user, redline_deck, make_deck):
    """The deck list's format filter is `fmt`: `format`, unknown there, is a 400 naming it and
    the parameters the list takes, not a list of every deck."""
    make_deck(user, fmt="standard", visibility="public")
    response = client.get("/api/decks/", {"format": "standard", "public": "1"})
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "format" and error["code"] == "unknown_parameter"
    assert "fmt, game, legal, mine, page, page_size, public, q" in error["message"]
    response = client.get("/api/decks/", {"fmt": "standard", "public": "1"})
    assert response.status_code == 200
    assert response.json()["results"]


def test_format_api_is_not_the_browsable_page(client):
    response = client.get("/api/decks/", {"format": "api", "public": "1"})
    assert not response["Content-Type"].startswith("text/html")


def test_the_schema_keeps_format_json(client):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    assert "openapi" in response.json()
