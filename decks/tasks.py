"""Background work for decks. A re-check's chunks are played by the site's one chunk task
(cardsite/jobs.py); the task here only starts jobs, and is idempotent (a job's key makes it
once), so that a redelivered message does no harm."""

from __future__ import annotations

from celery import shared_task

from .verdicts import recheck_jobs


@shared_task(name="decks.recheck_rule_sets_taking_effect")
def recheck_rule_sets_taking_effect() -> list[int]:
    """Start, once per rule set, the re-check of the decks of each format whose rule set
    takes effect today (Celery beat, twice an hour: the first run after 00:00 site time)."""
    return recheck_jobs.recheck_rule_sets_taking_effect()
