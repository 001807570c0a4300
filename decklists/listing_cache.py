"""The decklist lists' pages kept in the shared cache: which decklists a page of a list shows
(the popular page, a game's list, a search, the API's list) and how many the list has, keyed
by the list's query and the page's bounds.

Every change that can move a decklist into, out of or within a list (publishing, a like or
favourite, a comment, hiding, restoring or deleting, a legality re-check, an edit in the
admin) calls `listings_changed`, which gives the lists a new generation at once and again
once its transaction commits: every entry of an old one is then never read again (and
expires). A reader that read a generation before the commit and stores its answer after it
stores it under a generation which nobody reads any more. The decklists themselves (names, counts) are always read
from the database by id: only the choice and the order are kept.

With the cache unreachable, nothing is kept and every list is read from the database."""

from __future__ import annotations

import hashlib
import logging
import secrets
from typing import Any

from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

GENERATION_KEY = "decklists:listings"
#: How long a page is kept at most (a bound, should a change's new generation be lost).
TTL_SECONDS = 600


def generation() -> str | None:
    """The lists' current generation; None when the cache cannot be reached."""
    try:
        token = cache.get(GENERATION_KEY)
        if token is None:
            cache.add(GENERATION_KEY, secrets.token_hex(8), None)
            token = cache.get(GENERATION_KEY)
        return token
    except Exception:  # noqa: BLE001 - no cache: read from the database
        return None


def _new_generation() -> None:
    try:
        cache.set(GENERATION_KEY, secrets.token_hex(8), None)
    except Exception as exc:  # noqa: BLE001 - the entries expire within TTL_SECONDS
        logger.warning(
            "decklist lists not renewed: cache unavailable",
            extra={"error": f"{exc.__class__.__name__}: {exc}"},
        )


def listings_changed() -> None:
    """The lists may have changed: a new generation now (this transaction's own later reads
    see its change) and again once the transaction commits (a reader that took the first
    one before the commit and kept what it read then stored it under a generation nobody
    reads after the commit)."""
    _new_generation()
    transaction.on_commit(_new_generation)


def key(query: Any, *parts: Any) -> str | None:
    """The cache key of `query`'s (a queryset's) page `parts`, in the current generation;
    None when the cache cannot be reached."""
    current = generation()
    if current is None:
        return None
    sql, params = query.query.sql_with_params()
    digest = hashlib.sha256(repr((sql, params, parts)).encode()).hexdigest()[:40]
    return f"decklists:list:{current}:{digest}"


def read(name: str | None) -> Any:
    if name is None:
        return None
    try:
        return cache.get(name)
    except Exception:  # noqa: BLE001 - no cache: read from the database
        return None


def keep(name: str | None, value: Any) -> None:
    if name is None:
        return
    try:
        cache.set(name, value, TTL_SECONDS)
    except Exception:  # noqa: BLE001 - not kept; the next request reads the database
        pass
