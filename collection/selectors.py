"""What a user owns set against what their decks use, read for the pages and the API
(nothing here writes; the writes are collection.services).

A card's figures: *owned* (its printings in the products owned plus its loose copies,
collection.owned), *in your built decks* (the copies the current versions of your decks
marked built hold, with those decks) and *free* (owned less what the built decks hold, never
below 0). A deck's availability counts the other built decks only: its own cards are the
ones it needs. Every read here costs a fixed number of queries whatever the number of
decks, products or cards."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.db import connection
from django.db.models import F, Func, IntegerField, OuterRef, Q, QuerySet, Subquery, Value

from cardsite.accounts import Viewer, signed_in
from catalogue.models import Card, Expansion, Printing
from decks.lists.holdings import Availability, CardFigures, DeckUse
from decks.models import Deck

from .models import CollectionEntry, OwnedProduct
from .owned import owned_by_game, owned_copies, owned_counts

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.models.expressions import Combinable
    from django.db.models.sql.compiler import SQLCompiler, _AsSqlType

__all__ = [
    "CardFigures",
    "DeckUse",
    "ExpansionCompletion",
    "availability",
    "built_usage",
    "card_decks",
    "card_figures",
    "card_use_figures",
    "completion",
    "entries_needed",
    "export_csv",
    "export_rows",
    "export_text",
    "only_free",
    "wants",
    "wants_csv",
    "wants_text",
]


def entries_needed(entries: Iterable[Mapping[str, Any]] | None) -> dict[str, int]:
    """A version's copies of each card, across its sections."""
    out: dict[str, int] = {}
    for e in entries or ():
        out[e["card"]] = out.get(e["card"], 0) + int(e["count"])
    return out


def built_usage(
    *, owner: User, game_id: int, exclude: int | None = None
) -> dict[str, list[DeckUse]]:
    """{card name: the user's built decks of the game holding it} (their current versions),
    `exclude` (a deck's id) left out. One query."""
    decks = Deck.objects.filter(owner=owner, game_id=game_id, built=True)
    if exclude is not None:
        decks = decks.exclude(pk=exclude)
    rows = decks.order_by("name", "pk").values_list("pk", "name", "current_version__entries")
    out: dict[str, list[DeckUse]] = {}
    for pk, name, entries in rows:
        for card, n in entries_needed(entries).items():
            out.setdefault(card, []).append(DeckUse(pk, name, n))
    return out


def card_figures(
    *, owner: User, game_id: int, names: Iterable[str] | None = None, exclude: int | None = None
) -> dict[str, CardFigures]:
    """{card name: its figures} for `names` (every card owned or held by a built deck when
    None), the deck `exclude` left out of the built decks. Two queries."""
    wanted = None if names is None else list(dict.fromkeys(names))
    owned = owned_counts(owner=owner, game_id=game_id, names=wanted)
    used = built_usage(owner=owner, game_id=game_id, exclude=exclude)
    keys = wanted if wanted is not None else sorted({*owned, *used}, key=str.lower)
    return {name: CardFigures(owned.get(name, 0), used.get(name, [])) for name in keys}


def only_free(
    queryset: QuerySet[Card], *, owner: User, game_id: int, exclude: int | None = None
) -> tuple[QuerySet[Card], dict[str, list[DeckUse]]]:
    """The cards of `queryset` (of the game) with a free copy, the deck `exclude` left out
    of the built decks, each annotated with `owned_copies`; and the built decks holding each
    card (built_usage), for their figures: `CardFigures(card.owned_copies, used[name])`.
    Two queries (the built decks; the owned copies of the cards they hold, none without
    them); the cards themselves are read by the caller, the test made in their query (a copy
    owned, none of the cards the built decks hold every copy of)."""
    used = built_usage(owner=owner, game_id=game_id, exclude=exclude)
    held = {name: sum(d.count for d in decks) for name, decks in used.items()}
    owned = owned_counts(owner=owner, game_id=game_id, names=held)
    taken = sorted(name for name, n in held.items() if owned.get(name, 0) <= n)
    # A copy owned: the card's ids from the collection, each looked up in a hash of them
    # (summing every card's copies first would read each card's printings one by one).
    queryset = queryset.filter(
        Q(pk__in=CollectionEntry.objects.filter(owner=owner).values("card"))
        | Q(pk__in=Printing.objects.filter(expansion__owned_by__owner=owner).values("card"))
    ).annotate(owned_copies=owned_copies(owner))
    if taken:
        queryset = queryset.exclude(name__in=taken)
    return queryset, used


def availability(*, owner: User, deck: Deck) -> list[Availability]:
    """Per card of the deck's current version, by name: needed, owned, the other built
    decks holding it (ids, names, copies), free, and `short` (needed beyond free). Two
    queries (the deck and its version already read)."""
    version = deck.current_version
    needed = entries_needed(version.entries if version is not None else ())
    figures = card_figures(owner=owner, game_id=deck.game_id, names=needed, exclude=deck.pk)
    out: list[Availability] = []
    for name in sorted(needed, key=str.lower):
        f = figures[name]
        figures_dict = f.as_dict()
        out.append(
            {
                "card": name,
                "needed": needed[name],
                "owned": figures_dict["owned"],
                "in_built_decks": figures_dict["in_built_decks"],
                "built_decks": figures_dict["built_decks"],
                "free": figures_dict["free"],
                "short": max(needed[name] - f.free, 0),
            }
        )
    return out


class Want(TypedDict):
    """A card beyond what the user owns: its game's slug, name, copies needed, owned and
    missing."""

    game: str
    card: str
    needed: int
    owned: int
    missing: int


def wants(*, owner: User, deck: Deck | None = None, game_id: int | None = None) -> list[Want]:
    """The cards beyond what the user owns: of one deck (its current version), or of all
    their decks (of one game, with `game_id`) added up, as if every one were built at once.
    [{game, card, needed, owned, missing}] by game and name. Two queries for all decks (the
    decks' versions, the owned copies); one for a deck already read with its game."""
    needs: dict[tuple[str, str], int] = {}
    if deck is not None:
        version = deck.current_version
        slug = deck.game.slug
        for name, n in entries_needed(version.entries if version else ()).items():
            needs[(slug, name)] = n
        owned = {
            (slug, name): n
            for name, n in owned_counts(
                owner=owner, game_id=deck.game_id, names=[k[1] for k in needs]
            ).items()
        }
    else:
        decks = Deck.objects.filter(owner=owner)
        if game_id is not None:
            decks = decks.filter(game_id=game_id)
        for slug, entries in decks.values_list("game__slug", "current_version__entries"):
            for name, n in entries_needed(entries).items():
                needs[(slug, name)] = needs.get((slug, name), 0) + n
        owned = owned_by_game(owner=owner, game_id=game_id) if needs else {}
    out: list[Want] = []
    for (slug, name), n in needs.items():
        have = owned.get((slug, name), 0)
        if n > have:
            out.append(
                {"game": slug, "card": name, "needed": n, "owned": have, "missing": n - have}
            )
    out.sort(key=lambda r: (r["game"], r["card"].lower()))
    return out


def wants_text(rows: list[Want]) -> str:
    """The wants as the `N Card Name` lines the deck lists use."""
    return "".join(f"{r['missing']} {r['card']}\n" for r in rows)


def _holding(decks: QuerySet[Deck], name: str) -> QuerySet[Deck]:
    """The decks whose current version holds the card called `name`: on PostgreSQL a
    containment test on the version's entries; elsewhere the versions' text, narrowed by
    name and confirmed from the entries by the caller."""
    if connection.vendor == "postgresql":
        return decks.filter(current_version__entries__contains=[{"card": name}])
    return decks.filter(current_version__list_text__icontains=name)


class CopiesIn(Func):
    """On PostgreSQL, a version's copies of the card called `name` (across its sections),
    added up in the database: a deck's list is not read whole for one card."""

    output_field = IntegerField()

    def __init__(self, entries: Combinable, name: str) -> None:
        super().__init__(entries, Value(name))

    def as_sql(
        self,
        compiler: SQLCompiler,
        connection: BaseDatabaseWrapper,
        function: str | None = None,
        template: str | None = None,
        arg_joiner: str | None = None,
        **extra_context: Any,
    ) -> _AsSqlType:
        entries, name = self.get_source_expressions()
        entries_sql, entries_params = compiler.compile(entries)
        name_sql, name_params = compiler.compile(name)
        sql = (
            "(SELECT COALESCE(SUM((e.value ->> 'count')::integer), 0) "
            f"FROM jsonb_array_elements({entries_sql}) AS e WHERE e.value ->> 'card' = {name_sql})"
        )
        return sql, (*entries_params, *name_params)


class DeckHolding(TypedDict):
    """One of the user's decks holding a card: id, name, copies, and whether it is built."""

    id: int
    name: str
    count: int
    built: bool


class CardDecks(TypedDict):
    """A card's use: the user's decks holding it and how many public decks hold it."""

    decks: list[DeckHolding]
    public_decks: int


def card_decks(*, owner: Viewer, card: Card) -> CardDecks:
    """A card's use: the user's decks holding it (id, name, copies, built), and how many
    public decks hold it. Two queries."""
    mine: list[DeckUse] = []
    if signed_in(owner):
        decks = _holding(Deck.objects.filter(owner=owner, game_id=card.game_id), card.name)
        decks = decks.order_by("name", "pk")
        rows: Iterable[tuple[int, str, bool, int]]
        if connection.vendor == "postgresql":
            rows = decks.annotate(
                copies=CopiesIn(F("current_version__entries"), card.name)
            ).values_list("pk", "name", "built", "copies")
        else:
            rows = [
                (pk, name, built, entries_needed(entries).get(card.name, 0))
                for pk, name, built, entries in decks.values_list(
                    "pk", "name", "built", "current_version__entries"
                )
            ]
        for pk, name, built, n in rows:
            if n:
                mine.append(DeckUse(pk, name, n, built))
    public = _holding(Deck.objects.public().filter(game_id=card.game_id), card.name)
    if connection.vendor == "postgresql":
        public_count = public.count()
    else:
        public_count = sum(
            1
            for entries in public.values_list("current_version__entries", flat=True)
            if entries_needed(entries).get(card.name)
        )
    return {
        "decks": [{"id": d.id, "name": d.name, "count": d.count, "built": d.built} for d in mine],
        "public_decks": public_count,
    }


def card_use_figures(*, owner: User, card: Card, decks: list[DeckHolding]) -> CardFigures:
    """A card's figures for its page, from its `decks` (card_decks: the user's decks holding
    it, the built ones among them the decks it is in) and its owned copies. One query."""
    owned = owned_counts(owner=owner, game_id=card.game_id, names=[card.name])
    built = [DeckUse(d["id"], d["name"], d["count"]) for d in decks if d["built"]]
    return CardFigures(owned.get(card.name, 0), built)


@dataclass
class ExpansionCompletion:
    """What a user owns of an expansion: the products owned, the cards it prints and how
    many of them they own a copy of (from any product or loose), the names missing."""

    expansion: Expansion
    products: int
    cards: int
    have: int
    missing: list[str]

    @property
    def percent(self) -> int:
        return round(100 * self.have / self.cards) if self.cards else 100


def completion(*, owner: User) -> list[ExpansionCompletion]:
    """Per expansion of every game the user owns a card of: a collector's checklist. Four
    queries (the owned copies, the products, the expansions, their printings)."""
    owned = owned_by_game(owner=owner)
    if not owned:
        return []
    products = dict(OwnedProduct.objects.filter(owner=owner).values_list("expansion_id", "count"))
    games = {slug for slug, _ in owned}
    expansions = list(
        Expansion.objects.filter(game__slug__in=games)
        .select_related("game")
        .order_by("game__position", "released", "code")
    )
    names: dict[int, set[str]] = {e.pk: set() for e in expansions}
    for pk, name in Printing.objects.filter(expansion__in=expansions).values_list(
        "expansion_id", "card__name"
    ):
        names[pk].add(name)
    out = []
    for e in expansions:
        pk, cards = e.pk, names[e.pk]
        missing = sorted((n for n in cards if (e.game.slug, n) not in owned), key=str.lower)
        out.append(
            ExpansionCompletion(
                e, products.get(pk, 0), len(cards), len(cards) - len(missing), missing
            )
        )
    return out


def export_rows(*, owner: User) -> list[tuple[int, str, str, str, str]]:
    """The collection as rows (Count, Name, Edition, Card Number, game): products first (a
    row with an Edition and no Name), then the loose cards with their first printing. Two
    queries."""
    rows: list[tuple[int, str, str, str, str]] = []
    for count, code, slug in (
        OwnedProduct.objects.filter(owner=owner)
        .order_by("expansion__game__position", "expansion__code")
        .values_list("count", "expansion__code", "expansion__game__slug")
    ):
        rows.append((count, "", code, "", slug))
    # The first printing: in the printings' own order (catalogue.models.Printing.Meta).
    first = Printing.objects.filter(card=OuterRef("card")).order_by(
        "expansion__released", "expansion__code", "number"
    )
    for count, name, slug, code, number in (
        CollectionEntry.objects.filter(owner=owner)
        .order_by("card__game__position", "card__name")
        .annotate(
            code=Subquery(first.values("expansion__code")[:1]),
            number=Subquery(first.values("number")[:1]),
        )
        .values_list("count", "card__name", "card__game__slug", "code", "number")
    ):
        rows.append((count, name, code or "", number or "", slug))
    return rows


def export_csv(*, owner: User) -> str:
    """The collection as the CSV collection sites use (Count, Name, Edition, Card Number,
    and the game)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["Count", "Name", "Edition", "Card Number", "Game"])
    for row in export_rows(owner=owner):
        writer.writerow(row)
    return buf.getvalue()


def export_text(*, owner: User) -> str:
    """Every owned card (products and loose copies added up) as `N Card Name` lines, a
    `# Game: <slug>` line before each game's. One query."""
    by_game: dict[str, list[tuple[str, int]]] = {}
    for (slug, name), n in owned_by_game(owner=owner).items():
        by_game.setdefault(slug, []).append((name, n))
    lines: list[str] = []
    for slug in sorted(by_game):
        lines.append(f"# Game: {slug}")
        lines.extend(f"{n} {name}" for name, n in sorted(by_game[slug], key=lambda x: x[0].lower()))
    return "\n".join(lines) + ("\n" if lines else "")


def wants_csv(rows: list[Want]) -> str:
    """The wants as CSV: Count (the copies missing), Name, and the game."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["Count", "Name", "Game"])
    for r in rows:
        writer.writerow([r["missing"], r["card"], r["game"]])
    return buf.getvalue()
