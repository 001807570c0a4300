"""Tactical Assault formats and construction rules (the game spec §2)."""

from __future__ import annotations

from typing import Any

from validation.games.tactical_assault.kinds import DECK_SIZE
from validation.registry import FormatDef
from validation.rules import (
    PointsLimit,
    PointsUnder,
    Rule,
    RuleContext,
    UniqueAttribute,
    option_limit,
    points,
)
from validation.sections import SectionSpec
from validation.types import CardFacts, Deck, Violation

STANDARD_POINTS = 36


def on_battlefield(card: CardFacts) -> bool:
    """A unit type that starts on the battlefield: neither off-battlefield (Aerial,
    Artillery, Infiltrator) nor immobile (Bunker, Obstacle)."""
    attrs = card.attributes
    return not attrs.get("off_battlefield") and not attrs.get("immobile")


class ForceEmpty(Rule):
    """A force has at least one unit on the battlefield at the start: not only
    off-battlefield or immobile units."""

    __slots__ = ("section",)

    def __init__(self, section: str = "force", **kw: Any) -> None:
        super().__init__(**kw)
        self.section = section

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        entries = [e for e in deck.sections.get(self.section, ()) if e.card.kind == "unit_type"]
        if any(on_battlefield(e.card) for e in entries):
            return []
        if not entries:
            message = "no units in the force; at least 1 on the battlefield at the start"
        else:
            message = (
                "0 units on the battlefield at the start (only off-battlefield or immobile "
                "units); at least 1"
            )
        return [self.violation(message, self.section, tuple(e.card.name for e in entries))]


def campaign_force_problem(total: int, allowed: int) -> str | None:
    """Why a force of `total` unit points cannot be a force of a campaign of `allowed` unit
    points (None when it can). Part VII: "After any swapping, the total Unit Points for the
    force must still match the total allowed for the campaign": exactly that total, neither
    under nor over. The one rule of the builder's campaign verdict and the campaign
    tracker (through the campaign format's `force.points`)."""
    if total == allowed:
        return None
    gap = f"{allowed - total} short" if total < allowed else f"{total - allowed} over"
    return (
        f"the force totals {total} unit points; the campaign's forces total exactly "
        f"{allowed} ({gap})"
    )


class CampaignForceTotal(Rule):
    """The campaign format's force totals exactly the campaign's points (its `points`
    option): `campaign_force_problem`."""

    __slots__ = ("section",)

    def __init__(self, section: str = "force", **kw: Any) -> None:
        super().__init__(**kw)
        self.section = section

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        allowed = option_limit(ctx, "points")
        if allowed is None:
            return [
                self.violation(
                    "the campaign's points total must be a positive whole number, "
                    f"got {ctx.options.get('points')!r}"
                )
            ]
        entries = [e for e in deck.sections.get(self.section, ()) if e.card.kind == "unit_type"]
        problem = campaign_force_problem(points(deck, (self.section,), ("unit_type",)), allowed)
        if problem is None:
            return []
        return [self.violation(problem, self.section, tuple(e.card.name for e in entries))]


FORCE = SectionSpec(
    "force",
    "Force",
    kinds=("unit_type",),
    kind_code="section.kind",
    laid_out=True,
)
DECK = SectionSpec(
    "deck",
    "Combat cards deck",
    kinds=("combat_card",),
    size=(DECK_SIZE, DECK_SIZE),
    size_code="deck.size",
    optional=True,
    description="a Combat Cards deck holds exactly 72 cards",
)

FORCE_RULES: tuple[Rule, ...] = (
    PointsLimit(
        "force",
        noun="force points",
        kinds=("unit_type",),
        code="force.points",
        description="the force's unit points total at most the format's limit",
    ),
    ForceEmpty(
        code="force.empty",
        description="at least one unit on the battlefield at the start",
    ),
    PointsUnder(
        "force",
        noun="force points",
        kinds=("unit_type",),
        code="force.under",
        description="the force uses fewer points than allowed",
    ),
    UniqueAttribute(
        "deck",
        "number",
        kinds=("combat_card",),
        code="deck.unique",
        when_present="deck",
        description="one of each number 1–72, no duplicates",
    ),
)

CAMPAIGN_RULES: tuple[Rule, ...] = (
    CampaignForceTotal(
        code="force.points",
        description="the campaign force totals exactly the campaign's unit points (Part VII)",
    ),
) + tuple(r for r in FORCE_RULES if r.code not in ("force.points", "force.under"))

FORMATS: dict[str, FormatDef] = {
    f.slug: f
    for f in (
        FormatDef(
            "standard",
            "Standard",
            "Each side builds a force of 36 unit points.",
            sections=(FORCE, DECK),
            checks=FORCE_RULES,
            options={"points": STANDARD_POINTS},
        ),
        FormatDef(
            "custom",
            "Custom",
            "The players agree on the force's unit points total.",
            sections=(FORCE, DECK),
            checks=FORCE_RULES,
            options={"points": STANDARD_POINTS},
            adjustable=frozenset({"points"}),
        ),
        FormatDef(
            "campaign",
            "Campaign",
            "A series of games with one force per player, improved with campaign points.",
            sections=(FORCE, DECK),
            checks=CAMPAIGN_RULES,
            options={
                "points": STANDARD_POINTS,
                "win": 9,
                "loss": 6,
                "draw": 3,
                "promotion_cost": 3,
                "swap_cost_per_point": 1,
            },
            adjustable=frozenset({"points"}),
        ),
    )
}
