"""Hex Skirmish — an online army game: hexagonal units deployed on an 8 × 16 hex
battlefield, driven by a deck of command cards (rules/hex-skirmish.txt)."""

from __future__ import annotations

from typing import Any

from validation.games.hex_skirmish.draws import DRAWS
from validation.games.hex_skirmish.faces import CARD_FACES
from validation.games.hex_skirmish.formats import FORMATS
from validation.games.hex_skirmish.kinds import KINDS
from validation.games.hex_skirmish.simulation import GOLDFISH
from validation.games.hex_skirmish.trace import RULEBOOK
from validation.placement import HexGrid
from validation.registry import GameDef
from validation.rules import RuleContext, option_limit, points
from validation.types import Deck


def totals(deck: Deck, ctx: RuleContext) -> dict[str, Any]:
    """Army points (units plus command cards), the limit, and the counts of each."""
    return {
        "points": points(deck, ("units", "cards")),
        "limit": option_limit(ctx, "points"),
        "unit_points": points(deck, ("units",)),
        "units": sum(e.count for e in deck.section("units") if e.card.kind == "unit"),
        "command_cards": sum(e.count for e in deck.section("cards") if e.card.kind == "command"),
    }


GAME: GameDef = GameDef(
    slug="hex-skirmish",
    name="Hex Skirmish",
    description="Two armies of hexagonal units and command cards clash on an 8 × 16 hex "
    "battlefield.",
    kinds=KINDS,
    card_faces=CARD_FACES,
    draws=DRAWS,
    goldfish=GOLDFISH,
    formats=FORMATS,
    totals=totals,
    python_name="hex_skirmish",
    placement=HexGrid(),
    trace=RULEBOOK,
    unit_sheet=("units",),
)
