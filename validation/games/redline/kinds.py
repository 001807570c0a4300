"""REDLINE card kinds and their attributes (the game spec §1)."""

from __future__ import annotations

from validation.schema import Attr, KindSchema

SLOTS = ("laser", "missile", "cannon", "system", "pilot", "open")
EQUIPMENT_TYPES = ("laser", "missile", "cannon", "system", "pilot")

_keywords = Attr("keywords", "Keywords", "list", help='e.g. "Ambush 2", "Salvo", "Scouting"')
_heroic = Attr("heroic", "Heroic", "bool", help="only one heroic card in play at a time")

GENERAL = KindSchema(
    "general",
    "General",
    (
        Attr("armor", "Armor", "int", required=True, minimum=0),
        Attr("abilities", "Abilities", "list", help='e.g. "Siegecraft", "Prepared Ground"'),
    ),
)

EFREET = KindSchema(
    "efreet",
    "Efreet",
    (
        Attr(
            "efreet_class", "Class", "choice", choices=("light", "medium", "heavy"), required=True
        ),
        Attr("damage", "Damage", "int", required=True, minimum=0),
        Attr("armor", "Armor", "int", required=True, minimum=0),
        Attr("speed", "Speed", "int", required=True, minimum=0),
        Attr("slots", "Slots", "choice_list", choices=SLOTS, help="empty = closed"),
        _keywords,
        _heroic,
    ),
)

EQUIPMENT = KindSchema(
    "equipment",
    "Equipment",
    (
        Attr("equipment_type", "Type", "choice", choices=EQUIPMENT_TYPES, required=True),
        Attr("equip_cost", "Equip cost", "int", minimum=0),
        _keywords,
        _heroic,
    ),
)

TACTIC = KindSchema(
    "tactic",
    "Tactic",
    (_keywords, _heroic),
)

STRATEGY = KindSchema(
    "strategy",
    "Strategy",
    (Attr("armor", "Armor", "int", minimum=0), _heroic),
)

RESOURCE = KindSchema(
    "resource",
    "Resource",
    (
        Attr("provides", "Provides", "int", default=1, minimum=0),
        Attr("basic", "Basic", "bool", help="a basic supply drop: no copy limit"),
    ),
    has_cost=False,
)

MISSION = KindSchema(
    "mission",
    "Mission",
    (
        Attr("capture_cost", "Capture cost", "int", required=True, minimum=0),
        Attr(
            "control_bonus",
            "Control bonus",
            "dict",
            choices=("recon", "resources"),
            help='{"recon": n}, {"resources": n} or {}',
        ),
        Attr("scorched_earth", "Scorched earth", "bool"),
    ),
    has_cost=False,
)

CRITICAL_HIT = KindSchema(
    "critical_hit",
    "Critical hit",
    (Attr("permanent", "Permanent", "bool"),),
    has_cost=False,
)

KINDS: dict[str, KindSchema] = {
    s.kind: s
    for s in (GENERAL, EFREET, EQUIPMENT, TACTIC, STRATEGY, RESOURCE, MISSION, CRITICAL_HIT)
}
