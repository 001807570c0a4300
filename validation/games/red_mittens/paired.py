"""Red Mittens goldfish games of two decks on common random numbers, for comparisons and
the tuner.

Game *g* of chunk *i* of every deck plays from the same random stream, ``SeedSequence(seed,
spawn_key=(i, g))`` (``(i, g, 1)`` for deck B of an independent pair, the baseline), and
each deck's cards are lined up on the first deck's (a card both hold at the same place of
its pile's list): the decks' shuffles and dice start alike and part only where the decks
differ. Per game, one integer per metric: whether the opponent reaches 0 LP by turn 5, and
the turn it does (the turn after the last played when it does not).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from validation.games.red_mittens import goldfish as rm
from validation.sim.inputs import card_from_json
from validation.sim.paired import Games, LinedUp


def _lined(base: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
    """`other`'s piles reordered so that a card `base` holds too sits where it sits there."""
    out = dict(other)
    for pile in ("units", "items", "fields"):
        rest = list(other.get(pile, []))
        lined = []
        for card in base.get(pile, []):
            i = next((k for k, c in enumerate(rest) if c["name"] == card["name"]), None)
            lined.append(rest.pop(i) if i is not None else None)
        fill = iter(rest)
        lined = [c if c is not None else next(fill, None) for c in lined]
        out[pile] = [c for c in lined if c is not None] + list(fill)
    return out


def _game_outcomes(
    inputs: Mapping[str, Any],
    games: int,
    chunk_index: int,
    seed: int,
    max_turns: int,
    stream: int,
) -> dict[str, np.ndarray]:
    units = [rm._unit(card_from_json(c)) for c in inputs["units"]]
    items = [int(card_from_json(c).attr("atk_bonus", 0)) for c in inputs["items"]]
    fields = len(inputs["fields"])
    if not units:
        raise ValueError("the deck has no units: there is nothing to attack with")
    dead = np.zeros(games, dtype=np.int64)
    for g in range(games):
        key = (chunk_index, g) if stream == 0 else (chunk_index, g, stream)
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))
        game = rm._Game(units, items, fields, rng, rm.DEALT)
        lp = rm.START_LP
        turn_dead = max_turns + 1
        for turn in range(1, max_turns + 1):
            flipped: set[str] = set()
            if game.hand_size() == 0:
                _face, flipped = game.roll(rm.KINDS)
            game.play(flipped)
            lp -= rm._attack(game.active_unit, game.active_bonus, rng)
            if lp <= 0:
                turn_dead = turn
                break
        dead[g] = turn_dead
    return {"dead_by_5": (dead <= 5).astype(np.int64), "dead_turn": dead}


def _play(decks: list[Mapping[str, Any]], games: Games) -> list[dict[str, Any]]:
    turns = int(games.params.get("max_turns", 40))
    return [
        _game_outcomes(d, games.n, games.chunk_index, games.seed, turns, games.stream)
        for d in decks
    ]


def _as_stored(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> Mapping[str, Any]:
    return inputs


#: `play_pair` and `play_many` of the goldfish (see the module docstring).
PLAY = LinedUp(_as_stored, _lined, _play, independent_stream=1)
