"""Background work for decklists: thin, idempotent tasks of plain JSON arguments (a
redelivered message writes the same rows again)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .services import followers_tell, recheck_decklists
from .services import legality_sweep as sweep
from .services import recheck_start as start

_RETRY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "max_retries": 3,
    "acks_late": True,
    "reject_on_worker_lost": True,
}


@shared_task(name="decklists.recheck_chunk", **_RETRY)
def recheck_chunk(game_slug: str, formats: str, lo: int, hi: int) -> int:
    """Re-check the decklists of a game with ids in [lo, hi] in `formats` (comma-separated;
    empty: every format of the game)."""

    wanted = [f for f in formats.split(",") if f] or None
    return recheck_decklists(game_slug=game_slug, formats=wanted, lo=lo, hi=hi)


@shared_task(name="decklists.recheck_start", **_RETRY)
def recheck_start(game_slug: str, formats: str, reason: str) -> int:

    wanted = [f for f in formats.split(",") if f] or None
    return start(game_slug=game_slug, formats=wanted, reason=reason)


@shared_task(name="decklists.legality_sweep")
def legality_sweep() -> dict:
    """Re-check the decklists whose verdict today is stale (beat, every few minutes)."""

    return sweep()


@shared_task(name="decklists.tell_followers", **_RETRY)
def tell_followers(decklist_id: int) -> int:
    """Tell the followers of a decklist's author that it was published (once each)."""

    return followers_tell(decklist_id=decklist_id)
