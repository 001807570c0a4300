"""What every REDLINE goldfish game starts from: the deck read as groups of like cards and
their play orders (`_setup`), the default missions, the counts a chunk adds up, and `Engine`,
which plays a chunk's games with one of the two players below."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from validation.sim.kernel import (
    SimParams,
    Stats,
    chunk_games,
    new_stats,
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
