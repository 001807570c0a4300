"""Red Mittens goldfish: decks whose result is known by hand, seeds and chunk merging."""

from __future__ import annotations

import json

import numpy as np
import pytest

from validation.games.red_mittens.goldfish import (
    _Game,
    _Unit,
    goldfish_red_mittens,
    merge_goldfish_stats,
)
from validation.types import CardFacts


def units(atk: int, n: int = 20, **flags: bool) -> list[CardFacts]:
    return [
        CardFacts(name=f"Unit {i}", kind="unit", attributes={"atk": atk, "def": 1, **flags})
        for i in range(n)
    ]


def items(bonus: int = 0, n: int = 20) -> list[CardFacts]:
    return [
        CardFacts(name=f"Item {i}", kind="item", attributes={"atk_bonus": bonus}) for i in range(n)
    ]


FIELDS = [CardFacts(name=f"Field {i}", kind="field", attributes={"time": "day"}) for i in range(20)]


def test_atk_20_kills_on_the_first_turn() -> None:
    r = goldfish_red_mittens(units(20), items(), FIELDS, 200, 1)
    assert r["dead_on_turn"] == {"1": 200}
    assert r["p_dead_by_turn"]["1"] == 1.0
    # The Cardinal Rule: one card is played on turn 1 (a field, the cheapest filler).
    assert r["cards_played"] == 200
    assert r["dice_rolls"] == 0
    json.dumps(r)


def test_atk_5_kills_on_turn_4_one_card_a_turn() -> None:
    r = goldfish_red_mittens(units(5), items(), FIELDS, 100, 2)
    assert r["dead_on_turn"] == {"4": 100}
    assert r["turns_played"] == 400
    assert r["mean_cards_played_per_turn"] == 1.0
    assert r["mean_dead_turn"] == 4.0


def test_item_bonus_adds_to_attack() -> None:
    # 3 atk + 2 from the active item = 5 a turn: 4 turns.
    r = goldfish_red_mittens(units(3), items(2), FIELDS, 100, 3)
    assert r["dead_on_turn"] == {"4": 100}


def test_attack_twice_doubles_an_undefended_attack() -> None:
    r = goldfish_red_mittens(units(10, attack_twice=True), items(), FIELDS, 100, 4)
    assert r["dead_on_turn"] == {"1": 100}


def test_core_dice_rolled_first_on_turn_7() -> None:
    # The opening hand is 2 units, 2 items, 2 fields; one card a turn empties it after turn
    # 6, so the dice is rolled on turn 7 in every game and never before. atk 1: turn 20.
    r = goldfish_red_mittens(units(1), items(), FIELDS, 300, 5)
    assert r["dead_on_turn"] == {"20": 300}
    assert r["dice_rolls_by_turn"]["7"] == 300
    assert all(int(t) >= 7 for t in r["dice_rolls_by_turn"])
    assert r["games_with_dice"] == 300
    assert sum(r["dice_faces"].values()) == r["dice_rolls"]
    assert r["cards_played"] == r["cards_from_hand"] + r["cards_flipped"]
    for turn in range(1, 7):
        assert r["cards_played_by_turn"][str(turn)] == 300


def test_d6_bonus_kills_on_turn_1_one_time_in_six() -> None:
    # 14 + D6 reaches 20 only on a 6; the second attack always finishes the job.
    games = 6000
    r = goldfish_red_mittens(units(14, d6_bonus=True), items(), FIELDS, games, 6)
    assert set(r["dead_on_turn"]) == {"1", "2"}
    assert r["dead_on_turn"]["1"] / games == pytest.approx(1 / 6, abs=0.02)


def test_no_attack_never_kills() -> None:
    r = goldfish_red_mittens(units(0), items(), FIELDS, 20, 7, max_turns=15)
    assert r["not_dead"] == 20
    assert r["dead_on_turn"] == {}
    assert r["turns_played"] == 20 * 15
    assert r["mean_dead_turn"] is None


def mixed_deck() -> list[CardFacts]:
    return [
        CardFacts(name=f"U{i}", kind="unit", attributes={"atk": 1 + i % 7, "d6_bonus": i % 5 == 0})
        for i in range(20)
    ]


def test_reproducible_and_chunks_merge_into_the_whole_run() -> None:
    whole = goldfish_red_mittens(mixed_deck(), items(1), FIELDS, 300, 11)
    again = goldfish_red_mittens(mixed_deck(), items(1), FIELDS, 300, 11)
    assert whole == again
    other = goldfish_red_mittens(mixed_deck(), items(1), FIELDS, 300, 12)
    assert (
        other["dead_on_turn"] != whole["dead_on_turn"] or other["dice_faces"] != whole["dice_faces"]
    )
    first = goldfish_red_mittens(mixed_deck(), items(1), FIELDS, 120, 11)
    rest = goldfish_red_mittens(mixed_deck(), items(1), FIELDS, 180, 11, first_game=120)
    merged = merge_goldfish_stats(first, rest)
    for key, value in merged.items():
        assert whole[key] == value, key


def test_greedy_play_takes_the_stronger_unit_and_obeys_the_cardinal_rule() -> None:
    rng = np.random.default_rng(0)
    game = _Game([_Unit(1, False, False)] * 10, [0] * 10, 20, rng, 10)
    game.active_unit = _Unit(2, False, False)
    game.active_bonus = 0
    game.hand = {
        "unit": [_Unit(1, False, False), _Unit(9, False, False)],
        "item": [3],
        "field": [0],
    }
    played = game.play(set())
    # The 9-atk unit and the +3 item both raise the attack; the field adds nothing.
    assert played == 2
    assert game.active_unit == _Unit(9, False, False)
    assert game.active_bonus == 3
    assert game.hand == {"unit": [_Unit(1, False, False)], "item": [], "field": [0]}
    # Nothing improves now: exactly one card, the field.
    assert game.play(set()) == 1
    assert game.hand["field"] == []
    # Only a weaker unit left: the Cardinal Rule forces it into play.
    assert game.play(set()) == 1
    assert game.active_unit == _Unit(1, False, False)
    assert game.play(set()) == 0
