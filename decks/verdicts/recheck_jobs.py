"""Re-checking saved decks on the workers, in chunks: a format's decks after its rule sets
changed (their owners told), and every deck of a game after its catalogue changed.

A re-check is a chunked job of the site's one job system (cardsite/jobs.py); this module holds
its two kinds (docs/architecture.md, "Background jobs" and "Re-checks and notices"; a chunk's
check is `recheck_checks`, its writes `verdict_writes`), one
table (`RecheckJob`) for both: `RECHECK` re-checks the decks of one format and writes the
notices below; `REVALIDATE` (a job whose `format` is "": every format) re-checks every saved
deck of a game, each under its own rule set, after an import or an admin edit of its cards
(`revalidate_start`), and writes the verdicts only. For a format's re-check:

1. ``recheck_start`` plans a job: it lists the ids of the decks in scope (the decks that
   follow the format, and those pinned to the rule set that changed) in one query and cuts
   them into chunks of ``RECHECK_CHUNK_DECKS`` (first and last id of each); the job system
   saves it and, once the transaction commits, sends one chunk task per chunk. A job with a
   ``key`` is made once (the day a rule set takes effect).
2. A chunk (`check_chunk`, run by the one chunk task under a lease) loads the chunk's decks
   with their current versions and stored verdicts in one query, and the game's card pool
   once; runs the rules core on each in memory (and, for a deck that follows the format, the
   upcoming rule set's effect on it, `Deck.upcoming`: checked once per distinct list of the
   chunk); then (`commit_chunk`), in the transaction that stores the chunk, writes the
   verdicts (and effects) that changed (on PostgreSQL one ``UPDATE … FROM
   jsonb_to_recordset(…)`` per 1,000 decks; elsewhere ``bulk_update``), each only while the
   deck is still at the version checked and the verdict read (a deck saved or re-checked
   meanwhile keeps that verdict), writes one notice per written deck whose verdict (legal ↔
   not legal) or total points changed with ``bulk_create(ignore_conflicts=True)`` (unique
   per deck and change), and adds the chunk's counts to the job. A deck whose verdict did
   not change is not written: a rule set imported twice re-checks every deck and tells
   nobody anything new.
3. A chunk already counted is skipped (its writes rolled back), so a redelivered message
   does no harm. The one reaper sends again a chunk whose worker died (its lease ran out)
   and, of a job that made no progress for ``RECHECK_STALL_SECONDS``, the chunks never
   started, at most ``RECHECK_MAX_SWEEPS`` times, then marks it failed.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q

from cardsite import jobs
from cardsite.jobs import ChunkContext, Figure, JobKind, Progress, Timing
from catalogue import rulesets
from catalogue.models import Game, RuleSet
from catalogue.rule_set_file import DeckVerdicts
from catalogue.services import GamePool
from decks.lists import SavedList, version_check
from decks.models import Deck as DeckModel
from decks.models import RecheckJob
from notices.models import Notice
from notices.services import NoticeDraft, VerdictChange, notices_write
from validation.types import RuleSetFacts

from .recheck_checks import _DECK_COLUMNS, _check_chunk, _memo_key, _scope
from .verdict_writes import _write_chunk, deck_subject, verdicts_write
from .verdict_writes import _write_verdicts_portable as _write_verdicts_portable

logger = logging.getLogger(__name__)


def chunk_decks() -> int:
    return int(getattr(settings, "RECHECK_CHUNK_DECKS", 2000))


def timing() -> Timing:
    """The site's lease; a job without progress for RECHECK_STALL_SECONDS has its chunks that
    never started sent again, which counts: past RECHECK_MAX_SWEEPS the job fails."""
    site = jobs.default_timing()
    return Timing(
        heartbeat=site.heartbeat,
        lease=site.lease,
        stall=float(getattr(settings, "RECHECK_STALL_SECONDS", 300)),
        max_attempts=int(getattr(settings, "RECHECK_MAX_SWEEPS", 3)),
        stalls_count=True,
    )


#: At most this many saved decks are checked for a rule set file's preview (the rest are
#: counted, not checked), so that a preview costs a bounded time whatever the site's size.
PREVIEW_MAX_DECKS = 2000
#: Names of decks whose verdict would change, listed by the preview.
PREVIEW_NAMES = 5


def rule_set_preview(
    *,
    game_slug: str,
    format: str,
    code: str,
    facts: RuleSetFacts,
    following: bool,
    when: str = "",
) -> DeckVerdicts:
    """What writing a rule set (`facts`, not yet stored) would do to the saved decks it
    governs: those of the format pinned to `code` and, when it is or will be the rule set
    in force (`following`), those that follow the format. Each is checked in memory under it,
    nothing written, and its verdict compared with its saved one (the first
    PREVIEW_MAX_DECKS decks in scope; each distinct list checked once)."""
    game = Game.objects.filter(slug=game_slug).first()
    if game is None:
        return DeckVerdicts(total=0, checked=0, changed=0, when=when)
    decks = DeckModel.objects.filter(game=game, format=format, current_version__isnull=False)
    scope = Q(rule_set_pin__code=code)
    if following:
        scope |= Q(rule_set_pin__isnull=True)
    decks = decks.filter(scope)
    total = decks.count()
    pool = GamePool(game_slug=game.slug)
    rows = decks.order_by("pk").values_list(*_DECK_COLUMNS, "rule_set_pin_id", "legal")[
        :PREVIEW_MAX_DECKS
    ]
    memo: dict[tuple[object, ...], bool] = {}
    checked = made_illegal = made_legal = 0
    names: list[str] = []
    for _pk, owner_id, name, version_id, entries, options, pin, legal in rows:
        checked += 1
        saved = SavedList.stored(
            game=game,
            format=format,
            entries=entries,
            options=options,
            pin=pin,
            owner_id=owner_id,
            version=version_id,
        )
        key = _memo_key(saved)
        if key not in memo:
            memo[key] = version_check(saved, pool=pool, rule_set=facts).legal
        now = memo[key]
        if now == bool(legal):
            continue
        if now:
            made_legal += 1
        else:
            made_illegal += 1
        if len(names) < PREVIEW_NAMES:
            names.append(name)
    return DeckVerdicts(
        total=total,
        checked=checked,
        changed=made_illegal + made_legal,
        names=tuple(names),
        made_illegal=made_illegal,
        made_legal=made_legal,
        when=when,
    )


# --- Starting ---------------------------------------------------------------------------------


def recheck_start(
    *,
    game_slug: str,
    format: str,
    reason: str,
    rule_set_code: str = "",
    key: str = "",
    released: dict[str, Any] | None = None,
) -> RecheckJob:
    """Start re-checking the decks of a game's format (see the module docstring); returns
    the job (the existing one for a `key` already used). `released`: the decks of a deleted
    rule set's pins, told by the job (see `pins_released`)."""
    if key:
        existing = RecheckJob.objects.filter(key=key).first()
        if existing is not None:
            return existing
    game = Game.objects.get(slug=game_slug)
    game.definition.format(format)  # an unknown format raises ValueError
    job = RecheckJob(
        game=game,
        format=format,
        rule_set_code=rule_set_code,
        reason=reason[:200],
        key=key,
        released=released or {},
    )
    try:
        jobs.job_start(job)
    except IntegrityError:  # the same key, made meanwhile
        return RecheckJob.objects.get(key=key)
    logger.info(
        "re-check started",
        extra={"job": job.pk, "game": game_slug, "format": format, "decks": job.total},
    )
    return job


def plan(job: RecheckJob) -> None:
    """The decks in scope, by id in one query, cut into chunks of RECHECK_CHUNK_DECKS (the
    first and last id of each)."""
    ids = list(
        _scope(game_id=job.game_id, format=job.format, rule_set_code=job.rule_set_code)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    job.chunks = jobs.id_ranges(ids, chunk_decks())
    job.total = len(ids)
    job.n_chunks = len(job.chunks)


def check_chunk(
    job: RecheckJob, index: int, context: ChunkContext
) -> tuple[int, list[dict[str, Any]]]:
    """Chunk `index`: the rules core run on its decks (nothing written yet)."""
    lo, hi = job.chunks[index]
    return _check_chunk(job, lo, hi)


def commit_chunk(
    job: RecheckJob, index: int, found: tuple[int, list[dict[str, Any]]]
) -> dict[str, int]:
    """In the transaction that stores the chunk: its verdicts and notices; its counts."""
    checked, changed = found
    written, told = _write_chunk(job, changed)
    return {"checked": checked, "changed": written, "notices": told}


def commit_revalidated(
    job: RecheckJob, index: int, found: tuple[int, list[dict[str, Any]]]
) -> dict[str, int]:
    """A whole game's re-check, in the transaction that stores the chunk: its verdicts (no
    notice: the catalogue changed, not a rule set); its counts."""
    checked, changed = found
    written = verdicts_write([c for c in changed if not c["same"]])
    return {"checked": checked, "changed": len(written), "notices": 0}


def store(job: RecheckJob, index: int, counts: dict[str, int]) -> None:
    job.checked += counts["checked"]
    job.changed += counts["changed"]
    job.notices += counts["notices"]


def progress(job: RecheckJob) -> Progress:
    return Progress(
        status=job.status,
        done=job.checked,
        total=job.total,
        unit="decks",
        stage="checking" if job.chunks_done or job.chunk_started else "",
        figures=(
            Figure("total", "Decks in scope", job.total),
            Figure("checked", "Checked", job.checked),
            Figure("changed", "Verdicts changed", job.changed),
            Figure("notices", "Notices written", job.notices),
            Figure("chunks", "Chunks done", f"{job.chunks_done} of {job.n_chunks}"),
        ),
        error=job.error,
        seconds=job.duration,
    )


#: The re-check's kind of job, registered with the site's job system when this module loads.
RECHECK = jobs.register(
    JobKind(
        name=RecheckJob.JOB_KIND,
        label="re-check",
        model=RecheckJob,
        plan=plan,
        run_chunk=check_chunk,
        commit=commit_chunk,
        store=store,
        progress=progress,
        timing=timing,
        related=("game",),
        heavy=("chunk_results",),
    )
)

#: The re-check of every saved deck of a game (a job whose `format` is ""), registered with
#: the site's job system when this module loads.
REVALIDATE = jobs.register(
    replace(
        RECHECK,
        name=RecheckJob.REVALIDATE_KIND,
        label="whole-game re-check",
        commit=commit_revalidated,
    )
)


def revalidate_start(*, game_slug: str, reason: str = "catalogue changed") -> RecheckJob | None:
    """Start re-checking every saved deck of a game on the workers, each under its own rule
    set (its pin, or the one in effect today in its format), after its catalogue changed
    (an import or an admin edit); returns the job (None for a game gone meanwhile)."""
    game = Game.objects.filter(slug=game_slug).first()
    if game is None:
        return None
    job = RecheckJob(game=game, format="", reason=reason[:200])
    jobs.job_start(job)
    logger.info(
        "whole-game re-check started",
        extra={"job": job.pk, "game": game_slug, "decks": job.total, "reason": reason},
    )
    return job


def revalidate_game_decks(*, game_slug: str) -> int:
    """The whole-game re-check in this process, at once (every deck of the game in one
    pass, its verdicts written in one transaction): what a command or a test asks for.
    Returns the number of decks checked."""
    game = Game.objects.filter(slug=game_slug).first()
    if game is None:
        return 0
    checked, changed = _check_chunk(RecheckJob(game=game, format="", reason="in process"))
    with transaction.atomic():
        verdicts_write([c for c in changed if not c["same"]])
    return checked


def recheck_run_chunk(*, job_id: int, index: int, worker: str = "") -> str:
    """Re-check chunk `index` of a job and count it; finish the job with its last chunk
    (cardsite.jobs.job_run_chunk). Idempotent. Returns "stored", "finished", "busy" or
    "skipped"."""
    return jobs.job_run_chunk(kind=RECHECK.name, job_id=job_id, index=index, worker=worker)


def recheck_fail(*, job_id: int, reason: str) -> bool:
    """Mark an active job failed with `reason`."""
    return jobs.job_fail(kind=RECHECK.name, job_id=job_id, reason=reason)


def recheck_sweep(*, now: datetime | None = None) -> dict[str, list[int]]:
    """The reaper's pass over the re-check jobs alone: send again the lost chunks of every
    job (those of a job without progress for RECHECK_STALL_SECONDS among them); fail a job
    whose chunks were sent again RECHECK_MAX_SWEEPS times already."""
    return jobs.reap(now=now, models=[RecheckJob]).ids()


# --- Rule sets taking effect, deleted pins ---------------------------------------------------

#: Rule sets that took effect up to this many days ago still get their re-check (beat was
#: down at midnight); the job's key makes it once per rule set and date.
CATCH_UP_DAYS = 7


def recheck_rule_sets_taking_effect(*, today: date | None = None) -> list[int]:
    """Start the re-check of each format whose rule set takes effect today (or took effect
    within CATCH_UP_DAYS and has had no such re-check): once per rule set and date, however
    often it is called. Returns the ids of the jobs (new or existing)."""
    today = today or rulesets.today()
    jobs = []
    found = RuleSet.objects.filter(
        effective__lte=today, effective__gte=today - timedelta(days=CATCH_UP_DAYS)
    ).select_related("game")
    for rule_set in found.order_by("effective", "pk"):
        job = recheck_start(
            game_slug=rule_set.game.slug,
            format=rule_set.format,
            rule_set_code=rule_set.code,
            reason=f"rule set {rule_set.code} took effect on {rule_set.effective:%Y-%m-%d}",
            key=f"effective:{rule_set.pk}:{rule_set.effective:%Y-%m-%d}",
        )
        jobs.append(job.pk)
    return jobs


def pins_released(*, rule_set: RuleSet) -> RecheckJob | None:
    """Before a rule set is deleted (in the deleting transaction: the `rule_set_deleting`
    hook of catalogue.rulesets.rule_set_delete): start the one re-check of its format that
    the deletion needs. Its scope is the decks that follow the format and
    those pinned to the rule set, which fall back to following once the delete commits (the
    foreign key is set to null); the job lists the pinned ones (`released`), and each of
    their owners gets one notice from it: the deck now follows the format, checked under the
    rule set in effect today, with its verdict there. The chunks are sent once the
    transaction commits (nothing is started if it rolls back). Returns the job, or None when no deck is in scope."""
    game = Game.objects.filter(pk=rule_set.game_id).first()
    if game is None:
        return None
    try:
        game.definition.format(rule_set.format)
    except ValueError:
        return None
    if not _scope(game_id=game.pk, format=rule_set.format, rule_set_code=rule_set.code).exists():
        _tell_unsaved_pins(rule_set, game)
        return None
    pinned = list(
        DeckModel.objects.filter(rule_set_pin=rule_set, current_version__isnull=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    _tell_unsaved_pins(rule_set, game)
    return recheck_start(
        game_slug=game.slug,
        format=rule_set.format,
        rule_set_code=rule_set.code,
        reason=f"rule set {rule_set.code} deleted: its pinned decks follow {rule_set.format}",
        key=f"deleted:{rule_set.pk}:{rule_set.code}"[:120],
        released={
            "ids": pinned,
            "rule_set": rule_set.pk,
            "code": rule_set.code,
            "name": rule_set.name,
        },
    )


def _tell_unsaved_pins(rule_set: RuleSet, game: Game) -> None:
    """The decks pinned to a deleted rule set that have no saved list (nothing to re-check):
    one notice each, at once."""
    fmt_name = game.definition.format(rule_set.format).name
    notices_write(
        [
            NoticeDraft(
                owner_id=owner_id,
                subject=deck_subject(pk),
                kind=Notice.Kind.PIN,
                key=f"pin:{rule_set.pk}:{rule_set.code}",
                payload=VerdictChange(rule_set_code=rule_set.code),
                message=(
                    f"{name} was pinned to the rule set {rule_set.code} ({rule_set.name}), "
                    f"which was deleted: it now follows {fmt_name}."
                ),
            )
            for pk, owner_id, name in DeckModel.objects.filter(
                rule_set_pin=rule_set, current_version__isnull=True
            ).values_list("pk", "owner_id", "name")
        ]
    )
