"""Tactical Assault: Combat Cards — a miniatures war game driven by a deck of 72 combat
cards; each side fields a force of unit types bought with unit points."""

from __future__ import annotations

from typing import Any

from validation.games.tactical_assault.campaign import CAMPAIGN
from validation.games.tactical_assault.close_combat import TOOL as CLOSE_COMBAT
from validation.games.tactical_assault.combat_odds_tool import TOOL as COMBAT_ODDS
from validation.games.tactical_assault.formats import FORMATS, campaign_force_problem
from validation.games.tactical_assault.kinds import KINDS
from validation.games.tactical_assault.trace import RULEBOOK
from validation.registry import GameDef
from validation.rules import RuleContext, option_limit, points
from validation.types import Deck

__all__ = [
    "GAME",
    "STANDARD_ELIMINATION",
    "campaign_force_problem",
    "elimination_basis",
    "elimination_threshold",
    "totals",
]


#: Part VI, The Standard Game, Victory Conditions: "One Side Has Had 18 Unit Points
#: Eliminated" — a number of its own, whatever the force's points.
STANDARD_ELIMINATION = 18


def elimination_threshold(format_slug: str, force_points: int) -> int | float:
    """The unit points a side loses the game at having eliminated, in `format_slug`: the
    Standard Game's fixed 18 (Part VI, Victory Conditions), else half the force's points
    (Part II, Determine Victory Conditions: "One Side Has Had Half Of Their Unit Points
    Eliminated"; a custom game and a campaign play it so). The one function the totals,
    the builder and every page that shows the threshold use."""
    if format_slug == "standard":
        return STANDARD_ELIMINATION
    return force_points // 2 if force_points % 2 == 0 else force_points / 2


def elimination_basis(format_slug: str) -> str:
    """Where `elimination_threshold`'s number comes from, in words."""
    if format_slug == "standard":
        return "the Standard Game's own number (Part VI), whatever the force's points"
    return "half the force's unit points (Part II, Determine Victory Conditions)"


def totals(deck: Deck, ctx: RuleContext) -> dict[str, Any]:
    """The force's points, the format's limit and the elimination threshold."""
    force_points = points(deck, ("force",), ("unit_type",))
    return {
        "points": force_points,
        "limit": option_limit(ctx, "points"),
        "elimination_threshold": elimination_threshold(ctx.format.slug, force_points),
        "elimination_basis": elimination_basis(ctx.format.slug),
        "units": sum(e.count for e in deck.section("force") if e.card.kind == "unit_type"),
    }


GAME: GameDef = GameDef(
    slug="tactical-assault",
    name="Tactical Assault: Combat Cards",
    description="A miniatures battle game whose fire, movement and close combat are resolved "
    "with a deck of 72 combat cards.",
    kinds=KINDS,
    formats=FORMATS,
    tools=(COMBAT_ODDS, CLOSE_COMBAT),
    totals=totals,
    python_name="tactical_assault",
    trace=RULEBOOK,
    campaign=CAMPAIGN,
    unit_sheet=("force",),
)
