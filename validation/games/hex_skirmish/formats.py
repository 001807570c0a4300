"""Hex Skirmish formats and army-building rules (the game spec §5)."""

from __future__ import annotations

from validation.registry import FormatDef
from validation.rules import CollectionLimit, PointsLimit, Rule
from validation.sections import SectionSpec

ARMY_POINTS = 50
MIN_COMMAND_CARDS = 30
MIN_UNITS = 2  # decision: one unit alone loses at once
#: A player's own half of the 8 × 16 battlefield.
HALF_COLUMNS = 8
HALF_ROWS = 8

UNITS = SectionSpec(
    "units",
    "Units",
    kinds=("unit",),
    size=(MIN_UNITS, None),
    size_code="army.units",
    kind_code="section.kind",
    noun=("unit", "units"),
    where="in the army",
    placement=(HALF_COLUMNS, HALF_ROWS),
    placement_code="army.deployment",
    description="at least 2 units",
    laid_out=True,
)
CARDS = SectionSpec(
    "cards",
    "Command cards",
    kinds=("command",),
    size=(MIN_COMMAND_CARDS, None),
    size_code="army.cards",
    kind_code="section.kind",
    noun=("command card", "command cards"),
    where="in the army",
    description="at least 30 command cards",
)

ARMY_RULES: tuple[Rule, ...] = (
    # decision: a unit written among the command cards (or a command card among the units)
    # is still a card of the army and costs its points; only kinds the army does not take
    # at all would not count.
    PointsLimit(
        ("units", "cards"),
        noun="army points",
        kinds=("unit", "command"),
        code="army.points",
        description="units' points plus command cards' costs total at most 50",
    ),
    CollectionLimit(
        ("units", "cards"),
        code="army.collection",
        description="no more copies than the player owns (when built from a collection)",
    ),
)

FORMATS: dict[str, FormatDef] = {
    "standard": FormatDef(
        "standard",
        "Standard",
        "Armies of at most 50 points, deployed on the own half of an 8 × 16 battlefield.",
        sections=(UNITS, CARDS),
        checks=ARMY_RULES,
        options={"points": ARMY_POINTS},
    )
}
