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

A turn does only the work that can change something: the cards in hand are also counted
by kind, so a kind the hand holds none of (or efreets at the limit, equipment with no free
slot, missions all controlled) is skipped; the roster (each position's capture modifier)
and the open missions are kept between turns and rebuilt only when an efreet arrives or a
mission is captured; efreets in play and missions controlled are counted once, on the turn
they arrive, and summed over the turns at the end. On the sample arsenal `bench/goldfish.py`
measures about 1.0-1.1 million games a second of CPU time, 200-240 times the reference
loop (both best of 3).

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
    EQUIPMENT,
    RESOURCE,
    SLOTS,
    Engine,
    MulliganBand,
    _Chunk,
    _empty_counts,
    _Setup,
)
from validation.sim.kernel import chunk_seed_sequence

N_SLOTS = len(SLOTS)
_MODS = np.array(CLASS_MOD, dtype=np.int64)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True, inline="always")
def _below(s: Any, n: Any) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """The SplitMix64 generator's next state after ``s`` and a uniform integer in 0..n-1
    from it (Lemire's multiply-shift on the top 32 bits: a bias below n / 2**32). The
    state lives in a local variable of the loop, so that it stays in a register."""
    s = s + _GOLDEN
    z = s
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return s, np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, nogil=True, inline="always")
def _at(word: Any, index: Any, n: Any) -> Any:  # pragma: no cover - compiled
    """The ``index``-th number of the SplitMix64 sequence started at ``word`` (it is a
    counter-based generator), as an integer in 0..n-1: drawn only when needed, yet the same
    for every deck that asks for it."""
    z = word + np.uint64(index + 1) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, nogil=True, inline="always")
def _deploy_in_order(
    order: Any, hand: Any, cost: Any, pool: Any, recon: Any
) -> tuple[Any, Any, Any]:  # pragma: no cover - compiled
    """Deploy the cards of `order` held in `hand`, as many of each as `pool` and then `recon`
    pay for (a card without cost: all of them); returns (cards deployed, pool, recon)."""
    deployed = 0
    for q in range(order.shape[0]):
        g = order[q]
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
        deployed += k
    return deployed, pool, recon


@njit(cache=True, nogil=True, error_model="numpy")
def _play(  # noqa: PLR0912, PLR0913, PLR0915 - one compiled loop on purpose
    state: Any,
    dice_state: Any,
    fixed_dice: Any,
    record: Any,
    rec_open: Any,
    rec_first: Any,
    rec_win: Any,
    rec_stuck4: Any,
    games: Any,
    turns: Any,
    lo: Any,
    hi: Any,
    opp0: Any,
    card_groups: Any,
    is_res: Any,
    cost: Any,
    provides: Any,
    code: Any,
    slots: Any,
    eq_type: Any,
    res_order: Any,
    efreet_order: Any,
    equipment_order: Any,
    strategy_order: Any,
    tactic_order: Any,
    discard_order: Any,
    mission_deck: Any,
    mission_cost: Any,
    mission_recon: Any,
    mission_res: Any,
    mods: Any,
    out_open: Any,
    out_kept: Any,
    out_mull: Any,
    out_res_dep: Any,
    out_first_eff: Any,
    out_win: Any,
    out_tactical: Any,
    out_razed: Any,
    out_stuck: Any,
    out_stuck_nonres: Any,
    out_discarded: Any,
    out_effs: Any,
    out_missions: Any,
) -> None:  # pragma: no cover - compiled
    n = card_groups.shape[0]
    n_groups = cost.shape[0]
    k_draw = min(2 * 7 + turns, n)
    n_m = mission_deck.shape[0]
    deck = card_groups.copy()
    mdeck = mission_deck.copy()
    hand = np.zeros(n_groups, np.int64)
    # kind of each group: 1 efreet, 2 equipment, 3 strategy, 4 tactic, 0 the rest; the
    # cards in hand of each kind (ke, kq, ks, kt) let a turn skip the kinds it holds none of
    kind = np.zeros(n_groups, np.int64)
    for q in range(efreet_order.shape[0]):
        kind[efreet_order[q]] = 1
    for q in range(equipment_order.shape[0]):
        kind[equipment_order[q]] = 2
    for q in range(strategy_order.shape[0]):
        kind[strategy_order[q]] = 3
    for q in range(tactic_order.shape[0]):
        kind[tactic_order[q]] = 4
    n_code = np.zeros(6, np.int64)
    free = np.zeros(6, np.int64)
    m_cost = np.zeros(5, np.int64)
    m_recon = np.zeros(5, np.int64)
    m_res = np.zeros(5, np.int64)
    ctrl = np.zeros(5, np.bool_)
    rank = np.zeros(5, np.int64)
    total = np.zeros(5, np.int64)
    # efreets and missions arrived on each turn over all games: each counts on every turn
    # from its arrival, summed up at the end (no per-turn stores)
    d_effs = np.zeros(turns, np.int64)
    d_miss = np.zeros(turns, np.int64)
    # the roster (heaviest first, Scouting first within a class) as each position's capture
    # modifier, rebuilt when efreets arrive; rank: the open missions in red-line order
    rmod = np.zeros(5, np.int64)
    mulligans = 0
    rs = state[0]
    dw = dice_state[0]
    for game in range(games):
        # shuffle only the positions the game can draw, and the red line
        for i in range(k_draw):
            rs, j = _below(rs, n - i)
            j += i
            t_ = deck[i]
            deck[i] = deck[j]
            deck[j] = t_
        for i in range(5):
            rs, j = _below(rs, n_m - i)
            j += i
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
        ke = 0
        kq = 0
        ks = 0
        kt = 0
        for g in range(n_groups):
            kd = kind[g]
            ke += hand[g] * (kd == 1)
            kq += hand[g] * (kd == 2)
            ks += hand[g] * (kd == 3)
            kt += hand[g] * (kd == 4)
        kept = 0
        for q in range(res_order.shape[0]):
            kept += hand[res_order[q]]
        out_kept[kept] += 1
        size = 7  # cards in hand, and resources among them, kept up to date from here
        res_hand = kept

        res_in_play = 0
        n_eff = 0
        n_free = 0
        n_code[:] = 0
        free[:] = 0
        recon = 0
        ctrl[:] = False
        for m in range(5):
            rank[m] = m
        u = 5
        n_scout = 0
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
            kd = kind[g]
            ke += kd == 1
            kq += kd == 2
            ks += kd == 3
            kt += kd == 4
            ptr += 1
            size += 1
            res_hand += is_res[g]
            bonus = held_res
            recon = min(recon + held_recon, 6)
            # one resource, the highest provides
            if res_hand > 0:
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
            if ke > 0 and n_eff < 5:
                had = n_eff
                for q in range(efreet_order.shape[0]):
                    g = efreet_order[q]
                    if hand[g] == 0:
                        continue
                    k = min(hand[g], 5 - n_eff)
                    if cost[g]:
                        k = min(k, pool // cost[g])
                        pool -= k * cost[g]
                    if k > 0:
                        hand[g] -= k
                        ke -= k
                        size -= k
                        n_eff += k
                        d_effs[i] += k
                        n_code[code[g]] += k
                        for sl in range(6):
                            free[sl] += k * slots[g, sl]
                            n_free += k * slots[g, sl]
                        if n_eff == 5:
                            break
                if n_eff != had:
                    p = 0
                    for c in range(5, -1, -1):
                        for _e in range(n_code[c]):
                            rmod[p] = mods[c >> 1]
                            p += 1
                    n_scout = n_code[1] + n_code[3] + n_code[5]
                    if first_eff == 0:
                        first_eff = t
            # equipment onto free slots of its type, else open ones (pilots: pilot slots)
            if kq > 0 and n_free > 0:
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
                    kq -= k
                    size -= k
                    n_free -= k
                    if et == 4:
                        free[4] -= k
                    else:
                        typed = min(k, free[et])
                        free[et] -= typed
                        free[5] -= k - typed
            # strategies from the pool; tactics from the pool, then recon
            if ks > 0:
                k, pool, _ = _deploy_in_order(strategy_order, hand, cost, pool, 0)
                ks -= k
                size -= k
            if kt > 0:
                k, pool, recon = _deploy_in_order(tactic_order, hand, cost, pool, recon)
                kt -= k
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
                    kd = kind[g]
                    ke -= d * (kd == 1)
                    kq -= d * (kd == 2)
                    ks -= d * (kd == 3)
                    kt -= d * (kd == 4)
                    over -= d
                    if is_res[g]:
                        res_hand -= d
                    if over == 0:
                        break
            # missions: the roster dealt round-robin to the open missions
            if n_eff > 0 and u > 0:
                for m in range(5):
                    total[m] = 0
                target = 0  # the roster's k-th efreet goes to open mission k mod u
                for k in range(n_eff):
                    if fixed_dice:  # paired: the die of (game, turn, position)
                        die = _at(dw, (game * 32 + t) * 5 + k, 6)
                    else:
                        rs, die = _below(rs, 6)
                    total[rank[target]] += max(1 + die + rmod[k], 0)  # none that lowers it
                    target += 1
                    if target == u:
                        target = 0
                # an open mission holds no capture token (the opponent never captures
                # one back), so its cost is the printed one
                captured = False
                for j in range(min(u, n_eff)):
                    m = rank[j]
                    if total[m] >= m_cost[m]:
                        ctrl[m] = True
                        captured = True
                        opp -= m_cost[m]
                        held += 1
                        d_miss[i] += 1
                        held_res += m_res[m]
                        held_recon += m_recon[m]
                if captured:
                    v = 0
                    for j in range(u):
                        if not ctrl[rank[j]]:
                            rank[v] = rank[j]
                            v += 1
                    u = v
                recon = min(recon + n_scout, 6)
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
    run_effs = 0
    run_miss = 0
    for i in range(turns):
        run_effs += d_effs[i]
        run_miss += d_miss[i]
        out_effs[i] += run_effs
        out_missions[i] += run_miss
    state[0] = rs


def _arrays(setup: _Setup) -> dict[str, np.ndarray]:
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


def _run(
    setup: _Setup,
    turns: int,
    band: MulliganBand,
    games: int,
    opponent_arsenal: int,
    state: np.ndarray,
    dice_state: np.ndarray | None = None,
    rec: dict[str, np.ndarray] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of ``setup`` (`_play`) and return their counts, the layout of
    `_empty_counts`. The arsenal's shuffles, the red lines and, without ``dice_state``, the
    dice come from ``state``; with ``dice_state`` the dice are counter-based on it (paired
    games). ``rec`` (the arrays "open", "first", "win", "stuck4" of one entry a game)
    receives every game's outcomes."""
    counts: dict[str, Any] = _empty_counts(turns)
    out = {
        key: np.zeros(len(value) if isinstance(value, list) else 1, dtype=np.int64)
        for key, value in counts.items()
    }
    none = np.zeros(0, dtype=np.int64)
    r = rec or {}
    a = _arrays(setup)
    _play(
        state,
        state if dice_state is None else dice_state,
        dice_state is not None,
        rec is not None,
        r.get("open", none),
        r.get("first", none),
        r.get("win", none),
        r.get("stuck4", none),
        games,
        turns,
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
        *(out[key] for key in _OUT_KEYS),
    )
    counts = {key: out[key] for key in counts}
    counts["mulligans"] = int(out["mulligans"][0])
    counts["stuck_count_by_turn"] = np.full(turns, games, dtype=np.int64)
    return counts


# the counts `_play` fills, in the order of its out_* arguments
_OUT_KEYS = (
    "open_resources_hist",
    "kept_resources_hist",
    "mulligans",
    "resource_deployed_by_turn",
    "first_efreet_turn_hist",
    "win_turn_hist",
    "win_tactical_by_turn",
    "win_razed_by_turn",
    "stuck_sum_by_turn",
    "stuck_nonresource_sum_by_turn",
    "discarded_sum_by_turn",
    "efreets_in_play_sum_by_turn",
    "missions_controlled_sum_by_turn",
)


def _compiled(chunk: _Chunk) -> dict[str, Any]:
    """The games of a chunk compiled (see the module docstring); the statistics of
    `simulate_redline`."""
    state = chunk_seed_sequence(chunk.params.seed, chunk.index).generate_state(1, np.uint64)
    setup, band = chunk.setup, chunk.band
    return _run(setup, chunk.params.turns, band, chunk.games, chunk.opponent_arsenal, state)


simulate_redline_compiled = Engine(_compiled)


def play_outcomes(
    setup: _Setup,
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
    rec = {k: np.zeros(games, dtype=np.int64) for k in ("open", "first", "win", "stuck4")}

    def words(j: int) -> np.ndarray:
        seq = np.random.SeedSequence(seed, spawn_key=(chunk_index, j))
        return seq.generate_state(1, np.uint64)

    _run(setup, turns, band, games, 60, words(stream), words(stream + 2), rec)
    return rec
