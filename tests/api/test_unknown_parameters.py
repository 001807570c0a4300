"""A query parameter an operation does not declare in the schema is a 400 naming it and the
ones the operation takes, on every operation (cardsite.parameters)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")


def test_every_operation_refuses_an_unknown_query_parameter(client, user, sample_catalogue):
    from django.core.cache import cache

    client.force_login(user)
    schema = client.get("/api/schema/", {"format": "json"}).json()
    wrong = []
    for template, methods in schema["paths"].items():
        # A placeholder whose values the schema lists takes the first (an address outside
        # them is no operation's: the view's 404); any other takes 1.
        listed = {
            parameter["name"]: parameter["schema"]["enum"][0]
            for operation in methods.values()
            if isinstance(operation, dict)
            for parameter in operation.get("parameters", [])
            if parameter.get("in") == "path" and "enum" in parameter.get("schema", {})
        }
        url = template
        while "{" in url:
            name = url[url.index("{") + 1 : url.index("}")]
            url = url[: url.index("{")] + str(listed.get(name, 1)) + url[url.index("}") + 1 :]
        for method in (m for m in methods if m in METHODS):
            cache.clear()
            response = getattr(client, method)(f"{url}?no_such_parameter=1")
            errors = response.json().get("errors", []) if response.status_code == 400 else []
            if not any(
                e.get("field") == "no_such_parameter" and e["code"] == "unknown_parameter"
                for e in errors
            ):
                wrong.append(f"{method.upper()} {url} → {response.status_code}")
    assert not wrong, "\n".join(wrong)


def test_the_message_lists_what_the_operation_takes(client, sample_catalogue):
    response = client.get("/api/expansions/", {"games": "redline"})
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "unknown query parameter 'games': this operation takes code, game, page, page_size"
    )


def test_an_address_outside_a_parameters_listed_values_is_a_404(client, db):
    """`/api/play/{game}/{tool}/` lists its tools: another name is no tool (404), not a
    method the address lacks (405)."""
    assert client.get("/api/play/redline/no-such-tool/").status_code == 404
    assert client.post("/api/play/redline/no-such-tool/", {}).status_code == 404


def test_api_without_its_slash_is_a_problem_404(client):
    response = client.get("/api")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["type"] == "urn:cardsite:problem:not-found"


def test_a_method_the_address_lacks_is_a_405_signed_in_or_not(client, user, db):
    anonymous = client.delete("/api/games/")
    assert anonymous.status_code == 405
    assert anonymous["Allow"] == "GET, HEAD, OPTIONS"
    assert anonymous.json()["type"] == "urn:cardsite:problem:method-not-allowed"
    client.force_login(user)
    assert client.delete("/api/games/").status_code == 405
