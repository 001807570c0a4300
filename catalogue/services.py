"""Catalogue services: what other parts of the site ask of the catalogue."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Lower

from validation import packages
from validation.decklist import closest_names
from validation.registry import registry
from validation.types import CardFacts

from . import bulk, hooks
from .models import Card, Expansion, Game, Printing


def games_sync() -> None:
    """Make sure every game of the registry has its row (names and order follow the code)."""
    for position, game_def in enumerate(registry.all()):
        Game.objects.update_or_create(
            slug=game_def.slug, defaults={"name": game_def.name, "position": position}
        )


def game_card_counts() -> dict[str, int]:
    """Number of cards per game slug, in one query."""
    rows = Card.objects.values("game__slug").annotate(n=Count("id")).order_by()
    return {row["game__slug"]: row["n"] for row in rows}


def card_facts_by_names(*, game_slug: str, names: Iterable[str]) -> dict[str, CardFacts]:
    """Lower-cased name -> CardFacts for the named cards of a game, in one query."""
    lowered = {n.lower() for n in names}
    if not lowered:
        return {}
    qs = (
        Card.objects.annotate(lname=Lower("name"))
        .filter(game__slug=game_slug, lname__in=lowered)
        .only(*Card.FACT_FIELDS)
    )
    return {c.name.lower(): c.facts() for c in qs}


def games_holding_names(names: Iterable[str]) -> dict[str, int]:
    """Game slug -> how many of `names` (any case) are names of its cards, in one query
    (through the index on each game's lower-cased names); games holding none are left out."""
    lowered = {n.lower() for n in names}
    if not lowered:
        return {}
    rows = (
        Card.objects.annotate(lname=Lower("name"))
        .filter(lname__in=lowered)
        .values("game__slug")
        .annotate(n=Count("lname", distinct=True))
        .order_by()
    )
    return {row["game__slug"]: row["n"] for row in rows}


def cards_by_kind(*, game_slug: str, kinds: Iterable[str]) -> dict[str, list[CardFacts]]:
    """Kind -> CardFacts of the game's cards of each kind, in name order (one query); every
    kind asked for is a key, empty when the catalogue holds none."""
    return _by_kind(
        game_slug,
        kinds,
        lambda cards: ((c.kind, c.facts()) for c in cards.only(*Card.FACT_FIELDS)),
    )


def card_names_by_kind(*, game_slug: str, kinds: Iterable[str]) -> dict[str, list[str]]:
    """Kind -> names of the game's cards of each kind, in name order (one query)."""
    return _by_kind(game_slug, kinds, lambda cards: cards.values_list("kind", "name"))


_Item = TypeVar("_Item")


def _by_kind(
    game_slug: str,
    kinds: Iterable[str],
    read: Callable[[QuerySet[Card]], Iterable[tuple[str, _Item]]],
) -> dict[str, list[_Item]]:
    """Kind -> what `read` makes of each card of the game's cards of that kind (`read`
    turns the query of those cards, in name order, into (kind, item) pairs); every kind
    asked for is a key. No query when no kind is asked for."""
    wanted = list(dict.fromkeys(kinds))
    out: dict[str, list[_Item]] = {k: [] for k in wanted}
    if wanted:
        cards = Card.objects.filter(game__slug=game_slug, kind__in=wanted).order_by("name")
        for kind, item in read(cards):
            out[kind].append(item)
    return out


class GamePool(Mapping[str, CardFacts]):
    """Lower-cased name -> CardFacts of every card of a game, loaded on first use (one
    query), so that rules that never look at the pool cost nothing."""

    def __init__(self, *, game_slug: str):
        self.game_slug = game_slug
        self._cards: dict[str, CardFacts] | None = None

    def _load(self) -> dict[str, CardFacts]:
        if self._cards is None:
            qs = Card.objects.filter(game__slug=self.game_slug).only(*Card.FACT_FIELDS)
            self._cards = {c.name.lower(): c.facts() for c in qs}
        return self._cards

    def __getitem__(self, key: str) -> CardFacts:
        return self._load()[key]

    def get(self, key: str, default: CardFacts | None = None) -> CardFacts | None:  # type: ignore[override]
        # Mapping.get goes through __getitem__ and an exception for every miss.
        return self._load().get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


def expansion_card_names(
    *, game_slug: str, names: Iterable[str] | None = None
) -> dict[str, frozenset[str]]:
    """Expansion code -> the names of the cards it prints, for every expansion of a game
    (an expansion without printings maps to an empty set). With `names`, only those cards'
    printings are read (any case): what a list needs, whatever the size of the catalogue
    (two queries); without, every printing of the game (one query)."""
    if names is None:
        out: dict[str, set[str]] = {}
        rows = Expansion.objects.filter(game__slug=game_slug).values_list(
            "code", "printings__card__name"
        )
        for code, name in rows:
            found = out.setdefault(code, set())
            if name is not None:
                found.add(name)
        return {code: frozenset(found) for code, found in out.items()}
    out = {
        code: set()
        for code in Expansion.objects.filter(game__slug=game_slug).values_list("code", flat=True)
    }
    lowered = list({n.lower() for n in names})
    # The cards first (the index on the game and the lower-cased name), then their
    # printings (the index on card).
    cards = (
        Card.objects.annotate(lname=Lower("name"))
        .filter(game__slug=game_slug, lname__in=lowered)
        .values("id")
    )
    printed = Printing.objects.filter(card_id__in=cards).values_list(
        "expansion__code", "card__name"
    )
    for code, name in printed:
        out.setdefault(code, set()).add(name)
    return {code: frozenset(found) for code, found in out.items()}


#: Candidates fetched per unknown name, the most similar first: the index's neighbours of
#: the name, among which the list reader matches spacing and punctuation and picks the
#: suggestions. The cost of a lookup is this many rows per name, whatever the catalogue's size.
SUGGESTION_CANDIDATES = 12
#: On SQLite (no trigram index) the candidates are the names starting with the same letters.
PREFIX_LETTERS = 3


def _like_escape(text: str) -> str:
    """`text` matched literally by LIKE (its backslashes, % and _ escaped)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def cards_near_names(*, game_slug: str, names: Sequence[str]) -> dict[str, list[CardFacts]]:
    """Name -> the facts of the cards of the game nearest to it, the nearest first; never a
    load of the game: at most SUGGESTION_CANDIDATES cards whose name begins with it (a letter
    or a word short; the shortest first), then at most SUGGESTION_CANDIDATES names similar to
    it. The list reader matches spacing and punctuation among them, and the "did you mean"
    suggestions are the closest of them.

    On PostgreSQL one query for all the names: per name, the cards whose name begins with it
    (`ILIKE 'name%'`) and the cards trigram-similar to it (`%`, ordered by the trigram
    distance `<->`), each with a LIMIT and each served by the trigram index `card_name_trgm`
    (an OR of the two would not be). On SQLite one query for all the names: the cards whose
    name starts with one of the names' first PREFIX_LETTERS letters (any case), LIMITed; per
    name, those it begins first."""
    names = [n for n in dict.fromkeys(names) if n]
    out: dict[str, list[CardFacts]] = {name: [] for name in names}
    if not names:
        return out
    if connection.vendor != "postgresql":
        # One query for every name: the cards starting with any name's first letters, in
        # name order, at most SUGGESTION_CANDIDATES * 4 a name in all.
        heads = {name: name.strip()[:PREFIX_LETTERS].lower() for name in names}
        starts = Q()
        for head in set(heads.values()):
            starts |= Q(name__istartswith=head)
        rows = [
            c.facts()
            for c in Card.objects.filter(starts, game__slug=game_slug)
            .only(*Card.FACT_FIELDS)
            .order_by("name")[: SUGGESTION_CANDIDATES * 4 * len(set(heads.values()))]
        ]
        for name, head in heads.items():
            key = name.strip().lower()
            found = [c for c in rows if c.name.lower().startswith(head)]
            found.sort(key=lambda c: (not c.name.lower().startswith(key), len(c.name), c.name))
            out[name] = found[: SUGGESTION_CANDIDATES * 2]
        return out
    columns = ", ".join(f"card.{Card._meta.get_field(f).column}" for f in Card.FACT_FIELDS)  # type: ignore[union-attr]
    sql = f"""
        SELECT c.*, q.name AS wanted
        FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS q(name, prefix, i)
        CROSS JOIN LATERAL (
            (
                SELECT card.id, {columns}, 0 AS rank, length(card.name)::real AS score
                FROM catalogue_card card
                WHERE card.game_id = (SELECT id FROM catalogue_game WHERE slug = %s)
                  AND card.name ILIKE q.prefix
                ORDER BY length(card.name), card.name
                LIMIT %s
            )
            UNION ALL
            (
                SELECT card.id, {columns}, 1 AS rank, (card.name <-> q.name)::real AS score
                FROM catalogue_card card
                WHERE card.game_id = (SELECT id FROM catalogue_game WHERE slug = %s)
                  AND card.name %% q.name
                ORDER BY card.name <-> q.name, card.name
                LIMIT %s
            )
        ) c
        ORDER BY q.i, c.rank, c.score, c.name
    """
    prefixes = [_like_escape(name) + "%" for name in names]
    params = [names, prefixes, game_slug, SUGGESTION_CANDIDATES, game_slug, SUGGESTION_CANDIDATES]
    for card in Card.objects.raw(sql, params):
        found = out[card.wanted]  # type: ignore[attr-defined]  # the raw query's column
        if all(f.name != card.name for f in found):
            found.append(card.facts())
    return out


def closest_card_names(*, game_slug: str, names: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Name -> up to three card names of the game closest to it, for "did you mean": the
    closest (validation.decklist.closest_names: the names it begins first, then the most
    similar) of the candidates `cards_near_names` fetches."""
    near = cards_near_names(game_slug=game_slug, names=names)
    return {name: closest_names(name, [c.name for c in found]) for name, found in near.items()}


def catalogue_files_changed() -> None:
    """A card, printing or expansion was written or deleted (an admin edit): the bulk files
    are rebuilt on their next download. Called by the writers themselves, not by a signal."""
    bulk.changed()


def catalogue_changed(*, game_slug: str) -> None:
    """The catalogue of a game changed (an import or an admin edit): every app that keeps
    something derived from it (saved decks' reports) hears of it through the
    `catalogue_changed` hook; the game's bulk file is rebuilt on its next download."""
    bulk.changed()
    hooks.catalogue_changed(game_slug=game_slug)


def sample_data_files() -> list[Path]:
    """The sample expansion files of every registered game, found in the games' packages
    (`sample_data/*.json`, validation/packages.py)."""
    return [path for _, path in packages.all_sample_expansions()]


def sample_rule_set_files() -> list[Path]:
    """The sample rule set files of every registered game, found in the games' packages
    (`sample_data/rule_sets/<format>.json`, validation/packages.py)."""
    return [path for _, path in packages.all_sample_rule_sets()]


def sample_deck_files() -> list[packages.SampleList]:
    """The example lists shipped with the games' sample data (`sample_data/decks/<format>.txt`
    of each game's package)."""
    return packages.all_sample_lists()
