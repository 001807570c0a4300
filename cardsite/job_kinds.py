"""The shapes of the site's one job system (cardsite.jobs): a job kind (`JobKind`), its
timing, the one `Progress` every progress page reads, and the registry the kinds are
registered in and looked up from, by name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.conf import settings
from django.utils import timezone

from .models import ACTIVE, ChunkedJob, JobStatus

# --- The shapes ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """How a kind's lost chunks are found. A running chunk's lease is renewed every
    `heartbeat` seconds; one not renewed for `lease` seconds lost its worker and is sent
    again (an attempt). A job without progress for `stall` seconds has its chunks that never
    started sent again (their message may be lost): an attempt too when `stalls_count`. Past
    `max_attempts` attempts the job fails instead."""

    heartbeat: float
    lease: float
    stall: float
    max_attempts: int
    stalls_count: bool = False


def default_timing(*, stall: float | None = None, max_attempts: int | None = None) -> Timing:
    """The site's heartbeat and lease (`JOBS_HEARTBEAT_SECONDS`, `JOBS_LEASE_SECONDS`) with a
    kind's stall time and attempts (default `JOBS_STALL_SECONDS`, `JOBS_MAX_ATTEMPTS`)."""
    return Timing(
        heartbeat=float(getattr(settings, "JOBS_HEARTBEAT_SECONDS", 5)),
        lease=float(getattr(settings, "JOBS_LEASE_SECONDS", 20)),
        stall=float(getattr(settings, "JOBS_STALL_SECONDS", 40) if stall is None else stall),
        max_attempts=int(
            getattr(settings, "JOBS_MAX_ATTEMPTS", 3) if max_attempts is None else max_attempts
        ),
    )


@dataclass(frozen=True)
class Figure:
    """One count a progress page shows beside the bar ("Decks checked: 1,204")."""

    key: str
    label: str
    value: int | str


@dataclass(frozen=True)
class Progress:
    """How far a job has got, in the one shape every progress page reads: its status,
    `done` of `total` units (`unit`: "chunks", "decks", "cards"), the `stage` it says it is
    at, the `figures` its kind adds, its error, and its wall time once finished."""

    status: str
    done: int
    total: int
    unit: str
    stage: str = ""
    figures: tuple[Figure, ...] = ()
    error: str = ""
    seconds: float | None = None

    @property
    def running(self) -> bool:
        """Not finished: a page that shows it follows it."""
        return self.status in ACTIVE

    @property
    def percent(self) -> int:
        if self.status == JobStatus.DONE:
            return 100
        if self.total <= 0:
            return 0
        return max(0, min(100, int(100 * self.done / self.total)))

    @property
    def line(self) -> str:
        """The status line a page shows (and a screen reader hears when it changes)."""
        if self.status == JobStatus.QUEUED:
            return "Waiting for a worker…"
        if self.status == JobStatus.RUNNING:
            what = self.stage[:1].upper() + self.stage[1:] if self.stage else "Running"
            return f"{what}: {self.done:,} of {self.total:,} {self.unit}"
        if self.status == JobStatus.DONE:
            return f"Done in {self.seconds:.1f} s" if self.seconds is not None else "Done"
        return "Failed"

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "unit": self.unit,
            "stage": self.stage,
            "percent": self.percent,
            "figures": [{"key": f.key, "label": f.label, "value": f.value} for f in self.figures],
            "error": self.error,
            "seconds": self.seconds,
        }


class ChunkContext(Protocol):
    """What a running chunk is handed besides its job."""

    worker: str

    def report(self, stage: str, done: int, total: int) -> None:
        """Say how far the chunk has got (written by its heartbeat, for the progress page)."""


#: `send(job_id, indexes)`: send chunks of a job once the transaction commits.
Send = Callable[[int, Iterable[int]], None]


def _no_commit(job: Any, index: int, found: Any) -> Any:
    return found


def _no_store(job: Any, index: int, stored: Any) -> None:
    return None


def _finish_done(job: Any, now: datetime, send: Send) -> str:
    job.mark_done(now)
    return "finished"


@dataclass(frozen=True)
class JobKind:
    """A kind of chunked job (see the module docstring)."""

    name: str
    label: str
    model: type[ChunkedJob]
    plan: Callable[[Any], None]
    run_chunk: Callable[[Any, int, ChunkContext], Any]
    progress: Callable[[Any], Progress]
    timing: Callable[[], Timing] = default_timing
    commit: Callable[[Any, int, Any], Any] = _no_commit
    store: Callable[[Any, int, Any], None] = _no_store
    finish: Callable[[Any, datetime, Send], str] = _finish_done
    #: Related rows a chunk reads with its job (`select_related`).
    related: tuple[str, ...] = ()
    #: Columns the reaper does not need to read (large JSON).
    heavy: tuple[str, ...] = ()
    #: What the one chunk task's log lines call the job ("run", "job").
    log_name: str = "job"


class UnknownJobKind(LookupError):
    """No job kind of this name is registered."""


class JobRegistry:
    """The job kinds, by name; each app registers its own in its `ready()`."""

    def __init__(self) -> None:
        self._kinds: dict[str, JobKind] = {}

    def register(self, kind: JobKind) -> JobKind:
        self._kinds[kind.name] = kind
        return kind

    def get(self, name: str) -> JobKind:
        try:
            return self._kinds[name]
        except KeyError:
            raise UnknownJobKind(f"no job kind {name!r}") from None

    def __iter__(self) -> Iterator[JobKind]:
        return iter(list(self._kinds.values()))

    def models(self) -> list[type[ChunkedJob]]:
        """The tables of the registered kinds, each once."""
        return list(dict.fromkeys(kind.model for kind in self._kinds.values()))

    def of(self, job: ChunkedJob) -> JobKind:
        return self.get(job.job_kind())


registry = JobRegistry()
register = registry.register


def oldest_queued_seconds() -> float | None:
    """How long the oldest job still queued, of any kind, has waited (one query a table);
    None when none is queued (cardsite.workers: the health page and the run pages)."""
    oldest = None
    for model in registry.models():
        created = (
            model._default_manager.filter(status=JobStatus.QUEUED)
            .order_by("created_at")
            .values_list("created_at", flat=True)
            .first()
        )
        if created is not None and (oldest is None or created < oldest):
            oldest = created
    if oldest is None:
        return None
    return max(0.0, (timezone.now() - oldest).total_seconds())


def progress(job: ChunkedJob) -> Progress:
    """A job's progress, as its kind reads it."""
    return registry.of(job).progress(job)


def chunk_progress(job: ChunkedJob) -> tuple[str, int, int] | None:
    """What a running chunk of `job` last said of itself (stage, done, total), if any."""
    said = [v for v in (job.chunk_progress or {}).values() if isinstance(v, dict)]
    if not said:
        return None
    latest = max(said, key=lambda v: str(v.get("at", "")))
    return str(latest.get("stage", "")), int(latest.get("done", 0)), int(latest.get("total", 0))
