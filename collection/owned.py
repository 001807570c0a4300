"""What a user owns of a game, read in one query: a card's owned copies are its printings in
the products owned (one copy a printing per product: a reprint in two owned sets counts from
both, and the card is one card) plus its loose copies."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import IntegerField, OuterRef, Subquery, Sum, Value
from django.db.models.expressions import Expression
from django.db.models.functions import Coalesce, Lower
from django.db.models.lookups import In

from cardsite.accounts import signed_in
from catalogue.models import Card, Printing

from .models import CollectionEntry


def owned_counts(
    *,
    owner,
    game_id: int | None = None,
    game_slug: str | None = None,
    names: Iterable[str] | None = None,
) -> dict[str, int]:
    """{card name: copies owned} of one game's cards (`names` only, when given; cards not
    owned are left out), the products' printings and the loose copies added up, in one
    query: for `names`, each named card's copies summed in its row (owned_copies); for the
    whole game, a UNION ALL of the loose copies and the owned products' printings, added up
    here."""
    if not signed_in(owner):
        return {}
    wanted = None if names is None else list(dict.fromkeys(names))
    if wanted is not None and not wanted:
        return {}
    out: dict[str, int] = {}
    if wanted is not None:
        # The names matched through the card_lower_name index, the exact names kept below:
        # a `name IN (...)` is served by the trigram index card_name_trgm, whose equality
        # look-ups read every card sharing a trigram with a name (hundreds of milliseconds
        # for a deck's forty names in a catalogue of thousands).
        cards = Card.objects.order_by().filter(
            In(Lower("name"), [Lower(Value(name)) for name in wanted])
        )
        if game_id is not None:
            cards = cards.filter(game_id=game_id)
        if game_slug is not None:
            cards = cards.filter(game__slug=game_slug)
        exact = set(wanted)
        for name, n in cards.annotate(copies=owned_copies(owner)).values_list("name", "copies"):
            if n and name in exact:
                out[name] = out.get(name, 0) + n
        return out
    # Unordered: the rows are added up here, and the models' orderings would join the games
    # and expansions for nothing.
    loose = CollectionEntry.objects.filter(owner=owner).order_by()
    boxed = Printing.objects.filter(expansion__owned_by__owner=owner).order_by()
    if game_id is not None:
        loose = loose.filter(card__game_id=game_id)
        boxed = boxed.filter(card__game_id=game_id)
    if game_slug is not None:
        loose = loose.filter(card__game__slug=game_slug)
        boxed = boxed.filter(card__game__slug=game_slug)
    rows = loose.values_list("card__name", "count").union(
        boxed.values_list("card__name", "expansion__owned_by__count"), all=True
    )
    for name, n in rows.order_by():
        out[name] = out.get(name, 0) + n
    return out


def owned_copies(owner) -> Expression:
    """For a queryset of cards: each card's copies owned by `owner` (signed in), as
    owned_counts adds them up (its printings in the products owned, a product's count each,
    plus its loose copies), computed in the card's row."""
    loose = (
        CollectionEntry.objects.filter(owner=owner, card=OuterRef("pk"))
        .order_by()
        .values("count")[:1]
    )
    boxed = (
        Printing.objects.filter(card=OuterRef("pk"), expansion__owned_by__owner=owner)
        .order_by()
        .values("card")
        .annotate(n=Sum("expansion__owned_by__count"))
        .values("n")
    )
    whole = IntegerField()
    return Coalesce(Subquery(loose, output_field=whole), 0, output_field=whole) + Coalesce(
        Subquery(boxed, output_field=whole), 0, output_field=whole
    )


def owned_by_game(*, owner, game_id: int | None = None) -> dict[tuple[str, str], int]:
    """{(game slug, card name): copies owned} of every card the user owns (of one game with
    `game_id`), in one query."""
    if not signed_in(owner):
        return {}
    # Unordered: the rows are added up here, and the models' orderings would join the games
    # and expansions for nothing.
    loose = CollectionEntry.objects.filter(owner=owner).order_by()
    boxed = Printing.objects.filter(expansion__owned_by__owner=owner).order_by()
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
