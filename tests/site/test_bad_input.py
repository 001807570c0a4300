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
    assert response.status_code == 400  # an unknown card: a line error, read as JSON
    assert "errors" in response.json()
