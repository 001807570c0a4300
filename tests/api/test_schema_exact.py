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
    assert components["Deck"]["properties"]["current_version"]["nullable"] is True
    assert components["DeckDetail"]["properties"]["current_version"]["nullable"] is True


def test_a_deck_created_without_a_list_has_no_current_version(client, user, sample_catalogue):
    client.force_login(user)
    response = client.post(
        "/api/decks/",
        {"game": "redline", "format": "standard", "name": "Empty"},
        content_type="application/json",
    )
    assert response.status_code == 201
    assert response.json()["current_version"] is None and response.json()["version"] is None


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
    stated = {
        slug
        for form in components["StartRequest"]["oneOf"]
        for slug in components[form["$ref"].rsplit("/", 1)[1]]["properties"]
        .get("kind", {})
        .get("enum", [])
    }
    assert stated == {k.slug for k in kinds.all_kinds()}


def _param(schema, path, name):
    return next(p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == name)


def test_the_filters_and_paths_naming_a_game_kind_or_format_state_the_registrys_values(schema):
    from validation.registry import registry

    games = set(registry.slugs())
    card_kinds = {kind for g in registry.all() for kind in g.kinds}
    formats = {f.slug for g in registry.all() for f in g.formats.values()}
    assert set(_param(schema, "/api/cards/", "game")["schema"]["enum"]) == games
    assert set(_param(schema, "/api/cards/", "kind")["schema"]["enum"]) == card_kinds
    assert set(_param(schema, "/api/expansions/", "game")["schema"]["enum"]) == games
    assert set(_param(schema, "/api/decks/", "game")["schema"]["enum"]) == games
    assert set(_param(schema, "/api/decks/", "fmt")["schema"]["enum"]) == formats
    assert set(_param(schema, "/api/games/{slug}/", "slug")["schema"]["enum"]) == games
    assert set(_param(schema, "/api/play/{game}/", "game")["schema"]["enum"]) == games


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/api/cards/", "game=nope"),
        ("/api/cards/", "kind=nope"),
        ("/api/cards/", "kind="),
        ("/api/expansions/", "game=nope"),
        ("/api/decks/", "game=nope"),
        ("/api/decks/", "fmt=nope"),
    ],
)
def test_a_value_outside_the_enum_is_refused_naming_the_filter(client, path, query):
    response = client.get(f"{path}?{query}")
    assert response.status_code == 400
    field, value = query.split("=")
    (error,) = response.json()["errors"]
    assert error["field"] == field
    assert (
        "redline" in error["message"]
        or "standard" in error["message"]
        or "unit" in error["message"]
    )  # the valid values named


def test_the_enum_filters_still_filter(client, sample_catalogue):
    cards = client.get("/api/cards/?game=redline&kind=efreet&page_size=200").json()["results"]
    assert cards and {(c["game"], c["kind"]) for c in cards} == {("redline", "efreet")}


def test_a_game_added_to_the_registry_is_in_the_enums_and_the_filters(client):
    from tests import toy_game as pond
    from validation.registry import registry

    with registry.temporarily(pond.GAME) as game:
        schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
        assert game.slug in schema["components"]["schemas"]["GameEnum"]["enum"]
        kinds = _param(schema, "/api/cards/", "kind")["schema"]["enum"]
        assert set(game.kinds) <= set(kinds)
        assert client.get(f"/api/cards/?game={game.slug}").status_code == 200


@pytest.mark.parametrize(
    ("name", "required"),
    [
        ("ValidateRequestRequest", True),
        ("DeckImportRequest", True),
        ("VersionCreateRequest", True),
        ("DeckCreateRequest", False),
    ],
)
def test_list_or_sections_is_a_one_of_of_the_two_bodies(schema, name, required):
    components = schema["components"]["schemas"]
    forms = [components[ref["$ref"].rsplit("/", 1)[1]] for ref in components[name]["oneOf"]]
    with_list, with_sections = forms[0], forms[1]
    assert "list" in with_list["required"] and "sections" not in with_list["properties"]
    assert "sections" in with_sections["required"] and "list" not in with_sections["properties"]
    if required:
        assert len(forms) == 2
    else:
        # Neither list nor sections (among the body's other `not`s: a game's formats).
        neither = {"anyOf": [{"required": ["list"]}, {"required": ["sections"]}]}
        assert neither in forms[2]["not"]["anyOf"]


def test_a_body_with_list_and_sections_matches_two_forms_and_is_refused_by_the_schema(schema):
    import jsonschema

    components = schema["components"]["schemas"]
    body = {"game": "redline", "format": "standard", "list": "x", "sections": {}}
    matching = [
        ref
        for ref in components["ValidateRequestRequest"]["oneOf"]
        if jsonschema.Draft4Validator(
            {**components[ref["$ref"].rsplit("/", 1)[1]], "components": schema["components"]},
        ).is_valid(body)
    ]
    assert len(matching) == 2  # so `oneOf` refuses it


def test_the_server_refuses_list_and_sections_together(client, sample_catalogue):
    response = client.post(
        "/api/validate/",
        {"game": "redline", "format": "standard", "list": "x", "sections": {}},
        content_type="application/json",
    )
    assert response.status_code == 400


def test_each_simulation_kinds_parameters_have_the_bounds_the_server_enforces(schema, client, user):
    from simulations import kinds

    components = schema["components"]["schemas"]
    client.force_login(user)
    checked = 0
    for kind in kinds.all_kinds():
        params = components[kind.slug.title().replace("-", "") + "Params"]
        assert params["additionalProperties"] is False
        for spec in kind.params:
            stated = params["properties"][spec.name]
            if spec.type != "int":
                continue
            assert (stated["minimum"], stated["maximum"]) == (spec.min, spec.max)
            if kind.needs_deck:
                continue
            # one past the stated maximum is refused by the server, naming the parameter
            response = client.post(
                "/api/simulations/",
                {"kind": kind.slug, "params": {spec.name: spec.max + 1}},
                content_type="application/json",
            )
            assert response.status_code == 400, response.content
            assert spec.name in [e["field"] for e in response.json()["errors"]]
            checked += 1
    assert checked >= 1


def test_a_parameter_of_another_json_type_is_refused(client, user, sample_catalogue):
    client.force_login(user)
    response = client.post(
        "/api/simulations/",
        {
            "kind": "tactical-assault-close-combat",
            "params": {"games": "", "max_rounds": True, "unit_a": 3},
        },
        content_type="application/json",
    )
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"games", "max_rounds", "unit_a"}


def test_a_parameter_of_another_type_is_refused_with_the_others_out_of_bounds(
    client, user, sample_catalogue
):
    client.force_login(user)
    response = client.post(
        "/api/simulations/",
        {"kind": "tactical-assault-close-combat", "params": {"games": "5", "max_rounds": 201}},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"games", "max_rounds"}


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/api/cards/", "cost"),
        ("/api/cards/", "cost__gte"),
        ("/api/printings/", "card"),
        ("/api/printings/", "expansion"),
    ],
)
def test_a_number_filter_given_empty_is_refused(client, path, field):
    response = client.get(f"{path}?{field}=")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]


def test_the_legal_filter_given_empty_is_refused(client):
    response = client.get("/api/decks/?legal=")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["legal"]


@pytest.mark.parametrize("path", ["/api/expansions/", "/api/cards/", "/api/printings/"])
def test_a_page_given_empty_is_refused(client, path):
    response = client.get(f"{path}?page=")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["page"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("on_the_play=false", "on_the_play"),
        ("first_player_draws=yes", "first_player_draws"),
        ("k=", "k"),
        ("turns=5.0", "turns"),
    ],
)
def test_the_odds_read_their_parameters_as_the_schema_states(client, query, field):
    response = client.get(f"/api/odds/?deck_size=60&group=24&{query}")
    assert response.status_code == 400
    assert field in [e["field"] for e in response.json()["errors"]]


def test_the_odds_with_the_stated_values_answer(client):
    response = client.get("/api/odds/?deck_size=60&group=24&k=2&on_the_play=0&first_player_draws=1")
    assert response.status_code == 200 and response.json()["on_the_play"] is False


def test_the_problem_says_severity_and_a_409_current_version_may_be_null(schema):
    problem = schema["components"]["schemas"]["Problem"]["properties"]
    assert problem["errors"]["items"]["properties"]["severity"]["enum"] == ["error", "warning"]
    assert problem["current_version"]["nullable"] is True


def test_the_tuners_max_games_bounds_are_the_servers(schema, client, user, redline_deck):
    body = schema["components"]["schemas"]["TuneRequest"]["properties"]["max_games"]
    assert (body["minimum"], body["maximum"]) == (1_000, 400_000)
    client.force_login(user)
    url = f"/api/decks/{redline_deck.pk}/tune/"
    for games in (999, 400_001):
        answer = client.post(
            url,
            {"candidates": {"query": "a"}, "max_games": games},
            content_type="application/json",
        )
        assert answer.status_code == 400
        assert answer.json()["errors"][0]["field"] == "max_games"


def test_a_deck_id_is_one_integer_named_id_on_every_route(schema):
    seen = 0
    for path, methods in schema["paths"].items():
        if not path.startswith("/api/decks/{"):
            continue
        assert path.startswith("/api/decks/{id}/"), path
        for operation in methods.values():
            (deck_id,) = [p for p in operation["parameters"] if p["name"] == "id"]
            assert deck_id["in"] == "path" and deck_id["schema"] == {
                "type": "integer",
                "minimum": 0,
                "maximum": 2**63 - 1,
            }, path
            seen += 1
    assert seen >= 20


def test_operations_open_to_anonymous_clients_require_no_credentials(schema, client):
    operations = {
        (path, method): op
        for path, methods in schema["paths"].items()
        for method, op in methods.items()
    }
    for key in [
        ("/api/games/", "get"),
        ("/api/cards/", "get"),
        ("/api/decks/{id}/", "get"),
        ("/api/validate/", "post"),
        ("/api/decks/{id}/export/text/", "get"),
    ]:
        assert operations[key]["security"] == [], key
    assert operations[("/api/notices/", "get")]["security"]
    assert client.get("/api/notices/").status_code == 401
    for (path, method), operation in operations.items():
        if operation["security"] == [] and method == "get" and "{" not in path:
            assert client.get(path).status_code != 401, path


def test_the_documented_limits_and_problem_types_are_in_the_schema(schema):
    """The request line's limit (414) on every operation; every problem type named, 500's
    and 406's among them; the card list's next_cursor."""
    problem = schema["components"]["schemas"]["Problem"]["properties"]
    for name in ("server-error (500)", "not-acceptable (406)", "uri-too-long (414)"):
        assert name in problem["type"]["description"]
    assert {"active_runs", "max_active_runs", "running"} <= problem.keys()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            assert "8,190 bytes" in operation["responses"]["414"]["description"], (path, method)
    ref = schema["paths"]["/api/cards/"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]["$ref"]
    page = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert page["properties"]["next_cursor"]["nullable"] is True
    assert "next_cursor" in page["required"]
