"""Tactical Assault: Combat Cards card kinds (the game spec §2, rulebook Table 3)."""

from __future__ import annotations

from validation.schema import Attr, KindSchema

RATINGS = ("none", "very_light", "light", "moderate", "heavy", "very_heavy")
DISTANCES = ("none", "very_short", "short", "medium", "long", "very_long")
DRIFT_DISTANCES = ("very_short", "short", "medium", "long", "very_long")
COMBAT_RESULTS = ("eliminated", "out_of_action", "shaken", "fall_back", "no_effect")
#: A drift direction is a clock hour, written as text ("1".."12"), or "dead_on".
DRIFT_DIRECTIONS = (*(str(h) for h in range(1, 13)), "dead_on")
DECK_SIZE = 72

UNIT_TYPE = KindSchema(
    "unit_type",
    "Unit type",
    (
        Attr("firepower", "Firepower", "choice", choices=RATINGS, required=True),
        Attr("protection", "Protection", "choice", choices=RATINGS, required=True),
        Attr("close_combat", "Close combat", "choice", choices=RATINGS, required=True),
        Attr("range_distance", "Range distance", "choice", choices=DISTANCES, required=True),
        Attr(
            "off_battlefield",
            "Off battlefield",
            "bool",
            help="Aerial, Artillery, Infiltrator: not on the battlefield at the start",
        ),
        Attr("immobile", "Immobile", "bool", help="Bunker, Obstacle"),
    ),
)

COMBAT_CARD = KindSchema(
    "combat_card",
    "Combat card",
    (
        Attr("number", "Number", "int", required=True, minimum=1, maximum=DECK_SIZE),
        Attr("action", "Action", "str"),
        Attr("situation", "Situation", "str"),
        Attr("combat_result", "Combat result", "choice", choices=COMBAT_RESULTS, required=True),
        Attr(
            "drift_direction",
            "Drift direction",
            "choice",
            choices=DRIFT_DIRECTIONS,
            help='a clock hour as text ("1" to "12") or "dead_on"',
        ),
        Attr("drift_distance", "Drift distance", "choice", choices=DRIFT_DISTANCES),
    ),
    has_cost=False,
)

KINDS: dict[str, KindSchema] = {s.kind: s for s in (UNIT_TYPE, COMBAT_CARD)}
