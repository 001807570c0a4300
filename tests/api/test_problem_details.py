"""Every error answer under /api/ is problem details (RFC 9457) with an `errors` list, and
keeps what the answers carried before (line errors with suggestions, field names, the
throttle's wait, a conflict's current version)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


def assert_problem(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status
    assert body["type"].startswith("urn:cardsite:problem:")
    assert body["title"] and isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["errors"], list)
    for entry in body["errors"]:
        assert {"code", "message"} <= entry.keys()
    return body


def post(client, url, data):
    return client.post(url, data, content_type="application/json")


@pytest.mark.parametrize(
    "path",
    [
        "/api/nothing-here/",
        "/api/decks/abc/",
        "/api/simulations/abc/",
        "/api/cards/999999/",
        "/api/games/no-such-game/",
    ],
)
@pytest.mark.parametrize("debug", [False, True])
def test_a_path_or_id_that_matches_nothing_is_a_json_404(
    client, sample_catalogue, settings, path, debug
):
    settings.DEBUG = debug
    body = assert_problem(client.get(path), 404)
    assert body["type"] == "urn:cardsite:problem:not-found"


def test_a_serializer_error_names_the_field_with_its_code(client, sample_catalogue):
    body = assert_problem(
        post(client, "/api/validate/", {"game": "redline", "format": "nope", "list": "x"}), 400
    )
    assert [e["field"] for e in body["errors"]] == ["format"]
    assert "format" in body["detail"]


def test_line_errors_keep_line_message_and_suggestions(client, sample_catalogue, user):
    # Saving a list refuses unknown names (the validate API answers them beside its verdict).
    client.force_login(user)
    body = assert_problem(
        post(
            client,
            "/api/decks/import/",
            {
                "game": "redline",
                "format": "standard",
                "name": "Typos",
                "list": "General:\n4 x\nArsenal:\n4 Tigercatt",
            },
        ),
        400,
    )
    by_line = {e["line"]: e for e in body["errors"]}
    assert by_line[4]["code"] == "unknown_card"
    assert "Tigercat" in by_line[4]["suggestions"]
    assert by_line[4]["message"].startswith("Line 4:")


def test_a_missing_body_field_is_required(client, user):
    client.force_login(user)
    body = assert_problem(post(client, "/api/decks/", {"game": "redline"}), 400)
    fields = {e["field"]: e["code"] for e in body["errors"]}
    assert fields["name"] == "required" and fields["format"] == "required"


def test_malformed_json_is_a_400_problem(client, db):
    response = client.post("/api/validate/", "{nope", content_type="application/json")
    body = assert_problem(response, 400)
    assert "JSON parse error" in body["detail"]


def test_a_form_body_is_a_415_problem(client, db):
    body = assert_problem(client.post("/api/validate/", {"a": "b"}), 415)
    assert "multipart/form-data" in body["detail"]


def test_a_nul_in_a_query_is_a_400_problem_naming_it(client, sample_catalogue):
    body = assert_problem(client.get("/api/cards/?q=a%00b"), 400)
    assert "'q'" in body["detail"]


def test_a_throttled_answer_says_when_to_retry(client, sample_catalogue, settings):
    from rest_framework.throttling import ScopedRateThrottle

    ScopedRateThrottle.THROTTLE_RATES = {**ScopedRateThrottle.THROTTLE_RATES, "validate": "1/min"}
    data = {"game": "redline", "format": "nope", "list": "x"}
    post(client, "/api/validate/", data)
    response = post(client, "/api/validate/", data)
    body = assert_problem(response, 429)
    assert body["retry_after"] == int(response["Retry-After"]) and body["retry_after"] > 0


def test_a_conflict_keeps_the_current_version(client, user, sample_catalogue):
    from decks.services import deck_create
    from tests.simulations.conftest import sample_list

    deck = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="d",
        visibility="private",
        text=sample_list("redline", "standard"),
    )
    client.force_login(user)
    url = f"/api/decks/{deck.pk}/versions/"
    text = sample_list("redline", "standard")
    assert post(client, url, {"list": text, "based_on": 1}).status_code == 201
    body = assert_problem(post(client, url, {"list": text, "based_on": 1}), 409)
    assert body["current_version"] == 2


def test_a_tools_parameter_errors_name_each_parameter(client, sample_catalogue):
    response = client.get("/api/play/tactical-assault/combat-odds/?attacker=Nobody&target=Armored")
    body = assert_problem(response, 400)
    assert body["errors"][0]["field"] == "attacker"


def test_schema_and_docs_are_not_rewritten(client, db):
    assert client.get("/api/schema/").status_code == 200


def test_the_schema_defines_the_problem_once_and_every_error_answer_refers_to_it(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert {"type", "title", "status", "detail", "errors"} <= set(
        schema["components"]["schemas"]["Problem"]["required"]
    )
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            responses = operation["responses"]
            for code in ("400", "401", "403", "404", "429", "503"):
                assert code in responses, (method, path, code)
            if "requestBody" in operation:
                assert "415" in responses and "413" in responses, (method, path)
            for code, answer in responses.items():
                if int(code) >= 400:
                    assert answer["content"] == {
                        "application/problem+json": {
                            "schema": {"$ref": "#/components/schemas/Problem"}
                        }
                    }, (method, path, code)


def test_the_content_length_is_the_rewritten_bodys(client, sample_catalogue):
    response = client.get("/api/cards/999999/")
    if response.has_header("Content-Length"):
        assert int(response["Content-Length"]) == len(response.content)
