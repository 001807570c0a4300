"""What the collection app does when the site's hooks call (registered in
`CollectionConfig.ready`): a card's page is drawn."""

from __future__ import annotations

from .selectors import card_decks, card_use_figures


def card_panels(card, user=None) -> list[dict]:
    """A card's page: the signed-in user's decks using it (copies, built) and their copies
    (owned · in built decks · free), and for everyone how many public decks use it."""
    panel = {
        "template": "collection/_card_decks.html",
        "card": card,
        **card_decks(owner=user, card=card),
    }
    if user is not None and user.is_authenticated:
        panel["figures"] = card_use_figures(owner=user, card=card, decks=panel["decks"])
    return [panel]
