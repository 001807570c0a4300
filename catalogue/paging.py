"""Pagination of card searches: a page of a dense search comes from `walk_page`, a deep page
from `deep_page`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet, prefetch_related_objects

from .search import SearchResult, deep_page, walk_page

#: offset, limit, count -> the page's objects, or None for the usual slice of the queryset.
Walk = Callable[[int, int, int], list[Any] | None]


class WalkPaginator(Paginator):
    """A Django paginator whose pages may come from `walk` instead of a slice, and whose deep
    pages read only the ids of the results before them (`deep_page`)."""

    def __init__(self, object_list, per_page, *, walk: Walk | None = None, **kwargs) -> None:
        super().__init__(object_list, per_page, **kwargs)
        self.walk = walk

    def page(self, number):
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        objects: Any = None
        if self.walk is not None:
            objects = self.walk(bottom, top - bottom, self.count)
        if objects is None and isinstance(self.object_list, QuerySet):
            objects = deep_page(
                self.object_list, offset=bottom, limit=top - bottom, count=self.count
            )
        if objects is None:
            objects = self.object_list[bottom:top]
        return self._get_page(objects, number, self)  # type: ignore[attr-defined]  # Django's


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

    def walk(offset: int, limit: int, count: int) -> list[Any] | None:
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
