"""The bulk files: every card of a game with its printings, as one JSON document, built once
and kept in the shared cache until the game's catalogue changes (an import, an admin edit),
with the validators a client needs to fetch only what changed (ETag, Last-Modified).

The catalogue has a generation (a random token in the cache, replaced after every change
commits: an import, or a card, printing or expansion saved or deleted in the admin; the
services that write them call `changed`, no signal does); a built file is kept
under its game and the generation. A missing generation (an evicted or cleared cache) is a
new one, so an old file is never served for a newer catalogue. A file rebuilt with the same
content keeps its ETag and its Last-Modified: only a game whose cards changed looks changed."""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Prefetch

from validation.registry import registry

from .models import Card, Printing
from .serializers import CardSerializer

logger = logging.getLogger(__name__)

CONTENT_TYPE = "application/json"
#: Kept at most this long even without a change (a safety net; a change replaces it at once).
TIMEOUT = 7 * 24 * 3600


@dataclass(frozen=True)
class BulkFile:
    game: str
    body: bytes
    etag: str
    updated_at: datetime

    @property
    def size(self) -> int:
        return len(self.body)


GENERATION_KEY = "bulk-generation"


def _cached(method: str, *args, default=None):
    """A call of the shared cache that never fails the download: with the cache unreachable
    the file is built for this request alone (and a warning logged)."""
    try:
        return getattr(cache, method)(*args)
    except Exception as exc:  # noqa: BLE001 - any cache failure: serve without it
        logger.warning(
            "bulk file cache unavailable; built without it",
            extra={"operation": method, "error": f"{exc.__class__.__name__}: {exc}"},
        )
        return default


def generation() -> str:
    key = GENERATION_KEY
    value = _cached("get", key)
    if value is None:
        value = uuid.uuid4().hex
        if not _cached("add", key, value, TIMEOUT, default=True):
            value = _cached("get", key) or value
    return value


def changed() -> None:
    """The catalogue changed: once the transaction commits, a new generation."""
    transaction.on_commit(_bump)


def _bump() -> None:
    _cached("set", GENERATION_KEY, uuid.uuid4().hex, TIMEOUT)


def _build(slug: str) -> BulkFile:
    game = registry.get(slug)
    cards = (
        Card.objects.filter(game__slug=slug)
        .select_related("game")
        .prefetch_related(
            Prefetch("printings", queryset=Printing.objects.select_related("expansion"))
        )
        .order_by("name")
    )
    document = {
        "game": game.slug,
        "name": game.name,
        "cards": CardSerializer(cards, many=True).data,
    }
    body = json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False).encode()
    # Weak: the file is sent compressed or not (GZipMiddleware would weaken a strong one in
    # the header only, and the index would name another string).
    etag = 'W/"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    updated_at = datetime.now(UTC).replace(microsecond=0)
    last = _cached("get", f"bulk-last:{slug}")
    if last is not None and last[0] == etag:
        updated_at = last[1]
    else:
        _cached("set", f"bulk-last:{slug}", (etag, updated_at), None)
    return BulkFile(game=slug, body=body, etag=etag, updated_at=updated_at)


def bulk_file(slug: str) -> BulkFile:
    """The game's bulk file: from the cache, else built (and kept) now."""
    key = f"bulk-file:{slug}:{generation()}"
    found = _cached("get", key)
    if isinstance(found, BulkFile):
        return found
    built = _build(slug)
    _cached("set", key, built, TIMEOUT)
    return built
