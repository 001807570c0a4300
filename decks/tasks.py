"""Background work for decks. Tasks are thin: they take plain JSON arguments, call one
service and are idempotent, so that a redelivered message (acks_late) does no harm."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError


@shared_task(name="decks.tasks.revalidate_game_decks")
def revalidate_game_decks(game_slug: str) -> int:
    """Re-validate every saved deck of a game after its catalogue changed."""
    from . import services

    return services.revalidate_game_decks(game_slug=game_slug)


@shared_task(
    bind=True,
    name="decks.recheck_chunk",
    autoretry_for=(OperationalError, InterfaceError, ConnectionError),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=3,
    acks_late=True,
    reject_on_worker_lost=True,
)
def recheck_chunk(self, job_id: int, index: int) -> str:
    """Re-check one chunk of a format's saved decks (decks.services.recheck_jobs)."""
    from .services import recheck_jobs

    try:
        return recheck_jobs.recheck_run_chunk(
            job_id=job_id, index=index, worker=self.request.hostname or ""
        )
    except (OperationalError, InterfaceError, ConnectionError):
        raise
    except Exception as exc:
        recheck_jobs.recheck_fail(
            job_id=job_id, reason=f"chunk {index} failed: {type(exc).__name__}: {exc}"
        )
        raise


@shared_task(name="decks.recheck_sweep")
def recheck_sweep() -> dict:
    """Send again the chunks of re-check jobs that stalled (Celery beat, every minute)."""
    from .services import recheck_jobs

    return recheck_jobs.recheck_sweep()
