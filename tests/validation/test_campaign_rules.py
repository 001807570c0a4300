"""Campaign rules, the capability of a game whose players keep a list over a series of
games: Tactical Assault's numbers are its campaign format's options, and bad rules are
refused when declared."""

from __future__ import annotations

import dataclasses

import pytest

from validation.registry import registry


def test_tactical_assault_declares_its_campaign():
    game = registry.get("tactical-assault")
    rules = game.campaign
    options = game.format(rules.format).options
    assert dict(rules.points_for) == {"win": 9, "loss": 6, "draw": 3}
    assert (rules.award_cost, rules.swap_cost_per_point, rules.default_points) == (3, 1, 36)
    assert rules.points_for["win"] == options["win"]
    assert rules.award_cost == options["promotion_cost"]
    assert rules.default_points == options[rules.points_option]
    assert rules.section in game.format(rules.format).section_names
    assert set(rules.kinds) <= set(game.kinds)
    assert rules.as_dict()["labels"] == {
        "list": "force",
        "card": "unit",
        "points": "unit point",
        "award": "promotion award",
    }


@pytest.mark.parametrize(
    "change",
    [
        {"points_for": {"win": 9, "loss": 6}},
        {"points_for": {"win": 9, "loss": -1, "draw": 3}},
        {"award_cost": 0},
        {"default_points": 0},
        {"swap_cost_per_point": -1},
    ],
)
def test_bad_rules_are_refused(change):
    rules = registry.get("tactical-assault").campaign
    with pytest.raises(ValueError):
        dataclasses.replace(rules, **change)
