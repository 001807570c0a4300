"""The rules core of Cardsite: card kinds and their attribute schemas, formats and
construction rules per game, the rule runner, and the deck-list text format.

Free of Django: the catalogue hands it plain `CardFacts`, it answers with `Violation`s.

The built-in games (validation/games/) are registered with `validation.registry.registry`
when the rules core is first imported: the game packages import the registry's classes, and
the registry imports no game.
"""

import validation.games  # noqa: F401
