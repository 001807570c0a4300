"""Pond's tool: the exact chance that one frog reaches a pad within a number of hops (each
hop moves it 1 to its `hop` pads, evenly)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from validation.capabilities import Tool, ToolInputError, ToolResult
from validation.params import ParamSpec
from validation.types import CardFacts


def reach_odds(hop: int, distance: int, hops: int) -> list[Fraction]:
    """P(at least `distance` pads covered) after 1..`hops` hops of 1..`hop` pads each."""
    spread = {0: Fraction(1)}
    out = []
    for _ in range(hops):
        nxt: dict[int, Fraction] = {}
        for at, p in spread.items():
            for step in range(1, hop + 1):
                key = min(at + step, distance)
                nxt[key] = nxt.get(key, Fraction(0)) + p / hop
        spread = nxt
        out.append(spread.get(distance, Fraction(0)))
    return out


def compute(params: Mapping[str, Any], cards: Mapping[str, Sequence[CardFacts]]) -> ToolResult:
    frog = next((c for c in cards.get("frog", ()) if c.name == params["frog"]), None)
    if frog is None:
        raise ToolInputError(f"{params['frog']!r} is not a frog", "frog")
    hop = int(frog.attributes.get("hop", 1))
    odds = reach_odds(hop, int(params["distance"]), int(params["hops"]))
    rows = [[n, str(p), f"{float(p):.1%}"] for n, p in enumerate(odds, start=1)]
    return ToolResult(
        data={
            "frog": frog.name,
            "hop": hop,
            "distance": params["distance"],
            "by_hops": [
                {"hops": n, "fraction": str(p), "p": float(p)} for n, p in enumerate(odds, 1)
            ],
        },
        figures=[(f"{frog.name} within {params['hops']} hops", f"{float(odds[-1]):.1%}")],
        tables=[
            {
                "id": "hop-table",
                "title": f"{frog.name} reaching pad {params['distance']}",
                "columns": ["Hops", "Fraction", "Chance"],
                "rows": rows,
            }
        ],
        charts=[
            {
                "type": "xy",
                "id": "hop-odds",
                "title": "Chance to have reached the pad",
                "desc": "By the number of hops.",
                "x_label": "Hops",
                "y_label": "Chance",
                "y_format": "percent",
                "categories": list(range(1, len(odds) + 1)),
                "series": [{"name": "Chance", "values": [float(p) for p in odds], "style": "line"}],
            }
        ],
        notes=["Each hop moves the frog 1 to its hop value in pads, each equally likely."],
    )


HOP_ODDS = Tool(
    slug="hop-odds",
    label="Hop odds",
    description="The exact chance that a frog reaches a pad within some hops.",
    params=(
        ParamSpec("frog", "Frog", "choice", cards_of_kind="frog"),
        ParamSpec("distance", "Pads away", "int", 1, 30, default=5),
        ParamSpec("hops", "Hops", "int", 1, 12, default=4),
    ),
    compute=compute,
    reads=("frog",),
)
