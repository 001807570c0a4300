"""The tuner's rounds: a race of single swaps against the deck as it is.

A tuning run is a `SimulationRun` of kind ``tuning``, whose inputs hold the base deck's
goldfish inputs and sections, the legal swaps (one copy out, one copy in, each checked by
the validator when the run started: simulations/tuner.py), the metric, and the plan of
looks. Every chunk plays its games of the base deck once and of every swap still in the
race on the same random streams (`Goldfish.play_many`), and stores the paired sums of the
metric per swap (six integers each). After each round:

- each swap's effect (B − A, the swapped deck minus the deck as it is) gets an interval at
  level ``alpha / (S · K)``: Bonferroni over the S swaps raced and the K planned looks, so
  all the intervals of the race hold together with probability ≥ 95 %;
- a swap whose best case (its bound on the better side) is no gain over the deck (a swap
  that plays every game as the deck does has the interval [0, 0]), or is worse than the
  worst case of the best swap, is dropped;
- the race stops when no swap is left, when every swap left is better than the deck with
  its interval clear of 0, or at the games limit. The answer is the (at most) five swaps
  left whose interval lies on the better side of 0, best first, or none: "no swap beats
  the deck as it is", with the (at most) three swaps closest to it, not distinguishable
  from the deck. A swap is never picked from noise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from validation.sim import paired
from validation.sim.inputs import card_from_json, entries_from_json
from validation.sim.metrics import Metric, find, named
from validation.types import Entry

from .models import Status

TUNE = "tune"
TOP = 5
FIRST_ROUND = 2_000
METHOD = (
    "Every swap plays the same games as the deck as it is (common random numbers); each "
    "interval is at level alpha / (swaps × planned looks), Bonferroni, so all of them hold "
    "together with 95% probability; a swap is dropped when its best case is no gain over "
    "the deck or is worse than the best swap's worst case."
)

#: How the tuner picks what it races when more could be tried than its caps allow
#: (simulations/tuner.py; shown on the run page).
PROMISE = (
    "the cards that may come in, most promising first: one more copy of a card the deck "
    "plays before a new card, then cards of the kinds the deck holds most copies of, then "
    "cards whose cost is closest to the deck's average for their kind, then by name; the "
    "cards out, most copies first, then by name; the swaps are tried in order of the two "
    "ranks added up (the card out's first), each checked by the rules"
)


def swapped_sections(
    sections: Mapping[str, Any], swap: Mapping[str, Any]
) -> dict[str, list[Entry]]:
    """The base sections (stored JSON) with one copy of ``swap["cut"]`` out of its section
    and one copy of ``swap["card"]`` in."""
    out = {name: list(entries_from_json(rows) or []) for name, rows in sections.items()}
    rows = out[swap["section"]]
    for i, e in enumerate(rows):
        if e.card.name == swap["cut"]:
            rows[i] = Entry(e.card, e.count - 1, e.placement)
            break
    rows = [e for e in rows if e.count > 0]
    for i, e in enumerate(rows):
        if e.card.name == swap["add"]:
            rows[i] = Entry(e.card, e.count + 1, e.placement)
            break
    else:
        rows.append(Entry(card_from_json(swap["card"]), 1))
    out[swap["section"]] = rows
    return out


def _alive(run) -> list[int]:
    results = run.results or {}
    return list(results.get("alive", range(len(run.inputs["swaps"]))))


def _round_chunks(round_games: int, alive: int, per_chunk: int) -> list[int]:
    """A round's games split so that a chunk plays about `per_chunk` deck-games."""
    parts = max(1, math.ceil(round_games * (1 + alive) / per_chunk))
    parts = min(parts, round_games) if round_games else 1
    base, extra = divmod(round_games, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def new_inputs(
    *,
    base: Mapping[str, Any],
    sections: Mapping[str, Any],
    swaps: list[dict[str, Any]],
    metric: Metric,
    max_games: int,
    per_chunk: int,
) -> dict[str, Any]:
    looks = paired.plan(max_games, FIRST_ROUND)
    chunks = _round_chunks(looks[0], len(swaps), per_chunk)
    return {
        "base": dict(base),
        "sections": dict(sections),
        "swaps": swaps,
        "metric": metric.key,
        "alpha": paired.ALPHA,
        "looks": looks,
        "per_chunk": per_chunk,
        "chunks": chunks,
        "look_chunks": [len(chunks)],
    }


def play_chunk(run, kind, chunk_index: int) -> dict[str, Any]:
    inputs = run.inputs
    goldfish = kind.goldfish
    games = int(inputs["chunks"][chunk_index])
    alive = _alive(run)
    others = [
        goldfish.prepare(swapped_sections(inputs["sections"], inputs["swaps"][i])) for i in alive
    ]
    out_base, outs = goldfish.play_many(
        inputs["base"], others, run.params, run.seed, chunk_index, games
    )
    key = inputs["metric"]
    return {
        "games": games,
        "sums": {
            str(i): paired.sums({key: out_base[key]}, {key: out[key]})[key]
            for i, out in zip(alive, outs, strict=True)
        },
    }


def z_of(inputs: Mapping[str, Any]) -> float:
    return paired.z_value(
        float(inputs["alpha"]) / (max(len(inputs["swaps"]), 1) * len(inputs["looks"]))
    )


def standings(run, metric: Metric, chunk_count: int) -> tuple[int, list[dict[str, Any]]]:
    """Games played by the first `chunk_count` chunks, and each swap still racing with its
    estimate (``gain``: the effect turned so that more is better)."""
    inputs = run.inputs
    parts = [run.chunk_results[str(i)] for i in range(chunk_count)]
    games = sum(p["games"] for p in parts)
    z = z_of(inputs)
    rows = []
    for i in _alive(run):
        sums = [p["sums"][str(i)] for p in parts if str(i) in p["sums"]]
        total = [sum(s[j] for s in sums) for j in range(6)]
        e = paired.estimate(total, z)
        swap = inputs["swaps"][i]
        gain, lo, hi = paired.gains(e, metric.better)
        rows.append(
            {
                "index": i,
                "cut": swap["cut"],
                "add": swap["add"],
                "section": swap["section"],
                "effect": e["difference"],
                "ci_low": e["ci_low"],
                "ci_high": e["ci_high"],
                "gain": gain,
                "gain_low": lo,
                "gain_high": hi,
            }
        )
    return games, rows


def _suggestions(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    better = sorted((r for r in rows if r["gain_low"] > 0), key=lambda r: -r["gain"])
    return [
        {k: r[k] for k in ("index", "cut", "add", "section", "effect", "ci_low", "ci_high")}
        for r in better[:TOP]
    ]


def _closest(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The swaps still undecided at the end, best estimate first: not distinguishable."""
    undecided = sorted((r for r in rows if r["gain_low"] <= 0), key=lambda r: -r["gain"])
    return [
        {k: r[k] for k in ("index", "cut", "add", "section", "effect", "ci_low", "ci_high")}
        for r in undecided[:3]
    ]


def finish(run, metric: Metric, games: int, rows, now: datetime, stopped: str) -> None:
    suggestions = _suggestions(rows)
    run.results = {
        **(run.results or {}),
        "experiment": TUNE,
        "metric": metric.key,
        "games": games,
        "suggestions": suggestions,
        "closest": [] if suggestions else _closest(rows),
        "verdict": (
            f"{len(suggestions)} swap{'s' if len(suggestions) != 1 else ''} beat the deck as "
            f"it is at {metric.label.lower()}"
            if suggestions
            else "No swap beats the deck as it is"
        )
        + f" ({games:,} games each).",
        "stopped": stopped,
        "method": METHOD,
        "candidates": len(run.inputs["swaps"]),
    }
    run.mark_done(now)


def after_round(run, kind, now: datetime, enqueue: Callable[[int, range], None]) -> str:
    inputs = run.inputs
    metric = named(kind.goldfish.metrics, inputs["metric"])
    look = len(inputs["look_chunks"]) - 1
    games, rows = standings(run, metric, run.n_chunks)
    kept, decided = paired.race_step(rows)
    results = dict(run.results or {})
    rounds = results.get("rounds", [])
    rounds.append({"games": games, "raced": len(rows), "left": len(kept)})
    results.update(rounds=rounds, alive=[r["index"] for r in kept])
    run.results = results
    if not kept or decided or look == len(inputs["looks"]) - 1:
        stopped = (
            "no swap left"
            if not kept
            else "every swap left is decided"
            if decided
            else "games limit reached"
        )
        finish(run, metric, games, kept, now, stopped)
        return "finished"
    round_games = inputs["looks"][look + 1] - inputs["looks"][look]
    chunks = _round_chunks(round_games, len(kept), int(inputs["per_chunk"]))
    first = len(inputs["chunks"])
    inputs["chunks"] = [*inputs["chunks"], *chunks]
    inputs["look_chunks"] = [*inputs["look_chunks"], len(inputs["chunks"])]
    run.inputs = inputs
    run.n_chunks = len(inputs["chunks"])
    enqueue(run.pk, range(first, run.n_chunks))
    return "round"


def view(run, kind) -> dict[str, Any] | None:
    inputs = run.inputs
    results = run.results or {}
    metric = find(kind.goldfish.metrics, inputs["metric"]) if kind else None

    def shown(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {
                **s,
                "n": i,
                "shown": metric.format_difference(s["effect"]) if metric else s["effect"],
                "ci": (
                    f"{metric.format_difference(s['ci_low'])} to "
                    f"{metric.format_difference(s['ci_high'])}"
                )
                if metric
                else "",
            }
            for i, s in enumerate(rows)
        ]

    suggestions = shown(results.get("suggestions", []))
    return {
        "tune": True,
        "metric": metric,
        "candidates": len(inputs["swaps"]),
        "left": len(results.get("alive", inputs["swaps"])),
        "rounds": results.get("rounds", []),
        "looks": len(inputs["looks"]),
        "max_games": f"{inputs['looks'][-1]:,}",
        "suggestions": suggestions,
        "closest": shown(results.get("closest", [])),
        "verdict": results.get("verdict"),
        "stopped": results.get("stopped"),
        "method": METHOD,
        "done": run.status == Status.DONE,
        "chosen": inputs.get("chosen"),
        "promise": PROMISE,
    }
