"""Hex Skirmish card kinds (the game spec §5): hexagonal units and command cards."""

from __future__ import annotations

from typing import Any

from validation.schema import Attr, FieldError, KindSchema


def _ranged_has_range(attrs: dict[str, Any]) -> list[FieldError]:
    """A ranged unit shoots: its range is above 0."""
    if attrs.get("unit_class") == "ranged" and attrs.get("range", 0) <= 0:
        return [FieldError("range", "range: a ranged unit has a range above 0")]
    return []


UNIT = KindSchema(
    "unit",
    "Unit",
    (
        Attr(
            "unit_class",
            "Class",
            "choice",
            choices=("infantry", "cavalry", "ranged"),
            required=True,
        ),
        Attr(
            "edges",
            "Edge strengths",
            "list",
            item_type="int",
            length=6,
            required=True,
            help="6 values: index 0 is the front, then clockwise",
        ),
        Attr("health", "Health", "int", required=True, minimum=0),
        Attr("movement", "Movement", "int", required=True, minimum=0),
        Attr("armor", "Armor", "int", minimum=0, help="0 if none"),
        Attr("range", "Range", "int", minimum=0, help="0 if none; ranged units have more"),
    ),
    checks=(_ranged_has_range,),
)

COMMAND = KindSchema(
    "command",
    "Command card",
    (Attr("actions", "Actions", "list", help="the card's actions, as text"),),
)

KINDS: dict[str, KindSchema] = {s.kind: s for s in (UNIT, COMMAND)}
