"""Deck API: validation of a list, decks and their versions (the collection's routes are the
collection app's: collection.api).

Every queryset is scoped in the query: reads by id among the decks visible to the user
(their own, public ones; staff all), unlisted decks only through /api/decks/shared/<token>/,
writes among the user's own decks. A deck that is not in scope is a 404 whatever its id.
"""

from .answers import BAD_REQUEST, WriteThrottle
from .decks import DeckViewSet
from .validate import ValidateView

__all__ = ["BAD_REQUEST", "DeckViewSet", "ValidateView", "WriteThrottle"]
