"""The admin's import of a large expansion file as background work: the confirmed document
is kept in the shared cache, a Celery task (`catalogue.import_expansion`) imports it (the
same all-or-nothing `expansion_import`, in batches) and writes its progress to the cache
after every batch; the admin's progress page reads it and reloads itself until the import
is done. A file of at most ADMIN_INLINE_ROWS cards is imported within the request."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils.module_loading import import_string

from .importer import ImportFailed, expansion_import

logger = logging.getLogger(__name__)

#: Cards a confirmed import writes within the request; more go to a worker.
ADMIN_INLINE_ROWS = 2_000
#: How long a job's document and status are kept (seconds).
JOB_TTL = 3600
#: The Celery task that runs a job (catalogue.tasks).
IMPORT_TASK = "catalogue.tasks.import_expansion"


def _doc_key(job: str) -> str:
    return f"catalogue-import:{job}:doc"


def _status_key(job: str) -> str:
    return f"catalogue-import:{job}:status"


def import_job_start(*, data: dict[str, Any]) -> str:
    """Queue the import of a checked document; returns the job's id. The task is named by its
    dotted path, imported when sent: the tasks import this module, not the other way."""
    job = uuid.uuid4().hex
    total = len(data.get("cards") or [])
    cache.set(_doc_key(job), data, JOB_TTL)
    cache.set(
        _status_key(job), {"state": "queued", "stage": "", "done": 0, "total": total}, JOB_TTL
    )
    transaction.on_commit(lambda: import_string(IMPORT_TASK).delay(job))
    return job


def import_job_status(job: str) -> dict[str, Any] | None:
    """The job's state (queued, running, done, failed), stage, done and total rows, and at
    the end its summary or errors; None for an unknown or expired job."""
    return cache.get(_status_key(job))


def import_job_run(job: str) -> str:
    """Import the job's document (the task's work); returns the final state."""
    data = cache.get(_doc_key(job))
    status = import_job_status(job) or {"total": 0}
    if data is None:
        cache.set(_status_key(job), {**status, "state": "failed", "errors": ["expired"]}, JOB_TTL)
        return "failed"

    def progress(stage: str, done: int, total: int) -> None:
        cache.set(
            _status_key(job),
            {"state": "running", "stage": stage, "done": done, "total": total},
            JOB_TTL,
        )

    progress("checking", 0, status.get("total", 0))
    try:
        report = expansion_import(data=data, progress=progress)
    except ImportFailed as exc:
        errors = [str(e) for e in exc.report.errors[:100]]
        cache.set(_status_key(job), {**status, "state": "failed", "errors": errors}, JOB_TTL)
        return "failed"
    except Exception as exc:
        logger.exception("import job failed", extra={"job": job})
        cache.set(
            _status_key(job),
            {**status, "state": "failed", "errors": [f"{type(exc).__name__}: {exc}"]},
            JOB_TTL,
        )
        raise
    cache.set(
        _status_key(job),
        {
            **status,
            "state": "done",
            "summary": report.summary(),
            "done": status.get("total", 0),
            "left_out": [(e.rule_set_id, e.text(report.code)) for e in report.left_out],
        },
        JOB_TTL,
    )
    cache.delete(_doc_key(job))
    return "done"
