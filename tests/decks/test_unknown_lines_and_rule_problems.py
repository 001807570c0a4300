"""A list with unknown names answers both at once: the lines not read (line, name, the
closest names) and every rule problem of the lines that were read, naming their lines;
not legal while a line is unknown. The validate API answers 200 with both, the check page
shows both (each suggestion a one-click fix), deck import refuses the list and says both.
Names match exactly (up to case, spacing and punctuation): a prefix is an unknown card."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from decks.models import Deck

from .conftest import sample_list

pytestmark = pytest.mark.django_db

# The shipped REDLINE list with one name cut short (line 8) and a fifth Longbow (line 10),
# so the arsenal is also not 60 once the unknown line is left out.
STANDARD = sample_list("redline", "standard")
LINES = STANDARD.splitlines()
assert LINES[7] == "4 Tigercat" and LINES[9] == "4 Longbow"
TYPO = "\n".join([*LINES[:7], "4 Tigerca", LINES[8], "5 Longbow", *LINES[10:]]) + "\n"


def api_validate(client, **body):
    return client.post("/api/validate/", body, content_type="application/json")


def test_api_answers_the_unknown_line_and_the_rule_problems_together(client, sample_catalogue):
    response = api_validate(client, game="redline", format="standard", list=TYPO)
    assert response.status_code == 200
    data = response.json()
    assert data["legal"] is False
    (unknown,) = data["unknown"]
    assert unknown["line"] == 8 and unknown["name"] == "Tigerca"
    assert unknown["section"] == "arsenal"
    assert unknown["suggestions"][0] == "Tigercat"
    assert unknown["message"].startswith("Line 8: unknown card 'Tigerca'")
    by_code = {e["code"]: e for e in data["errors"]}
    assert by_code["arsenal.copies"]["message"] == "Line 10: 5 copies of Longbow; at most 4"
    assert by_code["arsenal.copies"]["lines"] == [10]
    assert by_code["arsenal.size"]["message"] == "57 cards in the arsenal; exactly 60"
    assert by_code["arsenal.size"]["lines"] == []
    assert data["totals"]["sections"]["arsenal"] == 57


def test_api_a_list_of_known_names_only_is_legal_with_no_unknown_lines(client, sample_catalogue):
    data = api_validate(client, game="redline", format="standard", list=STANDARD).json()
    assert data["legal"] is True and data["unknown"] == []


def test_api_a_list_that_does_not_parse_is_still_a_400(client, sample_catalogue):
    text = TYPO.replace("5 Longbow", "five Longbow")
    response = api_validate(client, game="redline", format="standard", list=text)
    assert response.status_code == 400
    lines = {e["line"] for e in response.json()["errors"]}
    assert {8, 10} <= lines


def test_api_sections_form_answers_unknown_items_beside_the_problems(client, sample_catalogue):
    sections = {
        "general": [{"card": "General Jeffrey", "count": 1}],
        "arsenal": [{"card": "Tigercat", "count": 5}],
    }
    data = api_validate(client, game="redline", format="standard", sections=sections).json()
    assert [(u["section"], u["line"], u["name"]) for u in data["unknown"]] == [
        ("general", 0, "General Jeffrey")
    ]
    assert "General Jeffrey Moore" in data["unknown"][0]["suggestions"]
    copies = next(e for e in data["errors"] if e["code"] == "arsenal.copies")
    assert copies["message"] == "arsenal[0]: 5 copies of Tigercat; at most 4"


def test_the_schema_documents_the_unknown_lines(client):
    schema = client.get("/api/schema/?format=json").json()
    report = schema["components"]["schemas"]["ValidationReport"]
    assert {"legal", "errors", "warnings", "totals", "unknown"} <= set(report["properties"])
    unknown = schema["components"]["schemas"]["UnknownLine"]
    assert set(unknown["properties"]) == {"line", "section", "name", "message", "suggestions"}
    assert "lines" in schema["components"]["schemas"]["Violation"]["properties"]


@pytest.mark.parametrize("htmx", [False, True])
def test_check_page_shows_unknown_lines_with_fixes_and_every_problem(
    client, sample_catalogue, htmx
):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(
        reverse("decks:check"), {"game_format": "redline/standard", "list": TYPO}, **headers
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Not legal: 1 card not found, 2 problems" in html
    assert escape("Line 8: unknown card 'Tigerca'") in html
    # a one-click fix per suggestion, naming the line and the name it replaces
    fixes = re.findall(r'<button type="button" class="fix"([^>]*)>', html)
    assert fixes and all('data-line="8"' in f and 'data-name="Tigerca"' in f for f in fixes)
    assert any('data-card="Tigercat"' in f for f in fixes)
    assert escape("Line 10: 5 copies of Longbow; at most 4") in html
    assert "57 cards in the arsenal; exactly 60" in html
    # the card a problem names is not repeated beside it
    assert "(Longbow)" not in html
    # a player reads sentences: no rule code shown as text
    text = re.sub(r"<[^>]+>", " ", html)
    assert "arsenal.copies" not in text and "arsenal.size" not in text
    if not htmx:
        assert "js/check.js" in html


def test_import_refuses_unknown_names_and_says_the_rule_problems_too(
    client, sample_catalogue, user
):
    client.force_login(user)
    body = {
        "game": "redline",
        "format": "standard",
        "name": "Typo",
        "list": TYPO,
    }
    response = client.post("/api/decks/import/", body, content_type="application/json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors[0]["line"] == 8 and errors[0]["suggestions"][0] == "Tigercat"
    assert errors[0]["code"] == "unknown_card" and "severity" not in errors[0]
    problems = {(e["code"], e["line"], e["message"]) for e in errors[1:]}
    assert ("arsenal.copies", 10, "Line 10: 5 copies of Longbow; at most 4") in problems
    assert ("arsenal.size", 0, "57 cards in the arsenal; exactly 60") in problems
    assert not Deck.objects.filter(name="Typo").exists()


def test_import_page_refuses_unknown_names_and_shows_the_rule_problems(
    client, sample_catalogue, user
):
    client.force_login(user)
    response = client.post(
        reverse("decks:import"),
        {"game_format": "redline/standard", "name": "Typo", "visibility": "private", "list": TYPO},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert escape("Line 8: unknown card 'Tigerca'") in html
    assert "Problems of the lines that were read" in html
    assert escape("Line 10: 5 copies of Longbow; at most 4") in html
    assert not Deck.objects.filter(name="Typo").exists()


def test_quick_add_stays_forgiving_and_says_what_it_added(client, sample_catalogue, user):
    from decks.services import deck_create

    client.force_login(user)
    deck = deck_create(owner=user, game_slug="redline", format="standard", name="Quick")
    url = reverse("builder:quick", args=[deck.pk])
    response = client.post(url, {"name": "Tigerca", "base": ""}, HTTP_HX_REQUEST="true")
    assert "Added 1 Tigercat to Arsenal." in response.content.decode()


def test_a_name_one_word_short_is_offered_the_card_it_begins(client, sample_catalogue):
    """ "Hidden" is too unlike "Hidden Supply Depot" for a similarity search alone: the
    suggestions look for the names it begins too (through the trigram index)."""
    text = STANDARD.replace("4 Hidden Supply Depot", "4 Hidden")
    data = api_validate(client, game="redline", format="standard", list=text).json()
    (unknown,) = data["unknown"]
    assert unknown["name"] == "Hidden"
    assert "Hidden Supply Depot" in unknown["suggestions"]
    assert all(s.startswith("Hidden ") for s in unknown["suggestions"])
