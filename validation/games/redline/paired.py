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

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from validation.games.redline.compiled import play_outcomes
from validation.games.redline.goldfish import MulliganBand, _Setup, _setup
from validation.sim.inputs import entries_from_json
from validation.sim.metrics import HIGHER, LOWER, Metric


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


def line_up(a: _Setup, b: _Setup) -> None:
    """Reorder B's card list so that every card B shares with A sits where it sits in A (the
    cards B holds instead fill A's leftover positions, in B's order)."""
    wanted = Counter(b.groups[i] for i in b.card_groups)
    index_b = {g: i for i, g in enumerate(b.groups)}
    placed: list[Any] = []
    for i in a.card_groups:
        g = a.groups[i]
        if wanted[g] > 0:
            wanted[g] -= 1
            placed.append(g)
        else:
            placed.append(None)
    rest = []
    for i in b.card_groups:
        g = b.groups[i]
        if wanted[g] > 0:
            wanted[g] -= 1
            rest.append(g)
    fill = iter(rest)
    lined = [g if g is not None else next(fill, None) for g in placed]
    lined = [g for g in lined if g is not None] + list(fill)
    b.card_groups = [index_b[g] for g in lined]


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


def _play_together(
    setups: list[_Setup],
    turns: int,
    band: MulliganBand,
    games: int,
    seed: int,
    chunk_index: int,
    first_stream: int,
) -> list[dict[str, Any]]:
    """Every deck of `setups` on the same streams (compiled: `compiled.play_outcomes`)."""
    return [
        _metrics(play_outcomes(s, turns, band, games, seed, chunk_index, first_stream), turns)
        for s in setups
    ]


def setups(
    inputs_a: Mapping[str, Any], inputs_b: Mapping[str, Any], turns: int
) -> tuple[_Setup, _Setup]:
    """Both decks' setups, B lined up on A (ValueError when a deck cannot be played)."""
    a = _setup(
        entries_from_json(inputs_a["arsenal"]) or [],
        entries_from_json(inputs_a.get("missions")),
        turns,
    )
    b = _setup(
        entries_from_json(inputs_b["arsenal"]) or [],
        entries_from_json(inputs_b.get("missions")),
        turns,
    )
    line_up(a, b)
    return a, b


def play_many(
    base: Mapping[str, Any],
    others: list[Mapping[str, Any]],
    params: Mapping[str, Any],
    seed: int,
    chunk_index: int,
    games: int,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`games` games of the base deck and of each other deck, all on the same streams and
    each lined up on the base (a tuner's round: the shuffles and dice are drawn once)."""
    turns = int(params["turns"])
    band = MulliganBand(int(params.get("mulligan_lo", 2)), int(params.get("mulligan_hi", 4)))
    first = _setup(
        entries_from_json(base["arsenal"]) or [], entries_from_json(base.get("missions")), turns
    )
    rest = []
    for inputs in others:
        s = _setup(
            entries_from_json(inputs["arsenal"]) or [],
            entries_from_json(inputs.get("missions")),
            turns,
        )
        line_up(first, s)
        rest.append(s)
    outs = _play_together([first, *rest], turns, band, games, seed, chunk_index, 0)
    return outs[0], outs[1:]


def play_pair(
    inputs_a: Mapping[str, Any],
    inputs_b: Mapping[str, Any],
    params: Mapping[str, Any],
    seed: int,
    chunk_index: int,
    games: int,
    independent: bool = False,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """`games` games of each deck on common random numbers (see the module docstring);
    returns each deck's per-game values of every metric the run's turns allow."""
    turns = int(params["turns"])
    band = MulliganBand(int(params.get("mulligan_lo", 2)), int(params.get("mulligan_hi", 4)))
    a, b = setups(inputs_a, inputs_b, turns)
    if not independent:
        out_a, out_b = _play_together([a, b], turns, band, games, seed, chunk_index, 0)
        return out_a, out_b
    (out_a,) = _play_together([a], turns, band, games, seed, chunk_index, 0)
    (out_b,) = _play_together([b], turns, band, games, seed, chunk_index, 10)
    return out_a, out_b
