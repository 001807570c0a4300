"""Every page is tested for every game: each registered game's tools and goldfish have their
page (and API), which renders, shows a result for a valid submission, and answers 400 to a
hostile one, never 500. The pages read the catalogue a fixed number of times, whatever its
size. A toy game, registered only for the test, gets its tool and goldfish pages from its
package alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.problems import field_errors, first_field, line_errors  # noqa: F401
from validation.packages import sample_lists
from validation.registry import registry

pytestmark = pytest.mark.django_db

TOY = Path(__file__).resolve().parents[1] / "toy_game"

TOOLS = [(g.slug, t.slug) for g in registry.all() for t in g.tools]
GOLDFISH = [g.slug for g in registry.all() if g.goldfish is not None]


def valid_params(game_slug: str, tool) -> dict[str, str]:
    """A submission a tool answers: the defaults, the catalogue's first card for a card
    parameter without one, a seed, and a small run for a tool with a background."""
    from catalogue.services import card_names_by_kind

    names = card_names_by_kind(
        game_slug=game_slug, kinds=[p.cards_of_kind for p in tool.params if p.cards_of_kind]
    )
    out: dict[str, str] = {}
    for spec in tool.params:
        if spec.default is not None:
            continue
        if spec.cards_of_kind:
            out[spec.name] = names[spec.cards_of_kind][0]
        elif spec.name == "seed":
            out[spec.name] = "7"
        elif spec.type == "choice":
            out[spec.name] = spec.choice_list()[0][0]
        elif spec.type == "int":
            out[spec.name] = str(spec.min or 0)
    if tool.background is not None:
        out["games"] = "200"
    return out


def hostile(tool) -> list[dict]:
    """Submissions no tool takes: an unknown parameter, numbers with hundreds of digits,
    a value too long, a NUL byte, a list where one value is expected."""
    first = tool.params[0].name
    ints = [p.name for p in tool.params if p.type == "int"] or [first]
    return [
        {"no_such_parameter": "1"},
        {name: "9" * 500 for name in ints},
        {name: "-" + "9" * 30 for name in ints},
        {first: "x" * 5000},
        {first: "a\x00b"},
        {first: ["1", "2"]},
    ]


def page_url(game: str, tool: str) -> str:
    return f"/play/{game}/{tool}/"


@pytest.fixture(autouse=True)
def _runs_unthrottled():
    """These tests send many runs in a row: the `simulate` rate is not what they test
    (tests/site/test_serving.py does)."""
    from rest_framework.throttling import ScopedRateThrottle

    ScopedRateThrottle.THROTTLE_RATES = {  # restored by the root conftest after each test
        **ScopedRateThrottle.THROTTLE_RATES,
        "simulate": "1000/min",
    }


@pytest.mark.parametrize("game,tool_slug", TOOLS)
def test_every_tool_page(client, game, tool_slug, sample_catalogue):
    tool = registry.get(game).tool(tool_slug)
    url = page_url(game, tool_slug)
    first = client.get(url, follow=True)
    assert first.status_code == 200
    html = first.content.decode()
    assert 'id="tool-form"' in html and f"<h1>{tool.label}" in html
    for spec in tool.params:
        assert f'name="{spec.name}"' in html, spec.name
    params = valid_params(game, tool)
    if tool.background is None:
        answer = client.get(url, params)
    else:
        answer = client.post(url, params)
    html = answer.content.decode()
    assert answer.status_code == 200, html
    assert 'id="tool-result"' in html and 'id="tool-errors"' not in html
    assert 'id="tool-figures"' in html or "<table" in html or "<svg" in html
    for bad in hostile(tool):
        sent = {**params, **bad}
        response = client.get(url, sent) if tool.background is None else client.post(url, sent)
        assert response.status_code == 400, (bad, response.content[:300])


@pytest.mark.parametrize("game,tool_slug", TOOLS)
def test_every_tool_api(client, game, tool_slug, sample_catalogue):
    tool = registry.get(game).tool(tool_slug)
    url = f"/api{page_url(game, tool_slug)}"
    params = valid_params(game, tool)
    if tool.background is None:
        answer = client.get(url, params)
        assert client.post(url, params, content_type="application/json").status_code == 405
    else:
        assert client.get(url, params).status_code == 405
        # the JSON body takes each parameter as its JSON type (the query string is text)
        as_text = client.post(url, params, content_type="application/json")
        assert as_text.status_code == 400 and as_text.json()["errors"][0]["field"] == "games"
        params = {
            k: int(v) if any(p.name == k and p.type == "int" for p in tool.params) else v
            for k, v in params.items()
        }
        answer = client.post(url, params, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert isinstance(answer.json(), dict) and answer.json()
    for bad in hostile(tool):
        if tool.background is None:
            response = client.get(url, {**params, **bad})
        else:
            response = client.post(url, {**params, **bad}, content_type="application/json")
        assert response.status_code == 400, (bad, response.content[:300])
        assert response.json()["detail"]
    if tool.background is not None:
        for body in ([], "x", {**params, "games": {"n": 1}}, {**params, "games": 1e300}):
            response = client.post(url, body, content_type="application/json")
            assert response.status_code == 400, body
    assert client.get(f"/api/play/{game}/no-such-tool/").status_code == 404


def test_the_api_lists_every_games_tools(client, sample_catalogue):
    for game in registry.all():
        body = client.get(f"/api/play/{game.slug}/").json()
        assert body["game"] == game.slug
        assert [t["slug"] for t in body["tools"]] == [t.slug for t in game.tools]
        for entry, tool in zip(body["tools"], game.tools, strict=True):
            assert entry["url"].endswith(f"/api/play/{game.slug}/{tool.slug}/")
            assert entry["method"] == ("GET" if tool.background is None else "POST")
            assert [p["name"] for p in entry["params"]] == [p.name for p in tool.params]
    (odds, close) = client.get("/api/play/tactical-assault/").json()["tools"]
    assert ["Infantry", "Infantry"] in odds["params"][0]["choices"]
    assert close["inline_max"] == 20_000
    assert client.get("/api/play/no-such-game/").status_code == 404
    # The campaigns' routes are not read as a game's.
    assert client.get("/api/play/campaigns/").status_code in (401, 403)


def sample_deck(owner, game: str):
    """A deck of the game from its first sample list whose name is one of its formats."""
    from decks.services import deck_create

    definition = registry.get(game)
    for sample in sample_lists(game):
        if sample.format in definition.formats:
            return deck_create(
                owner=owner,
                game_slug=game,
                format=sample.format,
                name=f"{definition.name} sample",
                text=sample.text(),
            )
    raise AssertionError(f"no sample list of {game}")


@pytest.mark.parametrize("game", GOLDFISH)
def test_every_goldfish_page(client, user, game, sample_catalogue):
    from simulations.models import SimulationRun

    goldfish = registry.get(game).goldfish
    deck = sample_deck(user, game)
    url = f"/play/{game}/goldfish/"
    assert client.get(url).status_code == 200  # signed out: no deck to pick, but the page
    client.force_login(user)
    page = client.get(url, {"deck": deck.pk})
    html = page.content.decode()
    assert page.status_code == 200 and f'value="{deck.pk}" selected' in html
    for spec in goldfish.params:
        assert f'name="{spec.name}"' in html
    games = min(goldfish.inline_max, 20) or 20
    response = client.post(url, {"deck": deck.pk, "games": games, "seed": 5})
    if goldfish.inline_max:
        html = response.content.decode()
        assert response.status_code == 200, html
        assert 'id="goldfish-figures"' in html and "<svg" in html
    else:  # every run goes to a worker
        run = SimulationRun.objects.get(owner=user, simulation=goldfish.slug)
        assert response.status_code == 302 and response["Location"] == run.get_absolute_url()
        assert run.deck_version == deck.current_version and run.seed == 5
    for bad in (
        {"deck": "abc"},
        {"deck": deck.pk, "games": "9" * 500},
        {"deck": deck.pk, "games": 0},
        {"deck": deck.pk, "no_such_parameter": "1"},
        {"deck": [deck.pk, deck.pk]},
        {"deck": deck.pk, "seed": "a\x00"},
        {"deck": "9" * 5000},
    ):
        response = client.post(url, bad)
        assert response.status_code == 400, (bad, response.content[:300])


def test_no_goldfish_page_without_a_goldfish(client):
    for game in registry.all():
        if game.goldfish is None:
            assert client.get(f"/play/{game.slug}/goldfish/").status_code == 404


def _more_cards(game: str, kinds, n: int = 30) -> None:
    from catalogue.models import Card, Game

    target = Game.objects.get(slug=game)
    for kind in kinds:
        template = Card.objects.filter(game=target, kind=kind).first()
        for i in range(n):
            Card.objects.create(
                game=target,
                name=f"Extra {kind} {i}",
                kind=kind,
                faction=template.faction,
                cost=template.cost,
                attributes=template.attributes,
            )


@pytest.mark.parametrize("game,tool_slug", TOOLS)
def test_a_tool_page_reads_the_catalogue_once(
    client, game, tool_slug, sample_catalogue, django_assert_num_queries
):
    tool = registry.get(game).tool(tool_slug)
    params = valid_params(game, tool)
    url = page_url(game, tool_slug)

    def both():
        with django_assert_num_queries(1):
            assert client.get(url, params if tool.background is None else {}).status_code == 200

    both()
    _more_cards(game, tool.card_kinds)
    both()


def test_the_goldfish_page_reads_the_decks_once(
    client, user, sample_catalogue, django_assert_num_queries
):
    for game in GOLDFISH:
        sample_deck(user, game)
    client.force_login(user)
    # The session and the user, then the decks.
    with django_assert_num_queries(3):
        assert client.get("/play/red-mittens/goldfish/").status_code == 200
    for _ in range(10):
        sample_deck(user, "red-mittens")
    with django_assert_num_queries(3):
        html = client.get("/play/red-mittens/goldfish/").content.decode()
    assert html.count("<option value=") == 11  # the decks


@pytest.fixture
def pond(db):
    """The toy game, registered for the test, with its expansion imported."""
    from catalogue.importer import expansion_import
    from tests.toy_game import GAME

    with registry.temporarily(GAME):
        expansion_import(data=json.loads((TOY / "sample_data" / "POND1.json").read_text()))
        yield GAME


def test_the_toy_games_tool(client, pond):
    links = client.get("/cards/pond/").content.decode()
    assert 'href="/play/pond/hop-odds/">Hop odds</a>' in links
    assert 'href="/play/pond/goldfish/">Goldfish a deck</a>' in links
    assert 'id="play-pond"' in client.get("/play/").content.decode()
    page = client.get("/play/pond/hop-odds/")
    html = page.content.decode()
    assert page.status_code == 200 and '<option value="Leaper">Leaper</option>' in html
    result = client.get("/play/pond/hop-odds/", {"frog": "leaper", "distance": 5, "hops": 2})
    html = result.content.decode()
    assert result.status_code == 200
    assert 'id="hop-table"' in html and "Leaper reaching pad 5" in html
    # 2 hops of 1 to 4 pads cover 5 pads or more in 10 of 16 ways.
    assert "5/8" in html and "<svg" in html
    assert "Each hop moves the frog" in html
    assert '<tr id="figure-leaper-within-2-hops"><th scope="row">Leaper within 2 hops</th>' in html
    api = client.get("/api/play/pond/hop-odds/", {"frog": "Leaper", "distance": 5, "hops": 2})
    assert api.status_code == 200
    assert api.json()["by_hops"][-1] == {"hops": 2, "fraction": "5/8", "p": 0.625}
    bad = client.get("/api/play/pond/hop-odds/", {"frog": "Newt", "hops": 99})
    assert bad.status_code == 400 and set(field_errors(bad.json())) == {"frog", "hops"}


def test_the_toy_games_goldfish(client, user, pond):
    from decks.services import deck_create

    deck = deck_create(
        owner=user,
        game_slug="pond",
        format="pond",
        name="Lily hop",
        text="Frogs:\n2 Leaper\n2 Croaker\nPads:\n3 Broad Pad\n3 Small Pad\n",
    )
    client.force_login(user)
    page = client.get("/play/pond/goldfish/")
    assert page.status_code == 200 and "Lily hop" in page.content.decode()
    result = client.post("/play/pond/goldfish/", {"deck": deck.pk, "games": 300, "seed": 2})
    html = result.content.decode()
    assert result.status_code == 200, html
    assert "Mean turn the bank is reached" in html and 'id="chart-pond-bank"' in html
    big = client.post(
        "/play/pond/goldfish/", {"deck": deck.pk, "games": 6000}, HTTP_HX_REQUEST="true"
    )
    from simulations.models import SimulationRun

    run = SimulationRun.objects.get(owner=user)
    assert run.simulation == "pond-goldfish" and run.kind == "goldfish"
    assert run.params == {"games": 6000, "turns": 10}
    assert f'id="run-link" href="{run.get_absolute_url()}"' in big.content.decode()


def test_a_game_may_draw_a_tools_answer_its_own_way(client, pond, tmp_path, monkeypatch):
    """templates/tools/<tool>.html of the game's package replaces the generic drawing of the
    answer (here a package of the test's own, defining the toy game)."""
    package = tmp_path / "pond_own_look"
    (package / "templates" / "tools").mkdir(parents=True)
    (package / "__init__.py").write_text("from tests.toy_game import GAME  # noqa: F401\n")
    (package / "templates" / "tools" / "hop-odds.html").write_text(
        '<p id="own-look">{{ result.data.frog }} hops {{ result.data.hop }} at most</p>'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with registry.temporarily(pond, package="pond_own_look"):
        html = client.get("/play/pond/hop-odds/", {"frog": "Leaper"}).content.decode()
    assert '<p id="own-look">Leaper hops 4 at most</p>' in html
    assert 'id="hop-table"' not in html
