"""Deck services: what an owner does to decks and their versions.

- `versions`: decks and their versions (create, save, autosave, seal, update, pin to a rule
  set, mark built, share links, delete, clone);
- `cards`: a card added to a deck from the card's page (`deck_add_card`).

A player's collection (products and loose cards, importing it) is the
collection app's (collection.services).

Reading and checking a list is `decks.lists`; stored verdicts and their re-checks are
`decks.verdicts`. The errors these services raise are `decks.lists`' and are named here too
(`DeckInvalid`, `ListInvalid`, `VersionConflict`), for the callers that catch them.

Services are named by verb and take keyword arguments; views and API classes parse input,
call one service and render. Permission scoping is the caller's job and is done in the
query (`Deck.objects.visible_to(user)` / `.owned_by(user)`): a service trusts the objects
it is handed. The names below are the package's public interface.
"""

from decks.lists import DeckInvalid, ListInvalid, VersionConflict

from .cards import deck_add_card
from .versions import (
    WORKING_WINDOW_SECONDS,
    _entries,
    deck_autosave,
    deck_clone,
    deck_create,
    deck_delete,
    deck_new_share_link,
    deck_pin,
    deck_save_version,
    deck_seal_version,
    deck_set_built,
    deck_update,
    entries_as_sections,
)

__all__ = [
    "WORKING_WINDOW_SECONDS",
    "DeckInvalid",
    "ListInvalid",
    "VersionConflict",
    "_entries",
    "deck_add_card",
    "deck_autosave",
    "deck_clone",
    "deck_create",
    "deck_delete",
    "deck_new_share_link",
    "deck_pin",
    "deck_save_version",
    "deck_seal_version",
    "deck_set_built",
    "deck_update",
    "entries_as_sections",
]
