"""Each export format is its own operation of one media type (GET export/<format>/), so a
client generated from the schema reads each answer as what it is; `export/?format=` keeps
answering the same bodies for older clients, but is not in the schema (text, JSON and PDF in
one operation cannot be read by a generated client)."""

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


def test_the_export_by_format_parameter_is_not_in_the_schema(schema):
    assert "/api/decks/{id}/export/" not in schema["paths"]


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


def test_a_format_operation_takes_no_format(client, user, redline_deck):
    client.force_login(user)
    response = client.get(f"/api/decks/{redline_deck.pk}/export/json/", {"format": "text"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "format"
    response = client.get(f"/api/decks/{redline_deck.pk}/export/json/")
    assert response["Content-Type"] == "application/json"
    assert response.json()


def test_a_format_operations_parameter_out_of_bounds_is_a_400_naming_it(client, user, redline_deck):
    client.force_login(user)
    response = client.get(f"/api/decks/{redline_deck.pk}/export/proxies/", {"bleed": "7"})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")
    assert [e["field"] for e in response.json()["errors"]] == ["bleed"]


def test_a_version_given_as_a_non_ascii_digit_is_a_400_not_a_crash(client, user, redline_deck):
    client.force_login(user)
    response = client.get(f"/api/decks/{redline_deck.pk}/export/text/", {"v": "²"})
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["v"]


def test_a_public_deck_is_exported_to_an_anonymous_client(
    client, user, make_deck, sample_catalogue
):
    deck = make_deck(user, fmt="standard", visibility="public")
    for kind in ("text", "json"):
        response = client.get(f"/api/decks/{deck.pk}/export/{kind}/")
        assert response.status_code == 200, (kind, response.content)


def test_every_operation_answers_one_media_type(client, db):
    """A generated client reads an operation's answer as the one type it declares: JSON, text
    and CSV in one operation (the wants) or a PDF beside text (the old export) cannot be read."""
    schema = client.get("/api/schema/", {"format": "json"}).json()
    mixed = []
    for template, methods in schema["paths"].items():
        for method, operation in methods.items():
            for status, response in operation.get("responses", {}).items():
                types = list(response.get("content", {}))
                if status.startswith("2") and len(types) > 1:
                    mixed.append(f"{method.upper()} {template} {status}: {types}")
    assert not mixed


@pytest.mark.parametrize(
    ("path", "media"),
    [
        ("/api/collection/wants/", "application/json"),
        ("/api/collection/wants/text/", "text/plain; charset=utf-8"),
        ("/api/collection/wants/csv/", "text/csv; charset=utf-8"),
        ("/api/collection/export/", "text/csv; charset=utf-8"),
        ("/api/collection/export/text/", "text/plain; charset=utf-8"),
    ],
)
def test_the_collections_files_each_have_an_operation(client, user, sample_catalogue, path, media):
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"] == media
    response = client.get(path, {"format": "text"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unknown_parameter"
