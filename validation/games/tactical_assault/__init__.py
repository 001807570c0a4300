"""Tactical Assault: Combat Cards — a miniatures war game driven by a deck of 72 combat
cards; each side fields a force of unit types bought with unit points."""

from __future__ import annotations

from typing import Any

from validation.games.tactical_assault.campaign import CAMPAIGN
from validation.games.tactical_assault.close_combat import TOOL as CLOSE_COMBAT
from validation.games.tactical_assault.combat_odds_tool import TOOL as COMBAT_ODDS
from validation.games.tactical_assault.formats import FORMATS
from validation.games.tactical_assault.kinds import KINDS
from validation.registry import GameDef
from validation.rules import RuleContext, option_limit, points
from validation.types import Deck


def elimination_threshold(force_points: int) -> int | float:
    """Half the force's points: a side that has lost this many unit points has lost."""
    return force_points // 2 if force_points % 2 == 0 else force_points / 2


def totals(deck: Deck, ctx: RuleContext) -> dict[str, Any]:
    """The force's points, the format's limit and the elimination threshold."""
    force_points = points(deck, ("force",), ("unit_type",))
    return {
        "points": force_points,
        "limit": option_limit(ctx, "points"),
        "elimination_threshold": elimination_threshold(force_points),
        "units": sum(e.count for e in deck.section("force") if e.card.kind == "unit_type"),
    }


GAME = GameDef(
    slug="tactical-assault",
    name="Tactical Assault: Combat Cards",
    description="A miniatures battle game whose fire, movement and close combat are resolved "
    "with a deck of 72 combat cards.",
    factions={},
    kinds=KINDS,
    formats=FORMATS,
    tools=(COMBAT_ODDS, CLOSE_COMBAT),
    totals=totals,
    python_name="tactical_assault",
    campaign=CAMPAIGN,
)
