"""The tuner's race, one round at a time: which swaps stay in the race and when it is decided
(validation/sim/paired.race_step; the intervals are turned so that more is better)."""

from simulations import tuning
from validation.sim.paired import race_step


def _row(index, low, high, gain=None):
    return {
        "index": index,
        "cut": f"Out {index}",
        "add": f"In {index}",
        "section": "main",
        "effect": gain if gain is not None else (low + high) / 2,
        "ci_low": low,
        "ci_high": high,
        "gain": gain if gain is not None else (low + high) / 2,
        "gain_low": low,
        "gain_high": high,
    }


def test_a_swap_that_plays_every_game_as_the_deck_does_leaves_the_race():
    same = _row(0, 0.0, 0.0)
    unsure = _row(1, -0.5, 0.7)
    kept, decided = race_step([same, unsure])
    assert [r["index"] for r in kept] == [1]
    assert not decided


def test_a_swap_worse_than_the_deck_or_than_the_best_swaps_worst_case_is_dropped():
    worse = _row(0, -2.0, -0.1)
    best = _row(1, 1.0, 3.0)
    behind = _row(2, -0.2, 0.9)
    close = _row(3, 0.5, 2.5)
    kept, decided = race_step([worse, best, behind, close])
    assert [r["index"] for r in kept] == [1, 3]
    assert decided  # both left are better than the deck, their intervals clear of 0


def test_no_winner_names_the_closest_swaps_as_not_distinguishable():
    rows = [
        _row(0, -0.4, 0.2, -0.1),
        _row(1, -0.1, 0.5, 0.2),
        _row(2, -0.3, 0.1, -0.15),
        _row(3, -0.9, 0.05, -0.4),
    ]
    closest = tuning._closest(rows)
    assert [r["index"] for r in closest] == [1, 0, 2]
    assert tuning._suggestions(rows) == []
