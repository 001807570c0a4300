"""Red Code — WWII ships manoeuvre on a map of cards; blue and red sides of 1 to 3 players
manage their crews to sink each other (rules/red-code.txt)."""

from __future__ import annotations

from typing import Any

from validation.games.red_code.faces import CARD_FACES
from validation.games.red_code.formats import FORMATS, players
from validation.games.red_code.kinds import KINDS
from validation.games.red_code.layout import draw_layout, generate_layout
from validation.games.red_code.tools import CREW, VISUAL_FIELD
from validation.games.red_code.trace import RULEBOOK
from validation.registry import GameDef, MapLayout
from validation.rules import RuleContext
from validation.types import Deck

__all__ = ["GAME", "generate_layout"]


def totals(deck: Deck, ctx: RuleContext) -> dict[str, Any]:
    """Players per side (ships of the side's colour) and the order deck's size (order cards)."""
    blue, red = players(deck, "blue"), players(deck, "red")
    orders = sum(e.count for e in deck.section("orders") if e.card.kind == "order")
    return {"blue": blue, "red": red, "players": blue + red, "orders": orders}


GAME: GameDef = GameDef(
    slug="red-code",
    name="Red Code",
    description="WWII ships of the blue and red sides manoeuvre on a map of cards, spending "
    "crew to sink each other.",
    factions={"blue": "Blue", "red": "Red"},
    kinds=KINDS,
    card_faces=CARD_FACES,
    formats=FORMATS,
    totals=totals,
    python_name="red_code",
    trace=RULEBOOK,
    map_layout=MapLayout(option="map", kind="map_card", generate=generate_layout, draw=draw_layout),
    tools=(CREW, VISUAL_FIELD),
)
