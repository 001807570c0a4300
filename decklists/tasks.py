"""Background work for decklists: thin, idempotent tasks of plain JSON arguments (a
redelivered message does no harm). A legality re-check's chunks are played by the site's one
chunk task (cardsite/jobs.py)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .services import followers_tell, legality_jobs

_RETRY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "max_retries": 3,
    "acks_late": True,
    "reject_on_worker_lost": True,
}


@shared_task(name="decklists.recheck_due")
def recheck_due() -> dict[str, int]:
    """Start a re-check job of the decklists whose verdict today is stale (beat, every few
    minutes); its chunks are played by the site's one chunk task."""

    return legality_jobs.recheck_due()


@shared_task(name="decklists.tell_followers", **_RETRY)
def tell_followers(decklist_id: int) -> int:
    """Tell the followers of a decklist's author that it was published (once each)."""

    return followers_tell(decklist_id=decklist_id)
