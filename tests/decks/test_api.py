"""Deck API flows: create, import, versions with conflicts, export, schema."""

from __future__ import annotations

import os

import pytest

from decks.models import Deck, DeckVersion
from tests.problems import field_errors, first_field, line_errors  # noqa: F401

from .conftest import MINI_LIST, MINI_LIST_2


@pytest.fixture
def api(client, user):
    client.force_login(user)
    return client


def post(client, url, data):
    return client.post(url, data, content_type="application/json")


def test_import_creates_a_deck_with_version_1(api, mini_catalogue, user):
    response = post(
        api,
        "/api/decks/import/",
        {"game": "redline", "format": "standard", "name": "Imported", "list": MINI_LIST},
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["current_version"] == 1 and body["owner"] == "alice"
    assert body["version"]["entries"][1] == {"section": "arsenal", "card": "Tigercat", "count": 4}
    assert body["legal"] is False and body["violations_count"] == len(body["report"]["errors"])
    assert Deck.objects.get().owner == user


def test_import_with_line_errors_is_a_400_and_creates_nothing(api, mini_catalogue):
    response = post(
        api,
        "/api/decks/import/",
        {
            "game": "redline",
            "format": "standard",
            "name": "Bad",
            "list": "General:\n1 General Jeffrey Moore\n4 x\nArsenal:\n4 Tigercatt\n",
        },
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    # the lines not read first; then the rule problems of the lines that were read
    unread = [e for e in errors if "severity" not in e]
    assert [e["line"] for e in unread] == [3, 5]
    assert unread[1]["suggestions"] == ["Tigercat"]
    problems = [e for e in errors if "severity" in e]
    assert errors == unread + problems
    assert ("arsenal.size", "0 cards in the arsenal; exactly 60") in {
        (e["code"], e["message"]) for e in problems
    }
    assert not Deck.objects.exists()


def test_create_validates_game_and_format(api, mini_catalogue):
    response = post(api, "/api/decks/", {"game": "redline", "format": "nope", "name": "x"})
    assert response.status_code == 400 and "format" in field_errors(response.json())
    response = post(
        api,
        "/api/decks/",
        {"game": "redline", "format": "standard", "name": "x", "visibility": "public"},
    )
    assert response.status_code == 201 and response.json()["current_version"] is None


def test_sections_body_saves_too(api, mini_catalogue, make_deck, user):
    deck = make_deck(user)
    response = post(
        api,
        f"/api/decks/{deck.pk}/versions/",
        {
            "sections": {
                "general": [{"card": "General Jeffrey Moore"}],
                "arsenal": [{"card": "rabbit", "count": 2}],
            },
            "based_on": 1,
        },
    )
    assert response.status_code == 201
    assert response.json()["entries"][1] == {"section": "arsenal", "card": "Rabbit", "count": 2}
    assert response.json()["based_on"] == 1


def test_two_api_saves_from_the_same_base_second_gets_409(api, mini_catalogue, make_deck, user):
    deck = make_deck(user)
    url = f"/api/decks/{deck.pk}/versions/"
    first = post(api, url, {"list": MINI_LIST_2, "based_on": 1})
    assert first.status_code == 201 and first.json()["number"] == 2
    second = post(api, url, {"list": MINI_LIST, "based_on": 1})
    assert second.status_code == 409
    assert second.json()["current_version"] == 2
    assert "detail" in second.json()
    assert DeckVersion.objects.filter(deck=deck).count() == 2
    current = api.get(f"/api/decks/{deck.pk}/").json()
    assert current["current_version"] == 2
    assert "2 Rabbit" in current["version"]["list_text"]


def test_versions_are_read_only_through_the_api(api, mini_catalogue, make_deck, user):
    deck = make_deck(user)
    url = f"/api/decks/{deck.pk}/versions/1/"
    assert api.get(url).json()["number"] == 1
    for method in ("put", "patch", "delete"):
        assert getattr(api, method)(url, {}, content_type="application/json").status_code == 405
    assert api.put(f"/api/decks/{deck.pk}/", {}, content_type="application/json").status_code == 405


def test_patch_changes_only_name_description_visibility(api, mini_catalogue, make_deck, user):
    deck = make_deck(user)
    response = api.patch(
        f"/api/decks/{deck.pk}/",
        {"visibility": "unlisted", "format": "scramble", "legal": True},
        content_type="application/json",
    )
    assert response.status_code == 200
    deck.refresh_from_db()
    assert deck.visibility == "unlisted" and deck.format == "standard" and not deck.legal
    assert response.json()["share_url"].endswith(f"/api/decks/shared/{deck.share_token}/")
    bad = api.patch(
        f"/api/decks/{deck.pk}/", {"visibility": "secret"}, content_type="application/json"
    )
    assert bad.status_code == 400


def test_export_text_and_json(api, mini_catalogue, make_deck, user):
    deck = make_deck(user)
    post(api, f"/api/decks/{deck.pk}/versions/", {"list": MINI_LIST_2, "based_on": 1})
    text = api.get(f"/api/decks/{deck.pk}/export/?format=text")
    assert text["Content-Type"].startswith("text/plain")
    assert "2 Rabbit" in text.content.decode()
    old = api.get(f"/api/decks/{deck.pk}/export/?format=json&v=1").json()
    assert old["version"] == 1 and "rabbit" not in str(old).lower()
    assert api.get(f"/api/decks/{deck.pk}/export/?format=json&v=9").status_code == 404


def test_deck_list_filters(api, mini_catalogue, make_deck, user, other_user):
    make_deck(user, "public", name="Alpha")
    make_deck(other_user, "public", name="Beta")
    make_deck(other_user, "private", name="Gamma")
    names = lambda r: sorted(d["name"] for d in r.json()["results"])  # noqa: E731
    assert names(api.get("/api/decks/")) == ["Alpha"]
    assert names(api.get("/api/decks/?public=1")) == ["Alpha", "Beta"]
    assert names(api.get("/api/decks/?public=1&q=bet")) == ["Beta"]
    assert names(api.get("/api/decks/?game=red-code")) == []


def test_writes_are_throttled_with_the_deck_write_scope(
    api, mini_catalogue, make_deck, user, settings
):
    from rest_framework.settings import api_settings

    rates = dict(api_settings.DEFAULT_THROTTLE_RATES, deck_write="2/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    from rest_framework.throttling import ScopedRateThrottle

    ScopedRateThrottle.THROTTLE_RATES = rates
    try:
        deck = make_deck(user)
        url = f"/api/decks/{deck.pk}/"
        codes = [
            api.patch(url, {"name": f"n{i}"}, content_type="application/json").status_code
            for i in range(3)
        ]
        assert codes == [200, 200, 429]
        assert api.get(url).status_code == 200  # reads are not counted
    finally:
        ScopedRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES


def test_validate_endpoint_still_works(client, mini_catalogue):
    response = post(
        client, "/api/validate/", {"game": "redline", "format": "standard", "list": MINI_LIST}
    )
    assert response.status_code == 200 and response.json()["legal"] is False


def test_schema_is_valid(client):
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", stdout=open(os.devnull, "w"))
    assert client.get("/api/schema/").status_code == 200
