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
   capture: light 1d6-2, medium 1d6, heavy 1d6+2, combined over the squad as the rulebook's
   "may combine their rolls" allows: every roll that adds to the total, none that would lower
   it (a light's -1 or 0 is left out); it captures when the total reaches the printed capture
   cost plus one per capture token on the mission. A capture
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
from collections.abc import Callable, Iterable
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


@dataclass(frozen=True, slots=True)
class _Chunk:
    """A chunk to play: `games` games of `setup` against an opponent's arsenal of
    `opponent_arsenal` cards, chunk `index` of a run with `params`."""

    setup: _Setup
    params: SimParams
    band: MulliganBand
    games: int
    index: int
    opponent_arsenal: int


#: How an engine plays a chunk's games: their counts, in the layout of `_empty_counts`.
ChunkPlay = Callable[[_Chunk], dict[str, Any]]


class Engine:
    """A REDLINE goldfish simulator: `engine(arsenal, missions, params, chunk_index,
    n_chunks, band=..., opponent_arsenal=60)` plays chunk ``chunk_index`` of ``n_chunks`` of
    a run (the policy of the module docstring, with the partial mulligan ``band``) and
    returns its statistics. Every engine prepares the decks the same way (`_setup`) and
    plays a chunk's games its own way (`play`); its name and docstring are its play's."""

    def __init__(self, play: ChunkPlay) -> None:
        self.play = play
        self.__name__ = play.__name__
        self.__doc__ = play.__doc__

    def __call__(
        self,
        arsenal: list[Entry],
        missions: list[Entry] | None = None,
        params: SimParams | None = None,
        chunk_index: int = 0,
        n_chunks: int = 1,
        *,
        band: MulliganBand = DEFAULT_BAND,
        opponent_arsenal: int = 60,
    ) -> Stats:
        params = params or SimParams()
        setup = _setup(arsenal, missions, params.turns)
        games = chunk_games(params.games, chunk_index, n_chunks)
        counts = self.play(_Chunk(setup, params, band, games, chunk_index, opponent_arsenal))
        return new_stats(KIND, params.turns, games, counts)


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


simulate_redline = Engine(_vectorised)


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


# --- reference: one game at a time ---------------------------------------------------------


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


simulate_redline_reference = Engine(_one_game_at_a_time)


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
