"""The vectorised kernel: every game of a chunk played at once with numpy arrays of shape
``(..., games)``, in blocks of ``BLOCK``, one function per phase of a turn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from validation.sim.kernel import (
    SimParams,
    chunk_rng,
    partial_shuffle,
    turn_hist,
)

from .setup import (
    BLOCK,
    CLASS_MOD,
    EFREET_LIMIT,
    HAND_LIMIT,
    OPEN,
    OPENING,
    PILOT,
    RECON_MAX,
    RED_LINE,
    SLOTS,
    MulliganBand,
    _Chunk,
    _empty_counts,
    _Setup,
)


def _vectorised(chunk: _Chunk) -> dict[str, Any]:
    """The games of a chunk vectorised across games, in blocks of ``BLOCK``."""
    params, games = chunk.params, chunk.games
    rng = chunk_rng(params.seed, chunk.index)
    total: dict[str, np.ndarray] | None = None
    for start in range(0, games, BLOCK):
        g = min(BLOCK, games - start)
        part = _simulate_block(chunk.setup, params, chunk.band, g, rng, chunk.opponent_arsenal)
        total = part if total is None else {k: total[k] + part[k] for k in total}
    return _empty_counts(params.turns) if total is None else total


# capture modifier by roster code (code // 2 is the class); index -1 (no efreet) -> 0
_MOD_TABLE = np.array([CLASS_MOD[code // 2] for code in range(6)] + [0], dtype=np.int16)
_SCOUT_CODES = [code for code in range(6) if code % 2]
_ROSTER_POSITIONS = np.arange(EFREET_LIMIT, dtype=np.int16).reshape(EFREET_LIMIT, 1)


@dataclass(slots=True)
class _Block:
    """The state of a block of games played together, arrays of shape ``(..., games)``.

    ``deck`` holds, for each arsenal position a game can draw from, the offset of the card's
    group row in ``flat_hand`` (the flat view of ``hand``, the cards in hand by group); ``ptr``
    is the next position to draw. Efreets in play are counted by roster code (``n_code``) and their
    free slots by slot type (``free``); ``ctrl`` and ``tokens`` are per red-line position.
    """

    s: _Setup
    rows: np.ndarray  # 0..games-1, the column of each game
    deck: np.ndarray  # (2 * OPENING + turns, games)
    flat_deck: np.ndarray
    hand: np.ndarray  # (groups, games)
    flat_hand: np.ndarray
    ptr: np.ndarray
    m_cost: np.ndarray  # (RED_LINE, games): the red line's printed capture costs
    m_recon: np.ndarray  # its control bonuses
    m_res: np.ndarray
    res_in_play: np.ndarray  # the sum of provides of the deployed resources
    pool: np.ndarray  # this turn's deploy pool still unspent
    n_eff: np.ndarray
    n_code: np.ndarray  # (6, games)
    free: np.ndarray  # (len(SLOTS), games)
    recon: np.ndarray
    ctrl: np.ndarray  # (RED_LINE, games) bool
    tokens: np.ndarray
    opp: np.ndarray  # the opponent's arsenal
    first_eff: np.ndarray  # the turn of the first efreet, 0 while none
    win_turn: np.ndarray  # the turn of the win, 0 while none


def _simulate_block(
    s: _Setup,
    params: SimParams,
    band: MulliganBand,
    games: int,
    rng: np.random.Generator,
    opponent_arsenal: int,
) -> dict[str, np.ndarray]:
    """Play ``games`` games together, turn by turn in the module docstring's phases.

    The stream of ``rng`` is consumed in this order: the arsenals' shuffle, the red lines'
    shuffle, then each turn one ``(EFREET_LIMIT, games)`` draw of capture dice, skipped on a
    turn when no game of the block has an efreet in play.
    """
    T = params.turns
    b = _deal(s, T, games, rng, opponent_arsenal)
    c = _zero_counts(T, games)
    _opening_hand(b, band, c)
    for t in range(1, T + 1):
        i = t - 1
        bonus_res = _draw_and_bonuses(b)
        c["resource_deployed_by_turn"][i] = _deploy_resource(b, bonus_res)
        _deploy_efreets(b, t)
        _deploy_equipment(b)
        _deploy_strategies_and_tactics(b)
        _discard_to_limit(b, c, i)
        if b.n_eff.any():
            captured, open_missions = _send_to_missions(b, rng)
            _raze_and_recon(b, captured, open_missions)
        _record_turn(b, c, t)
    c["first_efreet_turn_hist"] = turn_hist(b.first_eff, T)
    c["win_turn_hist"] = turn_hist(b.win_turn, T)
    return c


def _zero_counts(turns: int, games: int) -> dict[str, Any]:
    """A block's statistics as numpy zeros, in the layout and order of ``_empty_counts``;
    every game counts towards every turn's stuck mean."""
    c: dict[str, Any] = {
        key: np.zeros(len(value), dtype=np.int64) if isinstance(value, list) else np.int64(0)
        for key, value in _empty_counts(turns).items()
    }
    c["stuck_count_by_turn"][:] = games
    return c


def _deal(
    s: _Setup, turns: int, games: int, rng: np.random.Generator, opponent_arsenal: int
) -> _Block:
    """Shuffle each game's arsenal (only the cards it can draw: the opening, the mulligan's
    redraw and one a turn) and deal its red line; nothing is in hand or in play yet."""
    G = games
    i16 = np.int16
    deck = partial_shuffle(rng, np.array(s.card_groups, dtype=i16), G, 2 * OPENING + turns)
    deck = deck.astype(np.int64) * G  # offsets of each card's group row in the flat hand
    line = partial_shuffle(rng, np.array(s.mission_deck, dtype=i16), G, RED_LINE)
    hand = np.zeros((len(s.groups), G), dtype=i16)
    return _Block(
        s=s,
        rows=np.arange(G, dtype=np.int64),
        deck=deck,
        flat_deck=deck.reshape(-1),
        hand=hand,
        flat_hand=hand.reshape(-1),
        ptr=np.full(G, OPENING, dtype=np.int64),
        m_cost=np.array(s.mission_cost, dtype=i16)[line],
        m_recon=np.array(s.mission_recon, dtype=i16)[line],
        m_res=np.array(s.mission_resources, dtype=i16)[line],
        res_in_play=np.zeros(G, dtype=i16),
        pool=np.zeros(G, dtype=i16),
        n_eff=np.zeros(G, dtype=i16),
        n_code=np.zeros((6, G), dtype=i16),
        free=np.zeros((len(SLOTS), G), dtype=i16),
        recon=np.zeros(G, dtype=i16),
        ctrl=np.zeros((RED_LINE, G), dtype=bool),
        tokens=np.zeros((RED_LINE, G), dtype=i16),
        opp=np.full(G, opponent_arsenal, dtype=np.int32),
        first_eff=np.zeros(G, dtype=np.int64),
        win_turn=np.zeros(G, dtype=np.int64),
    )


def _resources_in_hand(b: _Block) -> np.ndarray:
    """The number of resources in each game's hand."""
    res_idx = b.s.res_order
    return b.hand[res_idx].sum(0) if res_idx else np.zeros(len(b.rows), dtype=np.int16)


def _opening_hand(b: _Block, band: MulliganBand, c: dict[str, Any]) -> None:
    """Draw 7 and take the partial mulligan once (step 1): below ``band.lo`` resources the
    other cards go to the bottom, above ``band.hi`` the extra resources (lowest ``provides``
    first); as many cards are drawn again."""
    i16 = np.int16
    hand, res_idx = b.hand, b.s.res_order
    for p in range(OPENING):
        b.flat_hand[b.deck[p] + b.rows] += 1
    r = _resources_in_hand(b)
    c["open_resources_hist"] = np.bincount(r, minlength=OPENING + 1)

    low = r < band.lo
    high = r > band.hi
    keep_low = (~low).astype(i16)
    for g in range(len(b.s.groups)):
        if g not in res_idx:
            hand[g] *= keep_low
    excess = np.where(high, r - band.hi, 0).astype(i16)
    redraw = np.where(low, OPENING - r, excess).astype(np.int64)
    for g in reversed(res_idx):
        d = np.minimum(hand[g], excess)
        hand[g] -= d
        excess -= d
    for k in range(OPENING):
        b.flat_hand[b.deck[OPENING + k] + b.rows] += (k < redraw).astype(i16)
    b.ptr = OPENING + redraw
    c["kept_resources_hist"] = np.bincount(_resources_in_hand(b), minlength=OPENING + 1)
    c["mulligans"] = np.int64(np.count_nonzero(low | high))


def _draw_and_bonuses(b: _Block) -> np.ndarray:
    """Draw 1 and add the recon bonuses of the missions controlled (step 2); returns their
    resource bonuses, this turn's part of the deploy pool."""
    i16 = np.int16
    G = len(b.rows)
    b.flat_hand[b.flat_deck[b.ptr * G + b.rows] + b.rows] += 1
    b.ptr += 1
    bonus_res = (b.m_res * b.ctrl).sum(0, dtype=i16)
    b.recon = np.minimum(b.recon + (b.m_recon * b.ctrl).sum(0, dtype=i16), RECON_MAX)
    return np.asarray(bonus_res)


def _deploy_resource(b: _Block, bonus_res: np.ndarray) -> int:
    """Deploy at most one resource, the highest ``provides`` in hand, and fill this turn's
    deploy pool (step 3); returns how many games deployed one."""
    done = np.zeros(len(b.rows), dtype=bool)
    for g in b.s.res_order:
        can = (b.hand[g] > 0) & ~done
        b.hand[g] -= can
        b.res_in_play += can * np.int16(b.s.groups[g].provides)
        done |= can
    b.pool = b.res_in_play + bonus_res
    return int(np.count_nonzero(done))


def _deploy_efreets(b: _Block, t: int) -> None:
    """Deploy efreets, most expensive first, as many as affordable while fewer than 5 are in
    play (step 4); their slots become free. Records turn ``t`` as a game's first efreet."""
    i16 = np.int16
    for g in b.s.efreet_order:
        grp = b.s.groups[g]
        n = np.minimum(b.hand[g], EFREET_LIMIT - b.n_eff)
        if grp.cost:
            n = np.minimum(n, b.pool // grp.cost)
            b.pool -= n * i16(grp.cost)
        b.hand[g] -= n
        b.n_eff += n
        b.n_code[grp.code] += n
        for slot, k in enumerate(grp.slots):
            if k:
                b.free[slot] += n * i16(k)
    b.first_eff[(b.first_eff == 0) & (b.n_eff > 0)] = t


def _deploy_equipment(b: _Block) -> None:
    """Deploy affordable equipment, most expensive first, onto free slots of its type, else
    onto free ``open`` slots (pilots only onto ``pilot`` slots) (step 5)."""
    free = b.free
    for g in b.s.equipment_order:
        grp = b.s.groups[g]
        et = grp.equipment_type
        cap = free[PILOT] if et == PILOT else free[et] + free[OPEN]
        n = np.minimum(b.hand[g], cap)
        if grp.cost:
            n = np.minimum(n, b.pool // grp.cost)
            b.pool -= n * np.int16(grp.cost)
        b.hand[g] -= n
        if et == PILOT:
            free[PILOT] -= n
        else:
            typed = np.minimum(n, free[et])
            free[et] -= typed
            free[OPEN] -= n - typed


def _deploy_strategies_and_tactics(b: _Block) -> None:
    """Deploy affordable strategies from the pool, then tactics from the pool and then the
    recon pool, most expensive first (step 6)."""
    i16 = np.int16
    for g in b.s.strategy_order:
        grp = b.s.groups[g]
        n = b.hand[g].copy()
        if grp.cost:
            n = np.minimum(n, b.pool // grp.cost)
            b.pool -= n * i16(grp.cost)
        b.hand[g] -= n
    for g in b.s.tactic_order:
        grp = b.s.groups[g]
        n = b.hand[g].copy()
        if grp.cost:
            n = np.minimum(n, (b.pool + b.recon) // grp.cost)
            pay = n * i16(grp.cost)
            from_pool = np.minimum(pay, b.pool)
            b.pool -= from_pool
            b.recon -= pay - from_pool
        b.hand[g] -= n


def _discard_to_limit(b: _Block, c: dict[str, Any], i: int) -> None:
    """Count the cards stuck in hand (in all, and other than resources), then discard down to
    7 in the discard order (step 7); ``i`` is the turn's index."""
    hand, res_idx = b.hand, b.s.res_order
    size = hand.sum(0, dtype=np.int16)
    c["stuck_sum_by_turn"][i] = size.sum()
    in_hand_res = hand[res_idx].sum(0, dtype=np.int16) if res_idx else 0
    c["stuck_nonresource_sum_by_turn"][i] = (size - in_hand_res).sum()
    over = np.maximum(size - HAND_LIMIT, 0).astype(np.int16)
    c["discarded_sum_by_turn"][i] = over.sum()
    if c["discarded_sum_by_turn"][i]:
        for g in b.s.discard_order:
            d = np.minimum(hand[g], over)
            hand[g] -= d
            over -= d


def _open_mission_rank(unc: np.ndarray) -> np.ndarray:
    """Each red-line position's rank among the missions not yet controlled (``unc``)."""
    rank = np.empty(unc.shape, dtype=np.int16)
    rank[0] = unc[0]
    for m in range(1, RED_LINE):
        rank[m] = rank[m - 1] + unc[m]
    rank -= 1
    return rank


def combined_capture_roll(rolls: Iterable[int]) -> int:
    """A squad's capture total: efreets in a squad "may combine their rolls to increase
    their chance of success" (rulebook, Combat Phase), so the squad adds every roll that
    helps and leaves out the ones below 0; the best single roll is never above this."""
    return sum(max(r, 0) for r in rolls)


def _roster(n_code: np.ndarray) -> np.ndarray:
    """The efreets in play in sending order: position ``k`` holds the roster code of the
    ``k``-th efreet, highest code first, and -1 past the last efreet."""
    roster = np.full((EFREET_LIMIT, n_code.shape[1]), -1, dtype=np.int16)
    running = np.zeros(n_code.shape[1], dtype=np.int16)
    for code in range(5, -1, -1):
        running += n_code[code]
        roster += running > _ROSTER_POSITIONS
    return roster


def _send_to_missions(b: _Block, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Deal the roster round-robin to the open missions and roll each squad's capture
    (step 8): one die per roster position, drawn as one ``(EFREET_LIMIT, games)`` array.
    Returns the missions captured ``(RED_LINE, games)`` and the number of open missions."""
    unc = ~b.ctrl
    u = unc.sum(0, dtype=np.int16)
    rank = _open_mission_rank(unc)
    roster = _roster(b.n_code)
    present = roster >= 0
    dice = rng.integers(1, 7, size=(EFREET_LIMIT, len(b.rows)), dtype=np.int16)
    # "may combine their rolls": a roll below 0 (a light's 1d6-2) is left out of the total
    rolls = np.maximum(dice + _MOD_TABLE[roster], 0) * present
    target = _ROSTER_POSITIONS % np.maximum(u, 1)
    squad = (target[None] == rank[:, None]) & present[None] & unc[:, None]  # (m, k, G)
    total = (rolls[None] * squad).sum(1, dtype=np.int16)
    sent = squad.any(1)
    return sent & (total >= b.m_cost + b.tokens), u


def _raze_and_recon(b: _Block, captured: np.ndarray, open_missions: np.ndarray) -> None:
    """A capture takes control, adds a capture token and razes the opponent's arsenal by the
    printed capture cost; the Scouting efreets sent add recon, up to the pool's maximum."""
    b.ctrl |= captured
    b.tokens += captured
    b.opp -= (b.m_cost * captured).sum(0, dtype=np.int32)
    scouts = sum(b.n_code[code] for code in _SCOUT_CODES)
    b.recon = np.minimum(b.recon + scouts * (open_missions > 0), RECON_MAX)


def _record_turn(b: _Block, c: dict[str, Any], t: int) -> None:
    """The end of turn ``t``'s figures: efreets in play, missions controlled, and the games
    won this turn, razed (which takes precedence) or tactical (step 9)."""
    i = t - 1
    c["efreets_in_play_sum_by_turn"][i] = b.n_eff.sum()
    c["missions_controlled_sum_by_turn"][i] = np.count_nonzero(b.ctrl)
    razed = b.opp <= 0
    tactical = b.ctrl.all(0)
    new = (b.win_turn == 0) & (razed | tactical)
    b.win_turn[new] = t
    c["win_razed_by_turn"][i] = np.count_nonzero(new & razed)
    c["win_tactical_by_turn"][i] = np.count_nonzero(new & ~razed)
