"""Expansion codes written after a card name (`Tigercat (RL1)`) are checked: an unknown code
or an expansion that does not print the card is a line not read, in the API and on the
pages (a check answers it beside the rule problems of the other lines; a save refuses it)."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse
from django.utils.html import escape

from collection.models import CollectionEntry
from decks.models import Deck
from tests.problems import field_errors, first_field, line_errors  # noqa: F401

from .conftest import sample_expansion

pytestmark = pytest.mark.django_db

GAME = "REDLINE: Tactical Card Combat"
BAD_CODES = (
    "General:\n1 General Jeffrey Moore\n"
    "Arsenal:\n4 Moonrunner (RL1)\n4 Tigercat (ZZZ)\n4 Tigercat (RL2)\n16 Supply Drop (rl1)\n"
)
MOONRUNNER_ERROR = {
    "line": 4,
    "message": "Line 4: Moonrunner is not in expansion RL1; it is in RL2",
    "suggestions": ["RL2"],
}
ZZZ_ERROR = {
    "line": 5,
    "message": f"Line 5: no expansion ZZZ in {GAME}; Tigercat is in RL1, RL2",
    "suggestions": ["RL1", "RL2"],
}


@pytest.fixture
def two_expansions(mini_catalogue):
    """RL1 (the mini catalogue) and RL2, which reprints Tigercat and adds Moonrunner."""
    from catalogue.importer import expansion_import

    rl1 = sample_expansion("redline", "RL1")
    tigercat = next(c for c in rl1["cards"] if c["name"] == "Tigercat")
    moonrunner = copy.deepcopy(tigercat)
    moonrunner.update(name="Moonrunner", number="2")
    reprint = copy.deepcopy(tigercat)
    reprint["number"] = "1"
    data = {**{k: v for k, v in rl1.items() if k != "cards"}, "code": "RL2", "name": "Second"}
    data.update(released="2025-01-01", cards=[reprint, moonrunner])
    expansion_import(data=data)


def api_validate(client, **body):
    return client.post("/api/validate/", body, content_type="application/json")


def unknown(error: dict, name: str, section: str = "arsenal") -> dict:
    return {**error, "name": name, "section": section}


def test_api_answers_unknown_codes_and_codes_without_the_card_as_lines_not_read(
    client, two_expansions
):
    response = api_validate(client, game="redline", format="standard", list=BAD_CODES)
    assert response.status_code == 200
    data = response.json()
    assert data["legal"] is False
    assert data["unknown"] == [
        unknown(MOONRUNNER_ERROR, "Moonrunner"),
        unknown(ZZZ_ERROR, "Tigercat"),
    ]
    # the lines that were read are checked: 20 cards in the arsenal
    assert data["totals"]["sections"]["arsenal"] == 20
    assert "arsenal.size" in {e["code"] for e in data["errors"]}


def test_api_accepts_the_right_codes_in_any_case(client, two_expansions):
    text = (
        "General:\n1 General Jeffrey Moore (RL1)\n"
        "Arsenal:\n4 Moonrunner (RL2)\n4 Tigercat (rl2)\n16 Supply Drop (RL1)\n"
    )
    response = api_validate(client, game="redline", format="standard", list=text)
    assert response.status_code == 200, response.json()
    assert response.json()["totals"]["sections"]["arsenal"] == 24


def test_api_sections_form_checks_the_set(client, two_expansions):
    response = api_validate(
        client,
        game="redline",
        format="standard",
        sections={"arsenal": [{"card": "Moonrunner", "count": 1, "set": "ZZZ"}]},
    )
    assert response.status_code == 200
    assert response.json()["unknown"] == [
        {
            "line": 0,
            "section": "arsenal",
            "name": "Moonrunner",
            "message": f"arsenal[0]: no expansion ZZZ in {GAME}; Moonrunner is in RL2",
            "suggestions": ["RL2"],
        }
    ]


def test_check_page_shows_the_code_errors(client, two_expansions):
    response = client.post(
        reverse("decks:check"), {"game_format": "redline/standard", "list": BAD_CODES}
    )
    html = response.content.decode()
    assert response.status_code == 200
    for error in (MOONRUNNER_ERROR, ZZZ_ERROR):
        assert html.count(escape(error["message"])) == 1


def test_import_page_refuses_a_bad_code_and_saves_nothing(client, two_expansions, user):
    client.force_login(user)
    response = client.post(
        reverse("decks:import"),
        {"game_format": "redline/standard", "name": "Coded", "visibility": "private"}
        | {"list": BAD_CODES},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert escape(ZZZ_ERROR["message"]) in html and escape(MOONRUNNER_ERROR["message"]) in html
    assert not Deck.objects.filter(name="Coded").exists()


def test_collection_import_checks_codes_too(client, two_expansions, user):
    client.force_login(user)
    response = client.post(
        reverse("decks:collection"), {"game": "redline", "list": "2 Moonrunner (RL1)\n"}
    )
    assert response.status_code == 400
    assert escape("Line 1: Moonrunner is not in expansion RL1; it is in RL2") in (
        response.content.decode()
    )
    assert not CollectionEntry.objects.filter(owner=user).exists()
