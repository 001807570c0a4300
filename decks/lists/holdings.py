"""What the decks app asks of a user's collection, without importing the app that holds it.

The collection (owned products and loose cards, and the figures of the built decks) is the
`collection` app's, a layer above decks: it reads the decks' lists. The decks app needs a
few of its answers all the same (a list restricted to its owner's collection, the builder's
"your cards" figures and its "only what I own" search, a deck's availability on its page),
so it names them here, as the `Holdings` protocol, and the collection app provides them when
it starts (`CollectionConfig.ready` calls `provide`). The values passed both ways
(`DeckUse`, `CardFigures`) are defined here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypedDict

from django.db.models import Q, QuerySet

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from catalogue.models import Card
    from decks.models import Deck


class BuiltDeckCopies(TypedDict):
    """A built deck holding copies of a card: its id, name and copies."""

    id: int
    name: str
    count: int


class Figures(TypedDict):
    """A card's figures as a dict (`CardFigures.as_dict`)."""

    owned: int
    in_built_decks: int
    built_decks: list[BuiltDeckCopies]
    free: int


class Availability(TypedDict):
    """A card of a deck's current version: copies needed, its figures and `short` (needed
    beyond free)."""

    card: str
    needed: int
    owned: int
    in_built_decks: int
    built_decks: list[BuiltDeckCopies]
    free: int
    short: int


@dataclass(frozen=True)
class DeckUse:
    """`count` copies of a card held by one of the user's decks."""

    id: int
    name: str
    count: int
    built: bool = True


@dataclass
class CardFigures:
    """One card's figures for its owner: owned · in built decks (which) · free."""

    owned: int = 0
    decks: list[DeckUse] = field(default_factory=list)

    @property
    def in_built(self) -> int:
        return sum(d.count for d in self.decks)

    @property
    def free(self) -> int:
        return max(self.owned - self.in_built, 0)

    def as_dict(self) -> Figures:
        return {
            "owned": self.owned,
            "in_built_decks": self.in_built,
            "built_decks": [{"id": d.id, "name": d.name, "count": d.count} for d in self.decks],
            "free": self.free,
        }


class Holdings(Protocol):
    """The collection's answers the decks app uses (collection.holdings provides them)."""

    def owned_counts(
        self,
        *,
        owner: User,
        game_id: int | None = None,
        game_slug: str | None = None,
        names: Iterable[str] | None = None,
    ) -> dict[str, int]:
        """{card name: copies owned} of one game's cards (`names` only, when given)."""
        ...

    def owns_any(self, *, owner: User, game_id: int) -> bool:
        """Whether the user owns a loose card of the game."""
        ...

    def owned_cards(self, *, owner: User) -> Q:
        """For a queryset of cards: the cards with a copy owned (loose, or a printing in a
        product owned)."""
        ...

    def only_free(
        self, queryset: QuerySet[Card], *, owner: User, game_id: int, exclude: int | None = None
    ) -> tuple[QuerySet[Card], dict[str, list[DeckUse]]]:
        """The cards of `queryset` with a free copy, each annotated with `owned_copies`, and
        the built decks holding each card."""
        ...

    def card_figures(
        self,
        *,
        owner: User,
        game_id: int,
        names: Iterable[str] | None = None,
        exclude: int | None = None,
    ) -> dict[str, CardFigures]:
        """{card name: its figures}, the deck `exclude` left out of the built decks."""
        ...

    def availability(self, *, owner: User, deck: Deck) -> list[Availability]:
        """Per card of the deck's current version: needed, owned, the other built decks
        holding it, free, and what is short."""
        ...


_provided: list[Holdings] = []


def provide(holdings: Holdings) -> None:
    """Set the collection's answers (called once, when the collection app starts)."""
    _provided[:] = [holdings]


def holdings() -> Holdings:
    """The collection's answers; an error when no app provides them."""
    if not _provided:
        raise RuntimeError("no app provides the collection's holdings (is `collection` installed?)")
    return _provided[0]


def owned_counts(
    *,
    owner: User,
    game_id: int | None = None,
    game_slug: str | None = None,
    names: Iterable[str] | None = None,
) -> dict[str, int]:
    return holdings().owned_counts(owner=owner, game_id=game_id, game_slug=game_slug, names=names)


def owns_any(*, owner: User, game_id: int) -> bool:
    return holdings().owns_any(owner=owner, game_id=game_id)


def owned_cards(*, owner: User) -> Q:
    return holdings().owned_cards(owner=owner)


def only_free(
    queryset: QuerySet[Card], *, owner: User, game_id: int, exclude: int | None = None
) -> tuple[QuerySet[Card], dict[str, list[DeckUse]]]:
    return holdings().only_free(queryset, owner=owner, game_id=game_id, exclude=exclude)


def card_figures(
    *,
    owner: User,
    game_id: int,
    names: Iterable[str] | None = None,
    exclude: int | None = None,
) -> dict[str, CardFigures]:
    return holdings().card_figures(owner=owner, game_id=game_id, names=names, exclude=exclude)


def availability(*, owner: User, deck: Deck) -> list[Availability]:
    return holdings().availability(owner=owner, deck=deck)
