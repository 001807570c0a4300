"""The Red Code map generator and the map.layout rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.validation import pools as p
from validation.games.red_code import generate_layout
from validation.games.red_code.layout import CORNER_PAIRS
from validation.runner import validate


@given(st.integers(min_value=0, max_value=2**32))
def test_a_generated_layout_is_legal(seed):
    layout = generate_layout(p.RC_MAP_CARDS, seed)
    names = [n for row in layout["rows"] for n in row]
    assert len(layout["rows"]) == 3 and all(len(r) == 4 for r in layout["rows"])
    assert len(set(names)) == 12 and len(layout["unused"]) == 3
    assert set(names) | set(layout["unused"]) == {c.name for c in p.RC_MAP_CARDS}
    starts = tuple(
        (r, c)
        for r in range(3)
        for c in range(4)
        if layout["rows"][r][c] in ("Blue Harbour", "Red Harbour")
    )
    assert starts in CORNER_PAIRS or tuple(reversed(starts)) in CORNER_PAIRS
    report = validate("red-code", "arena", p.rc_deck(options={"map": layout}), cards=p.RC_CARDS)
    assert report.legal, report.as_dict()


def test_the_same_seed_gives_the_same_layout_whatever_the_card_order():
    shuffled = list(p.RC_MAP_CARDS)
    random.Random(3).shuffle(shuffled)
    assert generate_layout(p.RC_MAP_CARDS, 42) == generate_layout(shuffled, 42)


def test_different_seeds_give_different_layouts():
    layouts = {str(generate_layout(p.RC_MAP_CARDS, s)["rows"]) for s in range(20)}
    assert len(layouts) > 10


def test_both_corner_pairs_are_used():
    pairs = set()
    for seed in range(40):
        rows = generate_layout(p.RC_MAP_CARDS, seed)["rows"]
        pairs.add("tl" if rows[0][0] in ("Blue Harbour", "Red Harbour") else "tr")
    assert pairs == {"tl", "tr"}


def test_generate_layout_needs_two_start_cards():
    with pytest.raises(ValueError, match="1 start map cards"):
        generate_layout(p.RC_MAP_CARDS[1:], 1)


def test_a_layout_with_a_repeated_or_foreign_card_is_illegal():
    layout = generate_layout(p.RC_MAP_CARDS, 5)
    rows = [list(r) for r in layout["rows"]]
    rows[1][1] = rows[1][2]
    report = validate(
        "red-code", "arena", p.rc_deck(options={"map": {"rows": rows}}), cards=p.RC_CARDS
    )
    assert report.codes() == {"map.layout"}
    rows[1][1] = "Blue Submarine"
    report = validate(
        "red-code", "arena", p.rc_deck(options={"map": {"rows": rows}}), cards=p.RC_CARDS
    )
    assert any("not a map card" in v.message for v in report.errors)


@pytest.mark.parametrize("bad", [None, 3, "map", {"rows": "x"}, {"rows": [[1, 2, 3, 4]] * 3}])
def test_a_malformed_map_option_is_a_violation_not_a_crash(bad):
    report = validate("red-code", "arena", p.rc_deck(options={"map": bad}), cards=p.RC_CARDS)
    assert report.codes() == {"map.layout"}
