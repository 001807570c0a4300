"""Hex Skirmish formats and army-building rules (the game spec §5)."""

from __future__ import annotations

from validation.registry import FormatDef
from validation.rules import (
    CollectionLimit,
    DistinctPlacement,
    KindAllowed,
    MinSize,
    PointsLimit,
    Rule,
)

ARMY_POINTS = 50
MIN_COMMAND_CARDS = 30
MIN_UNITS = 2  # decision: one unit alone loses at once
#: A player's own half of the 8 × 16 battlefield.
HALF_COLUMNS = 8
HALF_ROWS = 8

ARMY_RULES: tuple[Rule, ...] = (
    PointsLimit(
        ("units", "cards"),
        noun="army points",
        code="army.points",
        description="units' points plus command cards' costs total at most 50",
    ),
    MinSize(
        "cards",
        MIN_COMMAND_CARDS,
        kinds=("command",),
        strays=False,
        noun=("command card", "command cards"),
        code="army.cards",
        where="in the army",
        description="at least 30 command cards",
    ),
    MinSize(
        "units",
        MIN_UNITS,
        kinds=("unit",),
        strays=False,
        noun=("unit", "units"),
        code="army.units",
        where="in the army",
        description="at least 2 units",
    ),
    DistinctPlacement(
        "units",
        columns=HALF_COLUMNS,
        rows=HALF_ROWS,
        code="army.deployment",
        description="every unit placed on a distinct hex of the own 8 × 8 half",
    ),
    CollectionLimit(
        ("units", "cards"),
        code="army.collection",
        description="no more copies than the player owns (when built from a collection)",
    ),
    KindAllowed("units", ("unit",), code="section.kind", description="units holds only units"),
    KindAllowed(
        "cards", ("command",), code="section.kind", description="cards holds only command cards"
    ),
)

FORMATS: dict[str, FormatDef] = {
    "standard": FormatDef(
        "standard",
        "Standard",
        "Armies of at most 50 points, deployed on the own half of an 8 × 16 battlefield.",
        options={"points": ARMY_POINTS},
        rules=ARMY_RULES,
        required_sections=("units", "cards"),
    )
}
