"""REDLINE games of two arsenals on common random numbers, and the goldfish's metrics.

`play_pair` plays arsenal A and arsenal B over the same random streams game by game, with
the policy of `goldfish.py` (the same phase functions): game *g* of A and game *g* of B see
the same shuffle of card positions, the same red line and the same capture dice for each
roster position. The two arsenals are lined up first: a card both hold sits at the same
position of both lists, so the shuffle deals it at the same moment in both games, and only
the cards that differ land where the other deck's differing cards land. The noise common to
both decks cancels in the difference, which is what makes a paired comparison cheap.

Three streams per chunk, from ``SeedSequence(seed, spawn_key=(chunk_index, j))``: ``j = 0``
the arsenals' shuffle, ``1`` the red lines, ``2`` the capture dice. Per block of games, the
shuffle of card *positions* is drawn once for each deck size and the dice once for every
turn (``(turns, 5, games)``), and every deck of the block reads the same ones: a pair or a
tuner's many decks pay the shuffling and the dice once. With ``independent=True`` deck B
gets streams ``j = 10, 11, 12`` of its own: two independent runs, the baseline that common
random numbers are measured against.

Every game yields one integer per metric (``METRICS``), so that sums and sums of squares
and products are exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from validation.games.redline.goldfish import (
    BLOCK,
    EFREET_LIMIT,
    OPENING,
    RED_LINE,
    SLOTS,
    MulliganBand,
    _Block,
    _deploy_efreets,
    _deploy_equipment,
    _deploy_resource,
    _deploy_strategies_and_tactics,
    _discard_to_limit,
    _draw_and_bonuses,
    _opening_hand,
    _raze_and_recon,
    _record_turn,
    _send_to_missions,
    _Setup,
    _setup,
    _zero_counts,
)
from validation.sim.inputs import entries_from_json
from validation.sim.kernel import partial_shuffle
from validation.sim.metrics import HIGHER, LOWER, Metric


def _cumulative(figure: str, turn: int):
    def read(summary: Mapping[str, Any]) -> float | None:
        return summary["figures"][figure]["cumulative"][turn - 1]

    return read


def _win_turn(summary: Mapping[str, Any]) -> float | None:
    hist = summary["figures"]["win_turn_hist"]
    turns = int(summary["turns"])
    by_turn = hist["p_by_turn"]
    if hist["p_never"] is None:
        return None
    return sum((t + 1) * (p or 0) for t, p in enumerate(by_turn)) + (turns + 1) * hist["p_never"]


def _stuck_on_4(summary: Mapping[str, Any]) -> float | None:
    return summary["figures"]["stuck_mean_by_turn"][3]


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


def _streams(seed: int, chunk_index: int, first: int) -> list[np.random.Generator]:
    return [
        np.random.Generator(
            np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk_index, first + j)))
        )
        for j in range(3)
    ]


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


class _Dice:
    """The capture dice of a block, drawn once for every turn and shared by every deck of
    the block: ``integers`` hands out turn by turn what `_send_to_missions` asks for."""

    def __init__(self, rng: np.random.Generator, turns: int, games: int) -> None:
        self.rolls = rng.integers(1, 7, size=(turns, EFREET_LIMIT, games), dtype=np.int16)
        self.turn = 0

    def integers(self, low, high, size, dtype):  # the Generator method it stands in for
        out = self.rolls[self.turn]
        self.turn += 1
        return out


class _Shuffles:
    """A block's shuffles of card positions, one per deck size (decks of one size see the
    same positions), from the arsenal and red-line streams."""

    def __init__(self, deal: np.random.Generator, lines: np.random.Generator, games: int):
        self.deal, self.lines, self.games = deal, lines, games
        self.positions: dict[tuple[str, int, int], np.ndarray] = {}

    def get(self, what: str, n: int, k: int) -> np.ndarray:
        key = (what, n, k)
        if key not in self.positions:
            rng = self.deal if what == "deal" else self.lines
            self.positions[key] = partial_shuffle(rng, np.arange(n, dtype=np.int16), self.games, k)
        return self.positions[key]


def _block(
    s: _Setup,
    turns: int,
    band: MulliganBand,
    games: int,
    shuffles: _Shuffles,
    dice: _Dice,
    opponent_arsenal: int = 60,
) -> dict[str, np.ndarray]:
    G = games
    i16 = np.int16
    cards = np.array(s.card_groups, dtype=i16)
    k = min(2 * OPENING + turns, len(cards))
    deck = cards[shuffles.get("deal", len(cards), k)].astype(np.int64) * G
    missions = np.array(s.mission_deck, dtype=i16)
    line = missions[shuffles.get("line", len(missions), RED_LINE)]
    hand = np.zeros((len(s.groups), G), dtype=i16)
    b = _Block(
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
    c = _zero_counts(turns, games)
    is_res = s.is_resource.astype(np.int64)
    opening = sum(is_res[b.deck[p] // max(games, 1)] for p in range(OPENING))
    _opening_hand(b, band, c)
    stuck = np.zeros(games, dtype=np.int64)
    dice.turn = 0
    for t in range(1, turns + 1):
        bonus = _draw_and_bonuses(b)
        _deploy_resource(b, bonus)
        _deploy_efreets(b, t)
        _deploy_equipment(b)
        _deploy_strategies_and_tactics(b)
        if t == 4:
            stuck = b.hand.sum(0, dtype=np.int64)
        _discard_to_limit(b, c, t - 1)
        if b.n_eff.any():
            captured, open_missions = _send_to_missions(b, dice)
            _raze_and_recon(b, captured, open_missions)
        else:
            dice.turn += 1  # the turn's dice stay with the turn
        _record_turn(b, c, t)
    win = b.win_turn
    out = {
        "win_turn": np.where(win > 0, win, turns + 1).astype(np.int64),
        "efreet_by_3": ((b.first_eff > 0) & (b.first_eff <= 3)).astype(np.int64),
        "opening_2_to_4": ((opening >= 2) & (opening <= 4)).astype(np.int64),
    }
    if turns >= WIN_BY:
        out["won_by_8"] = ((win > 0) & (win <= WIN_BY)).astype(np.int64)
    if turns >= 6:
        out["won_by_6"] = ((win > 0) & (win <= 6)).astype(np.int64)
    if turns >= 4:
        out["stuck_on_4"] = stuck
    if turns < 3:
        del out["efreet_by_3"]
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
    """Every deck of `setups` on the same streams, block by block: one shuffle of positions
    per deck size and one draw of dice per block, shared."""
    deal, lines, dice_rng = _streams(seed, chunk_index, first_stream)
    parts: list[list[dict[str, np.ndarray]]] = [[] for _ in setups]
    for start in range(0, games, BLOCK):
        g = min(BLOCK, games - start)
        shuffles = _Shuffles(deal, lines, g)
        dice = _Dice(dice_rng, turns, g)
        for i, s in enumerate(setups):
            parts[i].append(_block(s, turns, band, g, shuffles, dice))
    if not games:
        return [{m.key: np.zeros(0, dtype=np.int64) for m in METRICS} for _ in setups]
    return [{k: np.concatenate([p[k] for p in ps]) for k in ps[0]} for ps in parts]


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
