"""The built-in games of the rules core, one package each; importing this registers them all.

A built-in game is one folder here (`<python_name>/`, its `__init__.py` defining `GAME`, a
`GameDef`, beside its `templates/` and `sample_data/`) and one line in `BUILT_IN` below.
"""

from __future__ import annotations

from validation.registry import registry

#: The packages of the built-in games, in registration order: one line a game.
BUILT_IN = (
    "redline",
    "tactical_assault",
    "red_code",
    "red_mittens",
    "hex_skirmish",
)

for _name in BUILT_IN:
    registry.load(f"{__name__}.{_name}")
