"""Red Mittens card kinds (the game spec §4): units, items and fields, one core deck each."""

from __future__ import annotations

from validation.schema import Attr, KindSchema

UNIT = KindSchema(
    "unit",
    "Unit",
    (
        Attr("atk", "ATK", "int", required=True),
        Attr("def", "DEF", "int", required=True),
        Attr(
            "classes",
            "Classes",
            "list",
            help="healer, necromancer, recruiter, thief and the orange subclasses",
        ),
        Attr("unit_type", "Type", "str", help="e.g. undead"),
        Attr("res", "RES", "int", help="the turquoise circle"),
        Attr("raise_res", "Raise RES", "int"),
        Attr("vs_bonus", "VS bonus", "str"),
        Attr("on_play", "On play", "bool"),
        Attr("priority", "Priority", "bool"),
        Attr("attack_twice", "Attack twice", "bool"),
        Attr("d6_bonus", "D6 bonus", "bool"),
    ),
    has_cost=False,
)

ITEM = KindSchema(
    "item",
    "Item",
    (
        Attr("item_class", "Class", "str", help="e.g. weapon"),
        Attr("res", "RES", "int"),
        Attr("atk_bonus", "ATK bonus", "int"),
        Attr("def_bonus", "DEF bonus", "int"),
    ),
    has_cost=False,
)

FIELD = KindSchema(
    "field",
    "Field",
    (
        Attr("time", "Time", "choice", choices=("day", "night"), required=True),
        Attr("realm", "Realm", "str"),
        Attr("field_class", "Class", "str"),
        Attr("elemental_res", "Elemental RES", "str"),
    ),
    has_cost=False,
)

KINDS: dict[str, KindSchema] = {s.kind: s for s in (UNIT, ITEM, FIELD)}
