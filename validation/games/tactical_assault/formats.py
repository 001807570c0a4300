"""Tactical Assault formats and construction rules (the game spec §2)."""

from __future__ import annotations

from validation.games.tactical_assault.kinds import DECK_SIZE
from validation.registry import FormatDef
from validation.rules import PointsLimit, PointsUnder, Rule, RuleContext, UniqueAttribute
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

    def __init__(self, section: str = "force", **kw) -> None:
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


FORCE = SectionSpec(
    "force",
    "Force",
    kinds=("unit_type",),
    kind_code="section.kind",
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
            checks=FORCE_RULES,
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
