"""Whether a worker is answering, for the health page and the run pages.

A broker that accepts messages says nothing of the workers behind it: a dead worker leaves
every run queued while the broker answers "ok". So each worker notes, in the shared cache,
when it last took a task (any task: beat sends the reaper every `JOBS_REAP_SECONDS`, so a live
worker takes one at least that often) and when it started. `worker_state()` reads that note
with the age of the oldest job still queued (`jobs.oldest_queued_seconds`, every kind of
job): no worker has answered for `WORKERS_SILENT_SECONDS` (default 60) is "silent". (No model
is read here: the Celery app imports this module before Django's apps are loaded.)
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

#: The cache key of the time (epoch seconds) a worker last took a task or started.
SEEN_KEY = "workers:last-seen"


def silent_after() -> float:
    return float(getattr(settings, "WORKERS_SILENT_SECONDS", 60))


def note_worker_alive(**_signal_kwargs) -> None:
    """A worker took a task or started (Celery's `task_prerun` and `worker_ready`)."""
    try:
        cache.set(SEEN_KEY, time.time(), timeout=None)
    except Exception as exc:  # noqa: BLE001 - the cache being down stops no task
        logger.warning("worker note not written", extra={"error": repr(exc)})


@dataclass(frozen=True)
class WorkerState:
    #: Seconds since a worker last answered (None: none has, as far as the cache knows).
    last_seen_seconds: float | None
    #: Seconds the oldest job still queued has waited (None: none is queued).
    oldest_queued_seconds: float | None
    silent: bool

    def message(self) -> str:
        """What a person reads: "" while a worker answers."""
        if not self.silent:
            return ""
        if self.last_seen_seconds is None:
            said = "No background worker has answered yet"
        else:
            said = f"No background worker has answered for {_duration(self.last_seen_seconds)}"
        if self.oldest_queued_seconds is not None:
            said += f"; the oldest queued run has waited {_duration(self.oldest_queued_seconds)}"
        return said + "."

    def as_dict(self) -> dict[str, object]:
        return {
            "status": "silent" if self.silent else "ok",
            "last_seen_seconds": _whole(self.last_seen_seconds),
            "oldest_queued_seconds": _whole(self.oldest_queued_seconds),
        }


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else int(seconds)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"


def last_seen_seconds() -> float | None:
    try:
        seen = cache.get(SEEN_KEY)
    except Exception:  # noqa: BLE001 - the health page says the cache is down
        return None
    return None if seen is None else max(0.0, time.time() - float(seen))


def worker_state(*, oldest_queued_seconds: float | None) -> WorkerState:
    """The workers' state, with the age of the oldest queued job (`jobs.oldest_queued_seconds`)."""
    seen = last_seen_seconds()
    return WorkerState(
        last_seen_seconds=seen,
        oldest_queued_seconds=oldest_queued_seconds,
        silent=seen is None or seen > silent_after(),
    )
