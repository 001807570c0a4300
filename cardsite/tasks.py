"""Site-wide tasks. Thin: load by primary key, act, save. The one chunk task and the one
reaper of every chunked job (cardsite/jobs.py).

The chunk task is idempotent (a chunk whose slot is filled, or whose lease a live worker
holds, is a no-op), so that a message delivered again under ``acks_late`` does no harm; its
time limits stay below the broker's visibility timeout (settings: CELERY_TASK_TIME_LIMIT <
CELERY_VISIBILITY_TIMEOUT)."""

from __future__ import annotations

import logging
import socket
from typing import Any

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from . import jobs
from .models import WorkerPing

logger = logging.getLogger(__name__)

# Errors worth another try: the database was unreachable or locked for a moment.
RETRYABLE = (OperationalError, InterfaceError, ConnectionError)


def _chunk_args(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, int, int]:
    named = ("kind", "job_id", "index")
    values = {**dict(zip(named, args, strict=False)), **kwargs}
    return values.get("kind", ""), values.get("job_id", 0), values.get("index", 0)


class JobChunkTask(Task):
    """Marks the job failed, with the reason, when a chunk fails for good (an error that is
    not worth retrying, the retries used up, or the soft time limit reached)."""

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        kind, job_id, index = _chunk_args(args, kwargs)
        if isinstance(exc, SoftTimeLimitExceeded):
            reason = f"chunk {index} took longer than the time limit"
        else:
            reason = f"chunk {index} failed: {type(exc).__name__}: {exc}"
        logger.error(
            "job chunk failed",
            extra={"kind": kind, "job": job_id, "chunk": index, "reason": reason},
        )
        try:
            jobs.job_fail(kind=kind, job_id=job_id, reason=reason)
        except RETRYABLE:  # the database is gone; the reaper will deal with the job
            pass

    def on_retry(self, exc, task_id, args, kwargs, einfo) -> None:
        kind, job_id, index = _chunk_args(args, kwargs)
        logger.warning(
            "job chunk retried",
            extra={"kind": kind, "job": job_id, "chunk": index, "error": repr(exc)},
        )


@shared_task(
    bind=True,
    base=JobChunkTask,
    name="jobs.run_chunk",
    autoretry_for=RETRYABLE,
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=3,
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=getattr(settings, "CELERY_TASK_TIME_LIMIT", 900),
    soft_time_limit=getattr(settings, "CELERY_TASK_SOFT_TIME_LIMIT", 840),
)
def run_job_chunk(self, kind: str, job_id: int, index: int) -> str:
    """Play chunk `index` of job `job_id` of `kind` (and finish the job with its last)."""
    where = {"kind": kind, "job": job_id, "chunk": index}
    logger.info("job chunk started", extra=where)
    outcome = jobs.job_run_chunk(
        kind=kind,
        job_id=job_id,
        index=index,
        worker=self.request.hostname or socket.gethostname(),
    )
    logger.info("job chunk finished", extra={**where, "outcome": outcome})
    return outcome


@shared_task(name="jobs.reap")
def reap_jobs() -> dict[str, list[str]]:
    """Send again the lost chunks of every active job (cardsite.jobs.reap): scheduled by
    Celery beat every JOBS_REAP_SECONDS (settings.CELERY_BEAT_SCHEDULE)."""
    return jobs.reap().as_dict()


@shared_task(name="oauth.clear_expired")
def clear_expired_oauth() -> None:
    """Delete the expired OAuth codes and tokens and the spent refresh tokens
    (django-oauth-toolkit's `clear_expired`): scheduled daily by Celery beat."""
    # Imported here: django-oauth-toolkit's models module reads its settings at import, and
    # this module is imported by Celery before Django's apps are ready.
    from oauth2_provider.models import clear_expired

    clear_expired()


@shared_task(name="cardsite.answer_ping")
def answer_ping(ping_id: int) -> None:
    """Mark a WorkerPing answered. Idempotent: a second delivery changes nothing."""
    WorkerPing.objects.filter(pk=ping_id, answered_at__isnull=True).update(
        answered_at=timezone.now(), answered_by=socket.gethostname()
    )
