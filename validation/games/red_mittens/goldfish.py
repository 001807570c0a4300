"""Red Mittens — goldfish against a passive opponent with no units.

Rules followed (the Red Mittens rulebook, the game spec section 4):

- Setup (4): each player is dealt 10 UNIT and 10 ITEM cards from the shuffled core decks; the
  FIELD deck is shared. The player draws 2 UNIT, 2 ITEM and 2 FIELD cards into the hand, then
  the top card of their UNIT deck, their ITEM deck and the FIELD deck is flipped face up and
  is ACTIVE. The opponent starts on 20 LP.
- Deploy phase (4.2.1) and the Cardinal Rule: by the end of the phase the player plays at
  least one card and at most one card from each core deck. With an empty hand the player must
  roll the CORE DICE: 1, 2 or 3 draws that many cards from the reserve decks; a UNIT, ITEM or
  FIELD symbol flips the top card of that deck into play (it becomes ACTIVE and is that
  deck's one card for the phase). After a roll the player may play cards as usual.
- Attack phase (4.2.3): the ACTIVE unit attacks. The opponent has no units, so (the game spec
  **decision**) the undefended attack costs the opponent LP equal to the attack: the unit's
  `atk` plus the active item's `atk_bonus`, plus a D6 for a `d6_bonus` unit ("+D6 atk"). An
  `attack_twice` unit attacks the opponent directly twice (option 2 of the rule: no enemy
  unit remains), each attack with its own D6.
- The turn on which the opponent's LP reaches 0 is recorded; only the player's own turns are
  counted (the opponent's turns change nothing).

Decisions and simplifications:

- The core dice has six equally likely faces: 1, 2, 3, UNIT, ITEM, FIELD. The dice is rolled
  only when the hand is empty (rolling is optional otherwise; this goldfish never chooses
  it). Cards drawn on a 1-3 are taken in turn from the reserve decks in `draw_order`
  (default unit, item, field), skipping empty ones; a symbol on an empty deck does nothing.
- Play policy (greedy): among every legal play (at most one card of each deck, at least one
  card when the hand is not empty) take the one with the highest expected attack this turn,
  then the fewest cards, then fields before items before units (a field has no modelled
  effect, so it is the cheapest way to obey the Cardinal Rule). A played or flipped unit or
  item replaces the active one.
- Not modelled: card text (ON PLAY, PRIORITY actions, VS bonuses, field effects, class
  bonuses from items and fields), class abilities (healer, necromancer, recruiter, thief),
  and the opponent's cards. `def` never matters against an opponent with no units.
- Why a per-game loop and not numpy across games: the hand, the reserve decks and the greedy
  choice among legal plays differ from game to game and depend on earlier dice rolls, so
  each game is a small sequential state machine. numpy supplies the random streams: game i
  uses SeedSequence(seed, spawn_key=(i,)), so a run is reproducible from its seed and a run
  split into chunks (`first_game`) merges, by summing counts (`merge_goldfish_stats`), into
  exactly the unsplit run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from validation.types import CardFacts

START_LP = 20
DEALT = 10
OPENING_DRAW = 2
DICE_FACES: tuple[str, ...] = ("1", "2", "3", "unit", "item", "field")
KINDS: tuple[str, ...] = ("unit", "item", "field")
# Tie-break when several plays give the same attack: fields first, then items, then units.
_FILLER_ORDER = {"field": 0, "item": 1, "unit": 2}

# Count fields of the stats (RedMittensStats, simulation.py, holds them as a type); `merge_goldfish_stats` sums these and recomputes the rest.
COUNT_KEYS = (
    "games",
    "not_dead",
    "turns_played",
    "cards_played",
    "cards_from_hand",
    "cards_flipped",
    "dice_rolls",
    "games_with_dice",
)
HIST_KEYS = (
    "dead_on_turn",
    "cards_played_by_turn",
    "games_reaching_turn",
    "dice_rolls_by_turn",
    "dice_faces",
)


@dataclass(frozen=True, slots=True)
class _Unit:
    atk: int
    twice: bool
    d6: bool


def _unit(card: CardFacts) -> _Unit:
    return _Unit(
        int(card.attr("atk", 0)),
        bool(card.attr("attack_twice", False)),
        bool(card.attr("d6_bonus")),
    )


def _expected_attack(unit: _Unit | None, bonus: int) -> float:
    """Expected LP lost by the opponent to one attack phase (a D6 averages 3.5)."""
    if unit is None:
        return 0.0
    if unit.d6:
        one = sum(max(0, unit.atk + bonus + face) for face in range(1, 7)) / 6
    else:
        one = float(max(0, unit.atk + bonus))
    return one * (2 if unit.twice else 1)


def _attack(unit: _Unit | None, bonus: int, rng: np.random.Generator) -> int:
    if unit is None:
        return 0
    total = 0
    for _ in range(2 if unit.twice else 1):
        extra = int(rng.integers(1, 7)) if unit.d6 else 0
        total += max(0, unit.atk + bonus + extra)
    return total


class _Game:
    """One goldfish game's state: reserve decks, hand and active cards."""

    def __init__(
        self,
        units: list[_Unit],
        items: list[int],
        n_fields: int,
        rng: np.random.Generator,
        dealt: int,
    ) -> None:
        self.rng = rng
        unit_order = rng.permutation(len(units))[:dealt]
        item_order = rng.permutation(len(items))[:dealt]
        field_order = rng.permutation(n_fields)
        self.reserve: dict[str, list[Any]] = {
            "unit": [units[i] for i in unit_order],
            "item": [items[i] for i in item_order],
            "field": [int(i) for i in field_order],
        }
        self.hand: dict[str, list[Any]] = {k: [] for k in KINDS}
        for kind in KINDS:
            for _ in range(OPENING_DRAW):
                self._draw(kind)
        self.active_unit: _Unit | None = self._pop(kind="unit")
        self.active_bonus: int = self._pop(kind="item") or 0
        self.active_field = self._pop(kind="field")

    def _pop(self, kind: str) -> Any:
        deck = self.reserve[kind]
        return deck.pop(0) if deck else None

    def _draw(self, kind: str) -> bool:
        card = self._pop(kind)
        if card is None:
            return False
        self.hand[kind].append(card)
        return True

    def hand_size(self) -> int:
        return sum(len(cards) for cards in self.hand.values())

    def roll(self, draw_order: Sequence[str]) -> tuple[str, set[str]]:
        """Roll the core dice; return the face and the kinds flipped into play."""
        face = DICE_FACES[int(self.rng.integers(0, len(DICE_FACES)))]
        flipped: set[str] = set()
        if face in KINDS:
            card = self._pop(face)
            if card is not None:
                flipped.add(face)
                if face == "unit":
                    self.active_unit = card
                elif face == "item":
                    self.active_bonus = card
                else:
                    self.active_field = card
        else:
            wanted, i, misses = int(face), 0, 0
            while wanted and misses < len(draw_order):
                if self._draw(draw_order[i % len(draw_order)]):
                    wanted, misses = wanted - 1, 0
                else:
                    misses += 1
                i += 1
        return face, flipped

    def play(self, flipped: set[str]) -> int:
        """Play the greedy best legal set of cards from the hand; return how many."""
        if self.hand_size() == 0:
            return 0
        unit_opts: list[int | None] = [None]
        if "unit" not in flipped:
            unit_opts += list(range(len(self.hand["unit"])))
        item_opts: list[int | None] = [None]
        if "item" not in flipped:
            item_opts += list(range(len(self.hand["item"])))
        field_opts: list[int | None] = [None]
        if "field" not in flipped and self.hand["field"]:
            field_opts.append(0)
        best: tuple[Any, ...] | None = None
        choice: tuple[int | None, int | None, int | None] = (None, None, None)
        for u in unit_opts:
            unit = self.active_unit if u is None else self.hand["unit"][u]
            for it in item_opts:
                bonus = self.active_bonus if it is None else self.hand["item"][it]
                value = _expected_attack(unit, bonus)
                for f in field_opts:
                    picked = [k for k, x in zip(KINDS, (u, it, f), strict=True) if x is not None]
                    if not picked:
                        continue
                    filler = sorted(_FILLER_ORDER[k] for k in picked)
                    key = (-value, len(picked), filler)
                    if best is None or key < best:
                        best, choice = key, (u, it, f)
        u, it, f = choice
        if u is not None:
            self.active_unit = self.hand["unit"].pop(u)
        if it is not None:
            self.active_bonus = self.hand["item"].pop(it)
        if f is not None:
            self.active_field = self.hand["field"].pop(f)
        return sum(x is not None for x in choice)


def _empty_counts() -> dict[str, Any]:
    counts: dict[str, Any] = {k: 0 for k in COUNT_KEYS}
    counts.update({k: {} for k in HIST_KEYS})
    return counts


def _bump(hist: dict[str, int], key: Any, by: int = 1) -> None:
    hist[str(key)] = hist.get(str(key), 0) + by


def with_rates(counts: dict[str, Any], max_turns: int) -> dict[str, Any]:
    """Counts plus the derived statistics (means and rates)."""
    games = counts["games"]
    turns = counts["turns_played"]
    dead = counts["dead_on_turn"]
    killed = sum(dead.values())
    mean_turn = sum(int(t) * c for t, c in dead.items()) / killed if killed else None
    by_turn = {
        t: counts["cards_played_by_turn"].get(t, 0) / n
        for t, n in sorted(counts["games_reaching_turn"].items(), key=lambda kv: int(kv[0]))
        if n
    }
    return {
        **counts,
        "max_turns": max_turns,
        "dead_on_turn": dict(sorted(dead.items(), key=lambda kv: int(kv[0]))),
        "p_dead_by_turn": {
            str(t): sum(c for k, c in dead.items() if int(k) <= t) / games
            for t in range(1, max_turns + 1)
        }
        if games
        else {},
        "mean_dead_turn": mean_turn,
        "mean_cards_played_per_turn": counts["cards_played"] / turns if turns else 0.0,
        "mean_cards_played_by_turn": by_turn,
        "dice_rolls_per_turn": counts["dice_rolls"] / turns if turns else 0.0,
        "dice_rolls_per_game": counts["dice_rolls"] / games if games else 0.0,
        "p_game_with_dice": counts["games_with_dice"] / games if games else 0.0,
    }


def merge_goldfish_stats(*runs: dict[str, Any]) -> dict[str, Any]:
    """Merge runs of `goldfish_red_mittens` (same decks and max_turns) by summing counts."""
    if not runs:
        raise ValueError("nothing to merge")
    max_turns = runs[0]["max_turns"]
    if any(r["max_turns"] != max_turns for r in runs):
        raise ValueError("runs with different max_turns cannot be merged")
    counts = _empty_counts()
    for run in runs:
        for key in COUNT_KEYS:
            counts[key] += run[key]
        for key in HIST_KEYS:
            for k, v in run[key].items():
                _bump(counts[key], k, v)
    return with_rates(counts, max_turns)


def goldfish_red_mittens(
    units: Sequence[CardFacts],
    items: Sequence[CardFacts],
    fields: Sequence[CardFacts],
    games: int,
    seed: int,
    max_turns: int = 40,
    *,
    first_game: int = 0,
    dealt: int = DEALT,
    draw_order: Sequence[str] = KINDS,
) -> dict[str, Any]:
    """Play `games` goldfish games of the core decks against a passive opponent on 20 LP.

    Returns counts (mergeable with `merge_goldfish_stats`): `dead_on_turn` (histogram of the
    turn the opponent reaches 0 LP), `not_dead` (games still alive after `max_turns`),
    cards played (from the hand and flipped by the dice) in total and by turn, dice rolls in
    total, by turn and by face; and derived means: `mean_cards_played_per_turn`,
    `dice_rolls_per_turn`, `p_dead_by_turn`, `mean_dead_turn`. Game i of the run uses the
    random stream SeedSequence(seed, spawn_key=(first_game + i,)).
    """
    if games < 0:
        raise ValueError("games must not be negative")
    if max_turns < 1:
        raise ValueError("max_turns must be at least 1")
    if any(k not in KINDS for k in draw_order) or not draw_order:
        raise ValueError(f"draw_order must name decks among {', '.join(KINDS)}")
    unit_stats = [_unit(c) for c in units]
    item_bonus = [int(c.attr("atk_bonus", 0)) for c in items]
    counts = _empty_counts()
    for g in range(first_game, first_game + games):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(g,)))
        game = _Game(unit_stats, item_bonus, len(fields), rng, dealt)
        lp = START_LP
        rolled = False
        counts["games"] += 1
        for turn in range(1, max_turns + 1):
            counts["turns_played"] += 1
            _bump(counts["games_reaching_turn"], turn)
            flipped: set[str] = set()
            if game.hand_size() == 0:
                face, flipped = game.roll(draw_order)
                rolled = True
                counts["dice_rolls"] += 1
                _bump(counts["dice_rolls_by_turn"], turn)
                _bump(counts["dice_faces"], face)
            from_hand = game.play(flipped)
            played = from_hand + len(flipped)
            counts["cards_from_hand"] += from_hand
            counts["cards_flipped"] += len(flipped)
            counts["cards_played"] += played
            if played:
                _bump(counts["cards_played_by_turn"], turn, played)
            lp -= _attack(game.active_unit, game.active_bonus, rng)
            if lp <= 0:
                _bump(counts["dead_on_turn"], turn)
                break
        else:
            counts["not_dead"] += 1
        counts["games_with_dice"] += int(rolled)
    result = with_rates(counts, max_turns)
    result.update({"seed": seed, "first_game": first_game})
    return result
