"""Each export format is its own operation of one media type (GET export/<format>/), so a
client generated from the schema reads each answer as what it is; `export/?format=` keeps
answering the same bodies (declared deprecated)."""

from __future__ import annotations

import pytest

from decks import exports

pytestmark = pytest.mark.django_db

ONE_TYPE = [k for k in exports.FORMATS if k != "units"]


@pytest.fixture
def schema(client):
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def test_every_format_has_an_operation_of_one_media_type(schema):
    for kind, fmt in exports.FORMATS.items():
        operation = schema["paths"][f"/api/decks/{{id}}/export/{kind}/"]["get"]
        assert list(operation["responses"]["200"]["content"]) == [fmt.media_type], kind
        assert not operation.get("deprecated")


def test_the_export_by_format_parameter_is_deprecated(schema):
    assert schema["paths"]["/api/decks/{id}/export/"]["get"]["deprecated"] is True


@pytest.mark.parametrize("kind", ONE_TYPE)
def test_each_format_answers_its_media_type_and_the_old_routes_body(
    client, user, redline_deck, kind
):
    client.force_login(user)
    url = f"/api/decks/{redline_deck.pk}/export/"
    response = client.get(f"{url}{kind}/")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].split(";")[0] == exports.FORMATS[kind].media_type
    old = client.get(url, {"format": kind})
    if response["Content-Type"].startswith("application/pdf"):
        assert response.content.startswith(b"%PDF") and old.content.startswith(b"%PDF")
    else:
        assert response.content == old.content


def test_a_format_operation_answers_its_type_whatever_format_asks(client, user, redline_deck):
    client.force_login(user)
    response = client.get(f"/api/decks/{redline_deck.pk}/export/json/", {"format": "text"})
    assert response["Content-Type"] == "application/json"
    assert response.json()


def test_a_format_operations_parameter_out_of_bounds_is_a_400_naming_it(client, user, redline_deck):
    client.force_login(user)
    response = client.get(f"/api/decks/{redline_deck.pk}/export/proxies/", {"bleed": "7"})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")
    assert [e["field"] for e in response.json()["errors"]] == ["bleed"]


def test_a_version_given_as_a_non_ascii_digit_is_a_404_not_a_crash(client, user, redline_deck):
    client.force_login(user)
    response = client.get(f"/api/decks/{redline_deck.pk}/export/text/", {"v": "²"})
    assert response.status_code == 404


def test_a_public_deck_is_exported_to_an_anonymous_client(
    client, user, make_deck, sample_catalogue
):
    deck = make_deck(user, fmt="standard", visibility="public")
    for kind in ("text", "json"):
        response = client.get(f"/api/decks/{deck.pk}/export/{kind}/")
        assert response.status_code == 200, (kind, response.content)
