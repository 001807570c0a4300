from __future__ import annotations

import random

import pytest

from validation.games.hex_skirmish.goldfish import simulate_hexskirmish
from validation.sim.kernel import SimParams, merge_all, summarise
from validation.types import Entry


def reference(costs: list[int], opening: int, turns: int, rnd: random.Random) -> list[int]:
    """Cards played per turn in one game, the module's policy written plainly."""
    deck = list(costs)
    rnd.shuffle(deck)
    hand, deck = deck[:opening], deck[opening:]
    played = []
    for _ in range(turns):
        n = 0
        for _ in range(2):
            total = sum(hand)
            ok = [c for i, c in enumerate(hand) if total - c >= c]
            if ok:
                card = max(ok)
                hand.remove(card)
                need = card
                for c in sorted(c for c in hand if c > 0):
                    if need <= 0:
                        break
                    hand.remove(c)
                    need -= c
                n += 1
            elif deck:
                hand += deck[:5]
                deck = deck[5:]
        played.append(n)
    return played


@pytest.fixture
def army(make) -> list[Entry]:
    return [
        Entry(make.unit("Spearmen", 6), 1),
        Entry(make.unit("Lancers", 8), 1),
        Entry(make.command("March", 0), 8),
        Entry(make.command("Charge", 1), 10),
        Entry(make.command("Volley", 2), 8),
        Entry(make.command("Rally", 3), 4),
    ]


def test_all_free_cards_are_deterministic(make) -> None:
    deck = [Entry(make.command("Free", 0), 30)]
    play = simulate_hexskirmish(deck, SimParams(games=100, turns=6))["counts"]
    # 5 cards: 2, 2, 1 + draw 5, 2, 2, 1 + draw 5
    assert play["played_sum_by_turn"] == [200, 200, 100, 200, 200, 100]
    assert play["hand_sum_by_turn"] == [300, 100, 500, 300, 100, 500]
    assert play["first_playable_turn_hist"]["Free"] == [100, 0, 0, 0, 0, 0, 0]
    draw = simulate_hexskirmish(deck, SimParams(games=100, turns=3, on_the_play=False))
    # the second player opens with 6: 2, 2, 2
    assert draw["counts"]["played_sum_by_turn"] == [200, 200, 200]
    assert draw["counts"]["hand_sum_by_turn"] == [400, 200, 0]


def test_deck_runs_out_and_then_idles(make) -> None:
    deck = [Entry(make.command("Dear", 9), 30)]  # each play discards one other 9
    stats = simulate_hexskirmish(deck, SimParams(games=50, turns=5))
    c = stats["counts"]
    # turn 1 holds 5 cards: play, discard, play, discard
    assert c["played_sum_by_turn"][0] == 100
    assert sum(c["deck_out_turn_hist"]) == 50
    assert all(n <= 2 * 50 for n in c["played_sum_by_turn"])


def test_units_are_not_in_the_deck(army) -> None:
    stats = simulate_hexskirmish(army, SimParams(games=500, turns=12, seed=4))
    c = stats["counts"]
    assert set(c["first_playable_turn_hist"]) == {"March", "Charge", "Volley", "Rally"}
    # 30 cards: opening 5, then draws of 5 -> the deck is out after five draws
    assert sum(c["deck_out_turn_hist"]) == 500
    assert c["deck_out_turn_hist"][-1] == 0
    fig = summarise(stats)["figures"]
    assert fig["first_playable_turn_hist"]["March"]["p_by_turn"][0] > 0.4
    assert all(0 <= m <= 2 for m in fig["played_mean_by_turn"])


def test_agrees_with_plain_reference(army) -> None:
    costs = [0] * 8 + [1] * 10 + [2] * 8 + [3] * 4
    rnd = random.Random(1)
    games = 4_000
    ref = [0] * 12
    for _ in range(games):
        for t, n in enumerate(reference(costs, 5, 12, rnd)):
            ref[t] += n
    vec = summarise(simulate_hexskirmish(army, SimParams(games=40_000, seed=8)))["figures"]
    for t in range(12):
        assert vec["played_mean_by_turn"][t] == pytest.approx(ref[t] / games, abs=0.06), t


def test_hex_seeds_and_chunks(army) -> None:
    p = SimParams(games=4_000, seed=3)
    assert simulate_hexskirmish(army, p) == simulate_hexskirmish(army, p)
    other = simulate_hexskirmish(army, SimParams(games=4_000, seed=4))
    assert other["counts"] != simulate_hexskirmish(army, p)["counts"]
    merged = merge_all(simulate_hexskirmish(army, p, i, 3) for i in range(3))
    assert merged["games"] == 4_000
    assert sum(merged["counts"]["first_playable_turn_hist"]["Rally"]) == 4_000
