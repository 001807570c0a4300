"""What other apps may use of the collection app (an import-linter contract keeps them out
of its views, API, forms and internals; decks, a layer below, asks through
decks.lists.holdings instead).

- `owned_counts(owner=, game_id=|game_slug=, names=)`: {card name: copies owned}, products'
  printings and loose copies added up;
- `loose_card_ids(owner)`: the ids of the cards the user owns loose copies of, as a
  subquery;
- the writes of collection.services (`collection_set`, `product_set`, `collection_import`,
  `collection_replace`) and the models, for tests and fixtures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.db.models import QuerySet

from .models import CollectionEntry, OwnedProduct
from .owned import owned_counts
from .services import (
    Imported,
    collection_import,
    collection_replace,
    collection_set,
    product_set,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = [
    "CollectionEntry",
    "Imported",
    "OwnedProduct",
    "collection_import",
    "collection_replace",
    "collection_set",
    "loose_card_ids",
    "owned_counts",
    "product_set",
]


class CardIdRow(TypedDict):
    """A row of `loose_card_ids`."""

    card_id: int


def loose_card_ids(owner: User) -> QuerySet[CollectionEntry, CardIdRow]:
    """The ids of the cards `owner` owns loose copies of (`card_id` rows, for a subquery)."""
    return CollectionEntry.objects.filter(owner=owner, count__gt=0).values("card_id")
