"""What a user owns of a game, read in one query: a card's owned copies are its printings in
the products owned (one copy a printing per product: a reprint in two owned sets counts from
both, and the card is one card) plus its loose copies."""

from __future__ import annotations

from collections.abc import Iterable

from catalogue.models import Printing
from decks.models import CollectionEntry


def _signed_in(owner) -> bool:
    return owner is not None and getattr(owner, "is_authenticated", False)


def owned_counts(
    *,
    owner,
    game_id: int | None = None,
    game_slug: str | None = None,
    names: Iterable[str] | None = None,
) -> dict[str, int]:
    """{card name: copies owned} of one game's cards (`names` only, when given; cards not
    owned are left out), the products' printings and the loose copies added up, in one
    query (a UNION ALL of the two, added up here)."""
    if not _signed_in(owner):
        return {}
    wanted = None if names is None else list(dict.fromkeys(names))
    if wanted is not None and not wanted:
        return {}
    loose = CollectionEntry.objects.filter(owner=owner)
    boxed = Printing.objects.filter(expansion__owned_by__owner=owner)
    if game_id is not None:
        loose = loose.filter(card__game_id=game_id)
        boxed = boxed.filter(card__game_id=game_id)
    if game_slug is not None:
        loose = loose.filter(card__game__slug=game_slug)
        boxed = boxed.filter(card__game__slug=game_slug)
    if wanted is not None:
        loose = loose.filter(card__name__in=wanted)
        boxed = boxed.filter(card__name__in=wanted)
    rows = loose.values_list("card__name", "count").union(
        boxed.values_list("card__name", "expansion__owned_by__count"), all=True
    )
    out: dict[str, int] = {}
    for name, n in rows.order_by():
        out[name] = out.get(name, 0) + n
    return out


def owned_by_game(*, owner, game_id: int | None = None) -> dict[tuple[str, str], int]:
    """{(game slug, card name): copies owned} of every card the user owns (of one game with
    `game_id`), in one query."""
    if not _signed_in(owner):
        return {}
    loose = CollectionEntry.objects.filter(owner=owner)
    boxed = Printing.objects.filter(expansion__owned_by__owner=owner)
    if game_id is not None:
        loose = loose.filter(card__game_id=game_id)
        boxed = boxed.filter(card__game_id=game_id)
    rows = loose.values_list("card__game__slug", "card__name", "count").union(
        boxed.values_list("card__game__slug", "card__name", "expansion__owned_by__count"),
        all=True,
    )
    out: dict[tuple[str, str], int] = {}
    for slug, name, n in rows.order_by():
        out[(slug, name)] = out.get((slug, name), 0) + n
    return out
