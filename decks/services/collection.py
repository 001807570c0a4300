"""A player's collection: counts owned per card, the deck option that checks a deck against
them, and importing a collection from list text."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from catalogue.models import Card
from decks.lists.check import _resolve
from decks.models import CollectionEntry
from validation import decklist
from validation.registry import registry


def _collection_lines(text: str, game) -> decklist.ParseResult:
    """Read `N Name` lines; section headers are allowed and ignored (a deck list can be
    imported into a collection as it is)."""
    result = decklist.ParseResult()
    for line_no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or decklist._COMMENT.match(raw):
            continue
        line = decklist._TRAILING_COMMENT.sub("", raw).strip()
        if decklist._HEADER.match(line):
            continue
        # The parser's own card-line reader, so that errors read the same as a deck's.
        error = decklist._card_line(result, line_no, line, "collection", game)
        if error:
            result.errors.append(error)
    return result


def collection_import(*, owner, game_slug: str, text: str, replace: bool = False) -> int:
    """Add the cards of a list to the user's collection (or, with `replace`, make the
    collection of that game exactly the list). All or nothing: a list with line errors
    raises ListInvalid and changes nothing. Returns the number of cards (copies) read."""

    game = registry.get(game_slug)
    parsed = _collection_lines(text, game)
    deck, _ = _resolve(game_slug, parsed)
    wanted: dict[str, int] = {}
    for items in deck.sections.values():
        for e in items:
            wanted[e.card.name] = wanted.get(e.card.name, 0) + e.count
    cards = {c.name: c for c in Card.objects.filter(game__slug=game_slug, name__in=list(wanted))}
    with transaction.atomic():
        mine = CollectionEntry.objects.filter(owner=owner, card__game__slug=game_slug)
        if replace:
            mine.exclude(card__name__in=list(wanted)).delete()
        existing = {e.card_id: e for e in mine.filter(card__in=list(cards.values()))}
        new = []
        for name, n in wanted.items():
            card = cards[name]
            entry = existing.get(card.pk)
            if entry is None:
                new.append(CollectionEntry(owner=owner, card=card, count=n))
            elif replace:
                CollectionEntry.objects.filter(pk=entry.pk).update(count=n)
            else:
                CollectionEntry.objects.filter(pk=entry.pk).update(count=F("count") + n)
        CollectionEntry.objects.bulk_create(new)
    return sum(wanted.values())


def collection_set(*, owner, card, count: int):
    """Set how many copies of `card` the user owns (0 removes the entry)."""
    if count <= 0:
        CollectionEntry.objects.filter(owner=owner, card=card).delete()
        return None
    entry, _ = CollectionEntry.objects.update_or_create(
        owner=owner, card=card, defaults={"count": count}
    )
    return entry
