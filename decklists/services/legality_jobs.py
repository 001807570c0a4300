"""Re-checking decklists' legality today on the workers: a chunked job of the site's one job
system (cardsite/jobs.py), its kind `LEGALITY_RECHECK` and its table `LegalityJob`.

1. `legality_recheck_start` plans a job: the ids of the game's decklists (or, for a job that
   is `only_due`, of those whose row in its format is missing or not today's) in one query,
   cut into chunks of DECKLIST_RECHECK_CHUNK decklists (first and last id of each); the job
   system saves it and, once the transaction commits, sends one chunk task per chunk (a
   broker that is down is logged, and the one reaper sends them later).
2. A chunk (`check_chunk`, run by the one chunk task under a lease) checks its decklists in
   the job's format (every format of the game for "") under the rule set in force today,
   and (`commit_chunk`), in the transaction that stores the chunk, writes their rows (insert
   or replace: a chunk played twice writes the same rows).
3. The one reaper sends again a chunk whose worker died, and fails a job past its attempts.

`recheck_due` (beat, every DECKLIST_SWEEP_SECONDS) starts, for each game and format whose
rows are not all today's (a rule set took effect at 00:00, a job failed), one such job,
unless one of that format is still running.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings

from cardsite import jobs
from cardsite.jobs import ChunkContext, Figure, JobKind, Progress
from cardsite.models import ACTIVE
from catalogue.models import Game
from decklists.models import Decklist, DecklistLegality, LegalityJob

from .legality import _in_force_of, legality_check, legality_write, stale_q

logger = logging.getLogger(__name__)


def chunk_size() -> int:
    return int(getattr(settings, "DECKLIST_RECHECK_CHUNK", 2000))


def _due_ids(game: Game, fmt: str) -> Iterable[int]:
    """The game's decklists whose row in `fmt` is missing, or stale: checked under another
    rule set than the one in force today, or before its last change."""
    current = _in_force_of(game.pk, fmt)
    stale = DecklistLegality.objects.filter(
        stale_q(game.pk, fmt, current), decklist__game=game
    ).values_list("decklist_id", flat=True)
    missing = (
        Decklist.objects.filter(game=game)
        .exclude(pk__in=DecklistLegality.objects.filter(format=fmt).values("decklist_id"))
        .values_list("pk", flat=True)
    )
    return set(stale) | set(missing)


def plan(job: LegalityJob) -> None:
    """The decklists in scope, by id, cut into chunks of DECKLIST_RECHECK_CHUNK."""
    if job.only_due:
        ids = sorted(_due_ids(job.game, job.format))
    else:
        ids = list(
            Decklist.objects.filter(game_id=job.game_id).order_by("pk").values_list("pk", flat=True)
        )
    job.chunks = jobs.id_ranges(ids, chunk_size())
    job.total = len(ids)
    job.n_chunks = len(job.chunks)


def check_chunk(
    job: LegalityJob, index: int, context: ChunkContext
) -> tuple[int, list[DecklistLegality]]:
    """Chunk `index`: its decklists' rows, checked (nothing written yet)."""
    lo, hi = job.chunks[index]
    return legality_check(
        game_slug=job.game.slug, formats=[job.format] if job.format else None, lo=lo, hi=hi
    )


def commit_chunk(job: LegalityJob, index: int, found: tuple[int, list[DecklistLegality]]) -> int:
    """In the transaction that stores the chunk: its rows; the number of decklists."""
    checked, rows = found
    legality_write(rows)
    return checked


def store(job: LegalityJob, index: int, checked: int) -> None:
    job.checked += checked


def progress(job: LegalityJob) -> Progress:
    return Progress(
        status=job.status,
        done=job.checked,
        total=job.total,
        unit="decklists",
        stage="checking" if job.chunks_done or job.chunk_started else "",
        figures=(
            Figure("total", "Decklists in scope", job.total),
            Figure("checked", "Checked", job.checked),
            Figure("chunks", "Chunks done", f"{job.chunks_done} of {job.n_chunks}"),
        ),
        error=job.error,
        seconds=job.duration,
    )


#: The decklists' re-check's kind of job, registered with the site's job system when this
#: module loads.
LEGALITY_RECHECK = jobs.register(
    JobKind(
        name=LegalityJob.JOB_KIND,
        label="decklist re-check",
        model=LegalityJob,
        plan=plan,
        run_chunk=check_chunk,
        commit=commit_chunk,
        store=store,
        progress=progress,
        related=("game",),
        heavy=("chunk_results",),
    )
)


def legality_recheck_start(
    *, game_slug: str, format: str = "", reason: str = "", only_due: bool = False
) -> LegalityJob | None:
    """Start re-checking a game's decklists in `format` ("" : every format of the game) on
    the workers; returns the job (a job with no decklist is done at once; None for a game
    gone meanwhile)."""
    game = Game.objects.filter(slug=game_slug).first()
    if game is None:
        return None
    job = LegalityJob(
        game=game,
        format=format,
        reason=reason[:200],
        only_due=only_due,
    )
    jobs.job_start(job)
    logger.info(
        "decklist re-check started",
        extra={
            "job": job.pk,
            "game": game_slug,
            "formats": format or "all",
            "decklists": job.total,
            "reason": reason,
        },
    )
    return job


def recheck_due() -> dict[str, int]:
    """For every game and format whose decklists' rows are not all today's: one job of the
    decklists due, unless a re-check of that format (or of every format) of the game is
    still running. Returns the chunks of each job started, by "game:format"."""
    started: dict[str, int] = {}
    running = set(LegalityJob.objects.filter(status__in=ACTIVE).values_list("game_id", "format"))
    for game in Game.objects.all():
        if (game.pk, "") in running:
            continue
        for fmt in game.definition.formats:
            if (game.pk, fmt) in running or not _due_ids(game, fmt):
                continue
            job = legality_recheck_start(
                game_slug=game.slug, format=fmt, reason="rows not today's", only_due=True
            )
            if job is not None:
                started[f"{game.slug}:{fmt}"] = job.n_chunks
    return started
