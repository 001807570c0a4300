"""The REDLINE goldfish compiled with numba: the policy of `goldfish.py`, one game at a time
in machine code, drawing only the cards a game reaches.

`simulate_redline_compiled` takes the arguments of `simulate_redline` and returns the same
statistics (the same counts, the same layout). It plays the module docstring's policy of
`goldfish.py` step by step, on the same preparation (`_setup`: card groups and the orders
of deploying and discarding), with the vectorised kernel's bookkeeping (cards in hand
counted by group, efreets in play by roster code, free slots by type). Each game shuffles
only the positions it can draw (the opening 7, the mulligan's redraw and one a turn: a
partial Fisher-Yates shuffle of ``14 + T`` of the arsenal's cards) and the 5 missions of
its red line, and rolls one die per efreet sent.

Random numbers come from a SplitMix64 generator kept in one 64-bit word, started per chunk
from the chunk's seed sequence (`chunk_seed_sequence(seed, i)`), with bounded integers by
Lemire's multiply-shift (a bias below n / 2**32): the same seed and chunking give
the same statistics; it agrees with the vectorised kernel and the reference loop
statistically, not game by game. The reference loop (`simulate_redline_reference`) stays
the check of its statistics (tests/validation/sim/test_redline.py runs the policy checks
on all three).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from validation.games.redline.goldfish import (
    CLASS_MOD,
    DEFAULT_BAND,
    EQUIPMENT,
    KIND,
    RESOURCE,
    SLOTS,
    MulliganBand,
    _empty_counts,
    _setup,
)
from validation.sim.kernel import SimParams, Stats, chunk_games, chunk_seed_sequence, new_stats
from validation.types import Entry

N_SLOTS = len(SLOTS)
_MODS = np.array(CLASS_MOD, dtype=np.int64)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True, inline="always")
def _below(state, n):  # pragma: no cover - compiled
    """A uniform integer in 0..n-1 from the SplitMix64 generator whose state is
    ``state[0]`` (Lemire's multiply-shift on the top 32 bits: a bias below n / 2**32)."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, nogil=True, inline="always")
def _at(word, index, n):  # pragma: no cover - compiled
    """The ``index``-th number of the SplitMix64 sequence started at ``word`` (it is a
    counter-based generator), as an integer in 0..n-1: drawn only when needed, yet the same
    for every deck that asks for it."""
    z = word + np.uint64(index + 1) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, nogil=True, error_model="numpy")
def _play(  # noqa: PLR0912, PLR0913, PLR0915 - one compiled loop on purpose
    state,
    dice_state,
    fixed_dice,
    record,
    rec_open,
    rec_first,
    rec_win,
    rec_stuck4,
    games,
    turns,
    lo,
    hi,
    opp0,
    card_groups,
    is_res,
    cost,
    provides,
    code,
    slots,
    eq_type,
    res_order,
    efreet_order,
    equipment_order,
    strategy_order,
    tactic_order,
    discard_order,
    mission_deck,
    mission_cost,
    mission_recon,
    mission_res,
    mods,
    out_open,
    out_kept,
    out_mull,
    out_res_dep,
    out_first_eff,
    out_win,
    out_tactical,
    out_razed,
    out_stuck,
    out_stuck_nonres,
    out_discarded,
    out_effs,
    out_missions,
):  # pragma: no cover - compiled
    n = card_groups.shape[0]
    n_groups = cost.shape[0]
    k_draw = min(2 * 7 + turns, n)
    n_m = mission_deck.shape[0]
    deck = card_groups.copy()
    mdeck = mission_deck.copy()
    hand = np.zeros(n_groups, np.int64)
    n_code = np.zeros(6, np.int64)
    free = np.zeros(6, np.int64)
    m_cost = np.zeros(5, np.int64)
    m_recon = np.zeros(5, np.int64)
    m_res = np.zeros(5, np.int64)
    ctrl = np.zeros(5, np.bool_)
    tokens = np.zeros(5, np.int64)
    rank = np.zeros(5, np.int64)
    total = np.zeros(5, np.int64)
    sent = np.zeros(5, np.bool_)
    mulligans = 0
    for game in range(games):
        # shuffle only the positions the game can draw, and the red line
        for i in range(k_draw):
            j = i + _below(state, n - i)
            t_ = deck[i]
            deck[i] = deck[j]
            deck[j] = t_
        for i in range(5):
            j = i + _below(state, n_m - i)
            t_ = mdeck[i]
            mdeck[i] = mdeck[j]
            mdeck[j] = t_
            m_cost[i] = mission_cost[mdeck[i]]
            m_recon[i] = mission_recon[mdeck[i]]
            m_res[i] = mission_res[mdeck[i]]
        hand[:] = 0
        r = 0
        for p in range(7):
            g = deck[p]
            hand[g] += 1
            r += is_res[g]
        out_open[r] += 1
        if record:
            rec_open[game] = r
        redraw = 0
        if r < lo:
            for g in range(n_groups):
                if not is_res[g]:
                    hand[g] = 0
            redraw = 7 - r
        elif r > hi:
            excess = r - hi
            redraw = excess
            for q in range(res_order.shape[0] - 1, -1, -1):
                g = res_order[q]
                d = min(hand[g], excess)
                hand[g] -= d
                excess -= d
        for q in range(redraw):
            hand[deck[7 + q]] += 1
        if redraw:
            mulligans += 1
        ptr = 7 + redraw
        kept = 0
        for q in range(res_order.shape[0]):
            kept += hand[res_order[q]]
        out_kept[kept] += 1
        size = 7  # cards in hand, and resources among them, kept up to date from here
        res_hand = kept

        res_in_play = 0
        n_eff = 0
        n_code[:] = 0
        free[:] = 0
        recon = 0
        ctrl[:] = False
        tokens[:] = 0
        held = 0
        held_res = 0
        held_recon = 0
        opp = opp0
        first_eff = 0
        win_turn = 0
        for t in range(1, turns + 1):
            i = t - 1
            g = deck[ptr]
            hand[g] += 1
            ptr += 1
            size += 1
            res_hand += is_res[g]
            bonus = held_res
            recon = min(recon + held_recon, 6)
            # one resource, the highest provides
            for q in range(res_order.shape[0]):
                g = res_order[q]
                if hand[g] > 0:
                    hand[g] -= 1
                    size -= 1
                    res_hand -= 1
                    res_in_play += provides[g]
                    out_res_dep[i] += 1
                    break
            pool = res_in_play + bonus
            # efreets, most expensive first, at most 5 in play
            for q in range(efreet_order.shape[0]):
                g = efreet_order[q]
                if hand[g] == 0 or n_eff == 5:
                    continue
                k = min(hand[g], 5 - n_eff)
                if cost[g]:
                    k = min(k, pool // cost[g])
                    pool -= k * cost[g]
                if k > 0:
                    hand[g] -= k
                    size -= k
                    n_eff += k
                    n_code[code[g]] += k
                    for sl in range(6):
                        free[sl] += k * slots[g, sl]
            if first_eff == 0 and n_eff > 0:
                first_eff = t
            # equipment onto free slots of its type, else open ones (pilots: pilot slots)
            for q in range(equipment_order.shape[0]):
                g = equipment_order[q]
                if hand[g] == 0:
                    continue
                et = eq_type[g]
                cap = free[4] if et == 4 else free[et] + free[5]
                k = min(hand[g], cap)
                if cost[g]:
                    k = min(k, pool // cost[g])
                    pool -= k * cost[g]
                hand[g] -= k
                size -= k
                if et == 4:
                    free[4] -= k
                else:
                    typed = min(k, free[et])
                    free[et] -= typed
                    free[5] -= k - typed
            for q in range(strategy_order.shape[0]):
                g = strategy_order[q]
                k = hand[g]
                if k == 0:
                    continue
                if cost[g]:
                    k = min(k, pool // cost[g])
                    pool -= k * cost[g]
                hand[g] -= k
                size -= k
            for q in range(tactic_order.shape[0]):
                g = tactic_order[q]
                k = hand[g]
                if k == 0:
                    continue
                if cost[g]:
                    k = min(k, (pool + recon) // cost[g])
                    pay = k * cost[g]
                    from_pool = min(pay, pool)
                    pool -= from_pool
                    recon -= pay - from_pool
                hand[g] -= k
                size -= k
            # stuck cards, then discard to 7
            out_stuck[i] += size
            if record and t == 4:
                rec_stuck4[game] = size
            out_stuck_nonres[i] += size - res_hand
            over = size - 7
            if over > 0:
                out_discarded[i] += over
                size = 7
                for q in range(discard_order.shape[0]):
                    g = discard_order[q]
                    d = min(hand[g], over)
                    hand[g] -= d
                    over -= d
                    if is_res[g]:
                        res_hand -= d
            # missions: the roster dealt round-robin to the open missions
            if n_eff > 0:
                u = 0
                for m in range(5):
                    if not ctrl[m]:
                        rank[u] = m  # the u-th open mission
                        u += 1
                    total[m] = 0
                    sent[m] = False
                if u > 0:
                    target = 0  # the roster's k-th efreet goes to open mission k mod u
                    scouts = 0
                    pos = 0
                    for c in range(5, -1, -1):
                        for _e in range(n_code[c]):
                            m = rank[target]
                            target += 1
                            if target == u:
                                target = 0
                            if fixed_dice:  # paired: the die of (game, turn, position)
                                roll = 1 + _at(dice_state[0], (game * 32 + t) * 5 + pos, 6)
                                roll += mods[c >> 1]
                            else:
                                roll = 1 + _below(state, 6) + mods[c >> 1]
                            pos += 1
                            sent[m] = True
                            if roll > 0:
                                total[m] += roll
                            scouts += c & 1
                    for m in range(5):
                        if sent[m] and total[m] >= m_cost[m] + tokens[m]:
                            ctrl[m] = True
                            tokens[m] += 1
                            opp -= m_cost[m]
                            held += 1
                            held_res += m_res[m]
                            held_recon += m_recon[m]
                    recon = min(recon + scouts, 6)
            out_effs[i] += n_eff
            out_missions[i] += held
            if win_turn == 0 and (opp <= 0 or held == 5):
                win_turn = t
                if opp <= 0:
                    out_razed[i] += 1
                else:
                    out_tactical[i] += 1
        out_first_eff[first_eff - 1 if first_eff else turns] += 1
        if record:
            rec_first[game] = first_eff
            rec_win[game] = win_turn
        out_win[win_turn - 1 if win_turn else turns] += 1
    out_mull[0] += mulligans


def _arrays(setup) -> dict[str, np.ndarray]:
    groups = setup.groups
    n = len(groups)
    slots = np.zeros((n, N_SLOTS), dtype=np.int64)
    for i, g in enumerate(groups):
        slots[i, :] = g.slots
    i64 = np.int64
    return {
        "card_groups": np.array(setup.card_groups, dtype=i64),
        "is_res": np.array([g.kind == RESOURCE for g in groups], dtype=i64),
        "cost": np.array([g.cost for g in groups], dtype=i64),
        "provides": np.array([g.provides for g in groups], dtype=i64),
        "code": np.array([g.code for g in groups], dtype=i64),
        "slots": slots,
        "eq_type": np.array(
            [g.equipment_type if g.kind == EQUIPMENT else 0 for g in groups], dtype=i64
        ),
        "res_order": np.array(setup.res_order, dtype=i64),
        "efreet_order": np.array(setup.efreet_order, dtype=i64),
        "equipment_order": np.array(setup.equipment_order, dtype=i64),
        "strategy_order": np.array(setup.strategy_order, dtype=i64),
        "tactic_order": np.array(setup.tactic_order, dtype=i64),
        "discard_order": np.array(setup.discard_order, dtype=i64),
        "mission_deck": np.array(setup.mission_deck, dtype=i64),
        "mission_cost": np.array(setup.mission_cost, dtype=i64),
        "mission_recon": np.array(setup.mission_recon, dtype=i64),
        "mission_res": np.array(setup.mission_resources, dtype=i64),
    }


def simulate_redline_compiled(
    arsenal: list[Entry],
    missions: list[Entry] | None = None,
    params: SimParams | None = None,
    chunk_index: int = 0,
    n_chunks: int = 1,
    *,
    band: MulliganBand = DEFAULT_BAND,
    opponent_arsenal: int = 60,
) -> Stats:
    """Goldfish ``chunk_index`` of ``n_chunks`` of a REDLINE run, compiled (see the module
    docstring); the statistics of `simulate_redline`."""
    params = params or SimParams()
    setup = _setup(arsenal, missions, params.turns)
    games = chunk_games(params.games, chunk_index, n_chunks)
    T = params.turns
    counts: dict[str, Any] = _empty_counts(T)
    out = {
        key: np.zeros(len(value) if isinstance(value, list) else 1, dtype=np.int64)
        for key, value in counts.items()
    }
    a = _arrays(setup)
    state = chunk_seed_sequence(params.seed, chunk_index).generate_state(1, np.uint64)
    none = np.zeros(0, dtype=np.int64)
    _play(
        state,
        state,
        False,
        False,
        none,
        none,
        none,
        none,
        games,
        T,
        band.lo,
        band.hi,
        opponent_arsenal,
        a["card_groups"],
        a["is_res"],
        a["cost"],
        a["provides"],
        a["code"],
        a["slots"],
        a["eq_type"],
        a["res_order"],
        a["efreet_order"],
        a["equipment_order"],
        a["strategy_order"],
        a["tactic_order"],
        a["discard_order"],
        a["mission_deck"],
        a["mission_cost"],
        a["mission_recon"],
        a["mission_res"],
        _MODS,
        out["open_resources_hist"],
        out["kept_resources_hist"],
        out["mulligans"],
        out["resource_deployed_by_turn"],
        out["first_efreet_turn_hist"],
        out["win_turn_hist"],
        out["win_tactical_by_turn"],
        out["win_razed_by_turn"],
        out["stuck_sum_by_turn"],
        out["stuck_nonresource_sum_by_turn"],
        out["discarded_sum_by_turn"],
        out["efreets_in_play_sum_by_turn"],
        out["missions_controlled_sum_by_turn"],
    )
    counts = {key: out[key] for key in counts}
    counts["mulligans"] = int(out["mulligans"][0])
    counts["stuck_count_by_turn"] = np.full(T, games, dtype=np.int64)
    return new_stats(KIND, T, games, counts)


def play_outcomes(
    setup,
    turns: int,
    band: MulliganBand,
    games: int,
    seed: int,
    chunk_index: int,
    stream: int,
) -> dict[str, np.ndarray]:
    """Every game's raw outcomes for paired games (`paired.py`): the resources in the
    opening 7, the turn of the first efreet, of the win (0: none) and the cards in hand on
    turn 4. The arsenal's shuffle and the red line come from stream ``(chunk_index,
    stream)``; the die of roster position k on turn t of game g is number ``(32 g + t) 5 + k``
    of the counter-based stream ``(chunk_index, stream + 2)``, so that two decks of one
    size see the same shuffles and dice game by game, whatever each rolls."""
    T = turns
    counts: dict[str, Any] = _empty_counts(T)
    out = {
        key: np.zeros(len(value) if isinstance(value, list) else 1, dtype=np.int64)
        for key, value in counts.items()
    }
    rec = {k: np.zeros(games, dtype=np.int64) for k in ("open", "first", "win", "stuck4")}
    a = _arrays(setup)

    def words(j: int) -> np.ndarray:
        seq = np.random.SeedSequence(seed, spawn_key=(chunk_index, j))
        return seq.generate_state(1, np.uint64)

    _play(
        words(stream),
        words(stream + 2),
        True,
        True,
        rec["open"],
        rec["first"],
        rec["win"],
        rec["stuck4"],
        games,
        T,
        band.lo,
        band.hi,
        60,
        a["card_groups"],
        a["is_res"],
        a["cost"],
        a["provides"],
        a["code"],
        a["slots"],
        a["eq_type"],
        a["res_order"],
        a["efreet_order"],
        a["equipment_order"],
        a["strategy_order"],
        a["tactic_order"],
        a["discard_order"],
        a["mission_deck"],
        a["mission_cost"],
        a["mission_recon"],
        a["mission_res"],
        _MODS,
        out["open_resources_hist"],
        out["kept_resources_hist"],
        out["mulligans"],
        out["resource_deployed_by_turn"],
        out["first_efreet_turn_hist"],
        out["win_turn_hist"],
        out["win_tactical_by_turn"],
        out["win_razed_by_turn"],
        out["stuck_sum_by_turn"],
        out["stuck_nonresource_sum_by_turn"],
        out["discarded_sum_by_turn"],
        out["efreets_in_play_sum_by_turn"],
        out["missions_controlled_sum_by_turn"],
    )
    return rec
