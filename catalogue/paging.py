"""Pagination of card searches: a page of a dense search comes from `walk_page`, a deep page
from `deep_page`; the results are counted up to COUNT_CAP (`WalkPaginator.capped`)."""

from __future__ import annotations

import base64
import binascii
import json
import math
import sys
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator
from django.db.models import F, QuerySet, prefetch_related_objects
from django.db.models.expressions import OrderBy

from .search import (
    COUNT_CAP,
    SearchResult,
    after_page,
    deep_page,
    follows_name_order,
    ranked_walk_page,
    walk_page,
)

#: offset, limit, count -> the page's objects, or None for the usual slice of the queryset.
Walk = Callable[[int, int, int], list[Any] | None]
#: limit, count -> the first `limit` results after a card (a page reached by its next link).
After = Callable[[int, int], list[Any]]

__all__ = [
    "AFTER_MAX_LENGTH",
    "COUNT_CAP",
    "After",
    "CappedPage",
    "WalkPaginator",
    "after_key",
    "after_token",
    "after_walk",
    "follows_name_order",
    "search_walk",
]

#: The longest `after` read (a card's name and id, encoded).
AFTER_MAX_LENGTH = 1024


def after_token(card: Any) -> str:
    """The `after` of the page that follows `card`: its name and id, as base64url JSON."""
    raw = json.dumps([card.name, card.pk], ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def after_key(token: str) -> tuple[str, int]:
    """The name and id an `after` holds; ValueError when it holds none."""
    if not token or len(token) > AFTER_MAX_LENGTH:
        raise ValueError("no after")
    try:
        value = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise ValueError("no after") from None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not isinstance(value[0], str)
        or "\x00" in value[0]  # no name holds one, and PostgreSQL refuses it in a string
        or not isinstance(value[1], int)
        or isinstance(value[1], bool)
        or not 0 < value[1] < 2**63
    ):
        raise ValueError("no after")
    return value[0], value[1]


class CappedPage(Page):
    """A page of a count that stopped at COUNT_CAP: whether another page follows is known
    from the page's own reading (`more`), not from the count."""

    def __init__(self, object_list, number, paginator, *, more: bool) -> None:
        super().__init__(object_list, number, paginator)
        self.more = more

    def has_next(self) -> bool:
        return self.more

    def end_index(self) -> int:
        return self.start_index() + len(self.object_list) - 1 if self.object_list else 0


class WalkPaginator(Paginator):
    """A Django paginator whose pages may come from `walk` instead of a slice, whose deep
    pages read only the ids of the results before them (`deep_page`), and whose count stops
    after COUNT_CAP results (`capped`): a page past them is read as the next ones in order,
    and answers EmptyPage when it holds none."""

    def __init__(
        self,
        object_list,
        per_page,
        *,
        walk: Walk | None = None,
        result: SearchResult | None = None,
        after: After | None = None,
        **kwargs,
    ) -> None:
        super().__init__(object_list, per_page, **kwargs)
        self.walk = walk
        self.result = result
        self.after = after

    @cached_property
    def count(self) -> int:
        """The number of results, at most COUNT_CAP + 1 (then `capped`). A search whose
        sample says that it matches more than COUNT_CAP (`result.estimate`) is not counted."""
        if not isinstance(self.object_list, QuerySet):
            return len(self.object_list)
        estimate = self.result.estimate if self.result is not None else None
        if estimate is not None and estimate.past_cap:
            return COUNT_CAP + 1
        return self.object_list.order_by()[: COUNT_CAP + 1].count()

    @property
    def capped(self) -> bool:
        """The results are more than COUNT_CAP: the count stopped there."""
        return self.count > COUNT_CAP

    def validate_number(self, number):
        if not self.capped:
            return super().validate_number(number)
        # Past the counted results the last page is not known: a page is read to say.
        try:
            if isinstance(number, float) and not number.is_integer():
                raise ValueError
            number = int(number)
        except (TypeError, ValueError) as exc:
            raise PageNotAnInteger("That page number is not an integer") from exc
        if number < 1:
            raise EmptyPage("That page number is less than 1")
        return number

    def get_page(self, number):
        """As Django's; a page past the end of a capped count shows the last page, found by
        counting the results exactly (only for a page number past the end)."""
        try:
            return super().get_page(number)
        except EmptyPage:
            total = self.object_list.count()  # type: ignore[attr-defined]  # a queryset
            return self.page(max(1, math.ceil(total / self.per_page)))

    def page(self, number):
        number = self.validate_number(number)
        if self.after is not None:
            return self._page_after(number, self.after)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if self.capped and top >= self.count:
            return self._page_past_count(number, bottom)
        if not self.capped and top + self.orphans >= self.count:
            top = self.count
        # A capped count is not the end of the results: a deep page reads forward only.
        known = sys.maxsize if self.capped else self.count
        objects: Any = None
        if self.walk is not None:
            objects = self.walk(bottom, top - bottom, self.count)
        if objects is None and isinstance(self.object_list, QuerySet):
            objects = deep_page(self.object_list, offset=bottom, limit=top - bottom, count=known)
        if objects is None:
            objects = self.object_list[bottom:top]
        return self._get_page(objects, number, self)  # type: ignore[attr-defined]  # Django's

    def _page_after(self, number: int, after: After) -> CappedPage:
        """The page after a card (its number only names it): read from that card on, with
        one result more to know whether another page follows."""
        cards = after(self.per_page + 1, _density(self.count, self.result))
        if not cards:
            raise EmptyPage("That page contains no results")
        return CappedPage(cards[: self.per_page], number, self, more=len(cards) > self.per_page)

    def _page_past_count(self, number: int, bottom: int) -> CappedPage:
        """A page reaching past the counted results: one more result than the page is read,
        to know whether another page follows."""
        objects: list[Any] | None = None
        if isinstance(self.object_list, QuerySet):
            objects = deep_page(
                self.object_list, offset=bottom, limit=self.per_page + 1, count=sys.maxsize
            )
        if objects is None:
            objects = list(self.object_list[bottom : bottom + self.per_page + 1])
        if not objects:
            raise EmptyPage("That page contains no results")
        return CappedPage(objects[: self.per_page], number, self, more=len(objects) > self.per_page)


def search_walk(
    *,
    base: QuerySet,
    result: SearchResult,
    ordering: Sequence[Any],
    prefetch: Sequence[Any] = (),
) -> Walk:
    """The walk of a search: a page from `walk_page` over `base` (the queryset before the
    search), for a page shown in `ordering` (the order of the queryset being paginated: one
    ranked by name match is never walked), with the `prefetch` lookups of the page."""
    order = tuple(ordering)
    ranked = _ranked_order(order)

    def walk(offset: int, limit: int, count: int) -> list[Any] | None:
        count = _density(count, result)
        if ranked:
            cards = ranked_walk_page(
                base=base,
                words=result.rank_words,
                rest=result.rest,
                offset=offset,
                limit=limit,
                count=count,
                narrow=result.narrow,
            )
        else:
            cards = walk_page(
                base=base,
                condition=result.condition,
                ordering=order,
                offset=offset,
                limit=limit,
                count=count,
                narrow=result.narrow,
            )
        if cards is not None and prefetch:
            prefetch_related_objects(cards, *prefetch)
        return cards

    return walk


def _density(count: int, result: SearchResult | None) -> int:
    """How many results a walk sizes its window from: the count, or the sample's lower
    bound when it says more (a count that stopped at the cap says too little of how dense
    the results are)."""
    if result is not None and result.estimate is not None:
        return max(count, result.estimate.low)
    return count


def _ranked_order(order: tuple[Any, ...]) -> bool:
    """The order of results ranked by name match (`search_cards`): the rank, best first,
    then by name and id."""
    if len(order) != 3 or tuple(order[1:]) not in (("name", "id"), ("name", "pk")):
        return False
    first = order[0]
    return (
        isinstance(first, OrderBy)
        and first.descending
        and isinstance(first.expression, F)
        and getattr(first.expression, "name", None) == "search_rank"
    )


def after_walk(
    *,
    queryset: QuerySet,
    base: QuerySet | None,
    result: SearchResult | None,
    after: tuple[str, int],
) -> After:
    """The reading of a page after a card (`after`: its name and id) of `queryset`, a list
    in name and id order (`catalogue.search.after_page`); `base` and `result`: the cards
    searched and the search, when there is one."""

    def read(limit: int, count: int) -> list[Any]:
        return after_page(
            queryset=queryset,
            base=base if result is not None else None,
            condition=result.condition if result is not None else None,
            after=after,
            limit=limit,
            count=count,
            narrow=result.narrow if result is not None else None,
        )

    return read
