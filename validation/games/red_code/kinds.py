"""Red Code card kinds (the game spec §3): ships with their control cards, manoeuvres, order
cards and map cards."""

from __future__ import annotations

from validation.schema import Attr, KindSchema

SHIP_CLASSES = ("submarine", "destroyer", "carrier")
BOXES = ("sea", "island", "current_n", "current_e", "current_s", "current_w")

SHIP = KindSchema(
    "ship",
    "Ship",
    (
        Attr("ship_class", "Class", "choice", choices=SHIP_CLASSES, required=True),
        Attr("repairs", "Repairs", "int", required=True, minimum=0),
        Attr("breakdowns", "Breakdowns", "int", required=True, minimum=0),
        Attr("crew", "Crew", "int", default=6, minimum=0),
        Attr(
            "manoeuvres",
            "Manoeuvres",
            "dict_list",
            choices=("name", "crew_cost"),
            help='4 common and 4 unique, each {"name": ..., "crew_cost": n}',
        ),
    ),
    has_cost=False,
)

MANOEUVRE = KindSchema(
    "manoeuvre",
    "Manoeuvre",
    (
        Attr("distance", "Distance", "int", minimum=0, help="0 = the ship itself"),
        Attr("repair_damage", "Repair damage", "int"),
        Attr("crew_damage", "Crew damage", "int"),
        Attr("repair_gain", "Repair gain", "int"),
        Attr("breakdown_gain", "Breakdown gain", "int"),
        Attr("movement", "Movement", "int"),
        Attr("cancels", "Cancels", "bool", help="Shield"),
        Attr("responds", "Responds", "bool", help="usable as a response (yellow)"),
        Attr(
            "respondable",
            "Respondable",
            "bool",
            default=True,
            help='false for "can not be responded to"',
        ),
    ),
    has_cost=False,
)

ORDER = KindSchema(
    "order",
    "Order",
    (
        Attr(
            "copies", "Copies", "int", default=1, minimum=1, help="how many of the 30 order cards"
        ),
        Attr("effect", "Effect", "dict", help="the effect in structured form, beside the text"),
    ),
    has_cost=False,
)

MAP_CARD = KindSchema(
    "map_card",
    "Map card",
    (
        Attr("boxes", "Boxes", "choice_list", choices=BOXES, required=True, length=4),
        Attr("start", "Start card", "bool", help="a side's starting card"),
    ),
    has_cost=False,
)

KINDS: dict[str, KindSchema] = {s.kind: s for s in (SHIP, MANOEUVRE, ORDER, MAP_CARD)}
