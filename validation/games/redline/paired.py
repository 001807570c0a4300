"""REDLINE games of two arsenals on common random numbers, and the goldfish's metrics.

`play_pair` plays arsenal A and arsenal B over the same random streams game by game, with
the policy of `goldfish.py` (its compiled kernel): game *g* of A and game *g* of B see
the same shuffle of card positions, the same red line and the same capture dice for each
roster position. The two arsenals are lined up first: a card both hold sits at the same
position of both lists, so the shuffle deals it at the same moment in both games, and only
the cards that differ land where the other deck's differing cards land. The noise common to
both decks cancels in the difference, which is what makes a paired comparison cheap.

Games are played by the compiled kernel (`compiled.play_outcomes`), which records every
game's outcomes. Two streams per chunk, from ``SeedSequence(seed, spawn_key=(chunk_index,
j))``: ``j = 0`` the arsenal's shuffle and the red line, ``2`` the capture dice, counter-based: the
die of roster position k on turn t of game g is the stream's number ``(32 g + t) 5 + k``,
so that two decks of one size see the same shuffles and dice game by game. With ``independent=True`` deck B gets
streams ``j = 10, 12`` of its own: two independent runs, the baseline that common random
numbers are measured against.

Every game yields one integer per metric (``METRICS``), so that sums and sums of squares
and products are exact.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from validation.games.redline.compiled import play_outcomes
from validation.games.redline.goldfish import MulliganBand, _Setup, _setup
from validation.sim.inputs import entries_from_json
from validation.sim.metrics import HIGHER, LOWER, Metric
from validation.sim.paired import Games, LinedUp, line_up


def _cumulative(figure: str, turn: int) -> Callable[[Mapping[str, Any]], float | None]:
    def read(summary: Mapping[str, Any]) -> float | None:
        value = summary["figures"][figure]["cumulative"][turn - 1]
        return None if value is None else float(value)

    return read


def _win_turn(summary: Mapping[str, Any]) -> float | None:
    hist = summary["figures"]["win_turn_hist"]
    turns = int(summary["turns"])
    by_turn = hist["p_by_turn"]
    if hist["p_never"] is None:
        return None
    return float(
        sum((t + 1) * (p or 0) for t, p in enumerate(by_turn)) + (turns + 1) * hist["p_never"]
    )


def _stuck_on_4(summary: Mapping[str, Any]) -> float | None:
    value = summary["figures"]["stuck_mean_by_turn"][3]
    return None if value is None else float(value)


def _opening_2_to_4(summary: Mapping[str, Any]) -> float | None:
    p = summary["figures"]["open_resources_hist"]["p"]
    return sum(x or 0 for x in p[2:5])


WIN_BY = 8
METRICS = (
    Metric(
        "won_by_8",
        "Won by turn 8",
        "share of games",
        HIGHER,
        True,
        _cumulative("win_turn_hist", 8),
        help="Games won (arsenal razed or all five missions held) by the end of turn 8.",
        min_turns=8,
    ),
    Metric(
        "won_by_6",
        "Won by turn 6",
        "share of games",
        HIGHER,
        True,
        _cumulative("win_turn_hist", 6),
        help="Games won by the end of turn 6.",
        min_turns=6,
    ),
    Metric(
        "win_turn",
        "Mean winning turn",
        "turns",
        LOWER,
        False,
        _win_turn,
        help="The turn the game is won; a game not won counts as the turn after the last one "
        "played.",
    ),
    Metric(
        "efreet_by_3",
        "First efreet by turn 3",
        "share of games",
        HIGHER,
        True,
        _cumulative("first_efreet_turn_hist", 3),
        help="Games with an efreet deployed by the end of turn 3.",
        min_turns=3,
    ),
    Metric(
        "stuck_on_4",
        "Stuck cards on turn 4",
        "cards",
        LOWER,
        False,
        _stuck_on_4,
        help="Cards left in hand after deploying on turn 4 (mean).",
        min_turns=4,
    ),
    Metric(
        "opening_2_to_4",
        "Opening hand with 2–4 resources",
        "share of games",
        HIGHER,
        True,
        _opening_2_to_4,
        help="Opening sevens holding 2 to 4 resources, before the partial mulligan.",
    ),
)


def _line_up(a: _Setup, b: _Setup) -> _Setup:
    """B's card list reordered so that every card B shares with A sits where it sits in A
    (the cards B holds instead fill A's leftover positions, in B's order)."""
    index_b = {g: i for i, g in enumerate(b.groups)}
    lined = line_up([a.groups[i] for i in a.card_groups], [b.groups[i] for i in b.card_groups])
    b.card_groups = [index_b[g] for g in lined]
    return b


def _metrics(raw: Mapping[str, np.ndarray], turns: int) -> dict[str, np.ndarray]:
    """Each metric's per-game values from the compiled kernel's raw outcomes."""
    win, first, opening = raw["win"], raw["first"], raw["open"]
    out = {
        "win_turn": np.where(win > 0, win, turns + 1),
        "opening_2_to_4": ((opening >= 2) & (opening <= 4)).astype(np.int64),
    }
    if turns >= 3:
        out["efreet_by_3"] = ((first > 0) & (first <= 3)).astype(np.int64)
    if turns >= 4:
        out["stuck_on_4"] = raw["stuck4"]
    if turns >= 6:
        out["won_by_6"] = ((win > 0) & (win <= 6)).astype(np.int64)
    if turns >= WIN_BY:
        out["won_by_8"] = ((win > 0) & (win <= WIN_BY)).astype(np.int64)
    return out


def _deck(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> _Setup:
    """A deck's setup (ValueError when it cannot be played)."""
    arsenal = entries_from_json(inputs["arsenal"]) or []
    return _setup(arsenal, entries_from_json(inputs.get("missions")), int(params["turns"]))


def _play_together(setups: list[_Setup], games: Games) -> list[dict[str, Any]]:
    """Every deck of `setups` on the same streams (compiled: `compiled.play_outcomes`)."""
    params = games.params
    turns = int(params["turns"])
    band = MulliganBand(int(params.get("mulligan_lo", 2)), int(params.get("mulligan_hi", 4)))
    where = (games.seed, games.chunk_index, games.stream)
    return [_metrics(play_outcomes(s, turns, band, games.n, *where), turns) for s in setups]


#: `play_pair` and `play_many` of the goldfish (see the module docstring).
PLAY = LinedUp(_deck, _line_up, _play_together)
