"""Shared machinery of the goldfish simulators: parameters, seeding, chunking, statistics.

Seeding
-------
A run is identified by ``SimParams.seed`` and split into ``n_chunks`` chunks. Chunk ``i`` draws
every random number from ``numpy.random.Generator(PCG64(SeedSequence(seed, spawn_key=(i,))))``.
That is exactly the sequence ``SeedSequence(seed).spawn(n_chunks)[i]`` (spawned children carry
``spawn_key=(i,)``), so a chunk's stream depends on ``(seed, i)`` only, never on ``n_chunks``,
and any worker can rebuild chunk ``i`` without the others. Same seed and same chunking give
identical statistics (each simulator also plays a chunk in blocks of a fixed, constant size,
part of the stream's definition); a different chunking gives a statistically equivalent but
different run.

Chunk ``i`` of ``n_chunks`` plays ``games // n_chunks`` games, plus one for the first
``games % n_chunks`` chunks, so the chunks of a run add up to ``params.games``.

Statistics
----------
A simulator returns ``Stats``: sufficient statistics only, a plain JSON-serialisable dict::

    {"kind": "redline", "turns": 12, "games": 10000, "counts": {name: int | list | dict}}

``counts`` holds ints, lists of ints (histograms, per-turn counts or sums) and dicts of those
(e.g. per card name). ``merge`` adds ``games`` and every count element-wise, which combines
chunks exactly; ``kind`` and ``turns`` must agree. ``summarise`` derives figures from the
naming convention of the counts:

* ``*_turn_hist``: games by turn ``1..T`` of an event, last bin = "not within T turns";
  gives per-turn probabilities, the cumulative curve, ``p_never`` and the mean turn (of the
  games where it happened);
* ``*_hist``: games by value ``0..n-1``; gives probabilities and the mean;
* ``*_sum_by_turn``: a sum over games per turn; divided by ``*_count_by_turn`` when present,
  else by ``games``, gives the mean per game and turn;
* ``*_by_turn``: games per turn; gives the probability per turn;
* plain ints: games; gives a probability.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from validation.params import ParamSpec

Stats = dict[str, Any]

#: The largest run a worker takes, unless a goldfish says otherwise.
MAX_GAMES = 2_000_000


def games_param(
    default: int,
    *,
    maximum: int = MAX_GAMES,
    help: str = "How many games to play (split into chunks).",
) -> ParamSpec:
    """The `games` parameter every goldfish has: 1 to `maximum` games."""
    return ParamSpec("games", "Games", "int", 1, maximum, help, default=default)


def turns_param(default: int, *, maximum: int) -> ParamSpec:
    """The `turns` parameter of a goldfish played turn by turn: 1 to `maximum` turns."""
    return ParamSpec(
        "turns", "Turns", "int", 1, maximum, "Turns played in every game.", default=default
    )


def on_the_play_param(help: str) -> ParamSpec:
    """The `on_the_play` parameter (go first, by default); `help` says what it changes in
    the game."""
    return ParamSpec("on_the_play", "On the play", "bool", help=help, default=True)


@dataclass(frozen=True, slots=True)
class SimParams:
    """What every goldfish run has: how many games, how many turns each, who goes first and
    the seed. ``on_the_play`` means the player goes first (one game's second player may open
    with a card more; in another it changes nothing). A game's own parameters (a mulligan
    rule, a play order) are the game's: its simulator takes them beside these.
    """

    games: int = 10_000
    turns: int = 12
    on_the_play: bool = True
    seed: int = 0

    @classmethod
    def read(cls, params: Mapping[str, Any], seed: int) -> SimParams:
        """The shared part of a run's checked parameters (`games`, `turns`, `on_the_play`)
        with its seed."""
        return cls(
            games=int(params["games"]),
            turns=int(params["turns"]),
            on_the_play=bool(params.get("on_the_play", True)),
            seed=int(seed),
        )

    def __post_init__(self) -> None:
        if self.games < 0:
            raise ValueError(f"games must be >= 0, got {self.games}")
        if self.turns < 1:
            raise ValueError(f"turns must be >= 1, got {self.turns}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")


# --- chunking and seeding ---------------------------------------------------------------


def chunk_games(games: int, chunk_index: int, n_chunks: int) -> int:
    """Number of games chunk ``chunk_index`` of ``n_chunks`` plays."""
    if n_chunks < 1 or not 0 <= chunk_index < n_chunks:
        raise ValueError(f"chunk {chunk_index} of {n_chunks} does not exist")
    base, extra = divmod(games, n_chunks)
    return base + (1 if chunk_index < extra else 0)


def chunk_range(games: int, chunk_index: int, n_chunks: int) -> tuple[int, int]:
    """(index of the first game, number of games) of chunk ``chunk_index`` of ``n_chunks``:
    the same even split as ``chunk_games``, for simulators that seed each game by its index."""
    base, extra = divmod(int(games), int(n_chunks))
    first = chunk_index * base + min(chunk_index, extra)
    return first, base + (1 if chunk_index < extra else 0)


def chunk_seed_sequence(seed: int, chunk_index: int) -> np.random.SeedSequence:
    """The seed sequence of chunk ``chunk_index``; equal to ``SeedSequence(seed).spawn(n)[i]``."""
    return np.random.SeedSequence(seed, spawn_key=(chunk_index,))


def chunk_rng(seed: int, chunk_index: int) -> np.random.Generator:
    """The random generator of chunk ``chunk_index`` (PCG64 on the chunk's seed sequence)."""
    return np.random.Generator(np.random.PCG64(chunk_seed_sequence(seed, chunk_index)))


def partial_shuffle(rng: np.random.Generator, cards: np.ndarray, games: int, k: int) -> np.ndarray:
    """The first ``k`` cards of an independent uniform shuffle of ``cards`` for every game.

    A vectorised partial Fisher-Yates shuffle: returns an array of shape ``(k, games)``
    (position-major, so that one position across all games is contiguous).
    """
    n = len(cards)
    k = min(k, n)
    deck = np.ascontiguousarray(np.broadcast_to(np.asarray(cards)[:, None], (n, games)))
    if games == 0 or k == 0:
        return deck[:k].copy()
    highs = (n - np.arange(k)).reshape(k, 1)
    picks = rng.integers(0, highs, size=(k, games), dtype=np.int64) + np.arange(k).reshape(k, 1)
    flat = deck.reshape(-1)
    cols = np.arange(games)
    for i in range(k):
        j = picks[i] * games + cols
        chosen = flat[j]
        flat[j] = deck[i]
        deck[i] = chosen
    return deck[:k].copy()


# --- statistics ----------------------------------------------------------------------------


def new_stats(kind: str, turns: int, games: int, counts: Mapping[str, Any]) -> Stats:
    """A Stats dict; numpy values in ``counts`` become plain ints and lists."""
    return {"kind": kind, "turns": turns, "games": int(games), "counts": _plain(counts)}


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()] if value.ndim else int(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bool | np.bool_):
        return int(value)
    if isinstance(value, int | np.integer):
        return int(value)
    raise TypeError(f"statistics hold ints, lists and dicts, not {type(value).__name__}")


def _add(a: Any, b: Any, where: str) -> Any:
    if isinstance(a, dict) and isinstance(b, dict):
        out = {}
        for key in a.keys() | b.keys():
            if key in a and key in b:
                out[key] = _add(a[key], b[key], f"{where}.{key}")
            else:
                out[key] = _plain(a[key] if key in a else b[key])
        return {k: out[k] for k in sorted(out)}
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise ValueError(f"cannot merge {where}: lengths {len(a)} and {len(b)}")
        return [_add(x, y, where) for x, y in zip(a, b, strict=True)]
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    raise ValueError(f"cannot merge {where}: {type(a).__name__} and {type(b).__name__}")


def merge(a: Stats, b: Stats) -> Stats:
    """Combine two chunks exactly: games and every count add up; kind and turns must agree."""
    for key in ("kind", "turns"):
        if a[key] != b[key]:
            raise ValueError(
                f"cannot merge statistics with different {key}: {a[key]!r}, {b[key]!r}"
            )
    return {
        "kind": a["kind"],
        "turns": a["turns"],
        "games": a["games"] + b["games"],
        "counts": _add(a["counts"], b["counts"], "counts"),
    }


def merge_all(parts: Iterable[Stats]) -> Stats:
    """Merge any number of chunks (at least one)."""
    it = iter(parts)
    try:
        total = next(it)
    except StopIteration:
        raise ValueError("nothing to merge") from None
    for part in it:
        total = merge(total, part)
    return total


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def summarise_turn_hist(hist: list[int], games: int) -> dict[str, Any]:
    """Per-turn probabilities, cumulative curve, P(never) and mean turn of a turn histogram."""
    by_turn = hist[:-1]
    happened = sum(by_turn)
    cumulative = np.cumsum(by_turn).tolist() if by_turn else []
    mean = _ratio(sum((t + 1) * n for t, n in enumerate(by_turn)), happened)
    sq = _ratio(sum((t + 1) ** 2 * n for t, n in enumerate(by_turn)), happened)
    return {
        "p_by_turn": [_ratio(n, games) for n in by_turn],
        "cumulative": [_ratio(c, games) for c in cumulative],
        "p_never": _ratio(hist[-1], games),
        "mean_turn": mean,
        "sd_turn": math.sqrt(max(sq - mean * mean, 0.0))
        if mean is not None and sq is not None
        else None,
    }


def summarise_hist(hist: list[int]) -> dict[str, Any]:
    """Probabilities and mean of a histogram over values 0..n-1."""
    total = sum(hist)
    return {
        "p": [_ratio(n, total) for n in hist],
        "mean": _ratio(sum(v * n for v, n in enumerate(hist)), total),
    }


def _summarise_counts(counts: Mapping[str, Any], games: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in counts.items():
        if isinstance(value, dict):
            if key.endswith("_turn_hist"):
                out[key] = {name: summarise_turn_hist(h, games) for name, h in value.items()}
            else:
                out[key] = _summarise_counts(value, games)
        elif key.endswith("_turn_hist"):
            out[key] = summarise_turn_hist(value, games)
        elif key.endswith("_hist"):
            out[key] = summarise_hist(value)
        elif key.endswith("_count_by_turn"):
            continue
        elif key.endswith("_sum_by_turn"):
            den = counts.get(key[: -len("_sum_by_turn")] + "_count_by_turn")
            dens = den if den is not None else [games] * len(value)
            out[key.replace("_sum_", "_mean_")] = [
                _ratio(s, d) for s, d in zip(value, dens, strict=True)
            ]
        elif key.endswith("_by_turn"):
            out[key] = [_ratio(n, games) for n in value]
        else:
            out[key] = _ratio(value, games)
    return out


def summarise(stats: Stats) -> dict[str, Any]:
    """Derived figures (probabilities, means, cumulative curves); see the module docstring."""
    games = stats["games"]
    return {
        "kind": stats["kind"],
        "games": games,
        "turns": stats["turns"],
        "figures": _summarise_counts(stats["counts"], games),
    }


def turn_hist(turn: np.ndarray, turns: int) -> np.ndarray:
    """Histogram of event turns (1..T, 0 meaning never) in the ``*_turn_hist`` layout."""
    idx = np.where(turn > 0, turn - 1, turns)
    return np.bincount(idx, minlength=turns + 1)
