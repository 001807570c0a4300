"""The admin's import of a large expansion file, as a kind of the site's chunked jobs
(cardsite/jobs.py): the confirmed document is saved in an `ImportJob`, one chunk imports it
(the same all-or-nothing `expansion_import`, in batches) on a worker while its heartbeat
writes how far it has got, and the admin's progress page reads the job's progress. A file of
at most ADMIN_INLINE_ROWS cards is imported within the request.

A lost worker's import is sent again by the reaper like any chunk: the import is all or
nothing, and a second import of the same file updates in place."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cardsite import jobs
from cardsite.accounts import signed_in
from cardsite.jobs import ChunkContext, JobKind, Progress, Send
from cardsite.models import JobStatus

from .importer import ImportFailed, expansion_import
from .models import ImportJob

#: Cards a confirmed import writes within the request; more go to a worker.
ADMIN_INLINE_ROWS = 2_000
#: At most this many of a failed file's problems are kept.
MAX_PROBLEMS = 100


def import_job_start(*, data: dict[str, Any], user: Any = None) -> int:
    """Save the import of a checked document and, once the transaction commits, send it to
    a worker; returns the job's id."""
    job = ImportJob(
        document=data,
        game=str(data.get("game") or "")[:60],
        code=str(data.get("code") or "")[:40],
        name=str(data.get("name") or "")[:200],
        created_by=user if signed_in(user) else None,
    )
    jobs.job_start(job)
    return job.pk


def plan(job: ImportJob) -> None:
    """One chunk: the import is one transaction."""
    job.rows = len(job.document.get("cards") or [])
    job.n_chunks = 1


def import_chunk(job: ImportJob, index: int, context: ChunkContext) -> dict[str, Any]:
    """Import the job's document, telling the heartbeat every batch written. A file with
    problems writes nothing and says them."""
    context.report("checking", 0, job.rows)
    try:
        report = expansion_import(data=job.document, progress=context.report)
    except ImportFailed as exc:
        return {"problems": [str(e) for e in exc.report.errors[:MAX_PROBLEMS]]}
    return {
        "summary": report.summary(),
        "left_out": [[e.rule_set_id, e.text(report.code)] for e in report.left_out],
    }


def finish(job: ImportJob, now: datetime, send: Send) -> str:
    found = job.chunk_results["0"]
    job.document = {}
    if "problems" in found:
        job.problems = found["problems"]
        job.mark_failed(now, "The file has problems; nothing was written.")
        return "failed"
    job.summary = found["summary"]
    job.left_out = found["left_out"]
    job.mark_done(now)
    return "finished"


def progress(job: ImportJob) -> Progress:
    """Rows written of the document's (the stage: checking, cards, printings), as the
    running chunk last said; every row once done."""
    said = jobs.chunk_progress(job) if job.is_active else None
    stage, done, total = said if said else ("", 0, job.rows)
    if job.status == JobStatus.DONE:
        done = total = job.rows
    return Progress(
        status=job.status,
        done=done,
        total=total,
        unit="rows",
        stage=stage,
        error=job.error,
        seconds=job.duration,
    )


#: The import's kind of job, registered with the site's job system when this module loads.
EXPANSION_IMPORT = jobs.register(
    JobKind(
        name=ImportJob.JOB_KIND,
        label="expansion import",
        model=ImportJob,
        plan=plan,
        run_chunk=import_chunk,
        finish=finish,
        progress=progress,
        heavy=("document", "chunk_results"),
    )
)
