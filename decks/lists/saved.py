"""A stored list as the verdict check reads it: `SavedList`.

A saved deck's version, a published decklist (in its own format or another) and a re-check's
row of a deck are all checked the same way (`check.version_check`); each is first read into a
`SavedList`: the game and format it is checked in, its lines (`ListEntry`s), its options, the
rule set it is pinned to and whose collection `collection: true` means. `SavedList.of_deck`
builds one from a deck and a version of it; `SavedList.stored` from the stored columns (a
re-check reads rows, not instances; decklists.models builds a decklist's from it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model

from .entries import ListEntry, entries_from_json

if TYPE_CHECKING:
    from catalogue.models import Game
    from decks.models import Deck, DeckVersion

_NO_OPTIONS: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class SavedList:
    """A stored list to check: `entries` of `game` checked in `format` with `options`,
    under the rule set `pin` (its id; None: the one in effect today). `owner_id` is whose
    collection the option `collection: true` means (`owner`: that user when at hand, else
    read when a check needs it). `version` and `revision` name the stored version it was
    read from (None for a decklist)."""

    game: Game
    format: str
    entries: tuple[ListEntry, ...]
    options: Mapping[str, Any] = field(default_factory=lambda: _NO_OPTIONS)
    pin: int | None = None
    owner_id: int | None = None
    owner: Any = field(default=None, compare=False, repr=False)
    version: int | None = None
    revision: int = 0

    @classmethod
    def stored(
        cls,
        *,
        game: Game,
        format: str,
        entries: Iterable[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        pin: int | None = None,
        owner_id: int | None = None,
        version: int | None = None,
        revision: int = 0,
    ) -> SavedList:
        """A list from its stored columns (`entries` and `options` as JSON)."""
        return cls(
            game=game,
            format=format,
            entries=tuple(entries_from_json(entries)),
            options=MappingProxyType(dict(options or {})),
            pin=pin,
            owner_id=owner_id,
            version=version,
            revision=revision,
        )

    @classmethod
    def of_deck(cls, deck: Deck, version: DeckVersion | None = None) -> SavedList:
        """A saved deck's list: `version` (by default its current one) in the deck's format,
        under its pin. No query: the owner, when not loaded with the deck, is read only by a
        check of a list restricted to the owner's collection (`collection_owner`)."""
        version = version if version is not None else deck.current_version
        if version is None:
            raise ValueError(f"deck {deck.pk} has no saved list")
        options = dict(version.options or {})
        return cls(
            game=deck.game,
            format=deck.format,
            entries=tuple(entries_from_json(version.entries)),
            options=MappingProxyType(options),
            pin=deck.rule_set_pin_id,
            owner_id=deck.owner_id,
            owner=deck.owner if type(deck).owner.is_cached(deck) else None,
            version=version.pk,
            revision=version.revision,
        )

    def in_format(self, format: str) -> SavedList:
        """The same list checked in another format of its game: with that format's default
        options there (a list's options are its own format's)."""
        if format == self.format:
            return self
        return replace(self, format=format, options=_NO_OPTIONS)

    @property
    def card_names(self) -> list[str]:
        """The names of the list's cards, as stored, one a line."""
        return [e.card for e in self.entries]

    def collection_owner(self) -> Any:
        """The user whose collection `collection: true` means (read by id when not at hand);
        None for a list without an owner."""
        if self.owner is not None:
            return self.owner
        if self.owner_id is None:
            return None
        return get_user_model().objects.get(pk=self.owner_id)
