"""Under /api/, an address without its trailing slash is the same resource (never an HTML
redirect that loses a POST's body), an unknown one a JSON 404; a problem about a query
parameter names it in `errors`."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

BODY = {"game": "redline", "format": "standard", "list": "General:\n1 Nobody At All\n"}


def test_a_post_without_the_slash_is_answered_as_with_it(client, sample_catalogue):
    with_slash = client.post("/api/validate/", BODY, content_type="application/json")
    without = client.post("/api/validate", BODY, content_type="application/json")
    assert without.status_code == with_slash.status_code == 200
    assert without["Content-Type"] == with_slash["Content-Type"] == "application/json"
    assert without.json() == with_slash.json()


def test_a_get_without_the_slash_is_the_same_resource(client, sample_catalogue):
    response = client.get("/api/games")
    assert response.status_code == 200 and "Location" not in response
    assert response.json() == client.get("/api/games/").json()


@pytest.mark.parametrize("path", ["/api/no-such-route", "/api/no-such-route/", "/api/games/x/y"])
def test_an_unknown_api_path_is_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and "Location" not in response
    assert response["Content-Type"].startswith("application/problem+json")


def test_pages_keep_the_redirect_to_the_slash(client):
    response = client.get("/decks/public")
    assert response.status_code == 301 and response["Location"] == "/decks/public/"


def test_a_nul_in_a_query_parameter_is_named_in_errors(client):
    response = client.get("/api/cards/", {"q": "tiger\x00cat"})
    assert response.status_code == 400
    body = response.json()
    assert body["errors"] and body["errors"][0]["field"] == "q"
    assert "NUL" in body["errors"][0]["message"]
