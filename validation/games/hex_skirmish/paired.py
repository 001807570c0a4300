"""Hex Skirmish command decks played on common random numbers, for comparisons and the
tuner.

Decks of one size see the same shuffle of card positions game by game (the shuffle's
random picks are drawn once per block and replayed for every deck of that size), and each
deck's card list is lined up on the first one's: a card both hold sits at the same
position, so it is drawn at the same moment in both games. The command deck draws no
other random numbers. Streams: ``SeedSequence(seed, spawn_key=(chunk_index, 0))``
(``10`` for deck B of an independent pair, the baseline).

Per game, one integer per metric of `simulation.METRICS`: cards played by turn 5, cards
played on turn 1, idle actions (the deck empty).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from validation.games.hex_skirmish.goldfish import (
    _PER_TURN,
    ACTIONS,
    BLOCK,
    OPENING,
    PlayOrder,
    _command_types,
    _deal,
    _draw_action,
    _play_action,
)
from validation.sim.inputs import entries_from_json
from validation.sim.paired import Games, LinedUp, line_up


class _Replay:
    """Stands in for a Generator in `partial_shuffle`: the picks for a deck size are drawn
    once and handed to every deck of that size."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.picks: dict[tuple[Any, ...], np.ndarray] = {}

    def integers(self, low: Any, high: Any, size: Any, dtype: Any) -> np.ndarray:
        key = (tuple(np.ravel(high).tolist()), tuple(size))
        if key not in self.picks:
            self.picks[key] = self.rng.integers(low, high, size=size, dtype=dtype)
        return self.picks[key]


class _Deck:
    def __init__(self, inputs: Mapping[str, Any]) -> None:
        self.names, self.costs, self.counts = _command_types(
            entries_from_json(inputs["cards"]) or []
        )
        self.cards = [self.names[i] for i, c in enumerate(self.counts) for _ in range(c)]


def _line_up(first: _Deck, other: _Deck) -> _Deck:
    other.cards = line_up(first.cards, other.cards)
    return other


def _block(
    deck: _Deck, turns: int, opening: int, games: int, rng: Any, play_order: PlayOrder
) -> dict[str, np.ndarray]:
    names, costs = deck.names, deck.costs
    n, G = len(deck.cards), games
    if n < opening:
        raise ValueError(f"the deck holds {n} command cards; the opening needs {opening}")
    index = {name: i for i, name in enumerate(names)}
    cards = np.array([index[c] for c in deck.cards], dtype=np.int64)
    b = _deal(names, costs, cards, opening, G, rng, play_order)
    c = {key: np.zeros(turns, dtype=np.int64) for key in _PER_TURN}
    by_5 = np.zeros(G, dtype=np.int64)
    on_1 = np.zeros(G, dtype=np.int64)
    idle = np.zeros(G, dtype=np.int64)
    for t in range(1, turns + 1):
        for _ in range(ACTIONS):
            plays = _play_action(b, c, t)
            idle += ~plays & (b.ptr >= n)
            if t <= 5:
                by_5 += plays
            if t == 1:
                on_1 += plays
            _draw_action(b, c, plays, t)
    out = {"played_on_1": on_1, "idle_actions": idle}
    if turns >= 5:
        out["played_by_5"] = by_5
    return out


def _together(decks: list[_Deck], at: Games) -> list[dict[str, np.ndarray]]:
    params, games = at.params, at.n
    turns = int(params["turns"])
    opening = OPENING + (0 if params.get("on_the_play", True) else 1)
    order = params.get("play_order", "expensive")
    rng = np.random.Generator(
        np.random.PCG64(np.random.SeedSequence(at.seed, spawn_key=(at.chunk_index, at.stream)))
    )
    parts: list[list[dict[str, np.ndarray]]] = [[] for _ in decks]
    for start in range(0, games, BLOCK):
        g = min(BLOCK, games - start)
        replay = _Replay(rng)
        for i, d in enumerate(decks):
            parts[i].append(_block(d, turns, opening, g, replay, order))
    if not games:
        for d in decks:  # the decks are checked all the same
            _block(d, turns, opening, 0, _Replay(rng), order)
        keys = ["played_on_1", "idle_actions"] + (["played_by_5"] if turns >= 5 else [])
        return [{k: np.zeros(0, dtype=np.int64) for k in keys} for _ in decks]
    return [{k: np.concatenate([p[k] for p in ps]) for k in ps[0]} for ps in parts]


PLAY = LinedUp(lambda inputs, params: _Deck(inputs), _line_up, _together)
