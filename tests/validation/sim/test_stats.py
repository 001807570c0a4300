"""Every game's goldfish statistics are a type of its own that converts to and from JSON:
`from_dict(as_dict())` gives back the same statistics, for a chunk and for a merged run,
and chunks read back from JSON merge into the same run as the chunks themselves."""

from __future__ import annotations

import json

import pytest

from tests.validation import pools as p
from validation.capabilities import Goldfish
from validation.registry import registry
from validation.sim.stats import CountStats, Statistics, read_all, stats_from_json


def background_runs():
    for game in registry:
        if game.goldfish is not None:
            yield game.goldfish
        for tool in game.tools:
            if tool.background is not None:
                yield tool.background


def _ta_cards():
    cards = sorted(p.TA_CARDS.values(), key=lambda c: c.name)
    return {kind: [c for c in cards if c.kind == kind] for kind in ("unit_type", "combat_card")}


#: Each run's inputs and a small run's parameters, read from the rules core's sample decks.
INPUTS = {
    "redline-goldfish": lambda g: g.prepare(p.redline_deck().sections),
    "red-mittens-goldfish": lambda g: g.prepare(p.build(p.RM_CARDS, p.rm_sections()).sections),
    "hex-skirmish-goldfish": lambda g: g.prepare(p.hs_deck().sections),
    "tactical-assault-close-combat": lambda g: g.inputs_from_params(
        {"unit_a": "Infantry", "unit_b": "Armored"}, _ta_cards()
    ),
}


def _through_json(stats: Statistics) -> dict:
    return json.loads(json.dumps(stats.as_dict()))


def test_every_game_with_a_run_is_covered():
    assert {g.slug for g in background_runs()} == set(INPUTS)


@pytest.mark.parametrize("goldfish", list(background_runs()), ids=lambda g: g.slug)
def test_statistics_round_trip_through_json(goldfish: Goldfish):
    inputs = INPUTS[goldfish.slug](goldfish)
    params = {**goldfish.defaults(), "games": 60}
    if "turns" in params:
        params["turns"] = 6
    parts = [goldfish.run_chunk(inputs, params, 7, i, 3) for i in range(3)]
    assert all(type(s) is goldfish.stats for s in parts)
    assert [s.games for s in parts] == [20, 20, 20]
    for part in parts:
        assert goldfish.stats.from_dict(_through_json(part)) == part
    merged = goldfish.merge(parts)
    assert merged.games == 60
    assert goldfish.read_stats(_through_json(merged)) == merged
    # chunks stored as JSON and read back merge into the very same run and summary
    stored = read_all(goldfish.stats, [_through_json(s) for s in parts])
    assert goldfish.merge(stored) == merged
    assert goldfish.summarise(goldfish.merge(stored), inputs) == goldfish.summarise(merged, inputs)
    # a chunk of no games round-trips too
    empty = goldfish.run_chunk(inputs, {**params, "games": 0}, 7, 0, 1)
    assert empty.games == 0 and goldfish.stats.from_dict(_through_json(empty)) == empty


@pytest.mark.parametrize("goldfish", list(background_runs()), ids=lambda g: g.slug)
def test_each_game_has_its_own_statistics(goldfish: Goldfish):
    others = {g.stats for g in background_runs() if g is not goldfish}
    assert goldfish.stats not in others and goldfish.stats is not CountStats


def test_statistics_of_another_game_are_refused_with_the_reason():
    redline = registry.get("redline").goldfish
    hex_skirmish = registry.get("hex-skirmish").goldfish
    inputs = INPUTS["hex-skirmish-goldfish"](hex_skirmish)
    params = {**hex_skirmish.defaults(), "games": 10, "turns": 3}
    stored = hex_skirmish.run_chunk(inputs, params, 1, 0, 1).as_dict()
    with pytest.raises(ValueError, match="statistics of 'hex-skirmish' are not 'redline'"):
        redline.read_stats(stored)
    with pytest.raises(ValueError, match="not the statistics of RedMittensStats"):
        stats_from_json(registry.get("red-mittens").goldfish.stats, {"games": 3})
