"""Background work for simulations. Tasks are thin: they take primary keys, call one service
and are idempotent (a chunk whose slot is filled is skipped), so that a message redelivered
under ``acks_late`` does no harm. Their time limits stay below the broker's visibility
timeout (settings: CELERY_TASK_TIME_LIMIT < CELERY_VISIBILITY_TIMEOUT)."""

from __future__ import annotations

import logging
import socket

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError

from .services import simulation_fail, simulation_reap, simulation_run_chunk

logger = logging.getLogger(__name__)

# Errors worth another try: the database was unreachable or locked for a moment.
RETRYABLE = (OperationalError, InterfaceError, ConnectionError)


class ChunkTask(Task):
    """Marks the run failed, with the reason, when a chunk fails for good (an error that is
    not worth retrying, the retries used up, or the soft time limit reached)."""

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        run_id = args[0] if args else kwargs.get("run_id")
        chunk = args[1] if len(args) > 1 else kwargs.get("chunk_index")
        if isinstance(exc, SoftTimeLimitExceeded):
            reason = f"chunk {chunk} took longer than the time limit"
        else:
            reason = f"chunk {chunk} failed: {type(exc).__name__}: {exc}"
        logger.error(
            "simulation chunk failed", extra={"run": run_id, "chunk": chunk, "reason": reason}
        )
        try:
            simulation_fail(run_id=run_id, reason=reason)
        except RETRYABLE:  # the database is gone; the reaper will deal with the run
            pass

    def on_retry(self, exc, task_id, args, kwargs, einfo) -> None:
        logger.warning(
            "simulation chunk retried",
            extra={"run": args[0] if args else kwargs.get("run_id"), "error": repr(exc)},
        )


@shared_task(
    bind=True,
    base=ChunkTask,
    name="simulations.run_chunk",
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
def run_chunk(self, run_id: int, chunk_index: int) -> str:
    """Play one chunk of a simulation run (and finish the run when it is the last)."""
    logger.info("simulation chunk started", extra={"run": run_id, "chunk": chunk_index})
    outcome = simulation_run_chunk(
        run_id=run_id, chunk_index=chunk_index, worker=self.request.hostname or socket.gethostname()
    )
    logger.info(
        "simulation chunk finished",
        extra={"run": run_id, "chunk": chunk_index, "outcome": outcome},
    )
    return outcome


@shared_task(name="simulations.reap")
def reap() -> dict:
    """Send again the lost chunks of active runs: scheduled by Celery beat every
    SIMULATIONS_REAP_SECONDS (settings.CELERY_BEAT_SCHEDULE)."""
    return simulation_reap()
