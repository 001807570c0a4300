"""Paired comparisons of two decks: sufficient statistics, intervals, the sequential plan.

Sufficient statistics
---------------------
For each metric, a chunk of paired games keeps six integers (every per-game value is an
integer): ``[n, Σa, Σb, Σa², Σb², Σab]``. They add up exactly across chunks and rounds
(``merge``), and give the means of A and B, the mean difference B − A and its variance
``Var(b − a) = Var(a) + Var(b) − 2 Cov(a, b)``: the covariance is what common random numbers
buy, since both decks play the same streams.

Intervals under sequential stopping
-----------------------------------
A comparison plays in rounds (looks) at planned cumulative sizes ``n_1 < … < n_K`` (each
twice the last, up to the games limit: ``plan``) and stops at the first look where the
chosen metric's interval excludes 0, or at the last. Every look's interval is a normal
(CLT) interval on the mean difference at level ``alpha / K`` (Bonferroni over the planned
looks, a union bound: the simplest alpha-spending rule, spending alpha evenly). The K
intervals then hold *simultaneously* with probability at least ``1 − alpha``, so the
interval reported at whatever look the data stopped at is a valid ``1 − alpha`` interval,
and a deck compared with an equal deck is called different with probability at most
``alpha``. With doubling looks K is small (a limit of 400,000 games from 10,000: 7 looks),
so the price is a z of 2.69 instead of 1.96.

It also stops, "equivalent", at the first look where the interval lies inside the metric's
equivalence margin (``-margin < low`` and ``high < margin``, `Metric.equivalence_margin`):
the same simultaneous intervals make that claim a valid one at ``1 − alpha`` too (two
one-sided tests at the same level, the conservative way round). Two identical lists play
every game alike, so their interval is [0, 0] and they stop after the first round.

Lined-up play
-------------
``LinedUp`` is how a goldfish plays decks on common random numbers (``Goldfish.play_pair``
and ``play_many``): every deck is made ready to play, each other deck lined up on the first
(a card both hold at the same place of both lists), and all of them played on the chunk's
stream 0; deck B of an independent pair plays alone on a stream of its own (the baseline).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Generic, TypeVar

import numpy as np

from validation.sim.metrics import Metric

Sums = dict[str, list[int]]
#: One deck's per-game values of every metric a run measures (metric key -> integer array).
Outcomes = dict[str, Any]
D = TypeVar("D")
H = TypeVar("H", bound=Hashable)

ALPHA = 0.05
FIRST_ROUND = 10_000


def sums(out_a: Mapping[str, np.ndarray], out_b: Mapping[str, np.ndarray]) -> Sums:
    """``[n, Σa, Σb, Σa², Σb², Σab]`` per metric of one chunk's per-game values."""
    result: Sums = {}
    for key in out_a:
        if key not in out_b:
            continue
        a = np.asarray(out_a[key], dtype=np.int64)
        b = np.asarray(out_b[key], dtype=np.int64)
        result[key] = [
            int(len(a)),
            int(a.sum()),
            int(b.sum()),
            int((a * a).sum()),
            int((b * b).sum()),
            int((a * b).sum()),
        ]
    return result


def merge(parts: Sequence[Sums]) -> Sums:
    """Add chunks' sums exactly (the metrics every part has)."""
    if not parts:
        return {}
    keys = set(parts[0]).intersection(*parts[1:]) if len(parts) > 1 else set(parts[0])
    return {k: [sum(p[k][i] for p in parts) for i in range(6)] for k in sorted(keys)}


def z_value(alpha: float) -> float:
    """The two-sided normal quantile of level ``alpha``."""
    return NormalDist().inv_cdf(1 - alpha / 2)


def plan(max_games: int, first: int = FIRST_ROUND) -> list[int]:
    """The looks' cumulative sizes: ``first``, doubling, the last one ``max_games``."""
    max_games = int(max_games)
    looks = []
    n = min(first, max_games)
    while n < max_games:
        looks.append(n)
        n *= 2
    looks.append(max_games)
    return looks


def estimate(s: Sequence[int], z: float) -> dict[str, float]:
    """Means of A and B, the difference B − A, its standard error and the interval ±z·se."""
    n, sa, sb, saa, sbb, sab = (float(x) for x in s)
    if n <= 0:
        nan = float("nan")
        return {"a": nan, "b": nan, "difference": nan, "se": nan, "ci_low": nan, "ci_high": nan}
    a, b = sa / n, sb / n
    d = b - a
    sdd = saa + sbb - 2 * sab  # Σ(b − a)²
    var = max(sdd / n - d * d, 0.0) * (n / (n - 1) if n > 1 else 0.0)
    se = math.sqrt(var / n)
    return {"a": a, "b": b, "difference": d, "se": se, "ci_low": d - z * se, "ci_high": d + z * se}


def excludes_zero(e: Mapping[str, float]) -> bool:
    return e["ci_low"] > 0 or e["ci_high"] < 0


def within_margin(e: Mapping[str, float], margin: float | None) -> bool:
    """Whether the interval lies inside (−margin, margin): the decks are equivalent within
    the margin (never, without one)."""
    if margin is None or margin <= 0:
        return False
    return -margin < e["ci_low"] and e["ci_high"] < margin


def differences(metrics: Sequence[Metric], total: Sums, z: float) -> list[dict[str, Any]]:
    """One row per metric measured: A, B, difference, interval, distinguishable."""
    rows = []
    for m in metrics:
        if m.key not in total:
            continue
        e = estimate(total[m.key], z)
        rows.append(
            {
                "metric": m.key,
                "label": m.label,
                "a": e["a"],
                "b": e["b"],
                "difference": e["difference"],
                "ci_low": e["ci_low"],
                "ci_high": e["ci_high"],
                "distinguishable": excludes_zero(e),
            }
        )
    return rows


def _label(metric: Metric) -> str:
    return metric.label.rstrip(". ")


def verdict(
    metric: Metric,
    row: Mapping[str, Any],
    games: int,
    b_name: str = "B",
    a_name: str = "A",
    margin: float | None = None,
) -> str:
    """The plain sentence, built from the metric's own label: its value with each deck,
    which deck is better and by how much, with the interval; or that the two cannot be told
    apart after so many games, equivalent within `margin` when the interval lies inside
    it."""
    label = _label(metric)
    interval = f"95% CI {metric.format_interval(row['ci_low'], row['ci_high'])}"
    if not row["distinguishable"]:
        if within_margin(row, margin) and margin is not None:
            return (
                f"{label}: not distinguishable after {games:,} games, and equivalent within "
                f"±{metric.format_amount(margin)} ({interval} for {b_name} against {a_name})."
            )
        return f"{label}: not distinguishable after {games:,} games."
    d = row["difference"]
    word = "better" if metric.improves(d) else "worse"
    return (
        f"{label}: {metric.format(row['b'])} with {b_name} against {metric.format(row['a'])} "
        f"with {a_name}, so {b_name} is {word} by {metric.format_amount(d)} ({interval}, "
        f"{games:,} games)."
    )


def race_step(rows: Sequence[Mapping[str, Any]]) -> tuple[list[Any], bool]:
    """One round of a race of swaps against a base deck. Each row has ``gain_low`` and
    ``gain_high``, its interval on the effect turned so that more is better. A swap is kept
    unless its best case is no gain (its interval does not reach above 0: it cannot beat the
    deck as it is, a swap that plays every game as the deck does included) or is below the
    best swap's worst case; returns the rows kept and whether the race is decided (every row
    kept is better than the deck, its interval clear of 0)."""
    best_low = max((r["gain_low"] for r in rows), default=0.0)
    kept = [r for r in rows if r["gain_high"] > 0 and r["gain_high"] >= best_low]
    return kept, all(r["gain_low"] > 0 for r in kept)


def gains(e: Mapping[str, float], better: str) -> tuple[float, float, float]:
    """An estimate's effect and interval turned so that more is better: (gain, low, high)."""
    sign = 1 if better == "higher" else -1
    lo, hi = sorted((sign * e["ci_low"], sign * e["ci_high"]))
    return sign * e["difference"], lo, hi


def line_up(first: Sequence[H], other: Sequence[H]) -> list[H]:
    """`other` reordered so that every card it shares with `first` sits where it sits in
    `first`; the cards `other` holds instead fill the leftover places, in `other`'s order,
    and any beyond `first`'s length follow."""
    wanted = Counter(other)
    placed: list[H | None] = []
    for card in first:
        if wanted[card] > 0:
            wanted[card] -= 1
            placed.append(card)
        else:
            placed.append(None)
    rest = []
    for card in other:
        if wanted[card] > 0:
            wanted[card] -= 1
            rest.append(card)
    fill = iter(rest)
    lined = [c if c is not None else next(fill, None) for c in placed]
    return [c for c in lined if c is not None] + list(fill)


@dataclass(frozen=True, slots=True)
class Games:
    """Games to play on common random numbers: `n` games of chunk `chunk_index` of a run
    seeded `seed` with the goldfish's `params`, on the chunk's stream `stream`."""

    params: Mapping[str, Any]
    seed: int
    chunk_index: int
    n: int
    stream: int = 0


@dataclass(frozen=True, slots=True)
class LinedUp(Generic[D]):
    """Decks played on common random numbers, lined up on the first one.

    - `deck(inputs, params) -> D`: a deck's stored inputs made ready to play (ValueError
      when the deck cannot be played);
    - `line_up(first, other) -> D`: `other` with every card it shares with `first` at the
      place it has there;
    - `play(decks, games) -> [outcomes]`: the `Games` of every deck, in order, all on the
      same stream;
    - `independent_stream`: the stream of deck B in an independent pair.
    """

    deck: Callable[[Mapping[str, Any], Mapping[str, Any]], D]
    line_up: Callable[[D, D], D]
    play: Callable[[list[D], Games], list[Outcomes]]
    independent_stream: int = 10

    def play_pair(
        self,
        inputs_a: Mapping[str, Any],
        inputs_b: Mapping[str, Any],
        params: Mapping[str, Any],
        seed: int,
        chunk_index: int,
        games: int,
        independent: bool = False,
    ) -> tuple[Outcomes, Outcomes]:
        """Deck A and deck B (lined up on A) on the same streams; with `independent`, B on
        a stream of its own."""
        a = self.deck(inputs_a, params)
        b = self.line_up(a, self.deck(inputs_b, params))
        common = Games(params, seed, chunk_index, games)
        if not independent:
            out_a, out_b = self.play([a, b], common)
            return out_a, out_b
        (out_a,) = self.play([a], common)
        own = Games(params, seed, chunk_index, games, self.independent_stream)
        (out_b,) = self.play([b], own)
        return out_a, out_b

    def play_many(
        self,
        base: Mapping[str, Any],
        others: Sequence[Mapping[str, Any]],
        params: Mapping[str, Any],
        seed: int,
        chunk_index: int,
        games: int,
    ) -> tuple[Outcomes, list[Outcomes]]:
        """The base deck once and every other deck, each lined up on the base, all on the
        same streams (a tuner's round: the shuffles and dice are drawn once)."""
        first = self.deck(base, params)
        rest = [self.line_up(first, self.deck(inputs, params)) for inputs in others]
        outs = self.play([first, *rest], Games(params, seed, chunk_index, games))
        return outs[0], outs[1:]
