from __future__ import annotations

from itertools import combinations

import pytest
from scipy.stats import hypergeom

from validation.sim.odds import by_turn, cards_seen_by_turn, distribution, p_at_least, p_exactly


def brute_force(k: int, group_size: int, deck_size: int, seen: int) -> float:
    deck = [i < group_size for i in range(deck_size)]
    hands = list(combinations(range(deck_size), seen))
    hits = sum(1 for hand in hands if sum(deck[i] for i in hand) >= k)
    return hits / len(hands)


@pytest.mark.parametrize("deck_size", [1, 5, 8])
def test_p_at_least_matches_enumeration(deck_size: int) -> None:
    for group in range(deck_size + 1):
        for seen in range(deck_size + 1):
            for k in range(-1, seen + 2):
                assert p_at_least(k, group, deck_size, seen) == pytest.approx(
                    brute_force(k, group, deck_size, seen), abs=1e-12
                )


def test_exact_distribution_matches_scipy_and_sums_to_one() -> None:
    dist = distribution(24, 60, 7)
    assert sum(dist) == pytest.approx(1.0)
    for k, p in enumerate(dist):
        assert p == pytest.approx(hypergeom.pmf(k, 60, 24, 7), rel=1e-9)
    assert p_exactly(8, 24, 60, 7) == 0.0


def test_by_turn_counts_the_draws() -> None:
    # REDLINE: the first player draws on turn 1 too
    assert cards_seen_by_turn(1, 60) == 8
    assert cards_seen_by_turn(1, 60, first_player_draws=False) == 7
    assert cards_seen_by_turn(1, 60, on_the_play=False, first_player_draws=False) == 8
    assert cards_seen_by_turn(100, 60) == 60
    probs = by_turn(1, 4, 60, turns=5)
    assert probs == [pytest.approx(p_at_least(1, 4, 60, 7 + t)) for t in range(1, 6)]
    assert probs == sorted(probs)
    assert by_turn(2, 4, 60, opening=5, draws_per_turn=5, turns=3)[2] == pytest.approx(
        p_at_least(2, 4, 60, 20)
    )


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError):
        p_at_least(1, 10, 5, 2)
    with pytest.raises(ValueError):
        p_at_least(1, 3, 5, 6)
