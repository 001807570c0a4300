"""Each game's goldfish and tools as its package declares them, without the site."""

from __future__ import annotations

import pytest

from tests.validation.pools import TA_CARDS
from validation.capabilities import InputsError, ToolInputError
from validation.games.redline.samples import redline_arsenal
from validation.games.tactical_assault import close_combat
from validation.params import clean_params
from validation.registry import registry
from validation.sim.inputs import card_from_json, card_json, entries_from_json, entries_json

GOLDFISH = {
    "redline": "redline-goldfish",
    "red-mittens": "red-mittens-goldfish",
    "hex-skirmish": "hex-skirmish-goldfish",
}


def background_runs():
    for game in registry:
        if game.goldfish is not None:
            yield game, game.goldfish
        for tool in game.tools:
            if tool.background is not None:
                yield game, tool.background


def test_the_games_declare_their_goldfish():
    assert {g.slug: g.goldfish.slug for g in registry if g.goldfish} == GOLDFISH
    tool = registry.get("tactical-assault").tool("close-combat")
    assert tool.background.slug == "tactical-assault-close-combat"
    assert not tool.background.needs_deck and tool.background.reads == tool.reads
    slugs = [run.slug for _, run in background_runs()]
    assert len(slugs) == len(set(slugs))


@pytest.mark.parametrize("game,run", list(background_runs()), ids=lambda x: x.slug)
def test_defaults_are_clean_parameters(game, run):
    card_choices = {"unit_type": ["Infantry", "Armored"]}
    clean = clean_params(run.params, {}, card_choices=card_choices)
    assert clean == run.defaults()
    assert run.check_params(clean) == {}
    assert set(run.sections) <= set(game.section_names)
    assert run.needs_deck == bool(run.sections)


def test_redline_refuses_an_empty_mulligan_band():
    goldfish = registry.get("redline").goldfish
    params = {**goldfish.defaults(), "mulligan_lo": 5, "mulligan_hi": 3}
    assert goldfish.check_params(params) == {
        "mulligan_hi": "the mulligan band 5–3 is empty; the high end must be at least the low end"
    }


def test_redline_goldfish_plays_its_prepared_inputs():
    goldfish = registry.get("redline").goldfish
    inputs = goldfish.prepare({"arsenal": redline_arsenal(), "missions": [], "red_line": []})
    assert inputs["missions"] is None and sum(r["count"] for r in inputs["arsenal"]) == 60
    params = {**goldfish.defaults(), "games": 300, "turns": 5}
    parts = [goldfish.run_chunk(inputs, params, 3, i, 2) for i in range(2)]
    summary = goldfish.summarise(goldfish.merge(parts), inputs)
    assert summary["games"] == 300 and summary["deck"]["arsenal"] == 60
    assert [c["id"] for c in goldfish.charts(summary)][:2] == [
        "opening-resources",
        "resource-deployed",
    ]
    assert dict(goldfish.key_figures(summary))["Games"] == "300"


def test_inputs_round_trip_through_json():
    entries = redline_arsenal()
    assert entries_from_json(entries_json(entries)) == [
        type(e)(card_from_json(card_json(e.card, text=False)), e.count) for e in entries
    ]
    assert entries_from_json(None) is None


def test_red_mittens_needs_units():
    goldfish = registry.get("red-mittens").goldfish
    with pytest.raises(InputsError, match="the deck has no units: there is nothing to attack"):
        goldfish.prepare({"units": [], "items": [], "fields": []})


def ta_cards():
    cards = sorted(TA_CARDS.values(), key=lambda c: c.name)
    return {kind: [c for c in cards if c.kind == kind] for kind in ("unit_type", "combat_card")}


def test_close_combat_inputs_name_what_is_wrong():
    run = registry.get("tactical-assault").tool("close-combat").background
    cards = ta_cards()
    inputs = run.inputs_from_params(
        {"unit_a": "infantry", "unit_b": "Armored", "a_modifiers": {"in_cover": True}}, cards
    )
    assert inputs["unit_a"]["name"] == "Infantry" and len(inputs["combat_cards"]) == 72
    assert inputs["a_modifiers"] == {"in_cover": True} and inputs["b_modifiers"] == {}
    with pytest.raises(ToolInputError) as exc:
        run.inputs_from_params({"unit_a": "Tank", "unit_b": "Armored"}, cards)
    assert exc.value.field == "unit_a"
    assert exc.value.message.startswith("'Tank' is not a unit type; use one of Aerial, Armored")
    with pytest.raises(ToolInputError, match="the catalogue has none"):
        run.inputs_from_params({"unit_a": "Tank", "unit_b": "Armored"}, {})
    with pytest.raises(ToolInputError, match="holds no Tactical Assault combat cards"):
        run.inputs_from_params(
            {"unit_a": "Infantry", "unit_b": "Armored"}, {"unit_type": cards["unit_type"]}
        )
    with pytest.raises(ToolInputError, match="'fly' is not a close combat modifier") as exc:
        run.inputs_from_params(
            {"unit_a": "Infantry", "unit_b": "Armored", "b_modifiers": {"fly": True}}, cards
        )
    assert exc.value.field == "b_modifiers"


def test_close_combat_tool_computes_at_most_its_inline_games():
    tool = registry.get("tactical-assault").tool("close-combat")
    params = {**tool.background.defaults(), "games": 500, "seed": 1, "a_in_cover": True}
    result = tool.compute(params, ta_cards())
    # every sample card is "no effect": no combat ends
    assert result.data["outcomes"]["unresolved"] == 500 and result.data["seed"] == 1
    assert [row[0] for row in result.tables[0]["rows"]][:2] == [
        "Infantry eliminated",
        "Armored eliminated",
    ]
    assert result.notes[0].startswith("Shift of A's attacks on B:")
    assert dict(result.figures)["unresolved"] == "100.0%"
    too_many = {**params, "games": close_combat.INLINE_MAX + 1}
    with pytest.raises(ToolInputError) as exc:
        tool.compute(too_many, ta_cards())
    assert exc.value.field == "games"


def test_redline_goldfish_plays_over_a_pre_determined_red_line():
    """Scenario Play, pre-determined: "both players agree to battle over a set layout of 5
    mission cards", so the goldfish plays over the list's red line, not 5 missions drawn
    from its mission deck (on the spot, without a red line, it draws from the deck)."""
    from tests.validation import pools as p

    deck = p.redline_deck(red_line=[(m, 1) for m in p.MISSIONS[:5]])
    goldfish = registry.get("redline").goldfish
    inputs = goldfish.prepare(deck.sections)
    assert sorted(r["card"]["name"] for r in inputs["missions"]) == sorted(p.MISSIONS[:5])
    on_the_spot = goldfish.prepare(p.redline_deck().sections)
    assert sum(r["count"] for r in on_the_spot["missions"]) == sum(
        e.count for e in p.redline_deck().sections["missions"]
    )
