"""What the collection app does when the site's hooks call (registered in
`CollectionConfig.ready`): a card's page is drawn."""

from __future__ import annotations

from typing import Any

from cardsite.hooks import Panel
from catalogue.models import Card

from .selectors import card_decks, card_use_figures


def card_panels(card: Card, user: Any = None) -> list[Panel]:
    """A card's page: the signed-in user's decks using it (copies, built) and their copies
    (owned · in built decks · free), and for everyone how many public decks use it."""
    context: dict[str, Any] = {"card": card, **card_decks(owner=user, card=card)}
    if user is not None and user.is_authenticated:
        context["figures"] = card_use_figures(owner=user, card=card, decks=context["decks"])
    return [Panel("collection/_card_decks.html", context)]
