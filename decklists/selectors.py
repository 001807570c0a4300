"""Reads of decklists for the pages and the API (no writes besides the legality a page
re-checks at once when it is stale): a decklist's page, its derivation chain both ways, its
comments, the home page's strip, a card's count, an author's page. Each costs a fixed number
of queries whatever the number of decklists, likes and comments."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypedDict

from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator
from django.db import connection
from django.db.models import Count, F, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.functional import cached_property

from cardsite.accounts import signed_in
from simulations.models import RunKind, SimulationRun, Status
from simulations.pipeline import shown
from validation.registry import registry

from . import listing_cache
from .models import Author, Comment, Decklist, DecklistCard, Favourite, Follow, Like
from .services import duplicate_of
from .services.search import LIST_DEFERRED

if TYPE_CHECKING:
    from datetime import datetime

    from django.contrib.auth.models import AnonymousUser, User

    from catalogue.models import Card, Game

#: Decklists a game shows in the home page's strip, and how far back "this week" reaches.
STRIP_SIZE = 5
STRIP_DAYS = 7
#: Links of the derivation chain shown each way, and comments a page.
CHAIN_MAX = 20
COMMENTS_PAGE = 50
#: The most decklists a list counts ("more than 10,000").
COUNT_CAP = 10_000


class GameStrip(TypedDict):
    """A game's strip of popular decklists."""

    game: Game
    decklists: list[Decklist]


def popular_this_week(*, now: datetime | None = None) -> list[GameStrip]:
    """Per game (in the registry's order), its most popular listed decklists published in
    the last STRIP_DAYS days (one query)."""
    now = now or timezone.now()
    ranked = (
        Decklist.objects.listed()
        .filter(published_at__gte=now - timedelta(days=STRIP_DAYS))
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("game_id")],
                order_by=[F("score").desc(), F("id").desc()],
            )
        )
        .filter(rank__lte=STRIP_SIZE)
        .defer(*LIST_DEFERRED)
        .select_related("game", "author")
        .order_by("game__position", "rank")
    )
    out: dict[str, GameStrip] = {}
    for d in ranked:
        out.setdefault(d.game.slug, {"game": d.game, "decklists": []})["decklists"].append(d)
    return [out[slug] for slug in registry.slugs() if slug in out]


def card_decklist_count(card: Card) -> int:
    """The listed decklists holding the card (one query, read from the card's index; kept
    in the cache with the lists, `listing_cache`, so a card page read again costs none)."""
    qs = DecklistCard.objects.filter(card=card, decklist__hidden=False)
    name = listing_cache.key(qs, "card count")
    kept = listing_cache.read(name)
    if kept is None:
        kept = qs.count()
        listing_cache.keep(name, kept)
    return kept


def _chain_up(decklist: Decklist, user: User | AnonymousUser | None) -> list[Decklist]:
    """The decklists it derives from, nearest first (two queries: one recursive walk)."""
    table = Decklist._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH RECURSIVE chain(id, precedent_id, depth) AS (
                SELECT id, precedent_id, 0 FROM {table} WHERE id = %s
                UNION ALL
                SELECT d.id, d.precedent_id, c.depth + 1
                FROM {table} d JOIN chain c ON d.id = c.precedent_id
                WHERE c.depth < %s
            )
            SELECT id, depth FROM chain WHERE depth > 0
            """,
            [decklist.pk, CHAIN_MAX],
        )
        depth = dict(cursor.fetchall())
    if not depth:
        return []
    found = Decklist.objects.visible_to(user).filter(pk__in=list(depth)).select_related("author")
    return sorted(found, key=lambda d: depth[d.pk])


@dataclass
class DecklistPage:
    """What a decklist's page shows besides the list itself."""

    precedents: list[Decklist]
    derivatives: list[Decklist]
    set_members: list[Decklist]
    duplicate: Decklist | None
    liked: bool
    favoured: bool
    following: bool
    reputation: int
    goldfish: dict[str, Any] | None


def decklist_page(decklist: Decklist, user: User | AnonymousUser | None) -> DecklistPage:
    """The derivation chain both ways, the other decklists of its set, the earliest
    decklist with the same cards, the reader's like, favourite and follow, the author's
    reputation and the goldfish summary the author ran on the published version."""
    derivatives = list(
        Decklist.objects.visible_to(user)
        .filter(precedent=decklist)
        .select_related("author")
        .order_by("published_at", "pk")[:CHAIN_MAX]
    )
    members = (
        list(
            Decklist.objects.visible_to(user)
            .filter(set_id=decklist.set_id)
            .exclude(pk=decklist.pk)
            .order_by("pk")
        )
        if decklist.set_id
        else []
    )

    return DecklistPage(
        precedents=_chain_up(decklist, user),
        derivatives=derivatives,
        set_members=members,
        duplicate=duplicate_of(
            game_id=decklist.game_id, sig=decklist.signature, exclude=decklist.pk
        ),
        liked=signed_in(user) and Like.objects.filter(decklist=decklist, user=user).exists(),
        favoured=signed_in(user)
        and Favourite.objects.filter(decklist=decklist, user=user).exists(),
        following=signed_in(user)
        and Follow.objects.filter(author_id=decklist.author_id, follower=user).exists(),
        reputation=Author.objects.filter(user_id=decklist.author_id)
        .values_list("reputation", flat=True)
        .first()
        or 0,
        goldfish=goldfish_summary(decklist),
    )


def goldfish_summary(decklist: Decklist) -> dict[str, Any] | None:
    """The newest goldfish its author ran on the published version (done): its games and
    key figures and charts (one query), or None."""
    game = registry.get(decklist.game.slug) if decklist.game.slug in registry else None
    if game is None or game.goldfish is None or decklist.deck_version_id is None:
        return None
    run = (
        SimulationRun.objects.filter(
            deck_version_id=decklist.deck_version_id,
            owner_id=decklist.author_id,
            kind=RunKind.GOLDFISH,
            simulation=game.goldfish.slug,
            status=Status.DONE,
        )
        .order_by("-finished_at", "-pk")
        .first()
    )
    if run is None:
        return None
    summary = (run.results or {}).get("summary")
    if not summary:
        return None
    return {
        "run": run,
        "games": run.games,
        **shown(game.goldfish, summary, prefix=f"dl{decklist.pk}-"),
    }


# Django's Paginator is generic only to the type checker (not subscriptable when run).
if TYPE_CHECKING:
    _CommentPaginator = Paginator[Comment]
    _DecklistPaginator = Paginator[Decklist]
else:
    _CommentPaginator = _DecklistPaginator = Paginator


class _Counted(_CommentPaginator):
    """A paginator told its count (the decklist's own counter: no COUNT query)."""

    def __init__(self, object_list: QuerySet[Comment], per_page: int, *, count: int) -> None:
        super().__init__(object_list, per_page)
        self._known = count

    @cached_property
    def count(self) -> int:
        return self._known


def comments_shown(decklist: Decklist, *, moderator: bool = False) -> QuerySet[Comment]:
    """The decklist's comments, oldest first, with their authors: the visible ones or, for a
    moderator (staff, the decklist's author), the hidden ones too. The page and the API
    read them alike."""
    qs = (
        Comment.objects.filter(decklist=decklist)
        .select_related("author")
        .order_by("created_at", "id")
    )
    return qs if moderator else qs.filter(hidden=False)


def comments_of(
    decklist: Decklist, *, page: int | str | None = 1, moderator: bool = False
) -> Page[Comment]:
    """A page of `comments_shown`: the visible ones counted by the decklist's counter (one
    query), or for a moderator the hidden ones too (and a COUNT)."""
    qs = comments_shown(decklist, moderator=moderator)
    if moderator:
        return Paginator(qs, COMMENTS_PAGE).get_page(page)
    return _Counted(qs, COMMENTS_PAGE, count=decklist.comments).get_page(page)


def _shown(ids: list[int]) -> dict[int, Decklist]:
    """The page's decklists by id (listed ones only: a page kept a moment before a decklist
    was hidden does not show it)."""
    return (
        Decklist.objects.listed()
        .select_related("game", "author")
        .defer(*LIST_DEFERRED)
        .in_bulk(ids)
    )


class SearchPaginator(_DecklistPaginator):
    """A search by cards: the page's ids and the total in one query (`COUNT(*) OVER ()`,
    read from the decklists' index on the sort, not their rows), then the page's decklists
    by id. The set operation on the card index runs once, and no row of a decklist that is
    not shown is read. The ids and the total are kept in the cache (`listing_cache`) until
    a decklist changes: the same search again reads only the page's decklists."""

    def page(self, number: int | str) -> Page[Decklist]:
        try:
            number = int(number)
        except (TypeError, ValueError) as exc:
            raise PageNotAnInteger("That page number is not an integer") from exc
        if number < 1:
            raise EmptyPage("That page number is less than 1")
        bottom = (number - 1) * self.per_page
        name = listing_cache.key(self.object_list, "search", bottom, self.per_page)
        kept = listing_cache.read(name)
        if kept is None:
            rows = self.object_list.annotate(found_total=Window(Count("pk")))  # type: ignore[attr-defined]  # a queryset
            found: list[tuple[int, int]] = list(
                rows.values_list("pk", "found_total")[bottom : bottom + self.per_page]
            )
            kept = ([pk for pk, _ in found], found[0][1] if found else 0)
            listing_cache.keep(name, kept)
        ids, total = kept
        if not ids and number > 1:
            raise EmptyPage("That page contains no results")
        self.__dict__["count"] = total
        by_id = _shown(ids)
        return self._get_page(  # type: ignore[attr-defined]  # Paginator's own page factory
            [by_id[pk] for pk in ids if pk in by_id], number, self
        )


class CappedPaginator(_DecklistPaginator):
    """A paginator that counts at most COUNT_CAP + 1 rows (a LIMITed subquery): a list of
    many decklists costs the same to count however many there are; `capped` says the count
    stopped there. The count and each page's ids are kept in the cache (`listing_cache`)
    until a decklist changes; the page's decklists are read by id."""

    @cached_property
    def count(self) -> int:
        name = listing_cache.key(self.object_list, "count", COUNT_CAP)
        kept = listing_cache.read(name)
        if kept is None:
            kept = self.object_list[: COUNT_CAP + 1].count()  # type: ignore[attr-defined]  # a queryset
            listing_cache.keep(name, kept)
        return kept

    @property
    def capped(self) -> bool:
        return self.count > COUNT_CAP

    def page(self, number: int | str) -> Page[Decklist]:
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = min(bottom + self.per_page, self.count)
        name = listing_cache.key(self.object_list, "page", bottom, top)
        ids = listing_cache.read(name)
        if ids is None:
            ids = list(self.object_list.values_list("pk", flat=True)[bottom:top])  # type: ignore[attr-defined]  # a queryset
            listing_cache.keep(name, ids)
        by_id = _shown(ids)
        return self._get_page(  # type: ignore[attr-defined]  # Paginator's own page factory
            [by_id[pk] for pk in ids if pk in by_id], number, self
        )


class AuthorStanding(TypedDict):
    """An author's reputation, followers and listed decklists (counted)."""

    reputation: int
    followers: int
    decklists: int


def author_page(author: User) -> AuthorStanding:
    """An author's standing: reputation, followers, listed decklists (counted)."""
    row: Mapping[str, Any] = (
        Author.objects.filter(user=author).values("reputation", "followers").first() or {}
    )
    return {
        "reputation": row.get("reputation", 0),
        "followers": row.get("followers", 0),
        "decklists": Decklist.objects.listed().filter(author=author).count(),
    }
