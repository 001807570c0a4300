"""The simulation runs as kinds of chunked job (cardsite/jobs.py): a goldfish run and a
tool's background run (their chunks play the kernel's `run_chunk`, the last merges them), a
comparison and a tuning run (their chunks play rounds of paired games, the last of a round
decides whether to stop or to send the next round: simulations/experiments.py). They
register themselves when this module loads (`SimulationsConfig.ready` imports it); the
lease, stall time and attempts are the simulations' settings."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings

from cardsite import jobs
from cardsite.jobs import ChunkContext, JobKind, Progress, Send, Timing

from . import experiments, kinds, pipeline
from .models import RunKind, SimulationRun


def chunk_games() -> int:
    """Games per chunk (one Celery task each)."""
    return int(getattr(settings, "SIMULATIONS_CHUNK_GAMES", 50_000))


def timing() -> Timing:
    return Timing(
        heartbeat=float(getattr(settings, "SIMULATIONS_HEARTBEAT_SECONDS", 5)),
        lease=float(getattr(settings, "SIMULATIONS_LEASE_SECONDS", 20)),
        stall=float(getattr(settings, "SIMULATIONS_STALL_SECONDS", 40)),
        max_attempts=int(getattr(settings, "SIMULATIONS_MAX_REAPS", 3)),
    )


# --- A goldfish run, a tool's background run ------------------------------------------------


def plan_run(run: SimulationRun) -> None:
    """One chunk per SIMULATIONS_CHUNK_GAMES games."""
    games = run.params.get("games")
    run.n_chunks = max(1, math.ceil(int(games) / chunk_games())) if games is not None else 1


def play_chunk(run: SimulationRun, index: int, context: ChunkContext) -> dict[str, Any]:
    """The chunk's statistics, as the JSON its slot stores."""
    goldfish = kinds.get(run.simulation).goldfish
    return goldfish.run_chunk(run.inputs, run.params, run.seed, index, run.n_chunks).as_dict()


def finish_run(run: SimulationRun, now: datetime, send: Send) -> str:
    goldfish = kinds.get(run.simulation).goldfish
    parts = [run.chunk_results[str(i)] for i in range(run.n_chunks)]
    run.results = pipeline.stored_results(goldfish, parts, run.inputs)
    run.mark_done(now)
    return "finished"


# --- A comparison, a tuning run ---------------------------------------------------------------


def plan_comparison(run: SimulationRun) -> None:
    """The first round's chunks (the plan of every look is in the inputs)."""
    run.n_chunks = int(run.inputs["look_chunks"][0])


def plan_tuning(run: SimulationRun) -> None:
    run.n_chunks = len(run.inputs["chunks"])


def play_round_chunk(run: SimulationRun, index: int, context: ChunkContext) -> Any:
    return experiments.play_chunk(run, kinds.get(run.simulation), index)


def finish_round(run: SimulationRun, now: datetime, send: Send) -> str:
    """The round is complete: stop with the results, or send the next round."""
    return experiments.after_round(run, kinds.get(run.simulation), now, send)


# --- Progress ---------------------------------------------------------------------------------


def progress(run: SimulationRun) -> Progress:
    rounds = len((run.results or {}).get("rounds", [])) if run.is_experiment else 0
    return Progress(
        status=run.status,
        done=run.chunks_done,
        total=run.n_chunks,
        unit="chunks",
        stage=f"round {rounds + 1}" if run.is_experiment and run.is_active else "",
        error=run.error,
        seconds=run.duration,
    )


def _kind(
    run_kind: RunKind,
    label: str,
    plan: Callable[[SimulationRun], None],
    run_chunk: Callable[[SimulationRun, int, ChunkContext], Any],
    finish: Callable[[SimulationRun, datetime, Send], str],
) -> JobKind:
    return JobKind(
        name=f"simulations.{run_kind.value}",
        label=label,
        model=SimulationRun,
        plan=plan,
        run_chunk=run_chunk,
        finish=finish,
        progress=progress,
        timing=timing,
        heavy=("results", "chunk_results"),
        log_name="run",
    )


# The kinds of run, registered with the site's job system when this module loads.
GOLDFISH = jobs.register(_kind(RunKind.GOLDFISH, "simulation", plan_run, play_chunk, finish_run))
TOOL = jobs.register(_kind(RunKind.TOOL, "simulation", plan_run, play_chunk, finish_run))
COMPARISON = jobs.register(
    _kind(RunKind.COMPARISON, "comparison", plan_comparison, play_round_chunk, finish_round)
)
TUNING = jobs.register(
    _kind(RunKind.TUNING, "tuning run", plan_tuning, play_round_chunk, finish_round)
)
