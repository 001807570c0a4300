"""Background work for decks. Tasks are thin: they take plain JSON arguments, call one
service and are idempotent, so that a redelivered message (acks_late) does no harm."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .verdicts import recheck_jobs, rechecks


@shared_task(name="decks.tasks.revalidate_game_decks")
def revalidate_game_decks(game_slug: str) -> int:
    """Re-validate every saved deck of a game after its catalogue changed."""
    return rechecks.revalidate_game_decks(game_slug=game_slug)


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
    """Re-check one chunk of a format's saved decks (decks.verdicts.recheck_jobs)."""
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


@shared_task(
    name="decks.recheck_start",
    autoretry_for=(OperationalError, InterfaceError, ConnectionError),
    retry_backoff=2,
    max_retries=5,
    acks_late=True,
)
def recheck_start(game_slug: str, format: str, code: str, reason: str) -> int:
    """Start the re-check of a format's saved decks after its rule set `code` changed; its
    chunks go to the workers. Returns the job's id."""
    job = recheck_jobs.recheck_start(
        game_slug=game_slug, format=format, reason=reason, rule_set_code=code
    )
    return job.pk


@shared_task(name="decks.recheck_rule_sets_taking_effect")
def recheck_rule_sets_taking_effect() -> list[int]:
    """Start, once per rule set, the re-check of the decks of each format whose rule set
    takes effect today (Celery beat, twice an hour: the first run after 00:00 site time)."""
    return recheck_jobs.recheck_rule_sets_taking_effect()


@shared_task(name="decks.recheck_sweep")
def recheck_sweep() -> dict:
    """Send again the chunks of re-check jobs that stalled (Celery beat, every minute)."""
    return recheck_jobs.recheck_sweep()
