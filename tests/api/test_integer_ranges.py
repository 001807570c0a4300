"""Every integer the API accepts (a query or path parameter, a body's field at any depth) has a
declared range in the schema, and 2^63, past the 64-bit range every one lies within, is a 400
naming it, never a 500 (SQLite cannot hold such a number: "Python int too large to convert to
SQLite INTEGER"). The integers are found by walking the schema the site serves."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.django_db

BIG = 2**63
METHODS = ("get", "post", "put", "patch", "delete")


def _schema(client) -> dict[str, Any]:
    return client.get("/api/schema/", {"format": "json"}).json()


def _resolve(node: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = components[node["$ref"].rsplit("/", 1)[1]]
    return node


def body_integers(node, components, path=(), seen=frozenset()):
    """(path, schema) of every integer a request body may hold; a path's steps are property
    names, 0 for an array's item and "*" for a map's value."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        if name in seen:
            return
        seen = seen | {name}
    node = _resolve(node, components)
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in node.get(key, []):
            yield from body_integers(sub, components, path, seen)
    if node.get("readOnly"):
        return
    if node.get("type") == "integer":
        yield path, node
    if "items" in node:
        yield from body_integers(node["items"], components, (*path, 0), seen)
    for name, sub in node.get("properties", {}).items():
        yield from body_integers(sub, components, (*path, name), seen)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        yield from body_integers(extra, components, (*path, "*"), seen)


def body_holding(path: tuple, value: int, map_key: str) -> Any:
    if not path:
        return value
    step, rest = path[0], path[1:]
    if step == 0:
        return [body_holding(rest, value, map_key)]
    return {map_key if step == "*" else step: body_holding(rest, value, map_key)}


def field_name(path: tuple, map_key: str) -> str:
    return ".".join(map_key if step == "*" else str(step) for step in path)


def integer_cases(schema):
    components = schema["components"]["schemas"]
    for template, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method not in METHODS:
                continue
            for parameter in operation.get("parameters", []):
                node = _resolve(parameter.get("schema", {}), components)
                if node.get("type") == "integer":
                    yield method, template, parameter["in"], (parameter["name"],), node
            for content in operation.get("requestBody", {}).get("content", {}).values():
                for path, node in body_integers(content["schema"], components):
                    yield method, template, "body", path, node


@pytest.fixture
def api(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def owned_ids(sample_catalogue, user, redline_deck):
    """A path's placeholders filled with objects of the signed-in user's where there are."""
    from catalogue.models import Card
    from collection.models import CollectionEntry

    item = CollectionEntry.objects.create(
        owner=user, card=Card.objects.filter(game__slug="redline").first(), count=1
    )
    return {"/api/decks/{id}": redline_deck.pk, "/api/collection/{id}": item.pk}


def _url(template: str, owned: dict[str, int], big_in: str | None) -> str:
    url = template
    if big_in:
        url = url.replace("{" + big_in + "}", str(BIG))
    for prefix, pk in owned.items():
        if template.startswith(prefix):
            url = url.replace("{id}", str(pk), 1)
    for slot, value in (("{game}", "redline"), ("{fmt}", "standard"), ("{slug}", "redline")):
        url = url.replace(slot, value)
    while "{" in url:
        start = url.index("{")
        url = url[:start] + "1" + url[url.index("}") + 1 :]
    return url


def test_every_integer_the_api_accepts_has_a_declared_range(client, sample_catalogue):
    unbounded = [
        f"{method.upper()} {template} {where}:{field_name(path, '*')}"
        for method, template, where, path, node in integer_cases(_schema(client))
        if "minimum" not in node or "maximum" not in node or node["maximum"] >= BIG
    ]
    assert not unbounded


def test_two_to_the_63_is_a_400_naming_the_integer_everywhere(api, owned_ids):
    from django.core.cache import cache

    map_key = "Arsenal"
    wrong = []
    for method, template, where, path, _node in integer_cases(_schema(api)):
        cache.clear()  # no throttle's count carries over
        name = field_name(path, map_key)
        # a simulation's `params` are checked by the kind's form, which names the field alone
        leaf = [step for step in path if isinstance(step, str) and step != "*"][-1:]
        if where == "path":
            url, data = _url(template, owned_ids, path[0]), None
        elif where == "query":
            url, data = f"{_url(template, owned_ids, None)}?{path[0]}={BIG}", None
        else:
            url, data = _url(template, owned_ids, None), body_holding(path, BIG, map_key)
        call = getattr(api, method)
        if data is None:
            response = call(url)
        else:
            response = call(url, json.dumps(data), content_type="application/json")
        fields = []
        if response.get("Content-Type") == "application/problem+json":
            fields = [e.get("field") for e in response.json()["errors"]]
        owned = any(template.startswith(prefix) for prefix in owned_ids)
        prefixes = {".".join(name.split(".")[:n]) for n in range(1, name.count(".") + 2)}
        if response.status_code == 400 and prefixes & set(fields):
            continue  # the field, or the object holding it (a side of a comparison)
        if response.status_code == 400 and path[0] == "params" and leaf[0] in fields:
            continue
        if response.status_code == 400 and path[0] == "params" and "kind" in fields:
            continue  # a simulation's parameters are read once its kind is known
        if response.status_code == 404 and where == "body" and "{" in template and not owned:
            continue  # the object the address names is not there: the body is not read
        wrong.append(f"{method.upper()} {url} {where}:{name} → {response.status_code} {fields}")
    assert not wrong, "\n".join(wrong)


def test_a_card_id_past_64_bits_in_a_collection_is_a_400(api, sample_catalogue):
    response = api.put(
        "/api/collection/",
        {"cards": [{"card": 344232869235480578626682880, "count": 1}], "products": []},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["cards.0.card"]


def test_a_boolean_is_true_or_false_not_a_number(api, redline_deck):
    """The schema says a boolean: 0 or "yes" is a 400 naming the field, and nothing changes."""
    for sent in (0, 1, "yes", "true"):
        response = api.patch(
            f"/api/decks/{redline_deck.pk}/", {"built": sent}, content_type="application/json"
        )
        assert response.status_code == 400, sent
        assert [e["field"] for e in response.json()["errors"]] == ["built"]
    redline_deck.refresh_from_db()
    assert redline_deck.built is False
    response = api.patch(
        f"/api/decks/{redline_deck.pk}/", {"built": True}, content_type="application/json"
    )
    assert response.status_code == 200 and response.json()["built"] is True
