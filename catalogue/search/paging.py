"""Pages of dense results: a page found by walking the cards in name order; the first pages
of results ranked by name match, found the same way among the names of the best rank; deep
pages read through the ids before them."""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.db.models import (
    BooleanField,
    ExpressionWrapper,
    IntegerField,
    Q,
    QuerySet,
    prefetch_related_objects,
)
from django.db.models.expressions import RawSQL
from django.db.models.lookups import GreaterThanOrEqual
from django.db.models.sql.datastructures import BaseTable
from scipy.special import betaincinv

from .expressions import ROW_TESTS, rank_expression
from .language import Estimate

# --------------------------------------------------------------------------------------------
# Pages of dense results

#: A page is found by walking the cards in name order when the results are at least this
#: share of the cards searched, reading at most WALK_MAX_ROWS cards; the window read is the
#: expected number of cards before the page's last result, times WALK_MARGIN, plus a page.
WALK_MIN_SHARE = 0.04
WALK_MAX_ROWS = 3000
WALK_MARGIN = 1.5
#: How long the number of cards searched (the sizing hint of the walk) is kept, in seconds.
SCOPE_TTL = 300

logger = logging.getLogger(__name__)


#: Orders of a page that a walk can follow: by name (unique within a game), then by id.
WALK_ORDERS = (("name",), ("name", "id"), ("name", "pk"))


def follows_name_order(ordering: Iterable[Any]) -> bool:
    """A page in this order is walked in name order (`walk_page`), and the page after a card
    is read from it (`after_page`): by name, then by id (a name is a game's own)."""
    return tuple(ordering) in WALK_ORDERS


def walk_page(
    *,
    base: QuerySet,
    condition: Q | None,
    ordering: Iterable[Any],
    offset: int,
    limit: int,
    count: int,
    narrow: dict[str, Any] | None = None,
) -> list[Any] | None:
    """The cards of results `offset` to `offset + limit` of a search, in (name, id) order,
    found by reading the searched cards (`base`, the queryset before the search) in that
    order and testing the search's `condition` on each, in one statement with no other
    condition; None when this does not apply (`ordering`, the order of the caller's page, is
    not by name; results ranked by name match are not), and the caller runs its usual page
    query.

    Why: PostgreSQL multiplies the selectivities of a game and of attribute conditions as if
    they were independent (edges and movement only exist on the cards of one game), so for a
    search matching thousands of cards it expects a handful, reads every match through the
    indexes and sorts them all to show fifty. When the count (known before the page) says
    the matches are dense, reading the name index in order finds a page after a few hundred
    cards. The result is exact: the window is a prefix of the order, so the hits in it are
    the first results; when it holds too few, None. `narrow`: column equalities every
    result satisfies (`SearchResult.narrow`), so that only those cards are read.

    `base` must be the cards of one game: its name index gives the order."""
    if condition is None or limit <= 0 or count <= offset:
        return None
    if not follows_name_order(ordering):
        return None
    walked = _walked_scope(base, narrow)
    if walked is None:
        return None
    base, scope = walked
    if count < WALK_MIN_SHARE * scope:
        return None
    window = _window(scope, offset=offset, limit=limit, count=count)
    if window > WALK_MAX_ROWS:
        return None
    # Exact when the page is whole (the count says how many it holds): the window is a
    # prefix of the order, so its hits are the first results. Otherwise it held too few.
    return _walk_window(base, condition, window, offset=offset, limit=limit, count=count)


def _walked_scope(base: QuerySet, narrow: dict[str, Any] | None) -> tuple[QuerySet, int] | None:
    """The cards a walk reads in name order (`base` with the `narrow` equalities) and how
    many they are; None when no walk applies (not PostgreSQL, a distinct query, no cards)."""
    if connections[base.db].vendor != "postgresql" or base.query.distinct:
        return None
    if narrow:
        base = base.filter(**narrow)
    scope = _scope_count(base)
    return (base, scope) if scope > 0 else None


def _window(scope: int, *, offset: int, limit: int, count: int) -> int:
    """How many of the `scope` cards, in name order, a walk reads for results `offset` to
    `offset + limit` of `count` matches: the expected number of cards before the page's last
    result, times WALK_MARGIN, plus a page."""
    need = min(offset + limit, count)
    return math.ceil(need * max(scope, count) / count * WALK_MARGIN) + limit


def _walk_window(
    base: QuerySet, condition: Any, window: int, *, offset: int, limit: int, count: int
) -> list[Any] | None:
    """Results `offset` to `offset + limit` among the first `window` cards of `base` in name
    order that meet `condition`; None when they are fewer than the page the count promises.

    The window of cards in name order, the condition as a column: a subquery with a LIMIT,
    which PostgreSQL plans on its own (the name index, read in order, stops after `window`
    cards), and the hits among them, whole rows, in the same order."""
    hit = ExpressionWrapper(condition, output_field=BooleanField())
    inner = (
        base.select_related(None)
        .prefetch_related(None)
        .order_by("name", "id")
        .annotate(search_hit=hit)[:window]
    )
    setattr(inner.query, ROW_TESTS, True)  # each card read is tested on its own row
    inner_sql, params = inner.query.sql_with_params()
    sql = (
        f"SELECT * FROM ({inner_sql}) AS walk WHERE walk.search_hit "
        "ORDER BY walk.name, walk.id OFFSET %s LIMIT %s"
    )
    cards = list(base.model.objects.db_manager(base.db).raw(sql, (*params, offset, limit)))
    if len(cards) != min(limit, count - offset):
        return None
    return cards


def after_card(queryset: QuerySet, after: tuple[str, int]) -> RawSQL:
    """The cards after the card whose name and id are `after`, in (name, id) order: a row
    comparison, which a btree index on the name and the id (with the game before them, or
    not) starts reading at."""
    connection = connections[queryset.db]
    table = connection.ops.quote_name(queryset.model._meta.db_table)
    name, pk = after
    return RawSQL(f"({table}.name, {table}.id) > (%s, %s)", (name, pk), BooleanField())


def after_page(
    *,
    queryset: QuerySet,
    base: QuerySet | None,
    condition: Q | None,
    after: tuple[str, int],
    limit: int,
    count: int,
    narrow: dict[str, Any] | None = None,
) -> list[Any]:
    """The first `limit` results of `queryset` (in name and id order) after the card whose
    (name, id) is `after`: a page reached by its "next" link, read from that card on
    whatever its depth (keyset pagination). `count`: how many results there are (at least;
    a capped count), which says how dense they are.

    The results of a search matching at least WALK_MIN_SHARE of `base` (the cards searched,
    of one game) are walked in name order from the card, each tested on its own row
    (`_walk_window`), when a window of at most WALK_MAX_ROWS cards is expected to hold the
    page; otherwise, or when the window held too few, the page is the queryset's own
    statement from the card on. Either way the page is exact."""
    key = after_card(queryset, after)
    if condition is not None and base is not None and limit > 0:
        walked = _walked_scope(base, narrow)
        if walked is not None and count >= WALK_MIN_SHARE * walked[1]:
            scope_base, scope = walked
            window = _window(scope, offset=0, limit=limit, count=count)
            if window <= WALK_MAX_ROWS:
                cards = _walk_window(
                    scope_base.filter(key), condition, window, offset=0, limit=limit, count=limit
                )
                if cards is not None:
                    prefetch = getattr(queryset, "_prefetch_related_lookups", ())
                    if prefetch:
                        prefetch_related_objects(cards, *prefetch)
                    return cards
    return list(queryset.filter(key)[:limit])


#: A page of ranked results is walked (`ranked_walk_page`) reading at most this many cards.
RANKED_WALK_MAX_ROWS = 6000


def ranked_walk_page(
    *,
    base: QuerySet,
    words: list[str],
    rest: Q | None,
    offset: int,
    limit: int,
    count: int,
    narrow: dict[str, Any] | None = None,
) -> list[Any] | None:
    """The cards of results `offset` to `offset + limit` of a search ranked by name match
    (best first, then by name and id), found among the cards whose name holds every ranked
    word whole (`words`, their best rank) by walking `base` (the cards of one game before
    the search) in name order; None when this does not apply or the walk found too few, and
    the caller runs its usual page query.

    `rest`: the search's conditions other than its ranked words (None: the words' best rank
    does not prove that they match, and there is no walk). A name holding a fuzzy bare
    word whole is trigram-similar to it, so it matches that word: the cards of the best
    rank are those of `rest` whose rank is the best, and they come first in the order.

    Why: ranking reads every match, and a name matching a few thousand cards ("hawk", 2% of
    a game) costs more than the count. When the first pages are of the best rank, reading
    the game's names in order finds them after a few thousand cards, each tested against
    the words alone."""
    if rest is None or not words or limit <= 0 or count <= offset:
        return None
    walked = _walked_scope(base, narrow)
    if walked is None:
        return None
    base, scope = walked
    # The window as if every match were of the best rank: when fewer are, it holds too few
    # and the usual query runs.
    window = _window(scope, offset=offset, limit=limit, count=count)
    if window > RANKED_WALK_MAX_ROWS:
        return None
    best = Q(GreaterThanOrEqual(rank_expression(words), float(len(words))))
    # Exact when the page is whole: the window is a prefix of the name order, so its cards
    # of the best rank are the first results. Otherwise the page reaches past them.
    condition = best & rest if rest.children else best
    return _walk_window(base, condition, window, offset=offset, limit=limit, count=count)


def _scope_count(base: QuerySet) -> int:
    """How many cards `base` holds, kept SCOPE_TTL seconds (only a hint: a stale number
    makes the window too large, which costs a little, or too small, which falls back)."""
    sql, params = base.order_by().values("id").query.sql_with_params()
    digest = hashlib.sha256(repr((base.db, sql, params)).encode()).hexdigest()
    key = f"catalogue:search-scope:{digest}"
    try:
        scope = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down: count, as on a miss
        scope = None
    if scope is None:
        scope = base.order_by().count()
        try:
            cache.set(key, scope, SCOPE_TTL)
        except Exception:  # noqa: BLE001 - a hint only; the search answers without it
            logger.warning("search scope not cached: the cache is unavailable")
    return scope


# --------------------------------------------------------------------------------------------
# Searches sized from a sample

#: A search is sized from a sample (`estimate_matches`) only among at least this many cards
#: (the setting SEARCH_SAMPLE_MIN_CARDS): fewer are counted and ranked at little cost.
SAMPLE_MIN_CARDS = 20_000
#: About how many of the searched cards the sample tests, and the least it must hold.
SAMPLE_ROWS = 400
SAMPLE_MIN_ROWS = 100
#: The least pages the sample must come from: the interval's variance is read across them.
SAMPLE_MIN_PAGES = 10
#: The sample is the same for the same table (PostgreSQL's REPEATABLE), so that the pages of
#: one search agree.
SAMPLE_SEED = 20241122
#: How sure the bounds are (about four standard errors either side).
SAMPLE_CONFIDENCE = 0.9999


class _SampledTable(BaseTable):
    """The query's table read through `TABLESAMPLE SYSTEM (percent) REPEATABLE (seed)`: the
    rows of about `percent` % of its pages, chosen at random, the same ones every time."""

    def __init__(self, table_name: str, alias: str | None, percent: float) -> None:
        super().__init__(table_name, alias)
        self.percent = percent

    def as_sql(self, compiler, connection):
        sql, params = super().as_sql(compiler, connection)
        return (
            f"{sql} TABLESAMPLE SYSTEM (%s) REPEATABLE (%s)",
            [*params, self.percent, SAMPLE_SEED],
        )


def estimate_matches(queryset: QuerySet, condition: Q, parts: Sequence[Q] = ()) -> Estimate | None:
    """How many cards of `queryset` (the cards searched) meet `condition` (the search's),
    from about SAMPLE_ROWS of them read at random pages of the table and tested row by row
    (`ROW_TESTS`): one statement reading a few dozen pages, whatever the search matches.
    None when this does not apply: not PostgreSQL, a distinct query, fewer than
    SEARCH_SAMPLE_MIN_CARDS cards searched (they are counted at little cost), or a sample
    too small to say (fewer than SAMPLE_MIN_ROWS cards or SAMPLE_MIN_PAGES pages). `parts`:
    conditions the sample also counts, each on its own (`Estimate.part_hits`), the words of
    an AND, so that the rarest can be found first.

    The sample is whole pages of the table, and the cards of a page are alike (imported
    together, or in name order), so its interval is a cluster sample's
    (`clustered_interval`), not that of as many cards drawn one by one.

    Why: the exact number of a search matching tens of thousands of cards (a common word:
    its id subqueries read every match's row) costs more than anything else the page does,
    and the site says "more than 10,000" past that many anyway."""
    if connections[queryset.db].vendor != "postgresql" or queryset.query.distinct:
        return None
    scope = _scope_count(queryset)
    if scope < getattr(settings, "SEARCH_SAMPLE_MIN_CARDS", SAMPLE_MIN_CARDS):
        return None
    percent = min(100.0, 100.0 * SAMPLE_ROWS / scope)
    tests = {"search_hit": condition} | {f"search_part_{i}": p for i, p in enumerate(parts)}
    table_name = connections[queryset.db].ops.quote_name(queryset.model._meta.db_table)
    inner = (
        queryset.select_related(None)
        .prefetch_related(None)
        .order_by()
        .annotate(
            **{k: ExpressionWrapper(t, output_field=BooleanField()) for k, t in tests.items()},
            # The page of the table the card was read from.
            search_page=RawSQL(f"({table_name}.ctid::text::point)[0]", (), IntegerField()),
        )
        .values(*tests, "search_page")
    )
    query = inner.query
    setattr(query, ROW_TESTS, True)
    alias = query.get_initial_alias()
    table = query.alias_map[alias]
    query.alias_map[alias] = _SampledTable(table.table_name, table.table_alias, percent)
    sql, params = query.sql_with_params()
    with connections[queryset.db].cursor() as cursor:
        counts = ", ".join(f"count(*) FILTER (WHERE sample.{k})" for k in tests)
        cursor.execute(
            f"SELECT count(*), {counts} FROM ({sql}) AS sample GROUP BY sample.search_page",
            params,
        )
        pages = cursor.fetchall()
    sampled = sum(row[0] for row in pages)
    if sampled < SAMPLE_MIN_ROWS or len(pages) < SAMPLE_MIN_PAGES:
        return None
    low, high = clustered_interval([(row[0], row[1]) for row in pages])
    return Estimate(
        low=math.floor(low * scope),
        high=math.ceil(high * scope),
        hits=sum(row[1] for row in pages),
        sampled=sampled,
        scope=scope,
        part_hits=tuple(sum(row[2 + i] for row in pages) for i in range(len(parts))),
    )


def _z() -> float:
    """The normal quantile of SAMPLE_CONFIDENCE (two-sided)."""
    return NormalDist().inv_cdf(1 - (1 - SAMPLE_CONFIDENCE) / 2)


def interval(hits: float, n: float) -> tuple[float, float]:
    """The share's interval at SAMPLE_CONFIDENCE: Clopper and Pearson's (exact) interval,
    as scipy's `binomtest(...).proportion_ci(method="exact")` gives it, from the beta
    distribution's quantiles (scipy.special; scipy.stats takes seconds to import, too long
    for the first search of a process). `hits` and `n` may be effective numbers
    (`clustered_interval`), not whole ones. Not Wilson's: its low end is well above the
    exact one for a few hits at this confidence (3 of 14: 3.2 % against 0.5 %)."""
    alpha = 1 - SAMPLE_CONFIDENCE
    low = 0.0 if hits <= 0 else float(betaincinv(hits, n - hits + 1, alpha / 2))
    high = 1.0 if hits >= n else float(betaincinv(hits + 1, n - hits, 1 - alpha / 2))
    return low, high


def t_quantile(df: int) -> float:
    """Student's t quantile of SAMPLE_CONFIDENCE (two-sided) for `df` degrees of freedom:
    the Cornish-Fisher expansion (Abramowitz and Stegun 26.7.5), within 0.2 % of scipy's
    `t.ppf` from 9 degrees of freedom on (a test compares them)."""
    z = _z()
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def clustered_interval(pages: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """The share's interval at SAMPLE_CONFIDENCE from a sample of whole pages, `pages` being
    (cards read, cards matching) a page.

    The low end: Clopper and Pearson's interval on the effective sample size (Korn and
    Graubard, 1998). The share's variance is the ratio estimator's across pages; the sample
    counts as `p(1 - p) / variance` cards (at most the cards read), fewer again for the few
    pages the variance rests on (times (z / t)², t on pages - 1 degrees of freedom).

    The high end is the larger of that interval's and the pages' own: the share of pages
    holding a match (each page one draw, which the sample's pages are) times the fullest
    page read against the mean. Why: matches read one or two to a page look independent,
    and the variance says nothing of a run of pages full of matches the sample did not
    read (a name's cards stored together, beside a few cards whose text holds the word); the
    pages' bound holds whatever the matches' layout, as long as no page holds more cards
    than the fullest read. A share of 1 has no variance to read: its low end is the pages'
    (every page read held only matches).

    Korn, E. L. and Graubard, B. I. (1998), "Confidence intervals for proportions with
    small expected number of positive counts estimated from survey data", Survey
    Methodology 24(2)."""
    n = sum(size for size, _ in pages)
    hits = sum(h for _, h in pages)
    m = len(pages)
    fill = max(size for size, _ in pages) * m / n
    page_high = min(1.0, interval(sum(1 for _, h in pages if h), m)[1] * fill)
    if hits == 0:
        return 0.0, page_high
    if hits == n:
        return interval(m, m)[0], 1.0
    share = hits / n
    spread = sum((h - share * size) ** 2 for size, h in pages)
    variance = m / (m - 1) * spread / (n * n)
    effective = float(n)
    if variance > 0:
        effective = min(effective, share * (1 - share) / variance)
    effective *= (_z() / t_quantile(m - 1)) ** 2
    low, high = interval(share * effective, effective)
    return low, max(high, page_high)


# --------------------------------------------------------------------------------------------
# Deep pages

#: A page that starts this deep or deeper is read as a deferred join (`deep_page`).
DEEP_OFFSET = 500


def deep_page(queryset: QuerySet, *, offset: int, limit: int, count: int) -> list[Any] | None:
    """The cards of results `offset` to `offset + limit` of `queryset` (ordered), found by
    reading only the ids of the results before them, from whichever end of the order is
    nearer, and then the page's rows by id: one statement,

        SELECT … WHERE id IN (SELECT id … ORDER BY <order> OFFSET n LIMIT m) ORDER BY <order>

    None when this does not apply (not PostgreSQL, a page near the start, a DISTINCT
    queryset, an order by anything but columns), and the caller slices as usual.

    Why: a plain OFFSET fetches every skipped card's whole row. The inner SELECT names only
    the order's columns and the id, so the btree indexes that hold them all (migration 0010:
    the game, the sort's column, the name and the id) answer it from the index alone, and
    the page's rows are fetched for the page only. A page past the middle is counted from
    the end (the order reversed), so no page reads more than half the results."""
    if offset < DEEP_OFFSET or limit <= 0 or offset >= count:
        return None
    if connections[queryset.db].vendor != "postgresql" or queryset.query.distinct:
        return None
    given = list(queryset.query.order_by) or list(queryset.model._meta.ordering)
    order = [o for o in given if isinstance(o, str) and "__" not in o]
    if not order or len(order) != len(given):
        return None
    if not any(o.lstrip("-") in ("id", "pk") for o in order):
        order.append("id")
    limit = min(limit, count - offset)
    after = count - offset - limit  # results after the page
    if after < offset:
        reverse = [o[1:] if o.startswith("-") else f"-{o}" for o in order]
        inner = queryset.order_by(*reverse)[after : after + limit]
    else:
        inner = queryset.order_by(*order)[offset : offset + limit]
    # The page's rows by id alone (the search's conditions are not tested again), with what
    # the queryset loads: its related rows, its columns, its prefetches.
    page = queryset.model._default_manager.db_manager(queryset.db).filter(id__in=inner.values("id"))
    page.query.select_related = queryset.query.select_related
    page.query.deferred_loading = queryset.query.deferred_loading
    page._prefetch_related_lookups = queryset._prefetch_related_lookups  # type: ignore[attr-defined]  # Django's
    return list(page.order_by(*order))
