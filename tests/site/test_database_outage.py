"""A request whose database connection was lost (the server ended it, as a restart does): a
GET is run once more on a new connection and answers as usual; a write answers 503 with a
retry hint, never 500. (The whole restart under load: tests/faults/test_services_down.py.)"""

from __future__ import annotations

import logging

import psycopg
import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="ends a PostgreSQL server's session; the embedded SQLite file has no server to "
        "lose (the outage answers are also tested on SQLite in test_error_pages.py)",
    ),
]


@pytest.fixture(autouse=True)
def _usable_connection_after():
    """The test's own database work afterwards (the flush) needs a live connection."""
    yield
    connection.close_if_unusable_or_obsolete()
    if connection.connection is not None and not connection.is_usable():
        connection.close()


def _end_the_sites_connection() -> None:
    """Terminate the site's database session from another connection, as a restart does."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_get_that_lost_its_connection_is_answered_on_a_new_one(client, caplog):
    assert client.get("/").status_code == 200
    _end_the_sites_connection()
    with caplog.at_level(logging.WARNING, logger="cardsite.outages"):
        response = client.get("/")
    assert response.status_code == 200
    assert any(getattr(r, "outcome", "") == "retried once, answered" for r in caplog.records)


def test_a_write_that_lost_its_connection_answers_503_with_a_retry_hint(client):
    body = {"game": "redline", "format": "standard", "list": "General:\n1 General Jeffrey Moore"}
    assert client.get("/").status_code == 200
    _end_the_sites_connection()
    response = client.post("/api/validate/", body, content_type="application/json")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert "database is unavailable" in response.json()["detail"]
    # The next request has a working connection again.
    assert client.post("/api/validate/", body, content_type="application/json").status_code in (
        200,
        400,
    )


def test_a_page_write_that_lost_its_connection_answers_a_503_page(client):
    assert client.get("/").status_code == 200
    _end_the_sites_connection()
    response = client.post("/accounts/login/", {"username": "someone", "password": "x" * 12})
    assert response.status_code == 503
    assert "Back in a moment" in response.content.decode()
