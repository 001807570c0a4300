"""Tactical Assault combat odds: exact fractions over a 72-card deck whose results we set."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from validation.games.tactical_assault.combat_odds import (
    MODIFIERS,
    RATINGS,
    RESULTS,
    close_combat_montecarlo,
    combat_odds,
)
from validation.types import CardFacts

# Printed results of the test deck: 8 + 10 + 14 + 16 + 24 = 72 cards.
PRINTED = {"eliminated": 8, "out_of_action": 10, "shaken": 14, "fall_back": 16, "no_effect": 24}


def deck_of(counts: dict[str, int]) -> list[CardFacts]:
    cards, number = [], 1
    for result, n in counts.items():
        for _ in range(n):
            cards.append(
                CardFacts(
                    name=f"Card {number}",
                    kind="combat_card",
                    attributes={"number": number, "combat_result": result},
                )
            )
            number += 1
    return cards


def unit(name: str, fp: str, prot: str, cc: str, rng: str = "none", cost: int = 1) -> CardFacts:
    return CardFacts(
        name=name,
        kind="unit_type",
        cost=cost,
        attributes={
            "firepower": fp,
            "protection": prot,
            "close_combat": cc,
            "range_distance": rng,
        },
    )


# Table 3 of the rulebook.
ARMORED = unit("Armored", "heavy", "heavy", "heavy", "very_long", 5)
INFANTRY = unit("Infantry", "light", "none", "very_heavy", "medium", 2)
BEHEMOTH = unit("Behemoth", "very_heavy", "very_heavy", "heavy", "very_long", 6)
ANTI_ARMOR = unit("Anti-Armor", "heavy", "very_light", "light", "long", 3)
CREATURE = unit("Creature", "none", "light", "light", "none", 1)
AERIAL = unit("Aerial", "heavy", "light", "none", "none", 2)

DECK = deck_of(PRINTED)


def fractions(result: dict) -> dict[str, Fraction]:
    return {name: Fraction(result["results"][name]["fraction"]) for name in RESULTS}


def test_deck_has_72_cards() -> None:
    assert len(DECK) == 72


def test_armored_fires_at_infantry_shifts_up_one() -> None:
    # heavy firepower > no protection: up one. 8+10 eliminated, 14 OOA, 16 shaken, 24 fall back.
    r = combat_odds(ARMORED, INFANTRY, DECK, {"attack": "firepower"})
    assert r["net_shift"] == 1
    assert fractions(r) == {
        "eliminated": Fraction(1, 4),
        "out_of_action": Fraction(7, 36),
        "shaken": Fraction(2, 9),
        "fall_back": Fraction(1, 3),
        "no_effect": Fraction(0),
    }
    assert r["results"]["eliminated"]["count"] == 18
    assert r["results"]["eliminated"]["probability"] == pytest.approx(0.25)
    json.dumps(r)


def test_cover_cancels_the_rating_shift() -> None:
    r = combat_odds(ARMORED, INFANTRY, DECK, {"attack": "firepower", "in_cover": True})
    assert r["net_shift"] == 0
    assert fractions(r) == {k: Fraction(v, 72) for k, v in PRINTED.items()}


def test_anti_armor_on_behemoth_shifts_down_one() -> None:
    r = combat_odds(ANTI_ARMOR, BEHEMOTH, DECK, {"attack": "firepower"})
    assert r["net_shift"] == -1
    assert fractions(r) == {
        "eliminated": Fraction(0),
        "out_of_action": Fraction(1, 9),
        "shaken": Fraction(5, 36),
        "fall_back": Fraction(7, 36),
        "no_effect": Fraction(5, 9),
    }


def test_all_table_4_rows_cumulate_and_obstructed_or_cover_counts_once() -> None:
    mods = {
        "attack": "firepower",
        "range": "extreme",
        "obstructed": True,
        "in_cover": True,
        "target_higher": True,
        "outside_arc": True,
    }
    # -1 rating, -1 extreme, -1 obstructed/cover (one row), -1 elevation, +1 arc = -3
    r = combat_odds(ANTI_ARMOR, BEHEMOTH, DECK, mods)
    assert r["net_shift"] == -3
    assert fractions(r) == {
        "eliminated": Fraction(0),
        "out_of_action": Fraction(0),
        "shaken": Fraction(0),
        "fall_back": Fraction(1, 9),
        "no_effect": Fraction(8, 9),
    }


def test_close_combat_table_5() -> None:
    mods = {
        "attack": "close_combat",
        "target_shaken": True,
        "target_out_of_action": True,
        "outside_arc": True,
    }
    # very heavy close combat > heavy protection +1, shaken/OOA +1 (one row), arc +1 = +3
    r = combat_odds(INFANTRY, ARMORED, DECK, mods)
    assert r["net_shift"] == 3
    assert fractions(r)["eliminated"] == Fraction(2, 3)
    assert fractions(r)["out_of_action"] == Fraction(1, 3)
    assert r["attacker_rating"] == "very_heavy"


def test_bunker_uses_very_heavy_protection() -> None:
    r = combat_odds(ARMORED, INFANTRY, DECK, {"attack": "firepower", "target_in_bunker": True})
    assert r["target_protection"] == "very_heavy"
    assert r["net_shift"] == -1


def test_impossible_attacks() -> None:
    r = combat_odds(CREATURE, INFANTRY, DECK, {"attack": "firepower"})
    assert r["possible"] is False
    assert all(v["count"] == 0 for v in r["results"].values())
    r = combat_odds(ARMORED, INFANTRY, DECK, {"attack": "firepower", "range": "beyond"})
    assert r["possible"] is False


@pytest.mark.parametrize(
    "mods",
    [
        {"attack": "firepower", "nonsense": True},
        {"attack": "close_combat", "range": "extreme"},
        {"attack": "close_combat", "target_higher": True},
        {"attack": "firepower", "target_shaken": True},
        {"attack": "firepower", "in_cover": "yes"},
        {"attack": "melee"},
    ],
)
def test_bad_modifiers_are_rejected(mods: dict) -> None:
    with pytest.raises(ValueError):
        combat_odds(ARMORED, INFANTRY, DECK, mods)


def test_modifiers_constant_is_a_form_spec() -> None:
    names = [m["name"] for m in MODIFIERS]
    assert len(names) == len(set(names))
    assert {"range", "outside_arc", "in_cover", "obstructed", "target_higher"} <= set(names)
    assert all(m["label"] for m in MODIFIERS)
    json.dumps(MODIFIERS)


_bool_mods = ["outside_arc", "obstructed", "in_cover", "target_higher"]


@given(
    fp=st.sampled_from(RATINGS[1:]),
    prot=st.sampled_from(RATINGS),
    flags=st.fixed_dictionaries({k: st.booleans() for k in _bool_mods}),
    rng=st.sampled_from(["within", "extreme"]),
)
def test_counts_sum_to_deck_and_up_shift_never_hurts(fp, prot, flags, rng) -> None:
    attacker, target = unit("A", fp, "none", "none"), unit("T", "none", prot, "none")
    base = combat_odds(attacker, target, DECK, {"attack": "firepower", "range": rng, **flags})
    assert sum(v["count"] for v in base["results"].values()) == 72
    up = combat_odds(
        attacker, target, DECK, {"attack": "firepower", "range": rng, **flags, "outside_arc": True}
    )
    if not flags["outside_arc"]:
        assert up["net_shift"] == base["net_shift"] + 1
    # P(at least as bad as result k) never falls when the shift goes up.
    for k in range(len(RESULTS)):
        worse = sum(base["results"][n]["count"] for n in RESULTS[: k + 1])
        worse_up = sum(up["results"][n]["count"] for n in RESULTS[: k + 1])
        assert worse_up >= worse


# --- close combat Monte Carlo ---------------------------------------------------------


def test_all_eliminated_deck_ends_in_round_one() -> None:
    r = close_combat_montecarlo(INFANTRY, ARMORED, deck_of({"eliminated": 72}), 500, 1)
    assert r["outcomes"]["both_eliminated"] == 500
    assert r["rounds"]["histogram"] == {"1": 500}


def test_all_shaken_deck_escalates_to_elimination_in_round_two() -> None:
    # Both attacks are up one (ratings): shaken -> out of action in round 1; in round 2 the
    # target is out of action, up two: eliminated.
    r = close_combat_montecarlo(INFANTRY, ARMORED, deck_of({"shaken": 72}), 300, 2)
    assert r["shift_a_on_b"] == 1 and r["shift_b_on_a"] == 1
    assert r["outcomes"]["both_eliminated"] == 300
    assert r["rounds"]["histogram"] == {"2": 300}


def test_unit_without_close_combat_cannot_hurt() -> None:
    # Aerial has no close combat: Infantry (+1) puts it out of action, then eliminates it.
    r = close_combat_montecarlo(AERIAL, INFANTRY, deck_of({"shaken": 72}), 200, 3)
    assert r["a_can_attack"] is False
    assert r["outcomes"]["a_eliminated"] == 200
    assert r["rounds"]["histogram"] == {"2": 200}


def test_no_effect_between_equals_never_resolves() -> None:
    r = close_combat_montecarlo(ARMORED, ARMORED, deck_of({"no_effect": 72}), 100, 4, 30)
    assert r["outcomes"]["unresolved"] == 100
    assert r["rounds"]["histogram"] == {}


def test_fall_back_breaks_contact() -> None:
    # no effect shifted up one is fall back, for both units.
    r = close_combat_montecarlo(INFANTRY, ARMORED, deck_of({"no_effect": 72}), 100, 5)
    assert r["outcomes"]["out_of_contact"] == 100
    assert r["fell_back"]["both_fell_back"] == 100


def test_cover_modifier_and_initial_status() -> None:
    # A in cover against B's attacks: B's shift 1 - 1 = 0; B starts shaken: A's status row +1.
    r = close_combat_montecarlo(
        INFANTRY,
        ARMORED,
        deck_of({"no_effect": 72}),
        50,
        6,
        b_modifiers={"in_cover": True},
        a_modifiers={"target_shaken": True},
    )
    assert r["shift_b_on_a"] == 0
    # A's card: no effect +1 (rating) +1 (B shaken) = shaken; B's: no effect. Never ends.
    assert r["outcomes"]["unresolved"] == 50
    assert r["statuses_at_end"]["b_shaken"] == 50


def test_half_eliminated_deck_first_round_frequencies() -> None:
    # Equal units, no shift: each side eliminates the other with probability 1/2 in round 1.
    deck = deck_of({"eliminated": 36, "no_effect": 36})
    games = 20000
    r = close_combat_montecarlo(ARMORED, ARMORED, deck, games, 7)
    f = r["frequencies"]
    assert r["rounds"]["histogram"]["1"] / games == pytest.approx(0.75, abs=0.015)
    assert f["both_eliminated"] >= 0.25 - 0.015
    # Over all rounds A and B are symmetric.
    assert f["a_eliminated"] == pytest.approx(f["b_eliminated"], abs=0.02)
    assert f["unresolved"] == 0


def test_montecarlo_reproducible_from_seed() -> None:
    a = close_combat_montecarlo(INFANTRY, ARMORED, DECK, 2000, 42)
    b = close_combat_montecarlo(INFANTRY, ARMORED, DECK, 2000, 42)
    c = close_combat_montecarlo(INFANTRY, ARMORED, DECK, 2000, 43)
    assert a == b
    assert a["outcomes"] != c["outcomes"] or a["rounds"] != c["rounds"]
    json.dumps(a)


def test_reshuffle_beyond_deck_length() -> None:
    # A 2-card deck (shaken, out of action) between equals. Each attacker reveals its two
    # cards in rounds 1-2 in random order, then reshuffles for rounds 3-4. Order (s, o):
    # the target is shaken, then out of action shifted up one (target has a status) =
    # eliminated in round 2. Order (o, s): out of action, then shaken+1 = out of action;
    # rounds 3-4 reveal both cards again, each shifted up one, so o eliminates by round 4.
    # P(end in round 2) = 1 - 1/4 = 3/4, round 3: 1/4 * 3/4 = 3/16, round 4: 1/16.
    deck = deck_of({"shaken": 1, "out_of_action": 1})
    games = 20000
    r = close_combat_montecarlo(ARMORED, ARMORED, deck, games, 8, max_rounds=10)
    hist = r["rounds"]["histogram"]
    assert set(hist) <= {"2", "3", "4"}
    assert sum(hist.values()) == games
    assert hist["2"] / games == pytest.approx(3 / 4, abs=0.015)
    assert hist["3"] / games == pytest.approx(3 / 16, abs=0.015)
    assert hist["4"] / games == pytest.approx(1 / 16, abs=0.01)
