"""Line errors say where, what and the suggestion once: the same sentence in the API and on
the pages (they once read "Line 3: line 3: … did you mean X? — did you mean X?")."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from decks.models import Deck
from tests.problems import field_errors, first_field, line_errors  # noqa: F401

pytestmark = pytest.mark.django_db

TYPO_LIST = "General:\n1 General Jeffrey Moore\nArsenal:\n4 Tigercatt\n20 Supply Drop\n"
TYPO_MESSAGE = "Line 4: unknown card 'Tigercatt'; did you mean Tigercat?"
SECTION_LIST = "General:\n1 General Jeffrey Moore\nArsenl:\n4 Tigercat\n"
SECTION_MESSAGE = (
    "Line 3: unknown section 'Arsenl'; did you mean arsenal? REDLINE: Tactical Card Combat has general, arsenal, "
    "missions, critical_hits, red_line"
)


def api_validate(client, **body):
    return client.post("/api/validate/", body, content_type="application/json")


def _once(html: str, message: str) -> None:
    shown = escape(message)
    assert html.count(shown) == 1, html
    assert html.count("did you mean") == message.count("did you mean")
    line = message.split(":", 1)[0]
    assert html.count(line + ":") == 1
    assert html.lower().count(line.lower() + ":") == 1


def test_api_line_error_says_line_and_suggestion_once(client, mini_catalogue):
    response = api_validate(client, game="redline", format="standard", list=TYPO_LIST)
    assert response.status_code == 200
    data = response.json()
    assert data["legal"] is False
    assert data["unknown"] == [
        {
            "line": 4,
            "section": "arsenal",
            "name": "Tigercatt",
            "message": TYPO_MESSAGE,
            "suggestions": ["Tigercat"],
        }
    ]


def test_api_unknown_section_says_line_and_suggestion_once(client, mini_catalogue):
    response = api_validate(client, game="redline", format="standard", list=SECTION_LIST)
    assert response.status_code == 400
    errors = line_errors(response.json())
    assert errors[0] == {"line": 3, "message": SECTION_MESSAGE, "suggestions": ["arsenal"]}


def test_api_sections_form_names_the_item_not_a_line(client, mini_catalogue):
    response = api_validate(
        client,
        game="redline",
        format="standard",
        sections={"arsenal": [{"card": "Tigercat", "count": 4}, {"card": "Tigercatt", "count": 1}]},
    )
    assert response.status_code == 200
    assert response.json()["unknown"] == [
        {
            "line": 1,
            "section": "arsenal",
            "name": "Tigercatt",
            "message": "arsenal[1]: unknown card 'Tigercatt'; did you mean Tigercat?",
            "suggestions": ["Tigercat"],
        }
    ]


@pytest.mark.parametrize("htmx", [False, True])
def test_check_page_shows_each_line_error_once(client, mini_catalogue, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(
        reverse("decks:check"),
        {"game_format": "redline/standard", "list": TYPO_LIST},
        **headers,
    )
    assert response.status_code == 200
    _once(response.content.decode(), TYPO_MESSAGE)
    response = client.post(
        reverse("decks:check"), {"game_format": "redline/standard", "list": SECTION_LIST}
    )
    _once(response.content.decode(), SECTION_MESSAGE)


def test_import_and_edit_pages_show_each_line_error_once(client, mini_catalogue, user, make_deck):
    client.force_login(user)
    response = client.post(
        reverse("decks:import"),
        {
            "game_format": "redline/standard",
            "name": "Typo",
            "visibility": "private",
            "list": TYPO_LIST,
        },
    )
    assert response.status_code == 400
    _once(response.content.decode(), TYPO_MESSAGE)
    assert not Deck.objects.filter(name="Typo").exists()

    deck = make_deck(user)
    response = client.post(
        reverse("decks:edit", args=[deck.pk]), {"list": TYPO_LIST, "base_version": 1}
    )
    assert response.status_code == 400
    _once(response.content.decode(), TYPO_MESSAGE)


def test_collection_import_shows_each_line_error_once(client, mini_catalogue, user):
    client.force_login(user)
    response = client.post(
        reverse("decks:collection"), {"game": "redline", "list": "2 Tigercat\n1 Tigercatt\n"}
    )
    assert response.status_code == 400
    _once(response.content.decode(), "Line 2: unknown card 'Tigercatt'; did you mean Tigercat?")
