"""Tool parameters in the rules core: optional parameters, the ones that do not apply, the
games' tools read and answered without Django, and grid chart specs."""

from __future__ import annotations

import pytest

from validation import charts
from validation.capabilities import ToolInputError
from validation.params import ParamsInvalid, ParamSpec, clean_params, not_applying
from validation.registry import registry
from validation.types import CardFacts

ATTACK = ParamSpec("attack", "Attack", "choice", choices=(("a", "A"), ("b", "B")), default="a")
ONLY_A = ParamSpec("steady", "Steady", "bool", default=False, applies={"attack": ("a",)})
RANGE = ParamSpec(
    "range",
    "Range",
    "choice",
    choices=(("near", "Near"), ("far", "Far")),
    default="near",
    applies={"attack": ("a",)},
)


def test_a_default_of_empty_text_makes_a_parameter_optional():
    specs = (
        ParamSpec("x", "X", "int", min=0, max=7, default=""),
        ParamSpec("who", "Who", "choice", cards_of_kind="ship", default=""),
        ParamSpec("n", "N", "int", min=1, max=3),
    )
    assert clean_params(specs, {"n": "2"}) == {"x": "", "who": "", "n": 2}
    assert clean_params(
        specs, {"n": 2, "x": "5", "who": "nemo"}, card_choices={"ship": ["Nemo"]}
    ) == {
        "x": 5,
        "who": "Nemo",
        "n": 2,
    }
    with pytest.raises(ParamsInvalid) as exc:
        clean_params(specs, {"x": "8"})
    assert exc.value.errors == {"x": "X must be between 0 and 7; got 8", "n": "N is required"}


def test_the_parameters_set_where_they_do_not_apply():
    specs = (ATTACK, ONLY_A, RANGE)
    clean = clean_params(specs, {"attack": "b", "steady": "on", "range": "near"})
    assert [s.name for s in not_applying(specs, clean)] == ["steady"]
    clean = clean_params(specs, {"attack": "b", "range": "far"})
    assert [s.name for s in not_applying(specs, clean)] == ["range"]
    assert not_applying(specs, clean_params(specs, {"attack": "a", "steady": "1"})) == []


def units() -> list[CardFacts]:
    return [
        CardFacts(
            name="Infantry",
            kind="unit_type",
            attributes={"firepower": "light", "protection": "-", "close_combat": "very_heavy"},
        ),
        CardFacts(
            name="Armored",
            kind="unit_type",
            attributes={"firepower": "heavy", "protection": "heavy", "close_combat": "heavy"},
        ),
    ]


def combat_cards() -> list[CardFacts]:
    """A 72-card deck numbered 1-72: a quarter eliminated, a quarter shaken, half no effect."""
    results = ["eliminated", "shaken", "no_effect", "no_effect"] * 18
    return [
        CardFacts(
            name=f"C{i + 1}", kind="combat_card", attributes={"combat_result": r, "number": i + 1}
        )
        for i, r in enumerate(results)
    ]


def test_the_combat_odds_tool_refuses_a_modifier_of_another_attack():
    tool = registry.get("tactical-assault").tool("combat-odds")
    assert tool.aliases == ("combat",) and tool.background is None
    cards = {"unit_type": units(), "combat_card": combat_cards()}
    names = {"unit_type": ["Infantry", "Armored"]}
    params = clean_params(
        tool.params,
        {"attacker": "Infantry", "target": "Armored", "attack": "close_combat", "obstructed": "1"},
        card_choices=names,
    )
    assert [s.name for s in not_applying(tool.params, params)] == ["obstructed"]
    with pytest.raises(ToolInputError) as exc:
        tool.compute(params, cards)
    assert exc.value.field == "obstructed" and "does not apply" in exc.value.message
    result = tool.compute({**params, "obstructed": False}, cards)
    assert result.data["net_shift"] == 1  # very heavy close combat beats heavy protection
    # Each printed result moves one step up: shaken to out of action, no effect to fall back.
    fractions = {k: v["fraction"] for k, v in result.data["results"].items()}
    assert fractions == {
        "eliminated": "1/4",
        "out_of_action": "1/4",
        "shaken": "0",
        "fall_back": "1/2",
        "no_effect": "0",
    }
    assert [t["id"] for t in result.tables] == ["odds-table"]
    assert dict(result.figures)["Net shift"] == "1"


def test_close_combat_reads_the_modifier_objects():
    tool = registry.get("tactical-assault").tool("close-combat")
    raw = {"unit_a": "Infantry", "a_modifiers": {"in_cover": True, "outside_arc": False}}
    assert tool.read_params(raw) == {"unit_a": "Infantry", "a_in_cover": True}
    with pytest.raises(ToolInputError) as exc:
        tool.read_params({"b_modifiers": {"flying": True}})
    assert exc.value.field == "b_modifiers"
    inputs = tool.background.inputs_from_params(
        {"unit_a": "Infantry", "unit_b": "Armored", "b_target_shaken": True},
        {"unit_type": units(), "combat_card": combat_cards()},
    )
    assert inputs["a_modifiers"] == {} and inputs["b_modifiers"] == {"target_shaken": True}


def test_a_grid_links_parameters_to_a_cells_coordinates():
    spec = charts.grid("board", "Board", 2, 1, [{"x": 0, "y": 0}], link={"col": "x"})
    assert spec["type"] == "grid" and spec["link"] == {"col": "x"} and spec["desc"] == "Board"
    with pytest.raises(ValueError):
        charts.grid("board", "Board", 2, 1, [], link={"col": "z"})
