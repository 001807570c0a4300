"""Goldfish experiments on the run machinery: paired comparisons of two decks, in rounds.

A comparison is a `SimulationRun` of kind ``comparison`` (its `inputs`: both decks' inputs,
the chosen metric and the plan of looks, `validation.sim.paired`). Its chunks are ordinary
chunks of the one job system (cardsite/jobs.py), played by the one chunk task, leased, reaped
and retried like any run's; only what a chunk plays and what happens when the last chunk of
a round is stored differ (its kind of job, simulations/jobs.py):

- a chunk plays ``inputs["chunks"][i]`` games of both decks on common random numbers
  (`Goldfish.play_pair`, seeded by ``(seed, i)``) and stores the paired sums of every
  metric (six integers each), never per-game rows;
- when every chunk of the round is stored, the sums are merged and the chosen metric's
  interval is taken at the look's level (``alpha / K``, Bonferroni over the K planned
  looks). If it excludes 0, lies inside the metric's equivalence margin (the decks are
  equivalent: two identical lists stop after the first round), or the games limit is
  reached, the run is done with ``results.differences``; else the run grows by the next round's chunks (``n_chunks``
  increases) and those are sent.

Nothing here names a game or a metric: both come from the goldfish.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from validation.sim import paired
from validation.sim.metrics import Metric, find, named

from . import tuning
from .models import RunKind, Status

COMPARE = "compare"
METHOD = (
    "Paired games on common random numbers; normal intervals on the mean difference at level "
    "alpha / K for each of the K planned looks (Bonferroni), so the interval at the look where "
    "the comparison stopped is a valid 95% interval. It stops when that interval excludes 0, "
    "or lies inside the metric's equivalence margin (a difference too small to matter), or at "
    "the games limit."
)


def is_experiment(run) -> bool:
    """A comparison or a tuning run (simulations/tuning.py), played in rounds."""
    return bool(run.is_experiment)


def _tuning(run) -> bool:
    return bool(run.kind == RunKind.TUNING)


def chunk_plan(looks: list[int], per_chunk: int) -> tuple[list[int], list[int]]:
    """Games of every planned chunk, and the number of chunks played by each look."""
    chunks: list[int] = []
    by_look: list[int] = []
    done = 0
    for n in looks:
        round_games = n - done
        parts = max(1, math.ceil(round_games / per_chunk))
        base, extra = divmod(round_games, parts)
        chunks += [base + (1 if i < extra else 0) for i in range(parts)]
        by_look.append(len(chunks))
        done = n
    return chunks, by_look


def new_inputs(
    *,
    inputs_a: Mapping[str, Any],
    inputs_b: Mapping[str, Any],
    label_a: str,
    label_b: str,
    metric: Metric,
    max_games: int,
    per_chunk: int,
    first_round: int = paired.FIRST_ROUND,
) -> dict[str, Any]:
    looks = paired.plan(max_games, first_round)
    chunks, by_look = chunk_plan(looks, per_chunk)
    return {
        "a": dict(inputs_a),
        "b": dict(inputs_b),
        "a_label": label_a,
        "b_label": label_b,
        "metric": metric.key,
        "margin": metric.equivalence_margin,
        "alpha": paired.ALPHA,
        "looks": looks,
        "chunks": chunks,
        "look_chunks": by_look,
    }


def play_chunk(run, kind, chunk_index: int) -> dict[str, Any]:
    """Chunk ``chunk_index`` of a comparison: the paired sums of its games."""
    if _tuning(run):
        return tuning.play_chunk(run, kind, chunk_index)
    inputs = run.inputs
    games = int(inputs["chunks"][chunk_index])
    out_a, out_b = kind.goldfish.play_pair(
        inputs["a"], inputs["b"], run.params, run.seed, chunk_index, games
    )
    return {"games": games, "sums": paired.sums(out_a, out_b)}


def _z(inputs: Mapping[str, Any]) -> float:
    return paired.z_value(float(inputs["alpha"]) / len(inputs["looks"]))


def _margin(inputs: Mapping[str, Any]) -> float | None:
    """The equivalence margin the comparison stops at (None for one started without)."""
    margin = inputs.get("margin")
    return None if margin is None else float(margin)


def _total(run, chunk_count: int) -> tuple[int, paired.Sums]:
    parts = [run.chunk_results[str(i)] for i in range(chunk_count)]
    return sum(p["games"] for p in parts), paired.merge([p["sums"] for p in parts])


def after_round(run, kind, now: datetime, enqueue: Callable[[int, range], None]) -> str:
    """Every chunk of the round is stored (the run is row-locked): stop with the results,
    or grow the run by the next round's chunks and send them. Returns "finished" or
    "round"."""
    if _tuning(run):
        return tuning.after_round(run, kind, now, enqueue)
    inputs = run.inputs
    metric = named(kind.goldfish.metrics, inputs["metric"])
    games, total = _total(run, run.n_chunks)
    z = _z(inputs)
    look = inputs["look_chunks"].index(run.n_chunks)
    chosen = paired.estimate(total[metric.key], z)
    rounds = (run.results or {}).get("rounds", [])
    rounds.append(
        {
            "games": games,
            "difference": chosen["difference"],
            "ci_low": chosen["ci_low"],
            "ci_high": chosen["ci_high"],
        }
    )
    last = look == len(inputs["looks"]) - 1
    equivalent = paired.within_margin(chosen, _margin(inputs))
    if not paired.excludes_zero(chosen) and not equivalent and not last:
        run.n_chunks = inputs["look_chunks"][look + 1]
        run.results = {"rounds": rounds}
        enqueue(run.pk, range(inputs["look_chunks"][look], run.n_chunks))
        return "round"
    if paired.excludes_zero(chosen):
        stopped = "interval excludes 0"
    elif equivalent:
        stopped = "interval inside the equivalence margin"
    else:
        stopped = "games limit reached"
    _finish(run, kind, run.n_chunks, rounds, now, stopped)
    return "finished"


def _finish(run, kind, chunk_count: int, rounds: list, now: datetime, stopped: str) -> None:
    """Done: every metric's row from the first `chunk_count` chunks, and the verdict."""
    inputs = run.inputs
    metrics = kind.goldfish.metrics
    metric = named(metrics, inputs["metric"])
    games, total = _total(run, chunk_count)
    z = _z(inputs)
    rows = paired.differences(metrics, total, z)
    row = next(r for r in rows if r["metric"] == metric.key)
    run.results = {
        "experiment": COMPARE,
        "metric": metric.key,
        "games": games,
        "a": inputs["a_label"],
        "b": inputs["b_label"],
        "verdict": paired.verdict(
            metric, row, games, inputs["b_label"], inputs["a_label"], _margin(inputs)
        ),
        "margin": _margin(inputs),
        "stopped": stopped,
        "method": METHOD,
        "level": 1 - float(inputs["alpha"]),
        "z": z,
        "rounds": rounds,
        "sums": total,
        "differences": rows,
    }
    run.mark_done(now)


def stop(run, kind, now: datetime) -> str:
    """The owner stops an active comparison or tuning run (row-locked): it finishes with the
    rounds complete so far (their intervals are those of a planned look, so still valid),
    or fails when not even the first round is complete. Returns "finished" or "failed"."""
    inputs = run.inputs
    rounds = list((run.results or {}).get("rounds", []))
    if _tuning(run):
        complete = inputs["look_chunks"][-2] if len(inputs["look_chunks"]) > 1 else 0
    else:
        at = inputs["look_chunks"].index(run.n_chunks)
        complete = inputs["look_chunks"][at - 1] if at > 0 else 0
    if complete == 0:
        run.mark_failed(now, "stopped by its owner before the first round was complete")
        return "failed"
    stopped = "stopped by its owner"
    if _tuning(run):
        metric = named(kind.goldfish.metrics, inputs["metric"])
        games, rows = tuning.standings(run, metric, complete)
        tuning.finish(run, metric, games, rows, now, stopped)
    else:
        _finish(run, kind, complete, rounds, now, stopped)
    run.mark_done(now)
    return "finished"


def view(run, kind) -> dict[str, Any] | None:
    """What the run page shows of a comparison: the decks, the rounds so far and, once done,
    each metric's row (A, B, difference, interval) with the verdict."""
    if not is_experiment(run):
        return None
    if _tuning(run):
        return tuning.view(run, kind)
    inputs = run.inputs
    results = run.results or {}
    metrics = kind.goldfish.metrics if kind else ()
    rows = []
    for r in results.get("differences", []):
        m = find(metrics, r["metric"])
        if m is None:
            continue
        rows.append(
            {
                "metric": m,
                "a": m.format(r["a"]),
                "b": m.format(r["b"]),
                "difference": m.format_difference(r["difference"]),
                "ci": m.format_interval(r["ci_low"], r["ci_high"]),
                "distinguishable": r["distinguishable"],
                "b_better": r["distinguishable"] and m.improves(r["difference"]),
            }
        )
    chosen = find(metrics, inputs.get("metric", ""))
    rounds = [
        {
            "games": f"{r['games']:,}",
            # in the metric's unit, as the verdict and the table below say it
            "difference": chosen.format_difference(r["difference"]) if chosen else r["difference"],
            "ci": (
                chosen.format_interval(r["ci_low"], r["ci_high"])
                if chosen
                else f"{r['ci_low']} to {r['ci_high']}"
            ),
        }
        for r in results.get("rounds", [])
    ]
    return {
        "a": inputs.get("a_label", "A"),
        "b": inputs.get("b_label", "B"),
        "metric": chosen,
        "max_games": f"{inputs['looks'][-1]:,}",
        "margin": (
            chosen.format_amount(margin)
            if chosen and (margin := _margin(inputs)) is not None
            else None
        ),
        "looks": len(inputs["looks"]),
        "rounds": rounds,
        "rows": rows,
        "verdict": results.get("verdict"),
        "stopped": results.get("stopped"),
        "method": METHOD,
        "done": run.status == Status.DONE,
    }
