"""The reference player: the same policy one game at a time in plain Python (the benchmark's
baseline and the cross-check of the tests)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from validation.sim.kernel import (
    SimParams,
    chunk_seed_sequence,
)

from .setup import (
    CLASS_MOD,
    EFREET,
    EFREET_LIMIT,
    EQUIPMENT,
    HAND_LIMIT,
    OPENING,
    RECON_MAX,
    RED_LINE,
    RESOURCE,
    SLOTS,
    STRATEGY,
    TACTIC,
    MulliganBand,
    _Chunk,
    _empty_counts,
    _Setup,
)
from .vectorised import (
    combined_capture_roll,
)


def _one_game_at_a_time(chunk: _Chunk) -> dict[str, Any]:
    """The same policy as ``simulate_redline``, one game at a time in plain Python.

    Seeded from the same chunk seed sequence, but it draws its numbers in another order
    (Python's ``random.Random``), so it agrees with the vectorised kernel statistically, not
    game by game.
    """
    params = chunk.params
    state = chunk_seed_sequence(params.seed, chunk.index).generate_state(4, np.uint64)
    rnd = random.Random(int.from_bytes(state.tobytes(), "little"))
    counts = _empty_counts(params.turns)
    for _ in range(chunk.games):
        _play_reference_game(chunk.setup, params, chunk.band, rnd, chunk.opponent_arsenal, counts)
    return counts


def _play_reference_game(
    s: _Setup,
    params: SimParams,
    band: MulliganBand,
    rnd: random.Random,
    opponent_arsenal: int,
    c: dict[str, Any],
) -> None:
    # One long function on purpose: this loop is the benchmark's baseline (bench/goldfish.py
    # measures the vectorised kernel against it), and split into phases it ran 12% slower,
    # which would flatter the kernel's ratio.
    T = params.turns
    groups = s.groups
    arsenal = list(s.card_groups)
    rnd.shuffle(arsenal)
    line = [s.mission_deck[i] for i in rnd.sample(range(len(s.mission_deck)), RED_LINE)]

    hand = arsenal[:OPENING]
    arsenal = arsenal[OPENING:]
    r = sum(1 for g in hand if groups[g].kind == RESOURCE)
    c["open_resources_hist"][r] += 1
    bottom: list[int] = []
    if r < band.lo:
        bottom = [g for g in hand if groups[g].kind != RESOURCE]
        hand = [g for g in hand if groups[g].kind == RESOURCE]
    elif r > band.hi:
        res = sorted((g for g in hand if groups[g].kind == RESOURCE), key=s.res_order.index)
        bottom = res[len(res) - (r - band.hi) :]  # lowest provides go
        for g in bottom:
            hand.remove(g)
    if bottom:
        c["mulligans"] += 1
        hand += arsenal[: len(bottom)]
        arsenal = arsenal[len(bottom) :] + bottom
    c["kept_resources_hist"][sum(1 for g in hand if groups[g].kind == RESOURCE)] += 1

    resources_in_play = 0
    efreets: list[dict[str, Any]] = []  # each: group, free slots list
    recon = 0
    controlled = [False] * RED_LINE
    tokens = [0] * RED_LINE
    opp = opponent_arsenal
    first_efreet = 0
    won = False

    for t in range(1, T + 1):
        i = t - 1
        hand.append(arsenal.pop(0))
        bonus = sum(s.mission_resources[line[m]] for m in range(RED_LINE) if controlled[m])
        recon = min(
            recon + sum(s.mission_recon[line[m]] for m in range(RED_LINE) if controlled[m]),
            RECON_MAX,
        )

        in_hand_res = [g for g in hand if groups[g].kind == RESOURCE]
        if in_hand_res:
            best = max(in_hand_res, key=lambda g: groups[g].provides)
            hand.remove(best)
            resources_in_play += groups[best].provides
            c["resource_deployed_by_turn"][i] += 1
        pool = resources_in_play + bonus

        for g in sorted((g for g in hand if groups[g].kind == EFREET), key=s.efreet_order.index):
            if len(efreets) < EFREET_LIMIT and groups[g].cost <= pool:
                pool -= groups[g].cost
                hand.remove(g)
                slots = [SLOTS[k] for k, n in enumerate(groups[g].slots) for _ in range(n)]
                efreets.append({"group": groups[g], "free": slots})
        if efreets and not first_efreet:
            first_efreet = t

        for g in sorted(
            (g for g in hand if groups[g].kind == EQUIPMENT), key=s.equipment_order.index
        ):
            grp = groups[g]
            if grp.cost > pool:
                continue
            etype = SLOTS[grp.equipment_type]
            host = next((e for e in efreets if etype in e["free"]), None)
            if host is None and etype != "pilot":
                host = next((e for e in efreets if "open" in e["free"]), None)
                etype = "open"
            if host is not None:
                host["free"].remove(etype)
                pool -= grp.cost
                hand.remove(g)

        for g in sorted(
            (g for g in hand if groups[g].kind == STRATEGY), key=s.strategy_order.index
        ):
            if groups[g].cost <= pool:
                pool -= groups[g].cost
                hand.remove(g)
        for g in sorted((g for g in hand if groups[g].kind == TACTIC), key=s.tactic_order.index):
            cost = groups[g].cost
            if cost <= pool + recon:
                from_pool = min(cost, pool)
                pool -= from_pool
                recon -= cost - from_pool
                hand.remove(g)

        c["stuck_sum_by_turn"][i] += len(hand)
        c["stuck_count_by_turn"][i] += 1
        c["stuck_nonresource_sum_by_turn"][i] += sum(1 for g in hand if groups[g].kind != RESOURCE)
        if len(hand) > HAND_LIMIT:
            c["discarded_sum_by_turn"][i] += len(hand) - HAND_LIMIT
            hand.sort(key=s.discard_order.index)
            hand = hand[len(hand) - HAND_LIMIT :]

        open_missions = [m for m in range(RED_LINE) if not controlled[m]]
        if open_missions and efreets:
            roster = sorted(efreets, key=lambda e: -e["group"].code)
            squads: dict[int, list[dict[str, Any]]] = {}
            for k, e in enumerate(roster):
                squads.setdefault(open_missions[k % len(open_missions)], []).append(e)
                if e["group"].scouting:
                    recon = min(recon + 1, RECON_MAX)
            for m in sorted(squads):
                roll = combined_capture_roll(
                    rnd.randint(1, 6) + CLASS_MOD[e["group"].efreet_class] for e in squads[m]
                )
                printed = s.mission_cost[line[m]]
                if roll >= printed + tokens[m]:
                    controlled[m] = True
                    tokens[m] += 1
                    opp -= printed

        c["efreets_in_play_sum_by_turn"][i] += len(efreets)
        c["missions_controlled_sum_by_turn"][i] += sum(controlled)
        if not won and (opp <= 0 or all(controlled)):
            won = True
            c["win_turn_hist"][i] += 1
            if opp <= 0:
                c["win_razed_by_turn"][i] += 1
            else:
                c["win_tactical_by_turn"][i] += 1

    c["first_efreet_turn_hist"][first_efreet - 1 if first_efreet else T] += 1
    if not won:
        c["win_turn_hist"][T] += 1
