"""Pond's goldfish: each turn a random frog of the pond hops 1 to its `hop` pads; the far
bank lies one pad beyond the pond's pads. Reports the turn the bank is reached."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from validation.capabilities import Goldfish, InputsError
from validation.params import ParamSpec
from validation.sim import kernel
from validation.sim.stats import CountStats
from validation.types import Entry


class PondStats(CountStats):
    """A pond run's statistics: the turn the far bank is reached."""

    __slots__ = ()
    KIND = "pond"


def prepare(sections: Mapping[str, list[Entry]]) -> dict[str, Any]:
    hops = [
        int(e.card.attributes.get("hop", 1))
        for e in sections.get("frogs", ())
        for _ in range(e.count)
    ]
    if not hops:
        raise InputsError("the pond has no frogs: nothing hops")
    pads = sum(e.count for e in sections.get("pads", ()))
    return {"hops": hops, "bank": pads + 1}


def run_chunk(inputs, params, seed, chunk_index, n_chunks) -> PondStats:
    turns = int(params["turns"])
    games = kernel.chunk_games(int(params["games"]), chunk_index, n_chunks)
    rng = kernel.chunk_rng(seed, chunk_index)
    hops = np.asarray(inputs["hops"])
    frogs = rng.integers(0, len(hops), size=(games, turns))
    moved = rng.integers(1, hops[frogs] + 1)
    reached = np.cumsum(moved, axis=1) >= int(inputs["bank"])
    turn = np.where(reached.any(axis=1), reached.argmax(axis=1) + 1, turns + 1)
    counts = {"bank_turn_hist": kernel.turn_hist(turn, turns).tolist()}
    return PondStats(turns=turns, games=games, counts=counts)


def summarise(stats: PondStats, inputs: Mapping[str, Any]) -> dict[str, Any]:
    return stats.summary()


def charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    hist = summary["figures"]["bank_turn_hist"]
    turns = list(range(1, summary["turns"] + 1))
    return [
        {
            "type": "xy",
            "id": "pond-bank",
            "title": "Turn the far bank is reached",
            "desc": "Share of games by the turn a frog reaches the far bank.",
            "x_label": "Turn",
            "y_label": "Share of games",
            "y_format": "percent",
            "categories": turns,
            "series": [{"name": "Share of games", "values": hist["p_by_turn"], "style": "bar"}],
        }
    ]


def key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    hist = summary["figures"]["bank_turn_hist"]
    mean = hist["mean_turn"]
    return [
        ("Games", f"{summary['games']:,}"),
        ("Mean turn the bank is reached", "—" if mean is None else f"{mean:.2f}"),
    ]


GOLDFISH = Goldfish(
    slug="pond-goldfish",
    label="Pond goldfish",
    description="A random frog of the pond hops each turn, until the far bank.",
    params=(
        ParamSpec("games", "Games", "int", 1, 200_000, default=2_000),
        ParamSpec("turns", "Turns", "int", 1, 30, default=10),
    ),
    sections=("frogs", "pads"),
    prepare=prepare,
    stats=PondStats,
    run_chunk=run_chunk,
    summarise=summarise,
    charts=charts,
    key_figures=key_figures,
    inline_max=5_000,
)
