"""A player's collection: whole products and loose cards, importing it (list text or CSV,
all or nothing, with a dry run), and replacing it whole. (Marking a deck built is a deck's
change: decks.services.deck_set_built.)"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import transaction
from django.db.models import F

from catalogue.models import Card, Expansion

from .files import collection_read
from .models import CollectionEntry, OwnedProduct

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: The rows a user owns copies of something by.
_Owned = TypeVar("_Owned", CollectionEntry, OwnedProduct)


@dataclass(frozen=True)
class Imported:
    """What an import took (or, on a dry run, would take): copies of loose cards, distinct
    cards, products (copies) and the rows read."""

    cards: int
    distinct: int
    products: int
    rows: int
    dry_run: bool = False

    def as_dict(self) -> dict[str, int | bool]:
        return {
            "cards": self.cards,
            "distinct_cards": self.distinct,
            "products": self.products,
            "rows": self.rows,
            "dry_run": self.dry_run,
        }


def _merge(
    model: type[_Owned],
    owner: User,
    field: str,
    wanted: dict[int, int],
    scope: dict[str, str],
    *,
    replace: bool,
) -> None:
    """Write {object id: copies} into `model`'s rows of `owner` (`field` the object's
    column): added to the copies owned, or, with `replace`, the rows of `scope` made exactly
    `wanted`."""
    mine = model.objects.filter(owner=owner, **scope)
    if replace:
        mine.exclude(**{f"{field}__in": list(wanted)}).delete()
    existing = dict(mine.filter(**{f"{field}__in": list(wanted)}).values_list(field, "pk"))
    new = []
    for obj_id, n in wanted.items():
        pk = existing.get(obj_id)
        if pk is None:
            new.append(model(owner=owner, **{field: obj_id, "count": n}))
        elif replace:
            model.objects.filter(pk=pk).update(count=n)
        else:
            model.objects.filter(pk=pk).update(count=F("count") + n)
    model.objects.bulk_create(new)


def collection_import(
    *,
    owner: User,
    game_slug: str,
    text: str = "",
    csv_text: str = "",
    replace: bool = False,
    dry_run: bool = False,
) -> Imported:
    """Add a list (`N Name` text) or a CSV file (Count, Name, Edition, Card Number; a row with
    an Edition and no Name is a whole product) to the user's collection of a game, or, with
    `replace`, make that game's collection exactly the file. A file holding several games (a
    CSV `Game` column, `# Game:` lines, as the export writes them) is read for each: with
    `replace`, each game it holds is made exactly the file's. All or nothing: a file with a
    line that cannot be read raises ListInvalid naming every such line and changes nothing;
    `dry_run` reads and answers without writing."""
    read = collection_read(game_slug=game_slug, text=text, csv_text=csv_text)
    summary = Imported(
        cards=read.cards,
        distinct=read.distinct,
        products=read.products,
        rows=read.rows,
        dry_run=dry_run,
    )
    if dry_run:
        return summary
    with transaction.atomic():
        for slug, game in read.games.items():
            ids = dict(
                Card.objects.filter(game__slug=slug, name__in=list(game.cards)).values_list(
                    "name", "pk"
                )
            )
            _merge(
                CollectionEntry,
                owner,
                "card_id",
                {ids[name]: n for name, n in game.cards.items()},
                {"card__game__slug": slug},
                replace=replace,
            )
            if game.products or replace:
                _merge(
                    OwnedProduct,
                    owner,
                    "expansion_id",
                    {game.expansions[code].pk: n for code, n in game.products.items()},
                    {"expansion__game__slug": slug},
                    replace=replace,
                )
    return summary


def collection_replace(
    *, owner: User, products: Iterable[tuple[int, int]], cards: Iterable[tuple[int, int]]
) -> None:
    """Make the user's whole collection exactly these products (expansion id, copies) and
    loose cards (card id, copies); ids repeated add up."""
    boxed: dict[int, int] = {}
    for pk, n in products:
        boxed[pk] = boxed.get(pk, 0) + n
    loose: dict[int, int] = {}
    for pk, n in cards:
        loose[pk] = loose.get(pk, 0) + n
    with transaction.atomic():
        _merge(OwnedProduct, owner, "expansion_id", boxed, {}, replace=True)
        _merge(CollectionEntry, owner, "card_id", loose, {}, replace=True)


def _own(model: type[_Owned], owner: User, count: int, **what: Any) -> _Owned | None:
    """Own `count` copies of `what` (`card=` a Card, `expansion=` an Expansion: keywords of
    the model's lookups, hence Any) as a row of `model`; 0 removes it."""
    if count <= 0:
        model.objects.filter(owner=owner, **what).delete()
        return None
    row, _ = model.objects.update_or_create(owner=owner, **what, defaults={"count": count})
    return row


def collection_set(*, owner: User, card: Card, count: int) -> CollectionEntry | None:
    """Set how many loose copies of `card` the user owns (0 removes the entry)."""
    return _own(CollectionEntry, owner, count, card=card)


def product_set(*, owner: User, expansion: Expansion, count: int) -> OwnedProduct | None:
    """Set how many copies of a whole product (an expansion or core set) the user owns
    (0 removes it)."""
    return _own(OwnedProduct, owner, count, expansion=expansion)
