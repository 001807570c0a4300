"""The deck options the rules core sees: "restrict to my collection" (the owner's counts of the
deck's cards) and its checks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardsite.accounts import signed_in
from validation.types import Deck

from .errors import DeckInvalid
from .holdings import owned_counts

#: The deck option "restrict to my collection": `true` checks the deck against its owner's
#: collection (army.collection); a mapping {card name: copies} gives the counts directly.
COLLECTION_OPTION = "collection"


def collection_counts(*, owner, game_slug: str, names) -> dict[str, int]:
    """How many copies of each named card of a game `owner` owns, products and loose cards
    together (cards not owned are left out), in one query (the collection app, through lists.holdings)."""
    return owned_counts(owner=owner, game_slug=game_slug, names=names)


def clean_collection_option(options: Mapping[str, Any] | None, *, owner) -> dict[str, Any]:
    """The options as stored: `collection` false or null is dropped; true (restrict to the
    owner's collection) needs an owner; a mapping must map card names to copies. Raises
    DeckInvalid naming the option otherwise."""
    out = dict(options or {})
    if COLLECTION_OPTION not in out:
        return out
    value = out[COLLECTION_OPTION]
    if value is None or value is False:
        del out[COLLECTION_OPTION]
    elif value is True:
        if not signed_in(owner):
            raise DeckInvalid(
                {"options": ["collection: sign in to check a list against your collection"]}
            )
    elif isinstance(value, Mapping):
        bad = [
            str(name)
            for name, n in value.items()
            if not isinstance(n, int) or isinstance(n, bool) or n < 0
        ]
        if bad:
            raise DeckInvalid(
                {"options": [f"collection: copies of {', '.join(bad)} must be whole numbers ≥ 0"]}
            )
    else:
        raise DeckInvalid(
            {"options": ["collection: true (your collection) or {card name: copies owned}"]}
        )
    return out


def rules_options(
    options: Mapping[str, Any], *, owner, game_slug: str, deck: Deck
) -> dict[str, Any]:
    """The options the rules core sees: `collection: true` becomes the owner's counts of the
    deck's cards (so that army.collection reports every shortage)."""
    out = dict(options)
    if out.get(COLLECTION_OPTION) is True:
        names = [e.card.name for entries in deck.sections.values() for e in entries]
        out[COLLECTION_OPTION] = collection_counts(owner=owner, game_slug=game_slug, names=names)
    return out
