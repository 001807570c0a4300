"""Background work for decks. Tasks are thin: they take plain JSON arguments, call one
service and are idempotent, so that a redelivered message (acks_late) does no harm. A
re-check's chunks are played by the site's one chunk task (cardsite/jobs.py)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .verdicts import recheck_jobs, rechecks


@shared_task(name="decks.tasks.revalidate_game_decks")
def revalidate_game_decks(game_slug: str) -> int:
    """Re-validate every saved deck of a game after its catalogue changed."""
    return rechecks.revalidate_game_decks(game_slug=game_slug)


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
