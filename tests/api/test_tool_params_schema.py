"""Each play tool's parameters in the schema are the server's: types, bounds and no other
keys; the run body is a `oneOf` of the tools' forms, and the API reads each parameter as the
JSON type the schema states."""

from __future__ import annotations

import dataclasses

import pytest

pytestmark = pytest.mark.django_db


def _schema(client):
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def _camel(slug):
    return "".join(part.capitalize() for part in slug.replace("_", "-").split("-"))


def _body_tools():
    from validation.registry import registry

    return [(g, t) for g in registry for t in g.tools if t.background is not None]


def _assert_problem(response, field):
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert {"type", "title", "status", "detail", "errors"} <= body.keys()
    assert field in {e.get("field") for e in body["errors"]}, body
    return body


def _check_bounds(client, schema):
    components = schema["components"]["schemas"]
    forms = {ref["$ref"].rsplit("/", 1)[1] for ref in components["ToolRunRequest"]["oneOf"]}
    checked = 0
    for game, tool in _body_tools():
        name = f"{_camel(game.slug)}{_camel(tool.slug)}ToolParams"
        assert name in forms
        params = components[name]
        assert params["additionalProperties"] is False
        assert set(params["properties"]) == {s.name for s in tool.params}
        for spec in tool.params:
            stated = params["properties"][spec.name]
            assert stated["type"] == {"int": "integer", "bool": "boolean"}.get(spec.type, "string")
            if spec.type != "int":
                continue
            assert (stated.get("minimum"), stated.get("maximum")) == (spec.min, spec.max)
            if spec.max is None:
                continue
            # one past the stated maximum is refused, naming the parameter, in the one shape
            response = client.post(
                f"/api/play/{game.slug}/{tool.slug}/",
                {spec.name: spec.max + 1},
                content_type="application/json",
            )
            _assert_problem(response, spec.name)
            checked += 1
    return checked


def test_each_tools_parameters_have_the_bounds_the_server_enforces(client, user, sample_catalogue):
    client.force_login(user)
    assert _check_bounds(client, _schema(client)) >= 3  # games, seed and rounds at least


def test_a_tool_of_a_game_added_to_the_registry_has_its_form_and_bounds(client, user):
    from tests import toy_game as pond
    from validation.registry import registry

    tool = dataclasses.replace(
        pond.HOP_ODDS, slug="hop-runs", background=pond.GOLDFISH, inline_max=5
    )
    game = dataclasses.replace(pond.GAME, tools=(*pond.GAME.tools, tool))
    client.force_login(user)
    with registry.temporarily(game):
        schema = _schema(client)
        form = schema["components"]["schemas"]["PondHopRunsToolParams"]
        assert form["required"] == ["frog"]
        assert form["properties"]["hops"]["maximum"] == 12
        assert _check_bounds(client, schema) >= 5  # the toy tool's distance and hops too


def test_the_run_body_is_read_as_the_json_types_the_schema_states(client, sample_catalogue):
    url = "/api/play/tactical-assault/close-combat/"
    fine = client.post(
        url, {"games": 50, "seed": 3, "a_in_cover": True}, content_type="application/json"
    )
    assert fine.status_code == 200 and fine.json()["games"] == 50
    with_nulls = client.post(
        url, {"games": 50, "seed": None, "max_rounds": None}, content_type="application/json"
    )
    assert with_nulls.status_code == 200
    for body, field in [
        ({"games": "50"}, "games"),
        ({"games": 50.5}, "games"),
        ({"games": True}, "games"),
        ({"a_in_cover": "yes"}, "a_in_cover"),
        ({"a_in_cover": 1}, "a_in_cover"),
        ({"unit_a": 3}, "unit_a"),
    ]:
        response = client.post(url, body, content_type="application/json")
        _assert_problem(response, field)
    # every problem at once: a wrong type and a bound
    both = client.post(url, {"games": "50", "max_rounds": 0}, content_type="application/json")
    assert {"games", "max_rounds"} <= {e["field"] for e in _assert_problem(both, "games")["errors"]}


def test_the_tools_page_still_reads_its_forms_text(client, sample_catalogue):
    page = client.post(
        "/play/tactical-assault/close-combat/", {"games": "50", "seed": "3", "a_in_cover": "on"}
    )
    assert page.status_code == 200
    assert b"50 games (seed 3)" in page.content


def _live_tools():
    from validation.registry import registry

    return [(g, t) for g in registry for t in g.tools if t.background is None]


def _check_live_bounds(client, schema):
    """Every live tool has its own GET path whose query parameters are the tool's, with the
    server's bounds: one past a stated maximum is refused, naming the parameter."""
    paths = schema["paths"]
    assert "get" not in paths.get("/api/play/{game}/{tool}/", {})
    operation_ids = set()
    checked = 0
    for game, tool in _live_tools():
        operation = paths[f"/api/play/{game.slug}/{tool.slug}/"]["get"]
        operation_ids.add(operation["operationId"])
        query = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
        assert set(query) == {s.name for s in tool.params}
        # a live tool draws no seed: whatever has no default (but yes/no) must be given
        required = {n for n, p in query.items() if p["required"]}
        assert required == {s.name for s in tool.params if s.default is None and s.type != "bool"}
        if required:
            _assert_problem(client.get(f"/api/play/{game.slug}/{tool.slug}/"), sorted(required)[0])
        for spec in tool.params:
            stated = query[spec.name]["schema"]
            assert stated["type"] == {"int": "integer", "bool": "boolean"}.get(spec.type, "string")
            if spec.type == "choice" and not spec.cards_of_kind:
                assert stated["enum"] == [v for v, _label in spec.choice_list()]
            if spec.type != "int":
                continue
            assert (stated.get("minimum"), stated.get("maximum")) == (spec.min, spec.max)
            if spec.max is None:
                continue
            response = client.get(f"/api/play/{game.slug}/{tool.slug}/", {spec.name: spec.max + 1})
            _assert_problem(response, spec.name)
            assert response["Allow"] == "GET, HEAD, OPTIONS"  # the methods its path states
            checked += 1
    assert len(operation_ids) == len(_live_tools())
    return checked


def test_each_live_tool_has_its_path_with_the_bounds_the_server_enforces(client, sample_catalogue):
    schema = _schema(client)
    assert _check_live_bounds(client, schema) >= 2
    run = schema["paths"]["/api/play/{game}/{tool}/"]["post"]
    (tool,) = [p for p in run["parameters"] if p["name"] == "tool"]
    assert tool["schema"]["enum"] == sorted({t.slug for _g, t in _body_tools()})


def test_a_live_tool_of_a_game_added_to_the_registry_has_its_path(client):
    from tests import toy_game as pond
    from validation.registry import registry

    with registry.temporarily(pond.GAME):
        schema = _schema(client)
        operation = schema["paths"]["/api/play/pond/hop-odds/"]["get"]
        assert operation["operationId"] == "play_pond_hop_odds_retrieve"
        query = {p["name"]: p for p in operation["parameters"]}
        assert query["frog"]["required"] is True
        assert query["hops"]["schema"]["maximum"] == 12
        assert query["hops"]["schema"]["default"] == 4
        assert _check_live_bounds(client, schema) >= 4  # the toy tool's distance and hops too


def test_a_live_tools_number_given_empty_in_the_query_is_refused_naming_it(
    client, sample_catalogue
):
    """`?y=` is not a whole number: the API refuses it, naming the parameter and saying to leave
    it out for its default (leaving it out is the way to ask for the default), with every
    other problem at once. The tool's page, a form whose untouched boxes arrive empty, still
    reads an empty box as the default."""
    url = "/api/play/red-code/visual-field/"
    assert client.get(url, {"seed": 0}).status_code == 200
    body = _assert_problem(client.get(url, {"seed": 0, "y": ""}), "y")
    (y,) = [e for e in body["errors"] if e.get("field") == "y"]
    assert "given empty" in str(y), y
    both = _assert_problem(client.get(url, {"seed": 0, "y": "", "x": 99}), "x")
    assert {e.get("field") for e in both["errors"]} == {"x", "y"}
    page = client.get("/play/red-code/visual-field/", {"seed": "0", "x": "", "y": ""})
    assert page.status_code == 200
