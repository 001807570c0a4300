"""Bounded cost and no 500 from bad input: a statement cancelled by PostgreSQL's timeout, NUL
characters, JSON nested too deep."""

from __future__ import annotations

import json
import os

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from cardsite.errors import TOO_SLOW

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="statement_timeout is PostgreSQL's"
)


def test_connections_carry_the_statement_timeout(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'")
        setting = cursor.fetchone()[0]
    timeout_ms = settings.DB_STATEMENT_TIMEOUT_MS  # set with a PostgreSQL database only
    assert int(setting) == timeout_ms
    assert "DB_STATEMENT_TIMEOUT_MS" in os.environ or timeout_ms == 5000


@pytest.fixture
def card_table_locked(transactional_db):
    """The card table locked by another session, and this session's statements cancelled
    after 300 ms: any read of the cards times out, as a very costly search would."""
    from catalogue.services import games_sync

    games_sync()
    settings_dict = connection.settings_dict
    other = psycopg.connect(
        dbname=settings_dict["NAME"],
        user=settings_dict["USER"],
        password=settings_dict["PASSWORD"] or None,
        host=settings_dict["HOST"] or "127.0.0.1",
        port=settings_dict["PORT"] or 5432,
    )
    other.execute("LOCK TABLE catalogue_card IN ACCESS EXCLUSIVE MODE")
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 300")
    yield
    other.rollback()
    other.close()
    with connection.cursor() as cursor:
        cursor.execute("RESET statement_timeout")


def test_a_cancelled_statement_is_a_503_page_not_a_500(client, card_table_locked):
    response = client.get("/cards/redline/", {"q": "tiger"})
    assert response.status_code == 503
    assert "took too long" in response.content.decode()


def test_a_cancelled_statement_is_a_503_api_error_not_a_500(client, card_table_locked):
    response = client.get("/api/cards/", {"game": "redline", "q": "tiger"})
    assert response.status_code == 503
    assert response.json()["detail"] == TOO_SLOW


# --- NUL characters -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["/cards/redline/?q=ti%00ger", "/api/cards/?game=redline&q=a%00", "/check/?x%00=1"]
)
def test_nul_in_a_query_string_is_a_400_naming_the_parameter(client, db, url):
    response = client.get(url)
    assert response.status_code == 400
    text = response.content.decode()
    assert "NUL" in text
    assert ("'q'" in text) or ("x\\\\x00" in text or "x\\x00" in text)


def test_nul_in_a_form_field_is_a_400_naming_the_field(client, db):
    response = client.post("/check/", {"game_format": "redline/standard", "list": "1 Ti\x00ger"})
    assert response.status_code == 400
    assert "'list'" in response.content.decode()
    assert "NUL" in response.content.decode()


def test_an_api_form_body_with_nul_is_refused_as_a_form(client, db):
    # The API reads JSON alone: a form body is a 415 before any field is read.
    response = client.post(
        "/api/validate/", {"game": "redline", "format": "standard", "list": "1 A\x00"}
    )
    assert response.status_code == 415


# --- JSON nested too deep -----------------------------------------------------------------


@pytest.mark.parametrize("depth", [1_000, 5_000, 100_000])
def test_deeply_nested_json_is_a_400_on_the_api(client, db, depth):
    body = '{"game": "redline", "format": "standard", "options": ' + "[" * depth + "]" * depth
    body += ', "list": "General:\\n1 X"}'
    response = client.post("/api/validate/", body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]


@pytest.mark.parametrize("depth", [1_000, 50_000])
def test_deeply_nested_json_is_a_400_on_deck_create(client, user, depth):
    client.force_login(user)
    nested = "[" * depth + "]" * depth
    body = (
        '{"game": "redline", "format": "standard", "name": "n", "options": {"a": ' + nested + "}}"
    )
    response = client.post("/api/decks/", body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]


def test_ordinary_json_still_parses(client, db):
    body = json.dumps({"game": "redline", "format": "standard", "list": "General:\n1 X"})
    response = client.post("/api/validate/", body, content_type="application/json")
    # read as JSON: an unknown card is answered as a line not read, beside the verdict
    assert response.status_code == 200
    assert response.json()["unknown"][0]["name"] == "X"


# --- Hostile input of the resilience round: each a 400/404 with a message, never a 500 ---


def test_a_user_name_over_255_characters_at_login_is_a_wrong_login(client, db):
    response = client.post("/accounts/login/", {"username": "u" * 300, "password": "x"})
    assert response.status_code == 200
    assert "Ensure this value has at most 150 characters" in response.content.decode() or (
        "correct username and password" in response.content.decode()
    )


def test_a_user_name_over_255_characters_in_basic_auth_is_refused(client, db):
    import base64

    token = base64.b64encode(("u" * 10_000 + ":secret").encode()).decode()
    response = client.get("/api/decks/", HTTP_AUTHORIZATION=f"Basic {token}")
    assert response.status_code in (401, 403)
    assert "Invalid username/password" in response.json()["detail"]


def _list_file(text: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("list.txt", text, content_type="text/plain")


@pytest.mark.parametrize("url", ["/decks/import/", "/decks/new/", "/collection/"])
def test_a_nul_inside_an_uploaded_list_file_is_a_400_naming_the_line(client, user, url):
    client.force_login(user)
    body = {
        "game_format": "redline/standard",
        "game": "redline",
        "name": "N",
        "visibility": "private",
        "file": _list_file(b"Arsenal:\n4 Tigercat\n4 Tiger\x00cat\n"),
    }
    response = client.post(url, body)
    assert response.status_code == 400
    assert "NUL character (\\x00) on line 3" in response.content.decode()


def _expansion_with_nul() -> dict:
    return {
        "game": "redline",
        "code": "NUL",
        "name": "Nul Set",
        "cards": [
            {"name": "Fine", "kind": "resource", "cost": 0},
            {"name": "Bad\x00Name", "kind": "resource", "cost": 0},
            {"name": "Worse", "kind": "resource", "cost": 0, "text": "a\x00b"},
        ],
    }


def test_a_nul_inside_an_expansion_file_is_a_row_error_in_the_admin(client, staff_user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from catalogue.models import Card

    client.force_login(staff_user)
    upload = SimpleUploadedFile("nul.json", json.dumps(_expansion_with_nul()).encode())
    response = client.post("/admin/catalogue/expansion/import/", {"file": upload})
    assert response.status_code == 200
    errors = [str(e) for e in response.context["report"].errors]
    assert errors == [
        "card #1, name: contains a NUL character (\\x00), which text cannot hold",
        "card #2 (Worse), text: contains a NUL character (\\x00), which text cannot hold",
    ]
    assert "nothing will be imported" in response.content.decode()
    client.post("/admin/catalogue/expansion/import/", {"confirm": "1"})
    assert not Card.objects.exists()


def test_a_nul_inside_an_expansion_file_is_a_row_error_for_the_command(db, tmp_path):
    from django.core.management import CommandError, call_command

    path = tmp_path / "nul.json"
    path.write_text(json.dumps(_expansion_with_nul()))
    err = __import__("io").StringIO()
    with pytest.raises(CommandError):
        call_command("import_expansion", str(path), stderr=err)
    assert "card #1, name: contains a NUL character" in err.getvalue()


@pytest.mark.parametrize(
    "url", ["/cards/redline/sets/%00/", "/api/decks/%00/", "/decks/shared/%00/"]
)
def test_a_nul_in_a_path_segment_is_a_404_saying_why(client, db, url):
    response = client.get(url)
    assert response.status_code == 404
    assert "NUL character" in response.content.decode()


def test_a_non_ascii_digit_as_a_version_number_is_a_404(client, user, sample_catalogue):
    from decks.services import deck_create
    from tests.decks.conftest import sample_list

    deck = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="D",
        visibility="public",
        text=sample_list("redline", "standard"),
    )
    for digit in ("²", "٣", "9" * 30, "-1"):
        assert client.get(f"/api/decks/{deck.pk}/export/", {"v": digit}).status_code == 404
        assert client.get(f"/simulations/decks/{deck.pk}/", {"v": digit}).status_code == 404
        assert client.get(f"/decks/{deck.pk}/", {"v": digit}).status_code in (404, 200)
