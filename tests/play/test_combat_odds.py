"""Tactical Assault combat odds and the close combat Monte Carlo, through the game's tools
and the API, against fractions counted by hand from the sample combat cards."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from play import services
from tests.problems import field_errors, first_field, line_errors  # noqa: F401
from validation.games.tactical_assault import close_combat
from validation.registry import registry

GAME = "tactical-assault"

pytestmark = pytest.mark.django_db

# The printed combat results of the 72 sample combat cards (TA1), counted by hand.
PRINTED = {"eliminated": 8, "out_of_action": 10, "shaken": 14, "fall_back": 16, "no_effect": 24}
ODDS_URL = "/api/play/tactical-assault/combat-odds/"
CLOSE_URL = "/api/play/tactical-assault/close-combat/"


def fractions(result) -> dict[str, Fraction]:
    return {k: Fraction(v["fraction"]) for k, v in result["results"].items()}


def odds(**params) -> dict:
    """The combat odds tool's answer (its data) for `params`, cleaned as the API does."""
    tool = registry.get(GAME).tool("combat-odds")
    return services.tool_answer(game_slug=GAME, tool=tool, raw=params).result.data


def tool_cards(tool):
    return services.tool_cards(game_slug=GAME, tool=tool)


def test_the_sample_deck_is_the_hand_count(sample_catalogue):
    from catalogue.models import Card

    cards = Card.objects.filter(game__slug="tactical-assault", kind="combat_card")
    assert Counter(c.attributes["combat_result"] for c in cards) == PRINTED


def test_infantry_fires_on_armored_one_column_down(sample_catalogue):
    # Infantry's light firepower against Armored's heavy protection: down one (Table 4).
    # Each printed result moves one step towards no effect: 8 eliminated become out of
    # action, ..., the 16 fall back join the 24 no effect.
    result = odds(attacker="Infantry", target="Armored", attack="firepower")
    assert result["net_shift"] == -1
    assert fractions(result) == {
        "eliminated": Fraction(0),
        "out_of_action": Fraction(8, 72),
        "shaken": Fraction(10, 72),
        "fall_back": Fraction(14, 72),
        "no_effect": Fraction(16 + 24, 72),
    }


def test_infantry_close_combat_on_shaken_armored_two_columns_up(sample_catalogue):
    # Close combat (Table 5): very heavy close combat beats heavy protection (up one), the
    # target is Shaken (up one): 8+10+14 eliminated, 16 out of action, 24 shaken.
    result = odds(attacker="infantry", target="ARMORED", attack="close_combat", target_shaken=True)
    assert result["net_shift"] == 2
    assert fractions(result) == {
        "eliminated": Fraction(32, 72),
        "out_of_action": Fraction(16, 72),
        "shaken": Fraction(24, 72),
        "fall_back": Fraction(0),
        "no_effect": Fraction(0),
    }


def test_api_table_with_modifiers(client, sample_catalogue):
    # Armored (heavy firepower) on Recon (moderate protection): up one; Extreme Range and
    # In Cover: down two; net down one — the same table as Infantry on Armored.
    response = client.get(
        ODDS_URL,
        {"attacker": "Armored", "target": "Recon", "range": "extreme", "in_cover": "true"},
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["net_shift"] == -1
    assert [r["row"] for r in body["rows"]] == [
        "rating_higher",
        "extreme_range",
        "obstructed_or_in_cover",
    ]
    assert fractions(body)["no_effect"] == Fraction(40, 72)
    assert sum(v["count"] for v in body["results"].values()) == 72


def test_api_obstructed_and_in_cover_shift_once(client, sample_catalogue):
    both = client.get(
        ODDS_URL,
        {"attacker": "Armored", "target": "Recon", "obstructed": "1", "in_cover": "1"},
    ).json()
    assert both["net_shift"] == 0


def test_api_refuses_what_the_table_does_not_list(client, sample_catalogue):
    response = client.get(
        ODDS_URL,
        {"attacker": "Infantry", "target": "Armored", "attack": "close_combat", "obstructed": "1"},
    )
    assert response.status_code == 400
    assert "does not apply" in response.json()["detail"]
    assert first_field(response.json()) == "obstructed"
    response = client.get(ODDS_URL, {"attacker": "Infantry", "target": "Armored", "foo": "1"})
    assert response.status_code == 400
    assert field_errors(response.json()) == {
        "foo": "unknown query parameter 'foo': this operation takes attack, attacker, in_cover, "
        "obstructed, outside_arc, range, target, target_higher, target_in_bunker, "
        "target_out_of_action, target_shaken"
    }
    response = client.get(ODDS_URL, {"attacker": "Tank", "target": "Armored"})
    assert response.status_code == 400
    assert first_field(response.json()) == "attacker"
    assert "Infantry" in response.json()["detail"]
    response = client.get(ODDS_URL, {"target": "Armored", "range": "far", "in_cover": "maybe"})
    assert response.status_code == 400
    assert set(field_errors(response.json())) == {"attacker", "range", "in_cover"}
    assert field_errors(response.json())["attacker"] == "Attacker is required"
    # `format` is no parameter of the tool's operation: a 400 naming it, like any other.
    same = client.get(ODDS_URL, {"attacker": "Infantry", "target": "Armored", "format": "json"})
    assert same.status_code == 400
    assert list(field_errors(same.json())) == ["format"]
    assert client.post(ODDS_URL, {}, content_type="application/json").status_code == 405


def test_no_attack_without_a_rating(client, sample_catalogue):
    body = client.get(ODDS_URL, {"attacker": "Bunker", "target": "Infantry"}).json()
    assert body["possible"] is False
    assert all(v["count"] == 0 for v in body["results"].values())


def test_close_combat_inline_is_the_kernel_and_reproducible(client, sample_catalogue):
    payload = {"unit_a": "Infantry", "unit_b": "Armored", "games": 3000, "seed": 7}
    first = client.post(CLOSE_URL, payload, content_type="application/json")
    assert first.status_code == 200, first.content
    body = first.json()
    assert sum(body["outcomes"].values()) == 3000
    assert body["shift_a_on_b"] == 1  # very heavy close combat against heavy protection
    assert body["shift_b_on_a"] == 1  # heavy close combat against Infantry's none
    again = client.post(CLOSE_URL, payload, content_type="application/json").json()
    assert again == body
    tool = registry.get("tactical-assault").tool("close-combat")
    cards = tool_cards(tool)
    inputs = tool.background.inputs_from_params({"unit_a": "Infantry", "unit_b": "Armored"}, cards)
    direct = close_combat.play(inputs, games=3000, seed=7, max_rounds=20)
    assert direct["outcomes"] == body["outcomes"]
    # The tool of the game's package answers the same.
    params = {"unit_a": "Infantry", "unit_b": "Armored", "games": 3000, "seed": 7, "max_rounds": 20}
    result = tool.compute(params, cards)
    assert result.data == body
    assert [c["id"] for c in result.charts] == ["ta-close-combat-outcome", "ta-close-combat-rounds"]
    assert dict(result.figures)["Games"] == "3000"


def test_close_combat_modifiers_as_objects_or_flat(client, sample_catalogue):
    """The API takes each side's modifiers as an object or as the tool's flat booleans."""
    base = {"unit_a": "Infantry", "unit_b": "Armored", "games": 2000, "seed": 4}
    nested = client.post(
        CLOSE_URL,
        {**base, "a_modifiers": {"in_cover": True}, "b_modifiers": {"target_shaken": True}},
        content_type="application/json",
    )
    flat = client.post(
        CLOSE_URL,
        {**base, "a_in_cover": True, "b_target_shaken": True},
        content_type="application/json",
    )
    assert nested.status_code == 200, nested.content
    assert nested.json() == flat.json()
    assert nested.json()["shift_a_on_b"] == 0  # up one for the ratings, down one for cover
    bad = client.post(
        CLOSE_URL, {**base, "a_modifiers": {"flying": True}}, content_type="application/json"
    )
    assert bad.status_code == 400 and first_field(bad.json()) == "a_modifiers"
    for body in ([1, 2], {**base, "games": [1, 2]}, {**base, "games": 10**30}):
        answer = client.post(CLOSE_URL, body, content_type="application/json")
        assert answer.status_code == 400, body
    no_seed = client.post(
        CLOSE_URL,
        {"unit_a": "Infantry", "unit_b": "Armored", "games": 10},
        content_type="application/json",
    )
    assert no_seed.status_code == 200 and isinstance(no_seed.json()["seed"], int)
    assert client.get(CLOSE_URL).status_code == 405


def test_close_combat_large_runs_need_a_user_and_start_a_run(client, user, sample_catalogue):
    payload = {"unit_a": "Infantry", "unit_b": "Armored", "games": 50_000, "seed": 3}
    response = client.post(CLOSE_URL, payload, content_type="application/json")
    # signing in is the fix: a 401 with the challenge
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'
    assert "sign in to start one" in response.json()["detail"]
    client.force_login(user)
    response = client.post(CLOSE_URL, payload, content_type="application/json")
    assert response.status_code == 202, response.content
    run_info = response.json()["run"]
    from simulations.models import SimulationRun

    run = SimulationRun.objects.get(pk=run_info["id"])
    assert run.simulation == "tactical-assault-close-combat" and run.kind == "tool"
    assert run.owner == user
    assert run.params["games"] == 50_000
    assert run.inputs["unit_a"]["name"] == "Infantry"
    assert run_info["url"].endswith(run.get_absolute_url())


def test_close_combat_kind_chunks_merge_to_the_run(user, sample_catalogue):
    """The registered kind plays a run in chunks on a worker; here the chunks are played
    in-process and merged, as the worker would."""
    from simulations import kinds
    from simulations.services import simulation_run_chunk, simulation_start

    kind = kinds.get("tactical-assault-close-combat")
    assert kind.needs_deck is False
    assert kind.goldfish is registry.get("tactical-assault").tool("close-combat").background
    assert kind in kinds.for_game("tactical-assault")
    run = simulation_start(
        owner=user,
        kind=kind.slug,
        params={"games": 4000, "unit_a": "Swarm", "unit_b": "Creature", "max_rounds": 10},
        seed=11,
    )
    for i in range(run.n_chunks):
        simulation_run_chunk(run_id=run.pk, chunk_index=i)
    run.refresh_from_db()
    assert run.status == "done", run.error
    summary = run.results["summary"]
    assert summary["games"] == 4000
    assert sum(summary["outcomes"].values()) == 4000
    assert abs(sum(summary["frequencies"].values()) - 1) < 1e-9
    assert [c["id"] for c in kind.goldfish.charts(summary)] == [
        "ta-close-combat-outcome",
        "ta-close-combat-rounds",
    ]


def test_close_combat_run_parameters_name_the_catalogue_units(user, sample_catalogue):
    """A unit of a background run is one of the catalogue's unit types, in any case."""
    from simulations.models import SimulationRun
    from simulations.services import ParamsInvalid, simulation_start

    with pytest.raises(ParamsInvalid) as exc:
        simulation_start(
            owner=user,
            kind="tactical-assault-close-combat",
            params={"games": 100, "unit_a": "Tank", "unit_b": "Armored"},
        )
    assert "Unit A must be one of" in exc.value.errors["unit_a"]
    assert "Infantry" in exc.value.errors["unit_a"] and "Tank" in exc.value.errors["unit_a"]
    run = simulation_start(
        owner=user,
        kind="tactical-assault-close-combat",
        params={"games": 100, "unit_a": "infantry", "unit_b": "ARMORED"},
    )
    assert (run.params["unit_a"], run.params["unit_b"]) == ("Infantry", "Armored")
    assert run.inputs["combat_cards"] and run.inputs["a_modifiers"] == {}
    assert SimulationRun.objects.count() == 1


def _wrapper(html: str, name: str) -> str:
    """The opening tag of the form field holding the input `name`."""
    before = html.split(f'id="id_{name}"', 1)[0]
    return before.rsplit('<div class="field', 1)[1].split(">", 1)[0]


@pytest.mark.parametrize("attack", ["firepower", "close_combat"])
def test_the_page_shows_only_the_modifiers_of_the_chosen_attack(client, sample_catalogue, attack):
    tool = registry.get(GAME).tool("combat-odds")
    html = client.get(
        f"/play/{GAME}/combat-odds/?attacker=Infantry&target=Armored&attack={attack}"
    ).content.decode()
    shown = set()
    for spec in tool.params:
        wrapper = _wrapper(html, spec.name)
        input_tag = html.split(f'id="id_{spec.name}"', 1)[1].split(">", 1)[0]
        if " hidden" in wrapper:
            assert " disabled" in input_tag  # hidden and not sent
        else:
            assert " disabled" not in input_tag
            shown.add(spec.name)
        if spec.applies:
            assert "data-applies" in wrapper  # the page's script follows a change of attack
    firepower_only = {"range", "obstructed", "target_higher"}
    close_only = {"target_shaken", "target_out_of_action"}
    both = {"attacker", "target", "attack", "outside_arc", "in_cover", "target_in_bunker"}
    if attack == "firepower":
        assert shown == both | firepower_only
    else:
        assert shown == both | close_only
