"""Red Mittens — a card game of units, items and fields played from three core decks
(rules/red-mittens.txt)."""

from __future__ import annotations

from validation.games.red_mittens.draws import DRAWS
from validation.games.red_mittens.formats import FORMATS
from validation.games.red_mittens.kinds import KINDS
from validation.games.red_mittens.simulation import GOLDFISH
from validation.games.red_mittens.trace import RULEBOOK
from validation.registry import GameDef

GAME: GameDef = GameDef(
    slug="red-mittens",
    name="Red Mittens",
    description="Units, items and fields from three core decks battle under day and night "
    "until one player's life points run out.",
    kinds=KINDS,
    draws=DRAWS,
    goldfish=GOLDFISH,
    formats=FORMATS,
    python_name="red_mittens",
    trace=RULEBOOK,
)
