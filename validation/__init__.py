"""The rules core of Cardsite: card kinds and their attribute schemas, formats and
construction rules per game, the rule runner, and the deck-list text format.

Free of Django: the catalogue hands it plain `CardFacts`, it answers with `Violation`s.
"""
