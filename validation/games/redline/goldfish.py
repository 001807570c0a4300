"""REDLINE goldfish: one player against an opponent that never acts (the game spec section 1).

``simulate_redline`` plays every game of a chunk at once with numpy arrays of shape
``(..., games)``; ``simulate_redline_reference`` plays the same policy one game at a time in
plain Python (the benchmark's baseline and the cross-check of the tests).

Policy, turn by turn (every game plays all ``T`` turns; a game's win is recorded on the first
turn its win condition holds, and the per-turn figures describe the deck's development as if
play went on):

1. Opening: draw 7. Partial mulligan once with the band ``lo``-``hi`` of resources ``r``
   (``MulliganBand``, 2-4 unless the run says otherwise):
   keep when ``lo <= r <= hi``; when ``r < lo`` put every non-resource card on the bottom and
   draw as many; when ``r > hi`` put ``r - hi`` resources on the bottom (lowest ``provides``
   first) and draw as many.
2. Each turn: draw 1 (turn 1 too, for either player), then the control bonuses of the missions
   controlled at the start of the turn: ``{"recon": n}`` adds to the recon pool,
   ``{"resources": n}`` to this turn's deploy pool.
3. Deploy at most one resource (the highest ``provides`` in hand). The deploy pool is the sum
   of ``provides`` of the deployed resources (all reset, all expended) plus resource bonuses.
4. Deploy efreets, most expensive first (ties: heavier class, then Scouting, then name), as
   many as are affordable while fewer than 5 efreets are in play.
5. Deploy equipment (most expensive first) onto an efreet with a free slot of the
   equipment's type, else a free ``open`` slot (pilots need a ``pilot`` slot).
6. Deploy affordable strategies (resources only), then tactics (resources first, then recon),
   most expensive first.
7. Cards left in hand are "stuck"; then discard to 7 in this order: cards the goldfish cannot
   deploy (generals, missions, critical hits), tactics, strategies, equipment, efreets (most
   expensive first within a kind), and resources last (lowest ``provides`` first).
8. Missions: the efreets in play (heaviest class first, Scouting first within a class) are
   dealt round-robin to the missions not yet controlled, in red-line position order (efreet
   ``k`` goes to the ``k mod u``-th of the ``u`` open missions), so a mission may get a squad.
   Each Scouting efreet sent adds 1 recon (the pool holds at most 6). Each squad rolls
   capture: light 1d6-2, medium 1d6, heavy 1d6+2, summed over the squad; it captures when the
   sum reaches the printed capture cost plus one per capture token on the mission. A capture
   adds a capture token and razes the opponent's arsenal (60 cards, it never draws) by the
   printed capture cost.
9. Win: razed when the opponent's arsenal is empty (it happens during combat, so it takes
   precedence), else tactical when all 5 missions are controlled at the end of the turn.

Simplifications of the rulebook (the goldfish has no opponent to fight):

* no combat, damage, repairs, critical hits, retreats, entrenchment or mission dials; the
  opponent never deploys, captures or blocks, so controlled missions are never lost and
  capture tokens never lie on a mission still to be captured;
* card text, keywords other than Scouting, general abilities, firebases, mines, Prepared
  Ground, scorched earth/rubble and heroic uniqueness are ignored; equipment, strategies and
  tactics only use up resources and leave the hand;
* the efreet limit is enforced by never deploying a sixth efreet (no scrapping);
* equipment and strategies cannot be paid with recon; unused resources vanish each turn;
* the player's own arsenal must hold at least ``14 + T`` cards, so cards put on the bottom
  by the mulligan are never drawn again and the player never runs out of cards;
* ``SimParams.on_the_play`` has no effect: both players draw on turn 1 (the game spec decision).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from validation.sim.kernel import (
    SimParams,
    Stats,
    chunk_games,
    chunk_rng,
    chunk_seed_sequence,
    new_stats,
    partial_shuffle,
    turn_hist,
)
from validation.types import CardFacts, Entry

KIND = "redline"
HAND_LIMIT = 7
OPENING = 7
EFREET_LIMIT = 5
RECON_MAX = 6
RED_LINE = 5
DEFAULT_CAPTURE_COST = 3
BLOCK = 8_192  # games simulated together (keeps the working set in cache); fixed for seeds

RESOURCE, EFREET, EQUIPMENT, STRATEGY, TACTIC, DEAD = range(6)
_KINDS = {
    "resource": RESOURCE,
    "efreet": EFREET,
    "equipment": EQUIPMENT,
    "strategy": STRATEGY,
    "tactic": TACTIC,
}
SLOTS = ("laser", "missile", "cannon", "system", "pilot", "open")
PILOT = SLOTS.index("pilot")
OPEN = SLOTS.index("open")
CLASSES = ("light", "medium", "heavy")
CLASS_MOD = (-2, 0, 2)


@dataclass(frozen=True, slots=True)
class MulliganBand:
    """REDLINE's partial mulligan (the game spec section 1): an opening hand holding fewer
    than ``lo`` resources sends its other cards to the bottom, one holding more than ``hi``
    sends its extra resources there; ``lo``-``hi`` itself is kept."""

    lo: int = 2
    hi: int = 4

    def __post_init__(self) -> None:
        if not 0 <= self.lo <= self.hi <= OPENING:
            raise ValueError(
                f"mulligan band must satisfy 0 <= lo <= hi <= {OPENING}, got {self.lo}-{self.hi}"
            )


DEFAULT_BAND = MulliganBand()


@dataclass(frozen=True, slots=True)
class _Group:
    """Cards the policy cannot tell apart (same kind, cost and simulated attributes)."""

    kind: int
    cost: int
    name: str = ""
    provides: int = 0
    efreet_class: int = 1
    scouting: bool = False
    slots: tuple[int, ...] = (0,) * len(SLOTS)
    equipment_type: int = -1

    @property
    def code(self) -> int:
        """Efreet roster code: higher is sent first (heavier, then Scouting)."""
        return self.efreet_class * 2 + int(self.scouting)


@dataclass(slots=True)
class _Setup:
    groups: list[_Group]
    card_groups: list[int]  # one group index per arsenal card
    res_order: list[int]  # deploy order (highest provides first)
    efreet_order: list[int]
    equipment_order: list[int]
    strategy_order: list[int]
    tactic_order: list[int]
    discard_order: list[int]
    mission_cost: list[int]  # per mission type
    mission_recon: list[int]
    mission_resources: list[int]
    mission_deck: list[int]  # one mission type per mission card
    is_resource: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))


def _keywords(card: CardFacts) -> list[str]:
    words = card.attr("keywords", []) or []
    return [str(w).strip().lower() for w in words]


def _group_of(card: CardFacts) -> _Group:
    kind = _KINDS.get(card.kind, DEAD)
    cost = int(card.cost or 0)
    if cost < 0:
        raise ValueError(f"{card.name}: negative cost {cost}")
    if kind == RESOURCE:
        provides = card.attr("provides")
        provides = 1 if provides is None else int(provides)
        return _Group(RESOURCE, 0, provides=provides)
    if kind == EFREET:
        cls = str(card.attr("efreet_class", "medium")).lower()
        if cls not in CLASSES:
            raise ValueError(f"{card.name}: unknown efreet_class {cls!r}")
        slots = [0] * len(SLOTS)
        for slot in card.attr("slots", []) or []:
            s = str(slot).lower()
            if s not in SLOTS:
                raise ValueError(f"{card.name}: unknown slot {slot!r}")
            slots[SLOTS.index(s)] += 1
        scouting = any(w.split()[0] == "scouting" for w in _keywords(card) if w)
        return _Group(
            EFREET,
            cost,
            name=card.name,
            efreet_class=CLASSES.index(cls),
            scouting=scouting,
            slots=tuple(slots),
        )
    if kind == EQUIPMENT:
        etype = str(card.attr("equipment_type", "system")).lower()
        if etype not in SLOTS or etype == "open":
            raise ValueError(f"{card.name}: unknown equipment_type {etype!r}")
        return _Group(EQUIPMENT, cost, equipment_type=SLOTS.index(etype))
    if kind in (STRATEGY, TACTIC):
        return _Group(kind, cost)
    return _Group(DEAD, 0)


def default_missions() -> list[Entry]:
    """The default mission deck: 20 missions of capture cost 3 with no control bonus."""
    card = CardFacts(
        name="Contested Outpost",
        kind="mission",
        attributes={"capture_cost": DEFAULT_CAPTURE_COST, "control_bonus": {}},
    )
    return [Entry(card, 20)]


def _setup(arsenal: list[Entry], missions: list[Entry] | None, turns: int) -> _Setup:
    counts: dict[_Group, int] = {}
    for entry in arsenal:
        if entry.count < 0:
            raise ValueError(f"{entry.card.name}: negative count")
        g = _group_of(entry.card)
        counts[g] = counts.get(g, 0) + entry.count
    size = sum(counts.values())
    if size < 2 * OPENING + turns:
        raise ValueError(
            f"the arsenal holds {size} cards; the goldfish needs at least {2 * OPENING + turns} "
            f"for {turns} turns"
        )

    def by_kind(kind: int) -> list[_Group]:
        return [g for g in counts if g.kind == kind and counts[g] > 0]

    resources = sorted(by_kind(RESOURCE), key=lambda g: -g.provides)
    efreets = sorted(
        by_kind(EFREET), key=lambda g: (-g.cost, -g.efreet_class, -g.scouting, g.name, g.slots)
    )
    equipment = sorted(by_kind(EQUIPMENT), key=lambda g: (-g.cost, g.equipment_type))
    strategies = sorted(by_kind(STRATEGY), key=lambda g: -g.cost)
    tactics = sorted(by_kind(TACTIC), key=lambda g: -g.cost)
    dead = by_kind(DEAD)
    groups = resources + efreets + equipment + strategies + tactics + dead
    index = {g: i for i, g in enumerate(groups)}
    card_groups = [index[g] for g in groups for _ in range(counts[g])]

    def idx(gs: list[_Group]) -> list[int]:
        return [index[g] for g in gs]

    mission_entries = default_missions() if missions is None else missions
    m_cost: list[int] = []
    m_recon: list[int] = []
    m_res: list[int] = []
    m_deck: list[int] = []
    for entry in mission_entries:
        card = entry.card
        cost = card.attr("capture_cost")
        bonus = card.attr("control_bonus", {}) or {}
        m_cost.append(int(cost if cost is not None else DEFAULT_CAPTURE_COST))
        m_recon.append(int(bonus.get("recon", 0)))
        m_res.append(int(bonus.get("resources", 0)))
        m_deck.extend([len(m_cost) - 1] * entry.count)
    if len(m_deck) < RED_LINE:
        raise ValueError(f"the mission deck holds {len(m_deck)} cards; a red line needs 5")

    return _Setup(
        groups=groups,
        card_groups=card_groups,
        res_order=idx(resources),
        efreet_order=idx(efreets),
        equipment_order=idx(equipment),
        strategy_order=idx(strategies),
        tactic_order=idx(tactics),
        discard_order=[*idx(dead), *idx(tactics), *idx(strategies), *idx(equipment)]
        + [*idx(efreets), *idx(resources[::-1])],
        mission_cost=m_cost,
        mission_recon=m_recon,
        mission_resources=m_res,
        mission_deck=m_deck,
        is_resource=np.array([g.kind == RESOURCE for g in groups], dtype=bool),
    )


def _empty_counts(turns: int) -> dict[str, Any]:
    zeros = [0] * turns
    return {
        "open_resources_hist": [0] * (OPENING + 1),
        "kept_resources_hist": [0] * (OPENING + 1),
        "mulligans": 0,
        "resource_deployed_by_turn": list(zeros),
        "first_efreet_turn_hist": [0] * (turns + 1),
        "win_turn_hist": [0] * (turns + 1),
        "win_tactical_by_turn": list(zeros),
        "win_razed_by_turn": list(zeros),
        "stuck_sum_by_turn": list(zeros),
        "stuck_count_by_turn": list(zeros),
        "stuck_nonresource_sum_by_turn": list(zeros),
        "discarded_sum_by_turn": list(zeros),
        "efreets_in_play_sum_by_turn": list(zeros),
        "missions_controlled_sum_by_turn": list(zeros),
    }


# --- vectorised kernel ---------------------------------------------------------------------


def simulate_redline(
    arsenal: list[Entry],
    missions: list[Entry] | None = None,
    params: SimParams | None = None,
    chunk_index: int = 0,
    n_chunks: int = 1,
    *,
    band: MulliganBand = DEFAULT_BAND,
    opponent_arsenal: int = 60,
) -> Stats:
    """Goldfish ``chunk_index`` of ``n_chunks`` of a REDLINE run, vectorised across games,
    with the partial mulligan ``band``."""
    params = params or SimParams()
    setup = _setup(arsenal, missions, params.turns)
    games = chunk_games(params.games, chunk_index, n_chunks)
    rng = chunk_rng(params.seed, chunk_index)
    total: dict[str, np.ndarray] | None = None
    for start in range(0, games, BLOCK):
        part = _simulate_block(
            setup, params, band, min(BLOCK, games - start), rng, opponent_arsenal
        )
        total = part if total is None else {k: total[k] + part[k] for k in total}
    counts: dict[str, Any] = _empty_counts(params.turns) if total is None else total
    return new_stats(KIND, params.turns, games, counts)


def _simulate_block(
    s: _Setup,
    params: SimParams,
    band: MulliganBand,
    games: int,
    rng: np.random.Generator,
    opponent_arsenal: int,
) -> dict[str, np.ndarray]:
    T = params.turns
    G = games
    i16 = np.int16
    groups = s.groups
    ng = len(groups)
    rows = np.arange(G, dtype=np.int64)

    deck = partial_shuffle(rng, np.array(s.card_groups, dtype=np.int16), G, 2 * OPENING + T)
    deck = deck.astype(np.int64) * G  # offsets of each card's group row in the flat hand
    flat_deck = deck.reshape(-1)
    line = partial_shuffle(rng, np.array(s.mission_deck, dtype=np.int16), G, RED_LINE)
    m_cost = np.array(s.mission_cost, dtype=i16)[line]  # (5, G)
    m_recon = np.array(s.mission_recon, dtype=i16)[line]
    m_res = np.array(s.mission_resources, dtype=i16)[line]

    hand = np.zeros((ng, G), dtype=i16)
    flat_hand = hand.reshape(-1)
    for p in range(OPENING):
        flat_hand[deck[p] + rows] += 1
    res_idx = s.res_order
    nonres_idx = [g for g in range(ng) if g not in res_idx]
    r = hand[res_idx].sum(0) if res_idx else np.zeros(G, dtype=i16)
    open_hist = np.bincount(r, minlength=OPENING + 1)

    # partial mulligan
    low = r < band.lo
    high = r > band.hi
    keep_low = (~low).astype(i16)
    for g in nonres_idx:
        hand[g] *= keep_low
    excess = np.where(high, r - band.hi, 0).astype(i16)
    redraw = np.where(low, OPENING - r, excess).astype(np.int64)
    for g in reversed(res_idx):
        d = np.minimum(hand[g], excess)
        hand[g] -= d
        excess -= d
    for k in range(OPENING):
        flat_hand[deck[OPENING + k] + rows] += (k < redraw).astype(i16)
    ptr = OPENING + redraw
    kept = hand[res_idx].sum(0) if res_idx else np.zeros(G, dtype=i16)
    kept_hist = np.bincount(kept, minlength=OPENING + 1)

    # state
    provides = [groups[g].provides for g in res_idx]
    res_in_play = np.zeros(G, dtype=i16)
    n_eff = np.zeros(G, dtype=i16)
    n_code = np.zeros((6, G), dtype=i16)  # efreets in play by roster code
    free = np.zeros((len(SLOTS), G), dtype=i16)
    recon = np.zeros(G, dtype=i16)
    ctrl = np.zeros((RED_LINE, G), dtype=bool)
    tokens = np.zeros((RED_LINE, G), dtype=i16)
    opp = np.full(G, opponent_arsenal, dtype=np.int32)
    first_eff = np.zeros(G, dtype=np.int64)
    win_turn = np.zeros(G, dtype=np.int64)
    # capture modifier by roster code (code // 2 is the class); index -1 (no efreet) -> 0
    mod_table = np.array([CLASS_MOD[code // 2] for code in range(6)] + [0], dtype=i16)
    scout_codes = [c for c in range(6) if c % 2]
    k_col = np.arange(EFREET_LIMIT, dtype=i16).reshape(EFREET_LIMIT, 1)

    res_dep = np.zeros(T, dtype=np.int64)
    stuck = np.zeros(T, dtype=np.int64)
    stuck_nonres = np.zeros(T, dtype=np.int64)
    discarded = np.zeros(T, dtype=np.int64)
    eff_sum = np.zeros(T, dtype=np.int64)
    ctrl_sum = np.zeros(T, dtype=np.int64)
    win_tac = np.zeros(T, dtype=np.int64)
    win_raze = np.zeros(T, dtype=np.int64)

    for t in range(1, T + 1):
        # draw 1, control bonuses
        flat_hand[flat_deck[ptr * G + rows] + rows] += 1
        ptr += 1
        bonus_res = (m_res * ctrl).sum(0, dtype=i16)
        recon = np.minimum(recon + (m_recon * ctrl).sum(0, dtype=i16), RECON_MAX)

        # one resource
        done = np.zeros(G, dtype=bool)
        for g, prov in zip(res_idx, provides, strict=True):
            can = (hand[g] > 0) & ~done
            hand[g] -= can
            res_in_play += can * i16(prov)
            done |= can
        res_dep[t - 1] = np.count_nonzero(done)
        pool = res_in_play + bonus_res

        # efreets, most expensive first
        for g in s.efreet_order:
            grp = groups[g]
            n = np.minimum(hand[g], EFREET_LIMIT - n_eff)
            if grp.cost:
                n = np.minimum(n, pool // grp.cost)
                pool -= n * i16(grp.cost)
            hand[g] -= n
            n_eff += n
            n_code[grp.code] += n
            for slot, k in enumerate(grp.slots):
                if k:
                    free[slot] += n * i16(k)
        first_eff[(first_eff == 0) & (n_eff > 0)] = t

        # equipment onto matching free slots
        for g in s.equipment_order:
            grp = groups[g]
            et = grp.equipment_type
            cap = free[PILOT] if et == PILOT else free[et] + free[OPEN]
            n = np.minimum(hand[g], cap)
            if grp.cost:
                n = np.minimum(n, pool // grp.cost)
                pool -= n * i16(grp.cost)
            hand[g] -= n
            if et == PILOT:
                free[PILOT] -= n
            else:
                typed = np.minimum(n, free[et])
                free[et] -= typed
                free[OPEN] -= n - typed

        for g in s.strategy_order:
            grp = groups[g]
            n = hand[g].copy()
            if grp.cost:
                n = np.minimum(n, pool // grp.cost)
                pool -= n * i16(grp.cost)
            hand[g] -= n
        for g in s.tactic_order:
            grp = groups[g]
            n = hand[g].copy()
            if grp.cost:
                n = np.minimum(n, (pool + recon) // grp.cost)
                pay = n * i16(grp.cost)
                from_pool = np.minimum(pay, pool)
                pool -= from_pool
                recon -= pay - from_pool
            hand[g] -= n

        # stuck cards, discard to 7
        size = hand.sum(0, dtype=i16)
        stuck[t - 1] = size.sum()
        in_hand_res = hand[res_idx].sum(0, dtype=i16) if res_idx else 0
        stuck_nonres[t - 1] = (size - in_hand_res).sum()
        over = np.maximum(size - HAND_LIMIT, 0).astype(i16)
        discarded[t - 1] = over.sum()
        if discarded[t - 1]:
            for g in s.discard_order:
                d = np.minimum(hand[g], over)
                hand[g] -= d
                over -= d

        # missions: round-robin the roster over the open missions
        unc = ~ctrl
        u = unc.sum(0, dtype=i16)
        if n_eff.any():
            rank = np.empty((RED_LINE, G), dtype=i16)  # rank among the open missions
            rank[0] = unc[0]
            for m in range(1, RED_LINE):
                rank[m] = rank[m - 1] + unc[m]
            rank -= 1
            # roster position k holds the k-th efreet by code, highest first; -1 when empty
            roster = np.full((EFREET_LIMIT, G), -1, dtype=i16)
            running = np.zeros(G, dtype=i16)
            for code in range(5, -1, -1):
                running += n_code[code]
                roster += running > k_col
            present = roster >= 0
            dice = rng.integers(1, 7, size=(EFREET_LIMIT, G), dtype=i16)
            rolls = (dice + mod_table[roster]) * present
            target = k_col % np.maximum(u, 1)
            squad = (target[None] == rank[:, None]) & present[None] & unc[:, None]  # (m, k, G)
            total = (rolls[None] * squad).sum(1, dtype=i16)
            sent = squad.any(1)
            captured = sent & (total >= m_cost + tokens)
            ctrl |= captured
            tokens += captured
            opp -= (m_cost * captured).sum(0, dtype=np.int32)
            scouts = sum(n_code[c] for c in scout_codes)
            recon = np.minimum(recon + scouts * (u > 0), RECON_MAX)

        eff_sum[t - 1] = n_eff.sum()
        ctrl_sum[t - 1] = np.count_nonzero(ctrl)
        razed = opp <= 0
        tactical = ctrl.all(0)
        new = (win_turn == 0) & (razed | tactical)
        win_turn[new] = t
        win_raze[t - 1] = np.count_nonzero(new & razed)
        win_tac[t - 1] = np.count_nonzero(new & ~razed)

    return {
        "open_resources_hist": open_hist,
        "kept_resources_hist": kept_hist,
        "mulligans": np.int64(np.count_nonzero(low | high)),
        "resource_deployed_by_turn": res_dep,
        "first_efreet_turn_hist": turn_hist(first_eff, T),
        "win_turn_hist": turn_hist(win_turn, T),
        "win_tactical_by_turn": win_tac,
        "win_razed_by_turn": win_raze,
        "stuck_sum_by_turn": stuck,
        "stuck_count_by_turn": np.full(T, G, dtype=np.int64),
        "stuck_nonresource_sum_by_turn": stuck_nonres,
        "discarded_sum_by_turn": discarded,
        "efreets_in_play_sum_by_turn": eff_sum,
        "missions_controlled_sum_by_turn": ctrl_sum,
    }


# --- reference: one game at a time ---------------------------------------------------------


def simulate_redline_reference(
    arsenal: list[Entry],
    missions: list[Entry] | None = None,
    params: SimParams | None = None,
    chunk_index: int = 0,
    n_chunks: int = 1,
    *,
    band: MulliganBand = DEFAULT_BAND,
    opponent_arsenal: int = 60,
) -> Stats:
    """The same policy as ``simulate_redline``, one game at a time in plain Python.

    Seeded from the same chunk seed sequence, but it draws its numbers in another order
    (Python's ``random.Random``), so it agrees with the vectorised kernel statistically, not
    game by game.
    """
    params = params or SimParams()
    setup = _setup(arsenal, missions, params.turns)
    games = chunk_games(params.games, chunk_index, n_chunks)
    state = chunk_seed_sequence(params.seed, chunk_index).generate_state(4, np.uint64)
    rnd = random.Random(int.from_bytes(state.tobytes(), "little"))
    counts = _empty_counts(params.turns)
    for _ in range(games):
        _play_reference_game(setup, params, band, rnd, opponent_arsenal, counts)
    return new_stats(KIND, params.turns, games, counts)


def _play_reference_game(
    s: _Setup,
    params: SimParams,
    band: MulliganBand,
    rnd: random.Random,
    opponent_arsenal: int,
    c: dict[str, Any],
) -> None:
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
                roll = sum(
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
