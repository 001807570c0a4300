"""The collection's answers to the decks app (`decks.lists.holdings.Holdings`), provided
when the app starts (`CollectionConfig.ready`): the decks app, a layer below, asks through
that protocol instead of importing this app."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Q, QuerySet

from catalogue.models import Card, Printing
from decks.lists.holdings import Availability, CardFigures, DeckUse, provide

from . import selectors
from .models import CollectionEntry
from .owned import owned_counts

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from decks.models import Deck


class CollectionHoldings:
    """`decks.lists.holdings.Holdings`, answered from the collection's tables."""

    def owned_counts(
        self,
        *,
        owner: User,
        game_id: int | None = None,
        game_slug: str | None = None,
        names: Iterable[str] | None = None,
    ) -> dict[str, int]:
        return owned_counts(owner=owner, game_id=game_id, game_slug=game_slug, names=names)

    def owns_any(self, *, owner: User, game_id: int) -> bool:
        return CollectionEntry.objects.filter(owner=owner, card__game_id=game_id).exists()

    def owned_cards(self, *, owner: User) -> Q:
        # Owned: loose copies, or a printing in a product the user owns.
        return Q(
            Exists(CollectionEntry.objects.filter(owner=owner, card=OuterRef("pk")))
            | Exists(Printing.objects.filter(card=OuterRef("pk"), expansion__owned_by__owner=owner))
        )

    def only_free(
        self, queryset: QuerySet[Card], *, owner: User, game_id: int, exclude: int | None = None
    ) -> tuple[QuerySet[Card], dict[str, list[DeckUse]]]:
        return selectors.only_free(queryset, owner=owner, game_id=game_id, exclude=exclude)

    def card_figures(
        self,
        *,
        owner: User,
        game_id: int,
        names: Iterable[str] | None = None,
        exclude: int | None = None,
    ) -> dict[str, CardFigures]:
        return selectors.card_figures(owner=owner, game_id=game_id, names=names, exclude=exclude)

    def availability(self, *, owner: User, deck: Deck) -> list[Availability]:
        return selectors.availability(owner=owner, deck=deck)


def provide_to_decks() -> None:
    """Answer the decks app's questions from the collection (called once, when the app
    starts)."""
    provide(CollectionHoldings())
