"""The games of the rules core, one package each; importing this registers them all.

Adding a game: a new package here exposing `GAME` (a `GameDef`), then one line below.
"""

from __future__ import annotations

from validation.games import hex_skirmish, red_code, red_mittens, redline, tactical_assault
from validation.registry import registry

GAMES = (redline.GAME, tactical_assault.GAME, red_code.GAME, red_mittens.GAME, hex_skirmish.GAME)

for _game in GAMES:
    if _game.slug not in registry:
        registry.register(_game)
