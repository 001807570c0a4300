"""The schema says what the server does: nullable fields, the search answer's extra fields,
and every example in it is accepted by the server."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client):
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def test_fields_that_can_be_null_are_nullable(schema):
    components = schema["components"]["schemas"]
    assert components["DeckDetail"]["properties"]["share_url"]["nullable"] is True
    assert components["Version"]["properties"]["based_on"]["nullable"] is True


def test_the_search_answer_declares_read_as_and_problems(schema):
    ref = schema["paths"]["/api/cards/"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]["$ref"]
    page = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert {"read_as", "problems"} <= page["properties"].keys()


def test_every_request_example_is_accepted(client, schema, sample_catalogue, user):
    client.force_login(user)
    posted = 0
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            content = operation.get("requestBody", {}).get("content", {})
            for media, body in content.items():
                for example in body.get("examples", {}).values():
                    assert "{" not in path, f"an example of {path} needs its path filled in"
                    response = getattr(client, method)(path, example["value"], content_type=media)
                    assert response.status_code < 300, (path, response.content)
                    posted += 1
    assert posted >= 1


def test_games_formats_and_simulation_kinds_are_enums_from_the_registry(schema):
    from simulations import kinds
    from validation.registry import registry

    components = schema["components"]["schemas"]
    assert set(components["GameEnum"]["enum"]) == set(registry.slugs())
    formats = {f.slug for g in registry.all() for f in g.formats.values()}
    assert set(components["FormatEnum"]["enum"]) == formats
    assert set(components["SimulationKindEnum"]["enum"]) == {k.slug for k in kinds.all_kinds()}


@pytest.mark.parametrize(
    "name",
    ["ValidateRequestRequest", "DeckImportRequest", "VersionCreateRequest", "DeckCreateRequest"],
)
def test_list_and_sections_together_are_not_allowed_by_the_schema(schema, name):
    assert schema["components"]["schemas"][name]["not"] == {"required": ["list", "sections"]}


def test_the_server_refuses_list_and_sections_together(client, sample_catalogue):
    response = client.post(
        "/api/validate/",
        {"game": "redline", "format": "standard", "list": "x", "sections": {}},
        content_type="application/json",
    )
    assert response.status_code == 400
