from __future__ import annotations

import json
import math

import numpy as np
import pytest

from validation.games.redline.compiled import simulate_redline_compiled
from validation.games.redline.goldfish import (
    MulliganBand,
    simulate_redline,
    simulate_redline_reference,
)
from validation.sim.kernel import (
    SimParams,
    chunk_games,
    chunk_seed_sequence,
    merge,
    merge_all,
    summarise,
)
from validation.sim.odds import distribution
from validation.types import Entry


def turn_mean_var(hist: list[int]) -> tuple[float, float, int]:
    """Mean, variance and count of the turns 1..T of a `*_turn_hist` (never excluded)."""
    values = np.arange(1, len(hist))
    counts = np.array(hist[:-1], dtype=float)
    n = counts.sum()
    mean = float((values * counts).sum() / n)
    var = float(((values - mean) ** 2 * counts).sum() / (n - 1))
    return mean, var, int(n)


def assert_means_agree(a: list[int], b: list[int], sigmas: float = 4.0) -> None:
    ma, va, na = turn_mean_var(a)
    mb, vb, nb = turn_mean_var(b)
    se = math.sqrt(va / na + vb / nb)
    assert abs(ma - mb) <= sigmas * se, (ma, mb, se)


def test_opening_hand_matches_hypergeometric(arsenal: list[Entry]) -> None:
    games = 40_000
    stats = simulate_redline(arsenal, None, SimParams(games=games, turns=4, seed=11))
    hist = stats["counts"]["open_resources_hist"]
    assert sum(hist) == games
    for k, p in enumerate(distribution(24, 60, 7)):
        se = math.sqrt(p * (1 - p) / games)
        assert abs(hist[k] / games - p) <= 4 * se + 1 / games, (k, hist[k] / games, p)


def test_mulligan_band(arsenal: list[Entry]) -> None:
    wide = simulate_redline(arsenal, None, SimParams(games=2_000), band=MulliganBand(0, 7))
    assert wide["counts"]["mulligans"] == 0
    assert wide["counts"]["kept_resources_hist"] == wide["counts"]["open_resources_hist"]
    band = simulate_redline(arsenal, None, SimParams(games=5_000, seed=2))
    opened = band["counts"]["open_resources_hist"]
    kept = band["counts"]["kept_resources_hist"]
    assert band["counts"]["mulligans"] == sum(opened[:2]) + sum(opened[5:])
    assert sum(kept) == sum(opened) == 5_000
    assert sum(kept[2:5]) > sum(opened[2:5])
    assert kept[7] < opened[7]


def test_the_mulligan_band_is_redlines_own(arsenal: list[Entry]) -> None:
    """The band is a REDLINE parameter: the shared parameters have none, and the default
    band is 2-4 in both simulators."""
    assert not any("mulligan" in f for f in SimParams.__dataclass_fields__)
    assert MulliganBand() == MulliganBand(2, 4)
    with pytest.raises(ValueError, match="mulligan band"):
        MulliganBand(5, 3)
    with pytest.raises(ValueError, match="mulligan band"):
        MulliganBand(0, 8)
    p = SimParams(games=3_000, seed=4)
    assert simulate_redline(arsenal, None, p) == simulate_redline(
        arsenal, None, p, band=MulliganBand(2, 4)
    )
    never = MulliganBand(0, 7)
    for sim in (simulate_redline, simulate_redline_compiled, simulate_redline_reference):
        assert sim(arsenal, None, SimParams(games=500), band=never)["counts"]["mulligans"] == 0
        assert sim(arsenal, None, SimParams(games=500))["counts"]["mulligans"] > 0


def test_same_seed_same_stats_different_seed_different(arsenal, missions) -> None:
    p = SimParams(games=3_000, seed=42)
    a = simulate_redline(arsenal, missions, p)
    b = simulate_redline(arsenal, missions, p)
    c = simulate_redline(arsenal, missions, SimParams(games=3_000, seed=43))
    assert a == b
    assert a["counts"] != c["counts"]
    assert json.loads(json.dumps(a)) == a


def test_chunks_merge_exactly_and_agree_with_one_run(arsenal: list[Entry]) -> None:
    p = SimParams(games=40_002, seed=7)
    whole = simulate_redline(arsenal, None, p)
    parts = [simulate_redline(arsenal, None, p, i, 4) for i in range(4)]
    assert [x["games"] for x in parts] == [chunk_games(p.games, i, 4) for i in range(4)]
    merged = merge_all(parts)
    assert merged["games"] == whole["games"] == 40_002
    for key, value in merged["counts"].items():
        if isinstance(value, int):
            assert value == sum(x["counts"][key] for x in parts)
        else:
            assert value == [
                sum(col) for col in zip(*(x["counts"][key] for x in parts), strict=True)
            ]
    # the same chunk is the same whatever else runs
    assert parts[2] == simulate_redline(arsenal, None, p, 2, 4)
    cw, cm = whole["counts"], merged["counts"]
    assert_means_agree(cw["win_turn_hist"], cm["win_turn_hist"])
    assert_means_agree(cw["first_efreet_turn_hist"], cm["first_efreet_turn_hist"])
    for t in range(p.turns):
        pw = cw["resource_deployed_by_turn"][t] / p.games
        pm = cm["resource_deployed_by_turn"][t] / p.games
        se = math.sqrt(max(pw * (1 - pw), 1e-4) * 2 / p.games)
        assert abs(pw - pm) <= 4 * se


def test_chunk_seeds_are_spawned_children() -> None:
    children = np.random.SeedSequence(99).spawn(4)
    for i, child in enumerate(children):
        mine = chunk_seed_sequence(99, i)
        assert np.array_equal(mine.generate_state(4), child.generate_state(4))


def test_merge_refuses_mismatched_runs(arsenal: list[Entry]) -> None:
    a = simulate_redline(arsenal, None, SimParams(games=10, turns=5))
    b = simulate_redline(arsenal, None, SimParams(games=10, turns=6))
    with pytest.raises(ValueError):
        merge(a, b)


@pytest.mark.parametrize("with_missions", [False, True])
def test_vectorised_agrees_with_reference(arsenal, missions, with_missions: bool) -> None:
    line = missions if with_missions else None
    vec = simulate_redline(arsenal, line, SimParams(games=20_000, seed=5))
    ref = simulate_redline_reference(arsenal, line, SimParams(games=4_000, seed=6))
    cv, cr = vec["counts"], ref["counts"]
    assert_means_agree(cv["win_turn_hist"], cr["win_turn_hist"])
    assert_means_agree(cv["first_efreet_turn_hist"], cr["first_efreet_turn_hist"])
    sv, sr = summarise(vec)["figures"], summarise(ref)["figures"]
    for t in range(12):
        for key, tol in (("stuck_mean_by_turn", 0.15), ("missions_controlled_mean_by_turn", 0.15)):
            assert sv[key][t] == pytest.approx(sr[key][t], abs=tol), (key, t)
        assert sv["resource_deployed_by_turn"][t] == pytest.approx(
            sr["resource_deployed_by_turn"][t], abs=0.04
        )


def test_cheap_heavies_win_on_turn_one(make) -> None:
    """Cost-0 heavies roll 1d6+2 >= 3: five of them take the five missions on turn 1."""
    heavy = make.efreet("Free Heavy", "heavy", 0, [])
    deck = [Entry(heavy, 60)]
    for sim in (simulate_redline, simulate_redline_compiled, simulate_redline_reference):
        stats = sim(deck, None, SimParams(games=200, turns=6, seed=1))
        c = stats["counts"]
        assert c["win_tactical_by_turn"] == [200, 0, 0, 0, 0, 0]
        assert c["win_turn_hist"] == [200, 0, 0, 0, 0, 0, 0]
        assert c["first_efreet_turn_hist"] == [200, 0, 0, 0, 0, 0, 0]
        assert c["resource_deployed_by_turn"] == [0] * 6
        assert c["missions_controlled_sum_by_turn"] == [1000] * 6
        assert c["efreets_in_play_sum_by_turn"] == [1000] * 6
        # 8 cards, 5 deployed, 3 stuck; then 4, 5, ... (limit 5 efreets) until 8 > 7
        assert c["stuck_sum_by_turn"] == [600, 800, 1000, 1200, 1400, 1600]
        assert c["discarded_sum_by_turn"] == [0, 0, 0, 0, 0, 200]


def test_razing_takes_precedence(make) -> None:
    heavy = make.efreet("Free Heavy", "heavy", 0, [])
    easy = [Entry(make.mission("Outpost", 2), 20)]
    for sim in (simulate_redline, simulate_redline_compiled, simulate_redline_reference):
        stats = sim([Entry(heavy, 60)], easy, SimParams(games=100, turns=2), opponent_arsenal=10)
        assert stats["counts"]["win_razed_by_turn"] == [100, 0]
        assert stats["counts"]["win_tactical_by_turn"] == [0, 0]


def test_light_scouts_and_equipment_slots(make) -> None:
    """Lights alone roll 1d6-2 against cost 3: one in three; slots limit the equipment."""
    light = make.efreet("Free Light", "light", 0, ["laser"], ["Scouting"])
    laser = make.equipment("Free Laser", "laser", 0)
    deck = [Entry(light, 30), Entry(laser, 30)]
    for sim in (simulate_redline, simulate_redline_compiled, simulate_redline_reference):
        stats = sim(deck, None, SimParams(games=3_000, turns=1, seed=3))
        c = stats["counts"]
        # turn 1: every efreet in hand deploys (at most 5), each takes one laser at most
        assert c["missions_controlled_sum_by_turn"][0] / 3_000 == pytest.approx(
            c["efreets_in_play_sum_by_turn"][0] / 3_000 / 3, abs=0.1
        )


def test_never_an_efreet_without_efreets(make) -> None:
    deck = [Entry(make.supply, 40), Entry(make.tactic("Feint", 1), 20)]
    stats = simulate_redline(deck, None, SimParams(games=500, turns=6))
    c = stats["counts"]
    assert c["first_efreet_turn_hist"] == [0] * 6 + [500]
    assert c["win_turn_hist"] == [0] * 6 + [500]
    fig = summarise(stats)["figures"]
    assert fig["first_efreet_turn_hist"]["p_never"] == 1.0
    assert fig["first_efreet_turn_hist"]["mean_turn"] is None


def test_small_arsenal_rejected(make) -> None:
    with pytest.raises(ValueError):
        simulate_redline([Entry(make.supply, 20)], None, SimParams(games=1, turns=12))


def test_summary_shapes(arsenal: list[Entry]) -> None:
    stats = simulate_redline(arsenal, None, SimParams(games=1_000, turns=8, seed=9))
    fig = summarise(stats)["figures"]
    assert len(fig["resource_deployed_by_turn"]) == 8
    win = fig["win_turn_hist"]
    assert win["cumulative"][-1] + win["p_never"] == pytest.approx(1.0)
    assert sum(fig["open_resources_hist"]["p"]) == pytest.approx(1.0)
    assert len(fig["stuck_mean_by_turn"]) == 8
    assert "stuck_count_by_turn" not in fig
    empty = simulate_redline(arsenal, None, SimParams(games=0, turns=8))
    assert empty["games"] == 0
    assert merge(empty, stats) == {**stats, "counts": dict(sorted(stats["counts"].items()))}


def test_recon_pays_tactics_like_the_reference(make) -> None:
    """No resources: tactics are paid only with recon from Scouting efreets."""
    scout = make.efreet("Free Scout", "light", 0, [], ["Scouting"])
    deck = [Entry(scout, 20), Entry(make.tactic("Feint", 1), 40)]
    vec = summarise(simulate_redline(deck, None, SimParams(games=20_000, turns=6, seed=1)))
    ref = summarise(simulate_redline_reference(deck, None, SimParams(games=3_000, turns=6, seed=2)))
    for t in range(6):
        for key in ("stuck_mean_by_turn", "missions_controlled_mean_by_turn"):
            assert vec["figures"][key][t] == pytest.approx(ref["figures"][key][t], abs=0.12)
    # turn 1 no recon yet, so every tactic drawn is stuck; later turns spend recon
    assert vec["figures"]["stuck_mean_by_turn"][3] < vec["figures"]["stuck_mean_by_turn"][0] + 3


def _lights_turn_two(clip: bool) -> float:
    """The exact mean of missions controlled after turn 2 by five free lights (cost-3
    missions): turn 1 one light a mission, turn 2 the five dealt round-robin to the open
    ones; a squad captures when its combined rolls reach 3, a light's roll being 1d6-2,
    counted at 0 when it would lower the total (`clip`) or as rolled."""
    import itertools
    from math import comb

    def p_capture(size: int) -> float:
        rolls = list(itertools.product(range(-1, 5), repeat=size))
        ok = sum(sum(max(r, 0) if clip else r for r in rs) >= 3 for rs in rolls)
        return ok / len(rolls)

    mean = 0.0
    for u in range(6):
        p_u = comb(5, u) * (2 / 3) ** u * (1 / 3) ** (5 - u)
        sizes = [len(range(k, 5, u)) for k in range(u)]
        mean += p_u * (5 - u + sum(p_capture(s) for s in sizes))
    return mean


def test_a_squad_combines_only_the_rolls_that_help(make) -> None:
    """Rulebook, Combat Phase: "Efreets in a squad at the same mission may combine their rolls
    to increase their chance of success": a light's 1d6-2 of -1 or 0 is not added when it
    would lower the squad's total (it may, not must, combine)."""
    light = make.efreet("Free Light", "light", 0, [])
    games = 20_000
    expected, as_rolled = _lights_turn_two(True), _lights_turn_two(False)
    assert expected - as_rolled > 0.07
    for sim in (simulate_redline, simulate_redline_compiled, simulate_redline_reference):
        stats = sim([Entry(light, 60)], None, SimParams(games=games, turns=2, seed=11))
        mean = stats["counts"]["missions_controlled_sum_by_turn"][1] / games
        assert mean == pytest.approx(expected, abs=0.03), (sim.__name__, mean, as_rolled)


@pytest.mark.parametrize("with_missions", [False, True])
def test_compiled_agrees_with_reference(arsenal, missions, with_missions: bool) -> None:
    """The compiled kernel (the site's) is checked against the reference loop's statistics,
    as the vectorised one is."""
    line = missions if with_missions else None
    fast = simulate_redline_compiled(arsenal, line, SimParams(games=50_000, seed=5))
    ref = simulate_redline_reference(arsenal, line, SimParams(games=4_000, seed=6))
    cf, cr = fast["counts"], ref["counts"]
    assert_means_agree(cf["win_turn_hist"], cr["win_turn_hist"])
    assert_means_agree(cf["first_efreet_turn_hist"], cr["first_efreet_turn_hist"])
    sf, sr = summarise(fast)["figures"], summarise(ref)["figures"]
    for t in range(12):
        for key, tol in (("stuck_mean_by_turn", 0.15), ("missions_controlled_mean_by_turn", 0.15)):
            assert sf[key][t] == pytest.approx(sr[key][t], abs=tol), (key, t)
        assert sf["resource_deployed_by_turn"][t] == pytest.approx(
            sr["resource_deployed_by_turn"][t], abs=0.04
        )
    assert sf["mulligans"] == pytest.approx(sr["mulligans"], abs=0.03)


def test_compiled_same_seed_same_stats_and_chunks_merge(arsenal) -> None:
    one = simulate_redline_compiled(arsenal, None, SimParams(games=3_000, seed=8))
    assert one == simulate_redline_compiled(arsenal, None, SimParams(games=3_000, seed=8))
    assert one != simulate_redline_compiled(arsenal, None, SimParams(games=3_000, seed=9))
    parts = [
        simulate_redline_compiled(arsenal, None, SimParams(games=3_000, seed=8), i, 3)
        for i in range(3)
    ]
    merged = merge_all(parts)
    assert merged["games"] == 3_000
    assert sum(merged["counts"]["win_turn_hist"]) == 3_000


def test_compiled_opening_hand_matches_hypergeometric(arsenal) -> None:
    games = 40_000
    stats = simulate_redline_compiled(arsenal, None, SimParams(games=games, seed=3))
    hist = np.array(stats["counts"]["open_resources_hist"]) / games
    exact = distribution(24, 60, 7)
    assert np.abs(hist - np.array(exact)).max() < 0.01
