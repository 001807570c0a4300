"""What one list may cost: its size is capped (a 400 stating the limit on the API and the
pages), "did you mean" suggestions come from the trigram index for the first unknown names
only, in a bounded number of queries; absurd counts are line errors, never a 500."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from decks.models import Deck
from tests.problems import field_errors, first_field, line_errors  # noqa: F401
from validation.decklist import (
    MAX_ENTRIES,
    MAX_LIST_LINES,
    MAX_SECTIONS,
    MAX_SUGGESTED,
)

from .conftest import MINI_LIST


def _validate(client, **body):
    return client.post(
        "/api/validate/", {"game": "redline", "format": "standard", **body}, format="json"
    )


def _post_json(client, url, body):
    return client.post(url, body, content_type="application/json")


# --- Suggestions ----------------------------------------------------------------------------


def _unknown_list(n: int) -> str:
    return "Arsenal:\n" + "".join(f"1 Tigercatt {i}\n" for i in range(n))


def _check_queries(client, text: str) -> tuple[int, list]:
    with CaptureQueriesContext(connection) as queries:
        response = _post_json(
            client, "/api/validate/", {"game": "redline", "format": "standard", "list": text}
        )
    # a list that parses with unknown names: answered (200) with the lines not read
    assert response.status_code == 200
    return len(queries.captured_queries), response.json()["unknown"]


def test_suggestions_cost_the_same_queries_for_many_unknown_names(client, mini_catalogue):
    few, _ = _check_queries(client, _unknown_list(1))
    many, errors = _check_queries(client, _unknown_list(300))
    assert many == few
    assert len(errors) == 300
    assert all(e["suggestions"] == ["Tigercat"] for e in errors[:MAX_SUGGESTED])
    assert all(e["suggestions"] == [] for e in errors[MAX_SUGGESTED:])
    assert f"first {MAX_SUGGESTED} unknown names" in errors[-1]["message"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigram index")
def test_suggestions_are_looked_up_in_one_query_for_every_name(client, mini_catalogue):
    with CaptureQueriesContext(connection) as queries:
        _check_queries(client, _unknown_list(3))
    lookups = [q["sql"] for q in queries.captured_queries if "CROSS JOIN LATERAL" in q["sql"]]
    assert len(lookups) == 1
    assert '"name" %' in lookups[0] or "card.name %" in lookups[0]


# --- Size limits ----------------------------------------------------------------------------


def test_api_refuses_a_list_of_too_many_lines_stating_the_limit(client, db):
    text = "Arsenal:\n" + "1 Tigercat\n" * (MAX_LIST_LINES + 5)
    response = _post_json(
        client, "/api/validate/", {"game": "redline", "format": "standard", "list": text}
    )
    assert response.status_code == 400
    assert f"at most {MAX_LIST_LINES:,} lines" in field_errors(response.json())["list"]


def test_api_refuses_a_list_of_too_many_bytes_stating_the_limit(client, db):
    text = "Arsenal:\n1 " + "é" * 30_000  # 30,000 characters, 60,000 bytes
    response = _post_json(
        client, "/api/validate/", {"game": "redline", "format": "standard", "list": text}
    )
    assert response.status_code == 400
    assert "at most 50,000 bytes" in field_errors(response.json())["list"]


def test_api_refuses_too_many_sections_and_entries_stating_the_limit(client, user, db):
    sections = {f"s{i}": [] for i in range(MAX_SECTIONS + 1)}
    response = _post_json(
        client,
        "/api/validate/",
        {"game": "redline", "format": "standard", "sections": sections},
    )
    assert response.status_code == 400
    assert f"at most {MAX_SECTIONS}" in field_errors(response.json())["sections"]

    entries = [{"card": "Tigercat", "count": 1}] * (MAX_ENTRIES + 1)
    client.force_login(user)
    response = _post_json(
        client,
        "/api/decks/",
        {"game": "redline", "format": "standard", "name": "Big", "sections": {"arsenal": entries}},
    )
    assert response.status_code == 400
    assert f"at most {MAX_ENTRIES}" in field_errors(response.json())["sections"]
    assert not Deck.objects.exists()


def test_check_page_refuses_a_list_of_too_many_lines_stating_the_limit(client, db):
    text = "Arsenal:\n" + "1 Tigercat\n" * (MAX_LIST_LINES + 5)
    response = client.post(
        reverse("decks:check"), {"game_format": "redline/standard", "list": text}
    )
    assert response.status_code == 400
    assert f"at most {MAX_LIST_LINES:,} lines" in response.content.decode()


@pytest.mark.parametrize("url", ["decks:import", "decks:new"])
def test_deck_create_pages_refuse_a_list_too_large_stating_the_limit(client, user, db, url):
    client.force_login(user)
    text = "Arsenal:\n" + "1 Tigercat\n" * (MAX_LIST_LINES + 5)
    response = client.post(
        reverse(url),
        {"game_format": "redline/standard", "name": "Big", "visibility": "private", "list": text},
    )
    assert response.status_code == 400
    assert f"at most {MAX_LIST_LINES:,} lines" in response.content.decode()
    assert not Deck.objects.exists()


def test_import_page_refuses_a_file_too_large_stating_the_limit(client, user, db):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(user)
    text = "Arsenal:\n" + "1 A\n" * (MAX_LIST_LINES + 5)
    upload = SimpleUploadedFile("list.txt", text.encode(), content_type="text/plain")
    response = client.post(
        reverse("decks:import"),
        {"game_format": "redline/standard", "name": "F", "visibility": "private", "file": upload},
    )
    assert response.status_code == 400
    assert f"at most {MAX_LIST_LINES:,} lines" in response.content.decode()


def test_builder_refuses_a_replace_of_too_many_cards(client, user, mini_catalogue, make_deck):
    deck = make_deck(user, text=MINI_LIST)
    client.force_login(user)
    response = client.post(
        reverse("builder:change", args=[deck.pk]),
        {
            "op": "replace",
            "section": "arsenal",
            "cards": [f"Card {i}" for i in range(MAX_ENTRIES + 1)],
        },
    )
    assert response.status_code == 400
    assert f"at most {MAX_ENTRIES}" in response.content.decode()


# --- Absurd numbers -------------------------------------------------------------------------

HUGE = "9" * 5000


@pytest.mark.parametrize(
    "text",
    [f"Arsenal:\n{HUGE} Tigercat\n", f"Arsenal:\n{HUGE}x Tigercat\n", f"Arsenal:\n1 A @{HUGE},1\n"],
)
def test_a_count_of_5000_digits_is_a_line_error(client, db, text):
    response = _post_json(
        client, "/api/validate/", {"game": "redline", "format": "standard", "list": text}
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors[0]["line"] == 2
    assert len(errors[0]["message"]) < 200


def test_a_count_of_5000_digits_in_sections_is_a_400(client, db):
    body = (
        '{"game": "redline", "format": "standard", "sections": {"arsenal": '
        '[{"card": "Tigercat", "count": ' + HUGE + "}]}}"
    )
    response = client.post("/api/validate/", body, content_type="application/json")
    assert response.status_code == 400


def test_a_count_of_5000_digits_on_the_check_page_is_a_line_error(client, db):
    response = client.post(
        reverse("decks:check"),
        {"game_format": "redline/standard", "list": f"Arsenal:\n{HUGE} Tigercat\n"},
    )
    assert response.status_code == 200
    assert "bad count" in response.content.decode()


def test_builder_refuses_a_count_of_5000_digits_naming_the_field(
    client, user, mini_catalogue, make_deck
):
    deck = make_deck(user, text=MINI_LIST)
    client.force_login(user)
    response = client.post(
        reverse("builder:change", args=[deck.pk]),
        {"op": "set", "section": "arsenal", "card": "Tigercat", "count": HUGE},
    )
    assert response.status_code == 400
    assert response.content.decode().startswith("count:")
