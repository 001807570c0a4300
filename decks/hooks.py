"""The decks app's hooks (cardsite.hooks): what other apps add to a deck's page.

- `DECK_LINKS`: `fn(deck) -> [PageLink]`, buttons on a deck's page (the play app's "Take to
  the table"), all listeners' joined.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from cardsite.hooks import Hook, PageLink

if TYPE_CHECKING:
    # Only named in the protocol: the apps' `ready()` imports this module before the models
    # are loaded.
    from .models import Deck


class DeckLinks(Protocol):
    def __call__(self, deck: Deck) -> list[PageLink]: ...


DECK_LINKS: Hook[DeckLinks] = Hook("deck_links")


def deck_links(deck: Deck) -> list[PageLink]:
    """Every button any app adds to a deck's page."""
    return [link for fn in DECK_LINKS.listeners for link in fn(deck)]
