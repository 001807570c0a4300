"""The site's own error pages (the tests run with DEBUG off, as `make run` serves): a 404 in
the site's style with a way back and a card search, a 500 that renders with the database
down, 403 and a failed CSRF check in the site's style."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_mistyped_address_answers_the_sites_404_page(client):
    assert settings.DEBUG is False
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert '<meta name="viewport"' in page
    assert 'href="/static/css/site.css"' in page  # the site's style
    assert "There is no page here" in page
    assert 'href="/"' in page and ">Home<" in page  # a way back
    assert 'role="search"' in page and 'name="q"' in page
    assert "URLconf" not in page  # not Django's debug page


def test_the_404_search_box_searches_the_game_of_the_address(client):
    page = client.get("/cards/redline/card/999999/").content.decode()
    assert '<option value="redline" selected>' in page
    response = client.get("/cards/", {"game": "redline", "q": "tiger cat"})
    assert response.status_code == 302
    assert response["Location"] == "/cards/redline/?q=tiger+cat"
    # An unknown game is ignored: the list of games.
    assert client.get("/cards/", {"game": "nope", "q": "x"}).status_code == 200


def _refuse_every_query(execute, sql, params, many, context):
    raise OperationalError("unable to open database file")


class _Lost(Exception):
    """A driver's error of a session the server ended (PostgreSQL's SQLSTATE 57P01)."""

    sqlstate = "57P01"


def _end_every_session(execute, sql, params, many, context):
    try:
        raise _Lost("terminating connection due to administrator command")
    except _Lost as exc:
        raise OperationalError(str(exc)) from exc


def _malformed_query(execute, sql, params, many, context):
    """A query the database cannot run (SQLite reading a date as JSON): a bug, not an outage."""
    raise OperationalError("malformed JSON")


class _Syntax(Exception):
    sqlstate = "42601"


def _bad_syntax(execute, sql, params, many, context):
    try:
        raise _Syntax('syntax error at or near "JSON_EXTRACT"')
    except _Syntax as exc:
        raise OperationalError(str(exc)) from exc


def _fail_every_query(execute, sql, params, many, context):
    raise RuntimeError("a fault that is not the database being down")


def test_the_500_page_renders_without_the_database():
    """A failure that is not an outage is the site's 500 page, which reads no database (every
    query keeps failing while it renders)."""
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(_fail_every_query):
        response = client.get("/")  # the home page reads the database: it fails
    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong on our side" in page
    assert 'href="/static/css/site.css"' in page and ">Home<" in page


def test_the_database_down_is_a_503_page_with_a_retry_hint():
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(_refuse_every_query):
        response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"]
    assert "Back in a moment" in response.content.decode()


def test_forbidden_and_failed_csrf_pages_are_the_sites(user):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    assert "This form has expired" in response.content.decode()
    assert 'href="/static/css/site.css"' in response.content.decode()


def test_403_and_503_pages_are_the_sites(rf, user):
    from django.core.exceptions import PermissionDenied
    from django.template.loader import render_to_string
    from django.views.defaults import permission_denied

    request = rf.get("/somewhere/")
    request.user = user
    response = permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    assert "You may not open this page" in response.content.decode()
    assert ">Home<" in response.content.decode()
    page = render_to_string("503.html", {})
    assert "Cardsite is not available right now" in page and ">Home<" in page


def test_the_api_answers_its_errors_in_json():
    client = Client(raise_request_exception=False)
    response = client.get("/api/no-such-route/")
    assert response.status_code == 404 and response.json()["status"] == 404
    assert response["Content-Type"].startswith("application/problem+json")
    with connection.execute_wrapper(_fail_every_query):
        response = client.get("/api/games/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/problem+json")
    with connection.execute_wrapper(_refuse_every_query):
        response = client.get("/api/games/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/problem+json")


@pytest.mark.parametrize("fault", [_refuse_every_query, _end_every_session])
def test_a_lost_database_is_a_503_with_a_retry_hint(fault):
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(fault):
        response = client.get("/api/games/")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "database is unavailable" in response.json()["detail"]


@pytest.mark.parametrize("fault", [_malformed_query, _bad_syntax])
def test_a_database_error_that_is_no_outage_is_a_logged_500(fault, caplog):
    """A query the database refuses is a bug: a 500 problem, logged as an error with its
    traceback, never a 503 telling the client to retry (it would retry forever)."""
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(fault), caplog.at_level("ERROR", logger="django.request"):
        api = client.get("/api/games/")
        page = client.get("/")
    assert api.status_code == 500 and "Retry-After" not in api
    assert api["Content-Type"].startswith("application/problem+json")
    assert page.status_code == 500 and "Retry-After" not in page
    errors = [r for r in caplog.records if r.levelname == "ERROR" and r.exc_info]
    assert {r.exc_info[0] for r in errors} == {OperationalError} and len(errors) == 2
