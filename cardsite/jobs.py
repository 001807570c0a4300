"""One system for every chunked background job: simulation runs (goldfish runs, tools'
background runs, comparisons, tuning runs), re-checks of saved decks and large expansion
imports.

A *job* is a row of a table that subclasses `cardsite.models.ChunkedJob` (status, chunks,
leases, attempts, timings, error). A *job kind* (`JobKind`, registered by the app that owns
the table, in its `ready()`) says what is particular to it:

- `plan(job)`: fill in the unsaved row's chunks (`n_chunks` and whatever the kind keeps to
  know what chunk *i* is);
- `run_chunk(job, index, context)`: do chunk *i*'s work, outside any transaction, and return
  what it found (JSON); `context.report(stage, done, total)` says how far it has got;
- `commit(job, index, found)` (optional): the kind's own writes of the chunk, in the
  transaction that stores it, before the job's row is locked; what it returns is stored;
- `store(job, index, stored)` (optional): add the chunk to the job's own columns (sums);
- `finish(job, now, send)`: every chunk is stored: finish the job (`job.mark_done`), fail
  it, or grow it by more chunks and `send` them (a comparison's next round);
- `progress(job)`: the job's `Progress`, the one shape every progress page reads;
- `timing()`: its lease, stall and attempt limits (`Timing`).

The rest is the same for every kind, here:

- `job_start` saves a planned job and sends one message per chunk once the transaction
  commits (a broker that is down is logged; the reaper sends the chunks later);
- `job_run_chunk` (the body of the one chunk task, `cardsite.tasks.run_job_chunk`) takes the
  chunk's lease under a row lock (a chunk whose slot is filled, or whose lease a live worker
  holds, is a no-op: a repeated message does no harm), runs it while a heartbeat thread
  renews the lease (and writes the chunk's own progress), then stores it under the row lock
  and finishes the job with its last chunk;
- `reap` (the one reaper, Celery beat's `jobs.reap`) sends again the chunks whose lease ran
  out (their worker died) and, of a job without progress for its stall time, the chunks never
  started (their message was lost), and fails a job past its attempts.

Nothing here names an app: the kinds are looked up by name (`registry`), and the chunk task
is sent through the typed registry of tasks (`cardsite.task_refs`: the tasks import this
module). This module is the only one that sends a task for a job
(tests/site/test_task_senders.py); `id_ranges` is how a kind cuts rows into chunks. The
shapes (`JobKind`, `Timing`, `Progress`, the `registry`) are `cardsite.job_kinds`, read
through this module.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from . import task_refs
from .job_kinds import ChunkContext as ChunkContext
from .job_kinds import Figure as Figure
from .job_kinds import JobKind as JobKind
from .job_kinds import JobRegistry as JobRegistry
from .job_kinds import Progress as Progress
from .job_kinds import Send as Send
from .job_kinds import Timing as Timing
from .job_kinds import UnknownJobKind as UnknownJobKind
from .job_kinds import chunk_progress as chunk_progress
from .job_kinds import default_timing as default_timing
from .job_kinds import oldest_queued_seconds as oldest_queued_seconds
from .job_kinds import progress as progress
from .job_kinds import register as register
from .job_kinds import registry as registry
from .models import ACTIVE, ChunkedJob, JobStatus

logger = logging.getLogger(__name__)


# --- Planning and sending ------------------------------------------------------------------


def id_ranges(ids: Iterable[int], size: int) -> list[list[int]]:
    """Ids in ascending order cut into chunks of at most `size`, each kept as its first and
    last id (`[[lo, hi], …]`): a chunk reads the rows with ids in [lo, hi]."""
    ids = list(ids)
    size = max(1, int(size))
    return [[ids[i], ids[min(i + size, len(ids)) - 1]] for i in range(0, len(ids), size)]


def send_chunks_on_commit(kind: str, job_id: int, indexes: Iterable[int]) -> None:
    """Once the transaction commits, send the one chunk task for each chunk index of job
    `job_id` of `kind`. A broker that is down sends nothing more and is logged: the job is
    saved, and the reaper sends the chunks again; the request that saved it still answers."""
    indexes = list(indexes)
    if not indexes:
        return

    def send() -> None:
        for n, i in enumerate(indexes):
            try:
                task_refs.RUN_JOB_CHUNK.delay(kind, job_id, i)
            except Exception as exc:  # noqa: BLE001 - the job is saved; the reaper sends it
                logger.warning(
                    "chunks not sent: the broker is unavailable; the reaper sends them later",
                    extra={"kind": kind, "job": job_id, "chunks": indexes[n:], "error": repr(exc)},
                )
                return

    transaction.on_commit(send)


def sender(kind: str) -> Send:
    """`send(job_id, indexes)` for jobs of `kind`."""
    return lambda job_id, indexes: send_chunks_on_commit(kind, job_id, indexes)


def job_start(job: ChunkedJob) -> ChunkedJob:
    """Plan an unsaved job with its kind's `plan`, save it and, once the transaction
    commits, send its chunks. A job with no chunk is done at once."""
    kind = registry.of(job)
    kind.plan(job)
    now = timezone.now()
    job.heartbeat_at = now
    if job.n_chunks == 0:
        job.mark_done(now)
    with transaction.atomic():
        job.save()
        send_chunks_on_commit(kind.name, job.pk, range(job.n_chunks))
    return job


# --- Locking -------------------------------------------------------------------------------


def lock(model: type[ChunkedJob], pk: int, *, related: tuple[str, ...] = ()) -> Any:
    """The job (with its `related` rows, not locked), row-locked for the rest of the
    transaction. On a database without row locks (SQLite) a no-op UPDATE comes first, so
    that it takes its write lock before reading: two chunks finishing together are
    serialised instead of overwriting each other's slot."""
    if not connection.features.has_select_for_update:
        model._default_manager.filter(pk=pk).update(attempts=F("attempts"))
    rows = model._default_manager.select_for_update(of=("self",) if related else ())
    if related:
        rows = rows.select_related(*related)
    return rows.filter(pk=pk).first()


# --- Playing a chunk -----------------------------------------------------------------------


def _lease_held(job: ChunkedJob, key: str, now: datetime, lease: float) -> bool:
    held = job.chunk_started.get(key)
    return bool(held) and now - datetime.fromisoformat(held) <= timedelta(seconds=lease)


def job_run_chunk(*, kind: str, job_id: int, index: int, worker: str = "") -> str:
    """Play chunk `index` of job `job_id` (of `kind`, or of another kind of its table: the row
    says) and store it; finish the job with its last chunk. Idempotent. Returns what
    happened: "stored", "finished", "round" (the job grew), "failed", "busy" (a live worker
    holds the chunk's lease) or "skipped" (done already, or the job is not active)."""
    named = registry.get(kind)
    model = named.model
    key = str(index)
    now = timezone.now()
    # The lease is taken in the first statement that reads the job (no savepoint: nothing in
    # this block raises but the database, and a chunk's statements are few).
    with transaction.atomic(savepoint=False):
        job = lock(model, job_id, related=named.related)
        if job is None or not job.is_active or key in job.chunk_results:
            return "skipped"
        job_kind: JobKind | None = registry.of(job)
        timing = registry.of(job).timing()
        if not 0 <= index < job.n_chunks:
            job_kind = None
        elif _lease_held(job, key, now, timing.lease):
            return "busy"  # a live worker holds this chunk's lease: a repeated message
        else:
            job.chunk_started[key] = now.isoformat()
            fields = ["chunk_started", "heartbeat_at"]
            if job.status == JobStatus.QUEUED:
                job.status = JobStatus.RUNNING
                job.started_at = now
                fields += ["status", "started_at"]
            job.heartbeat_at = now
            job.save(update_fields=fields)
    if job_kind is None:
        raise ValueError(f"{registry.of(job).label} {job_id} has no chunk {index}")

    clock = timezone.now()
    with Heartbeat(model, job_id, key, every=timing.heartbeat, worker=worker) as beat:
        found = job_kind.run_chunk(job, index, beat)
    seconds = (timezone.now() - clock).total_seconds()

    with transaction.atomic():
        stored = job_kind.commit(job, index, found)
        # The job's row last, so that it is locked only until this commits.
        locked = lock(model, job_id)
        if locked is None or not locked.is_active or key in locked.chunk_results:
            transaction.set_rollback(True)
            return "skipped"
        now = timezone.now()
        locked.chunk_results[key] = stored
        locked.chunk_progress.pop(key, None)
        locked.chunks_done = len(locked.chunk_results)
        locked.timings.setdefault("chunks", {})[key] = {
            "seconds": round(seconds, 4),
            "worker": worker,
        }
        locked.heartbeat_at = now
        job_kind.store(locked, index, stored)
        outcome = "stored"
        if locked.chunks_done >= locked.n_chunks:
            outcome = job_kind.finish(locked, now, sender(job_kind.name))
        locked.save()
    if outcome in ("finished", "failed"):
        logger.info(
            f"{job_kind.label} {outcome}",
            extra={"kind": job_kind.name, job_kind.log_name: job_id, "status": locked.status},
        )
    return outcome


def job_fail(*, kind: str, job_id: int, reason: str) -> bool:
    """Mark an active job failed with `reason`; a finished job is left alone."""
    model = registry.get(kind).model
    with transaction.atomic():
        job = lock(model, job_id)
        if job is None or not job.is_active:
            return False
        job.mark_failed(timezone.now(), reason)
        job.save(update_fields=["status", "error", "finished_at", "heartbeat_at", "chunk_progress"])
    return True


def _renew_lease(
    model: type[ChunkedJob], job_id: int, key: str, said: dict[str, Any] | None
) -> None:
    now = timezone.now()
    with transaction.atomic():
        locked = lock(model, job_id)
        if locked is None or not locked.is_active or key in locked.chunk_results:
            return
        locked.chunk_started[key] = now.isoformat()
        fields = ["chunk_started", "heartbeat_at"]
        if said is not None:
            locked.chunk_progress[key] = {**said, "at": now.isoformat()}
            fields.append("chunk_progress")
        locked.heartbeat_at = now
        locked.save(update_fields=fields)


@dataclass
class Heartbeat:
    """Renews a running chunk's lease every `every` seconds from a thread (with its own
    database connection) for as long as the chunk runs, and writes what the chunk `report`s
    of its progress (at most twice a second): the chunk's own transaction, however long,
    hides nothing from the progress page."""

    model: type[ChunkedJob]
    job_id: int
    key: str
    every: float
    worker: str = ""
    _said: dict[str, Any] | None = field(default=None, init=False)
    _written: dict[str, Any] | None = field(default=None, init=False)
    _stop: threading.Event = field(default_factory=threading.Event, init=False)
    _wake: threading.Event = field(default_factory=threading.Event, init=False)
    _thread: threading.Thread | None = field(default=None, init=False)

    #: Seconds between two writes of a chunk's progress.
    PROGRESS_EVERY = 0.5

    def report(self, stage: str, done: int, total: int) -> None:
        self._said = {"stage": stage, "done": int(done), "total": int(total)}
        self._wake.set()

    def _beat(self) -> None:
        try:
            while not self._stop.is_set():
                woken = self._wake.wait(self.every)
                if self._stop.is_set():
                    break
                if woken:
                    self._wake.clear()
                    if self._stop.wait(self.PROGRESS_EVERY):
                        break
                said = self._said
                try:
                    _renew_lease(
                        self.model, self.job_id, self.key, said if said != self._written else None
                    )
                    self._written = said
                except Exception:  # noqa: BLE001 - a missed beat only shortens the lease
                    logger.warning(
                        "heartbeat failed", extra={"job": self.job_id, "chunk": self.key}
                    )
        finally:
            connection.close()

    def __enter__(self) -> Heartbeat:
        self._thread = threading.Thread(target=self._beat, daemon=True, name=f"lease-{self.key}")
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)


# --- The reaper ----------------------------------------------------------------------------


def lost_chunks(job: ChunkedJob, now: datetime, timing: Timing) -> tuple[list[int], list[int]]:
    """(started chunks whose lease ran out, chunks never started of a stalled job)."""
    last = max(d for d in (job.heartbeat_at, job.created_at, job.started_at) if d)
    lease = timedelta(seconds=timing.lease)
    stalled = now - last > timedelta(seconds=timing.stall)
    expired, unstarted = [], []
    for i in range(job.n_chunks):
        key = str(i)
        if key in job.chunk_results:
            continue
        started = job.chunk_started.get(key)
        if started:
            if now - datetime.fromisoformat(started) > lease:
                expired.append(i)
        elif stalled:
            unstarted.append(i)
    return expired, unstarted


def job_check(job: ChunkedJob, *, now: datetime | None = None) -> str | None:
    """The reaper's check of one job: send again its lost chunks, or fail it after too many
    attempts. Touches the database only when something is to be done. Returns "requeued",
    "failed" or None."""
    if not job.is_active:
        return None
    kind = registry.of(job)
    timing = kind.timing()
    now = now or timezone.now()
    if not any(lost_chunks(job, now, timing)):
        return None
    model = type(job)
    with transaction.atomic():
        locked = lock(model, job.pk)
        if locked is None or not locked.is_active:
            return None
        expired, unstarted = lost_chunks(locked, now, timing)
        if not expired and not unstarted:
            return None
        counts = bool(expired) or (bool(unstarted) and timing.stalls_count)
        if counts and locked.attempts >= timing.max_attempts:
            if expired:
                listed = ", ".join(str(i) for i in expired)
                reason = (
                    f"worker lost: chunk(s) {listed} of {locked.n_chunks} did not finish after "
                    f"{locked.attempts} re-deliveries"
                )
            else:
                reason = f"no progress after {locked.attempts} re-deliveries of its chunks"
            locked.mark_failed(now, reason)
            locked.save()
            logger.error(
                f"{kind.label} failed: {reason.split(':')[0]}",
                extra={"kind": kind.name, kind.log_name: locked.pk, "attempts": locked.attempts},
            )
            outcome = "failed"
        else:
            if counts:  # only lost workers (and, for some kinds, stalls) count towards failing
                locked.attempts += 1
            for i in expired:
                locked.chunk_started.pop(str(i), None)
                locked.chunk_progress.pop(str(i), None)
            locked.heartbeat_at = now
            lost = sorted(expired + unstarted)
            events = locked.timings.setdefault("reaped", [])
            events.append({"at": now.isoformat(), "chunks": lost, "expired": expired})
            locked.save()
            send_chunks_on_commit(kind.name, locked.pk, lost)
            logger.warning(
                f"{kind.label} chunks sent again",
                extra={
                    "kind": kind.name,
                    kind.log_name: locked.pk,
                    "expired": expired,
                    "unstarted": unstarted,
                },
            )
            outcome = "requeued"
    for attr in (
        "status",
        "error",
        "attempts",
        "chunk_started",
        "chunk_progress",
        "heartbeat_at",
        "finished_at",
        "timings",
    ):
        setattr(job, attr, getattr(locked, attr))
    return outcome


@dataclass
class Reaped:
    """What one pass of the reaper did: the jobs sent again and failed, as (kind, id)."""

    requeued: list[tuple[str, int]] = field(default_factory=list)
    failed: list[tuple[str, int]] = field(default_factory=list)

    def ids(self) -> dict[str, list[int]]:
        return {
            "requeued": [pk for _, pk in self.requeued],
            "failed": [pk for _, pk in self.failed],
        }

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "requeued": [f"{k}:{pk}" for k, pk in self.requeued],
            "failed": [f"{k}:{pk}" for k, pk in self.failed],
        }


def reap(
    *, now: datetime | None = None, models: Iterable[type[ChunkedJob]] | None = None
) -> Reaped:
    """Check every active job (of `models`, default every registered table)."""
    now = now or timezone.now()
    out = Reaped()
    for model in list(models) if models is not None else registry.models():
        heavy: set[str] = set()
        for kind in registry:
            if kind.model is model:
                heavy.update(kind.heavy)
        for job in model._default_manager.filter(status__in=ACTIVE).defer(*sorted(heavy)):
            outcome = job_check(job, now=now)
            if outcome == "requeued":
                out.requeued.append((job.job_kind(), job.pk))
            elif outcome == "failed":
                out.failed.append((job.job_kind(), job.pk))
    return out
