"""Site-wide tasks. Thin: load by primary key, act, save. And how the apps send the chunks
of a saved job to the workers."""

import logging
import socket
from collections.abc import Iterable

from celery import shared_task
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from .models import WorkerPing

logger = logging.getLogger(__name__)


def send_chunks_on_commit(
    task: str, job_id: int, indexes: Iterable[int], *, what: str, later: str
) -> None:
    """Once the transaction commits, send the Celery task at dotted path `task` (imported
    then: an app's services do not import its tasks) for each chunk index of job `job_id`.
    A broker that is down sends nothing more and is logged: the job is saved, and `later`
    (its sweep or reaper) sends the chunks again; the request that saved it still answers."""
    indexes = list(indexes)

    def send() -> None:
        chunk_task = import_string(task)
        for i in indexes:
            try:
                chunk_task.delay(job_id, i)
            except Exception as exc:  # noqa: BLE001 - the job is saved; `later` sends it
                logger.warning(
                    f"{what} not sent: the broker is unavailable; {later} sends them later",
                    extra={
                        "job": job_id,
                        "chunks": indexes[indexes.index(i) :],
                        "error": repr(exc),
                    },
                )
                return

    transaction.on_commit(send)


@shared_task(name="cardsite.answer_ping")
def answer_ping(ping_id: int) -> None:
    """Mark a WorkerPing answered. Idempotent: a second delivery changes nothing."""
    WorkerPing.objects.filter(pk=ping_id, answered_at__isnull=True).update(
        answered_at=timezone.now(), answered_by=socket.gethostname()
    )
