"""Pond: a toy sixth game, used by the tests to show that a game is one package.

Frogs hop across a pond of lily pads. A player brings a pond: at least 4 frogs (at most 2 of
one) and exactly 6 pads. The goldfish hops a random frog of the pond each turn and reports
the turn the far bank is reached; the tool gives the exact odds of one frog reaching a pad.
Its rulebook table (`trace.py`) gives each rule code its sentence.
Nothing outside this package knows the game: the site reads it through `GAME`, its own
builder panel from `templates/` and its sample data from `sample_data/` (the cards of
`POND1.json` and the list of `decks/pond.txt` are sample data authored for the tests).
"""

from __future__ import annotations

from validation.registry import GameDef

from .formats import FORMATS
from .goldfish import GOLDFISH
from .kinds import KINDS
from .tools import HOP_ODDS
from .trace import RULEBOOK

GAME = GameDef(
    slug="pond",
    name="Pond",
    description="Frogs hop from lily pad to lily pad across the pond.",
    factions={},
    kinds=KINDS,
    formats=FORMATS,
    goldfish=GOLDFISH,
    tools=(HOP_ODDS,),
    python_name="pond",
    trace=RULEBOOK,
)
