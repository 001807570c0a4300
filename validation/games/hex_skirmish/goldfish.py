"""Hex Skirmish goldfish: how the command deck flows (the game spec section 5).

Vectorised across games with numpy arrays of shape ``(..., games)``.

Policy:

* the deck holds the army's ``command`` cards (units stand on the map, not in the deck);
  the player opens with 5 cards, 6 when going second (``SimParams.on_the_play`` False);
* each turn has two actions; for each: if a card in hand is playable (the other cards in hand
  cost at least its cost in total), play one, else draw 5 (fewer when the deck holds fewer;
  nothing when it is empty: the action is idle);
* which card: ``play_order="expensive"`` (default) plays the most expensive playable card
  (cost is the card's point value, "correlated with its overall usefulness"),
  ``"cheap"`` the cheapest; ties go to the name in alphabetical order;
* paying: discard the cheapest other cards first (cost-0 cards pay nothing and are never
  discarded) until the discarded costs reach the cost; overpaying is allowed;
* a card is "playable" on a turn if, at the start of either action, it is in hand and the rest
  of the hand can pay for it; the first such turn is recorded per card name;
* the deck "runs out" on the turn its last card is drawn; there is no reshuffle.

Simplifications: units, movement, combat and the end of the game (20 points lost, one unit
left) are not simulated; the card's actions have no effect on the deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from validation.sim.kernel import (
    SimParams,
    Stats,
    chunk_games,
    chunk_rng,
    new_stats,
    partial_shuffle,
    turn_hist,
)
from validation.types import Entry

KIND = "hex-skirmish"
OPENING = 5
DRAW = 5
ACTIONS = 2
BLOCK = 16_384

PlayOrder = Literal["expensive", "cheap"]


def _command_types(army: list[Entry]) -> tuple[list[str], list[int], list[int]]:
    counts: dict[str, int] = {}
    costs: dict[str, int] = {}
    for entry in army:
        card = entry.card
        if card.kind != "command":
            continue
        if card.name in costs and costs[card.name] != card.cost:
            raise ValueError(f"{card.name}: two different costs")
        if card.cost < 0:
            raise ValueError(f"{card.name}: negative cost")
        costs[card.name] = int(card.cost)
        counts[card.name] = counts.get(card.name, 0) + entry.count
    names = sorted(n for n in counts if counts[n] > 0)
    return names, [costs[n] for n in names], [counts[n] for n in names]


def simulate_hexskirmish(
    army: list[Entry],
    params: SimParams | None = None,
    chunk_index: int = 0,
    n_chunks: int = 1,
    *,
    play_order: PlayOrder = "expensive",
) -> Stats:
    """Goldfish ``chunk_index`` of ``n_chunks`` of a Hex Skirmish run."""
    params = params or SimParams()
    if play_order not in ("expensive", "cheap"):
        raise ValueError(f"play_order must be 'expensive' or 'cheap', not {play_order!r}")
    names, costs, counts = _command_types(army)
    opening = OPENING + (0 if params.on_the_play else 1)
    if sum(counts) < opening:
        raise ValueError(f"the deck holds {sum(counts)} command cards; the opening needs {opening}")
    games = chunk_games(params.games, chunk_index, n_chunks)
    rng = chunk_rng(params.seed, chunk_index)
    total: dict[str, Any] | None = None
    for start in range(0, games, BLOCK):
        part = _simulate_block(
            names, costs, counts, params, opening, min(BLOCK, games - start), rng, play_order
        )
        if total is None:
            total = part
        else:
            for key, value in part.items():
                if isinstance(value, dict):
                    total[key] = {n: total[key][n] + v for n, v in value.items()}
                else:
                    total[key] = total[key] + value
    if total is None:
        total = _simulate_block(names, costs, counts, params, opening, 0, rng, play_order)
    return new_stats(KIND, params.turns, games, total)


@dataclass(slots=True)
class _Block:
    """The state of a block of games played together, arrays of shape ``(..., games)``.

    ``hand`` counts the cards in hand by command type (``flat_hand`` is its flat view);
    ``flat_deck`` is the flat view of the shuffled decks ``(n, games)``, ``ptr`` each game's
    next position to draw. The command types are tried for play in ``play_rank`` order
    (``ranked_*`` are indexed by that order) and discarded to pay in ``pay_order``.
    """

    costs: list[int]
    n: int  # cards in the deck
    rows: np.ndarray  # 0..games-1, the column of each game
    play_rank: list[int]
    pay_order: list[int]  # the types of cost > 0, cheapest first
    cost_col: np.ndarray  # (types, 1)
    ranked_cost_col: np.ndarray
    ranked_to_type: np.ndarray
    flat_deck: np.ndarray
    hand: np.ndarray  # (types, games)
    flat_hand: np.ndarray
    ptr: np.ndarray
    first_playable: np.ndarray  # (types, games): the first turn playable, 0 while never
    deck_out: np.ndarray  # the turn the last card was drawn (the opening: 1), 0 while not


# the per-turn statistics of a block, in the order of the stats
_PER_TURN = (
    "played_sum_by_turn",
    "played_two_by_turn",
    "draw_actions_sum_by_turn",
    "idle_actions_sum_by_turn",
    "paid_cards_sum_by_turn",
    "hand_sum_by_turn",
)


def _simulate_block(
    names: list[str],
    costs: list[int],
    counts: list[int],
    params: SimParams,
    opening: int,
    G: int,
    rng: np.random.Generator,
    play_order: PlayOrder,
) -> dict[str, Any]:
    """Play ``G`` games together, turn by turn, two actions a turn (the module docstring).
    ``rng`` only shuffles the decks, once, before the opening hands."""
    T = params.turns
    b = _deal(names, costs, np.repeat(np.arange(len(names)), counts), opening, G, rng, play_order)
    c: dict[str, Any] = {key: np.zeros(T, dtype=np.int64) for key in _PER_TURN}
    for t in range(1, T + 1):
        i = t - 1
        played_now = np.zeros(G, dtype=np.int16)
        for _ in range(ACTIONS):
            plays = _play_action(b, c, t)
            played_now += plays
            _draw_action(b, c, plays, t)
        c["played_sum_by_turn"][i] = played_now.sum()
        c["played_two_by_turn"][i] = np.count_nonzero(played_now == ACTIONS)
        c["hand_sum_by_turn"][i] = b.hand.sum()
    c["deck_out_turn_hist"] = turn_hist(b.deck_out, T)
    c["first_playable_turn_hist"] = {
        names[i]: turn_hist(b.first_playable[i], T) for i in range(len(names))
    }
    return c


def _deal(
    names: list[str],
    costs: list[int],
    cards: np.ndarray,
    opening: int,
    G: int,
    rng: np.random.Generator,
    play_order: PlayOrder,
) -> _Block:
    """Order the command types for playing and paying, shuffle every game's deck (``cards``:
    each card's type index) and draw the opening hand."""
    nt = len(names)
    n = len(cards)
    rows = np.arange(G, dtype=np.int64)
    # candidate order for playing: types sorted so that the first playable one is chosen
    sign = -1 if play_order == "expensive" else 1
    play_rank = sorted(range(nt), key=lambda i: (sign * costs[i], names[i]))
    pay_order = sorted((i for i in range(nt) if costs[i] > 0), key=lambda i: (costs[i], names[i]))
    cost_col = np.array(costs, dtype=np.int16).reshape(nt, 1)

    deck = partial_shuffle(rng, cards, G, n)
    hand = np.zeros((nt, G), dtype=np.int16)
    flat_hand = hand.reshape(-1)
    for p in range(opening):
        flat_hand[deck[p] * G + rows] += 1
    ptr = np.full(G, opening, dtype=np.int64)
    return _Block(
        costs=costs,
        n=n,
        rows=rows,
        play_rank=play_rank,
        pay_order=pay_order,
        cost_col=cost_col,
        ranked_cost_col=cost_col[play_rank],
        ranked_to_type=np.array(play_rank, dtype=np.int64),
        flat_deck=deck.reshape(-1),
        hand=hand,
        flat_hand=flat_hand,
        ptr=ptr,
        first_playable=np.zeros((nt, G), dtype=np.int64),
        deck_out=np.where(ptr >= n, 1, 0).astype(np.int64),
    )


def _play_action(b: _Block, c: dict[str, Any], t: int) -> np.ndarray:
    """One action's play on turn ``t``: record the cards playable for the first time, play
    the first playable card in ``play_rank`` order and pay for it. Returns the games that
    played."""
    hand, G = b.hand, len(b.rows)
    total = (hand * b.cost_col).sum(0, dtype=np.int32)
    ranked = hand[b.play_rank]
    playable = (ranked > 0) & (total - b.ranked_cost_col >= b.ranked_cost_col)
    seen = playable & (b.first_playable[b.ranked_to_type] == 0)
    if seen.any():
        fp = b.first_playable[b.ranked_to_type]
        fp[seen] = t
        b.first_playable[b.ranked_to_type] = fp
    plays = playable.any(0)
    chosen = b.ranked_to_type[np.argmax(playable, axis=0)]
    b.flat_hand[chosen * G + b.rows] -= plays
    need = np.where(plays, b.cost_col[chosen, 0], 0).astype(np.int32)
    c["paid_cards_sum_by_turn"][t - 1] += _pay(b, need)
    return np.asarray(plays)


def _pay(b: _Block, need: np.ndarray) -> int:
    """Discard the cheapest cards of cost > 0 until their costs reach ``need`` (overpaying
    when it must); returns the number of cards discarded over the block."""
    hand = b.hand
    before = hand.sum(0, dtype=np.int32)
    for i in b.pay_order:
        if not need.any():
            break
        cost = b.costs[i]
        d = np.minimum(hand[i], (need + (cost - 1)) // cost).astype(np.int16)
        hand[i] -= d
        need = np.maximum(need - d.astype(np.int32) * cost, 0)
    return int((before - hand.sum(0, dtype=np.int32)).sum())


def _draw_action(b: _Block, c: dict[str, Any], plays: np.ndarray, t: int) -> None:
    """One action's draw on turn ``t``: the games that did not play draw 5 (fewer from a
    short deck; from an empty one the action is idle); records the turn a deck runs out."""
    G, n, rows, ptr = len(b.rows), b.n, b.rows, b.ptr
    draw = ~plays & (ptr < n)
    c["idle_actions_sum_by_turn"][t - 1] += np.count_nonzero(~plays & ~draw)
    c["draw_actions_sum_by_turn"][t - 1] += np.count_nonzero(draw)
    k = np.where(draw, np.minimum(DRAW, n - ptr), 0)
    for j in range(DRAW):
        take = j < k
        pos = np.minimum(ptr + j, n - 1)
        card = b.flat_deck[pos * G + rows]
        b.flat_hand[card * G + rows] += take
    ptr += k
    b.deck_out[(b.deck_out == 0) & (ptr >= n)] = t
