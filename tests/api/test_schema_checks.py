"""What the server checks, the schema says: a text's maxLength counts the characters sent
(spaces around it are trimmed after the check); the boxes of `ships`/`friends` are the
schema's pattern; a campaign's `game` is one of the games with campaigns."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

VISUAL_FIELD = "/api/play/red-code/visual-field/"


@pytest.fixture
def schema(client):
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def _fields(response):
    assert response.status_code == 400, response.content
    return [e["field"] for e in response.json()["errors"]]


@pytest.mark.parametrize("space", ["\f", " ", "\t", "\u00a0"])
def test_a_name_over_the_limit_as_sent_is_refused_though_trimming_would_fit(
    client, user, sample_catalogue, space
):
    client.force_login(user)
    body = {"game": "redline", "format": "standard", "name": space + "x" * 200}
    response = client.post("/api/decks/", body, content_type="application/json")
    assert "name" in _fields(response)


def test_a_name_within_the_limit_is_trimmed(client, user, sample_catalogue):
    client.force_login(user)
    body = {"game": "redline", "format": "standard", "name": "\f Trimmed \t"}
    response = client.post("/api/decks/", body, content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Trimmed"


def test_a_rename_and_a_description_over_the_limit_as_sent_are_refused(client, user, redline_deck):
    client.force_login(user)
    url = f"/api/decks/{redline_deck.pk}/"
    body = {"name": "\f" + "x" * 200, "description": " " + "y" * 5000}
    response = client.patch(url, body, content_type="application/json")
    assert set(_fields(response)) == {"name", "description"}


def test_a_campaign_name_over_the_limit_as_sent_is_refused(client, user, sample_catalogue):
    client.force_login(user)
    body = {"game": "tactical-assault", "name": "\f" + "x" * 200}
    response = client.post("/api/play/campaigns/", body, content_type="application/json")
    assert "name" in _fields(response)


def test_a_tool_text_over_the_limit_as_sent_is_refused(client, sample_catalogue):
    response = client.get(VISUAL_FIELD, {"seed": "1", "ships": "\f" + " " * 200})
    assert "ships" in _fields(response)


def test_ships_and_friends_are_box_patterns_the_server_applies(client, schema, sample_catalogue):
    operation = schema["paths"][VISUAL_FIELD]["get"]
    patterns = {
        p["name"]: p["schema"]["pattern"]
        for p in operation["parameters"]
        if p["name"] in ("ships", "friends")
    }
    assert set(patterns) == {"ships", "friends"}
    samples = ["", "3,2", "3,2;5,4", "3,2 5,4;", "3,2;x", "3;2", "١,٢", "+3,2", "3, 2", "\t3,2"]
    for name, pattern in patterns.items():
        for text in samples:
            response = client.get(VISUAL_FIELD, {"seed": "1", name: text})
            matches = re.search(pattern, text) is not None
            assert (response.status_code == 200) is matches, (name, text, response.content)
            if not matches:
                assert name in _fields(response)


def test_a_campaigns_game_is_one_of_the_games_with_campaigns(client, schema, user):
    from play.campaign_services import campaign_game_slugs
    from validation.registry import registry

    components = schema["components"]["schemas"]
    stated = components["CampaignCreateRequestRequest"]["properties"]["game"]
    (ref,) = stated["allOf"]
    stated = components[ref["$ref"].rsplit("/", 1)[1]]
    assert stated["enum"] == campaign_game_slugs()
    assert set(stated["enum"]) < set(registry.slugs())
    other = next(s for s in registry.slugs() if s not in stated["enum"])
    client.force_login(user)
    response = client.post(
        "/api/play/campaigns/", {"game": other, "name": "X"}, content_type="application/json"
    )
    assert response.status_code == 400


def test_a_number_where_a_text_is_declared_is_refused(client, user, sample_catalogue):
    client.force_login(user)
    body = {"game": "tactical-assault", "name": "Valley", "notes": 0}
    response = client.post("/api/play/campaigns/", body, content_type="application/json")
    assert _fields(response) == ["notes"]
    body = {"game": "redline", "format": "standard", "name": 7}
    response = client.post("/api/decks/", body, content_type="application/json")
    assert _fields(response) == ["name"]


def _valid(schema: dict, component: str, body: dict) -> bool:
    """Whether `body` satisfies the schema's `component`, its references resolved."""
    import jsonschema

    target = {**schema["components"]["schemas"][component], "components": schema["components"]}
    return jsonschema.Draft4Validator(target).is_valid(body)


@pytest.mark.parametrize(
    "component",
    [
        "ValidateRequestWithList",
        "DeckCreateWithList",
        "DeckImportWithList",
        "DeckCreateWithoutList",
    ],
)
def test_a_body_takes_only_the_formats_of_its_game(
    client, schema, user, sample_catalogue, component
):
    """The schema refuses REDLINE with Red Code's `war`, as the server does, and takes it for
    Red Code."""
    body = {"game": "redline", "format": "war", "name": "Mixed"}
    if component.endswith("WithList"):
        body["list"] = "1 Kestrel"
    assert not _valid(schema, component, body)
    assert _valid(schema, component, {**body, "format": "standard"})
    assert _valid(schema, component, {**body, "game": "red-code"})
    client.force_login(user)
    response = client.post("/api/validate/", {**body, "list": "1 Kestrel"}, "application/json")
    assert "format" in _fields(response)
