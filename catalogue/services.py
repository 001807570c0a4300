"""Catalogue services: what other parts of the site ask of the catalogue."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from django.db.models import Count
from django.db.models.functions import Lower

from cardsite import hooks
from validation.registry import registry
from validation.types import CardFacts

from .models import Card, Expansion, Game

SAMPLE_DATA_DIR = Path(__file__).resolve().parent / "sample_data"


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


def cards_by_kind(*, game_slug: str, kinds: Iterable[str]) -> dict[str, list[CardFacts]]:
    """Kind -> CardFacts of the game's cards of each kind, in name order (one query); every
    kind asked for is a key, empty when the catalogue holds none."""
    wanted = list(dict.fromkeys(kinds))
    out: dict[str, list[CardFacts]] = {k: [] for k in wanted}
    if not wanted:
        return out
    qs = (
        Card.objects.filter(game__slug=game_slug, kind__in=wanted)
        .only(*Card.FACT_FIELDS)
        .order_by("name")
    )
    for card in qs:
        out[card.kind].append(card.facts())
    return out


def card_names_by_kind(*, game_slug: str, kinds: Iterable[str]) -> dict[str, list[str]]:
    """Kind -> names of the game's cards of each kind, in name order (one query)."""
    wanted = list(dict.fromkeys(kinds))
    out: dict[str, list[str]] = {k: [] for k in wanted}
    if not wanted:
        return out
    rows = (
        Card.objects.filter(game__slug=game_slug, kind__in=wanted)
        .order_by("name")
        .values_list("kind", "name")
    )
    for kind, name in rows:
        out[kind].append(name)
    return out


class GamePool(Mapping):
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

    def __iter__(self):
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


def expansion_card_names(*, game_slug: str) -> dict[str, frozenset[str]]:
    """Expansion code -> the names of the cards it prints, for every expansion of a game
    (an expansion without printings maps to an empty set), in one query."""
    out: dict[str, set[str]] = {}
    rows = Expansion.objects.filter(game__slug=game_slug).values_list(
        "code", "printings__card__name"
    )
    for code, name in rows:
        names = out.setdefault(code, set())
        if name is not None:
            names.add(name)
    return {code: frozenset(names) for code, names in out.items()}


def card_names(*, game_slug: str) -> list[str]:
    """Every card name of a game, for suggestions."""
    return list(Card.objects.filter(game__slug=game_slug).values_list("name", flat=True))


#: Candidates the trigram index gives per unknown name, ranked by similarity; the closest
#: of them (difflib, as without PostgreSQL) are the suggestions.
SUGGESTION_CANDIDATES = 12


def closest_card_names(*, game_slug: str, names: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Name -> up to three card names of the game closest to it, for "did you mean".

    On PostgreSQL one query for all the names: per name, the cards whose name is
    trigram-similar to it (`%`, served by the trigram index `card_name_trgm`), the most
    similar first, at most SUGGESTION_CANDIDATES; elsewhere every name of the game."""
    from django.db import connection

    from validation.decklist import closest_names

    names = list(dict.fromkeys(names))
    if not names:
        return {}
    if connection.vendor != "postgresql":
        every = card_names(game_slug=game_slug)
        return {name: closest_names(name, every) for name in names}
    sql = """
        SELECT q.name, c.name
        FROM unnest(%s::text[]) WITH ORDINALITY AS q(name, i)
        CROSS JOIN LATERAL (
            SELECT card.name
            FROM catalogue_card card
            WHERE card.game_id = (SELECT id FROM catalogue_game WHERE slug = %s)
              AND card.name %% q.name
            ORDER BY similarity(card.name, q.name) DESC, card.name
            LIMIT %s
        ) c
        ORDER BY q.i
    """
    candidates: dict[str, list[str]] = {name: [] for name in names}
    with connection.cursor() as cursor:
        cursor.execute(sql, [names, game_slug, SUGGESTION_CANDIDATES])
        for name, card_name in cursor.fetchall():
            candidates[name].append(card_name)
    return {name: closest_names(name, found) for name, found in candidates.items()}


def catalogue_changed(*, game_slug: str) -> None:
    """The catalogue of a game changed (an import or an admin edit): every app that keeps
    something derived from it (saved decks' reports) hears of it through the
    `catalogue_changed` hook; the game's bulk file is rebuilt on its next download."""
    from . import bulk

    bulk.changed()
    for listener in hooks.get_hooks("catalogue_changed"):
        listener(game_slug=game_slug)


def sample_data_files() -> list[Path]:
    return sorted(SAMPLE_DATA_DIR.glob("*/*.json"))
