"""Re-checking a format's saved decks on the workers, in chunks, and telling their owners.

How a job moves (docs/architecture.md, "Re-checks and notices"):

1. ``recheck_start`` lists the ids of the decks in scope (the decks that follow the format,
   and those pinned to the rule set that changed) in one query, cuts them into chunks of
   ``RECHECK_CHUNK_DECKS`` (first and last id of each) and, once the transaction commits,
   sends one Celery task per chunk. A job with a ``key`` is made once (the day a rule set
   takes effect).
2. ``recheck_run_chunk`` (the task's body) loads the chunk's decks with their current
   versions and stored verdicts in one query, and the game's card pool once; runs the rules
   core on each in memory (and, for a deck that follows the format, the upcoming rule set's
   effect on it, `Deck.upcoming`: checked once per distinct list of the chunk); then, in one
   transaction, writes the verdicts (and effects) that changed (on
   PostgreSQL one ``UPDATE … FROM unnest(…)`` per 1,000 decks; elsewhere ``bulk_update``),
   each only while the deck is still at the version checked and the verdict read (a deck
   saved or re-checked meanwhile keeps that verdict), writes one notice per written deck
   whose verdict (legal ↔ not legal) or total points changed with
   ``bulk_create(ignore_conflicts=True)`` (unique per deck and change), and adds the
   chunk's counts to the job. A deck whose verdict did not change is not written: a rule
   set imported twice re-checks every deck and tells nobody anything new.
3. A chunk already counted is skipped, so a redelivered message does no harm.
   ``recheck_sweep`` (Celery beat, every minute) sends again the chunks of a job that made no
   progress for ``RECHECK_STALL_SECONDS`` (a lost worker or message), at most
   ``RECHECK_MAX_SWEEPS`` times, then marks it failed.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from cardsite.tasks import send_chunks_on_commit
from catalogue import rulesets
from catalogue.models import Game, RuleSet
from catalogue.rule_set_file import DeckVerdicts
from catalogue.services import GamePool
from decks.lists import version_check
from decks.models import Deck as DeckModel
from decks.models import RecheckJob
from notices.models import Notice
from notices.services import notices_write

from .rechecks import RuleSetCache
from .rulesets import effect_parts, stored_effect

logger = logging.getLogger(__name__)

VERDICT_FIELDS = ["legal", "violations_count", "warnings_count", "report", "validated_at"]
#: Verdicts written by one statement.
WRITE_BATCH = 1000


def chunk_decks() -> int:
    return int(getattr(settings, "RECHECK_CHUNK_DECKS", 2000))


def stall_seconds() -> float:
    return float(getattr(settings, "RECHECK_STALL_SECONDS", 300))


def max_sweeps() -> int:
    return int(getattr(settings, "RECHECK_MAX_SWEEPS", 3))


# --- Scope ------------------------------------------------------------------------------------


def _scope(*, game_id: int, format: str, rule_set_code: str = ""):
    """The saved decks a job re-checks: of the game and format, with a version; for the
    change of a rule set, those that follow the format and those pinned to that rule set
    (a deck pinned to another keeps its verdict)."""
    decks = DeckModel.objects.filter(game_id=game_id, format=format, current_version__isnull=False)
    if rule_set_code:
        decks = decks.filter(Q(rule_set_pin__isnull=True) | Q(rule_set_pin__code=rule_set_code))
    return decks


#: At most this many saved decks are checked for a rule set file's preview (the rest are
#: counted, not checked), so that a preview costs a bounded time whatever the site's size.
PREVIEW_MAX_DECKS = 2000
#: Names of decks whose verdict would change, listed by the preview.
PREVIEW_NAMES = 5


def rule_set_preview(
    *, game_slug: str, format: str, code: str, facts, following: bool, when: str = ""
):
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
    rows = decks.order_by("pk").values_list(
        "pk",
        "owner_id",
        "name",
        "current_version_id",
        "current_version__entries",
        "current_version__options",
        "rule_set_pin_id",
        "legal",
    )[:PREVIEW_MAX_DECKS]
    memo: dict[tuple, bool] = {}
    checked = made_illegal = made_legal = 0
    names: list[str] = []
    for pk, owner_id, name, version_id, entries, options, pin, legal in rows:
        checked += 1
        key = (
            tuple(
                (e["section"], e["card"], e["count"], str(e.get("placement") or ""))
                for e in entries
            ),
            repr(options),
            owner_id if options else None,
        )
        if key not in memo:
            deck = _SavedDeck(pk, owner_id, game, format, name, pin)
            version = _SavedVersion(version_id, entries, options or {})
            report = version_check(deck=deck, version=version, pool=pool, rule_set=facts)
            memo[key] = bool(report.get("legal"))
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
    ids = list(
        _scope(game_id=game.pk, format=format, rule_set_code=rule_set_code)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    size = chunk_decks()
    chunks = [[ids[i], ids[min(i + size, len(ids)) - 1]] for i in range(0, len(ids), size)]
    now = timezone.now()
    try:
        with transaction.atomic():
            job = RecheckJob.objects.create(
                game=game,
                format=format,
                rule_set_code=rule_set_code,
                reason=reason[:200],
                key=key,
                total=len(ids),
                chunks=chunks,
                released=released or {},
                status=RecheckJob.Status.QUEUED if chunks else RecheckJob.Status.DONE,
                heartbeat_at=now,
                finished_at=None if chunks else now,
            )
    except IntegrityError:  # the same key, made meanwhile
        return RecheckJob.objects.get(key=key)
    _enqueue_on_commit(job.pk, range(len(chunks)))
    logger.info(
        "re-check started",
        extra={"job": job.pk, "game": game_slug, "format": format, "decks": len(ids)},
    )
    return job


def _enqueue_on_commit(job_id: int, indexes: Iterable[int]) -> None:
    send_chunks_on_commit(
        "decks.tasks.recheck_chunk", job_id, indexes, what="re-check chunks", later="the sweep"
    )


# --- One chunk --------------------------------------------------------------------------------


def _points(report: dict[str, Any] | None) -> int | None:
    value = ((report or {}).get("totals") or {}).get("points")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _message(
    *, name: str, fmt_name: str, code: str, report: dict, was_legal: bool, was_points, points
) -> tuple[str, str]:
    """(kind, message) of a notice."""
    under = f" under {code}" if code else ""
    legal = bool(report.get("legal"))
    moved = (
        f"; total points {was_points} → {points}"
        if points != was_points and points is not None and was_points is not None
        else ""
    )
    if legal != was_legal:
        if legal:
            return "verdict", f"{name} is legal again in {fmt_name}{under}{moved}."
        errors = report.get("errors") or []
        first = f": {errors[0]['message']}" if errors else ""
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        message = f"{name} is no longer legal in {fmt_name}{under}{moved}{first}{more}"
        return "verdict", message[:499]
    return "points", f"{name}: total points {was_points} → {points} in {fmt_name}{under}."


class _SavedDeck:
    """What the rules check reads of a saved deck, without a model instance (building one
    per deck cost a quarter of a chunk's time)."""

    __slots__ = ("pk", "owner_id", "game", "format", "name", "rule_set_pin_id")

    def __init__(self, pk, owner_id, game, format, name, rule_set_pin_id):
        self.pk, self.owner_id, self.game, self.format = pk, owner_id, game, format
        self.name, self.rule_set_pin_id = name, rule_set_pin_id

    @property
    def owner(self):
        """Read only for a deck restricted to its owner's collection (one query)."""
        return get_user_model().objects.get(pk=self.owner_id)


class _SavedVersion:
    __slots__ = ("pk", "entries", "options", "revision")

    def __init__(self, pk, entries, options, revision=0):
        self.pk, self.entries, self.options, self.revision = pk, entries, options, revision


def _upcoming_effect(deck, version, pool, sets, upcoming, memo) -> dict[str, Any]:
    """The upcoming rule set's effect on a deck that follows its format, in memory (the
    rule sets loaded once a chunk; the check under the upcoming one done once per distinct
    list and options in the chunk: many decks share a list)."""
    if upcoming is None or deck.rule_set_pin_id is not None:
        return {}
    key, later = upcoming
    memo_key = (
        tuple(
            (e["section"], e["card"], e["count"], str(e.get("placement") or ""))
            for e in version.entries
        ),
        repr(version.options),
        deck.owner_id if version.options else None,
    )
    found = memo.get(memo_key)
    if found is None:
        report = version_check(deck=deck, version=version, pool=pool, rule_set=later)
        found = effect_parts(
            version=version,
            now=sets.in_force(deck.format),
            later=later,
            cards=pool,
            report=report,
        )
        memo[memo_key] = found
    items, legal, errors = found
    return stored_effect(key=key, version=version, items=items, legal=legal, errors=errors)


def _check_chunk(job: RecheckJob, lo: int, hi: int) -> tuple[int, list[dict[str, Any]]]:
    """Run the rules core on the chunk's decks (loaded in one query, the pool once); the
    decks whose stored verdict differs from the new one."""
    game = job.game
    pool = GamePool(game_slug=game.slug)
    sets = RuleSetCache(game.slug)  # today's rule set and each pinned one, once
    rows = (
        _scope(game_id=game.pk, format=job.format, rule_set_code=job.rule_set_code)
        .filter(pk__gte=lo, pk__lte=hi)
        .order_by("pk")
        .values_list(
            "pk",
            "owner_id",
            "name",
            "current_version_id",
            "current_version__entries",
            "current_version__options",
            "current_version__revision",
            "rule_set_pin_id",
            "legal",
            "report",
            "upcoming",
            "validated_at",
        )
    )
    upcoming = sets.upcoming(job.format)
    effects: dict[tuple, tuple[list[str], bool, int]] = {}
    released = set((job.released or {}).get("ids") or ())
    changed: list[dict[str, Any]] = []
    n = 0
    for row in rows.iterator(chunk_size=2000):
        (
            pk,
            owner_id,
            name,
            version_id,
            entries,
            options,
            revision,
            pin,
            legal,
            stored,
            stored_effect,
            validated_at,
        ) = row
        n += 1
        deck = _SavedDeck(pk, owner_id, game, job.format, name, pin)
        version = _SavedVersion(version_id, entries, options or {}, revision)
        report = version_check(deck=deck, version=version, pool=pool, rule_set=sets.for_deck(deck))
        effect = _upcoming_effect(deck, version, pool, sets, upcoming, effects)
        if report == stored and effect == stored_effect and pk not in released:
            continue
        changed.append(
            {
                "pk": pk,
                "owner_id": owner_id,
                "name": name,
                "version_id": version_id,
                "report": report,
                "upcoming": effect,
                "was_legal": legal,
                "was_points": _points(stored),
                "was_validated": bool(stored),
                "was_validated_at": validated_at,
                "released": pk in released,
                "same": report == stored and effect == stored_effect,
            }
        )
    return n, changed


def _verdict(report: dict[str, Any]) -> tuple[bool, int, int]:
    return (
        bool(report.get("legal")),
        len(report.get("errors", [])),
        len(report.get("warnings", [])),
    )


#: One statement writes a batch of verdicts on PostgreSQL: the new values come in as one JSON
#: document (one parameter, quoted at C speed), and a deck is written only while it is at the
#: version checked and at the verdict read (`validated_at` unchanged: no save and no other
#: re-check meanwhile), which RETURNING reports.
_UPDATE_SQL = """
UPDATE decks_deck AS d
SET legal = v.legal, violations_count = v.errors, warnings_count = v.warnings,
    report = v.report, upcoming = COALESCE(v.upcoming, d.upcoming), validated_at = %s
FROM jsonb_to_recordset(%s::jsonb)
     AS v(id bigint, version_id bigint, was_validated_at timestamptz, legal boolean,
          errors integer, warnings integer, report jsonb, upcoming jsonb)
WHERE d.id = v.id AND d.current_version_id = v.version_id
  AND d.validated_at IS NOT DISTINCT FROM v.was_validated_at
RETURNING d.id
"""


def _write_verdicts_postgresql(changed: list[dict[str, Any]], now) -> set[int]:
    written: set[int] = set()
    with connection.cursor() as cursor:
        for i in range(0, len(changed), WRITE_BATCH):
            rows = []
            for c in changed[i : i + WRITE_BATCH]:
                legal, errors, warnings = _verdict(c["report"])
                was = c["was_validated_at"]
                rows.append(
                    {
                        "id": c["pk"],
                        "version_id": c["version_id"],
                        "was_validated_at": was.isoformat() if was else None,
                        "legal": legal,
                        "errors": errors,
                        "warnings": warnings,
                        "report": c["report"],
                        "upcoming": c.get("upcoming"),
                    }
                )
            cursor.execute(_UPDATE_SQL, [now, json.dumps(rows)])
            written.update(row[0] for row in cursor.fetchall())
    return written


def _write_verdicts_portable(changed: list[dict[str, Any]], now) -> set[int]:
    """Other databases (the embedded SQLite): lock, compare, bulk_update."""
    by_pk = {c["pk"]: c for c in changed}
    locked = (
        DeckModel.objects.select_for_update()
        .filter(pk__in=list(by_pk))
        .order_by("pk")
        .values_list("pk", "current_version_id", "validated_at")
    )
    decks = []
    for pk, version_id, validated_at in locked:
        c = by_pk[pk]
        if version_id != c["version_id"] or validated_at != c["was_validated_at"]:
            continue
        legal, errors, warnings = _verdict(c["report"])
        decks.append(
            DeckModel(
                pk=pk,
                legal=legal,
                violations_count=errors,
                warnings_count=warnings,
                report=c["report"],
                upcoming=c.get("upcoming") or {},
                validated_at=now,
            )
        )
    fields = VERDICT_FIELDS + (["upcoming"] if all("upcoming" in c for c in changed) else [])
    DeckModel.objects.bulk_update(decks, fields, batch_size=WRITE_BATCH)
    return {d.pk for d in decks}


def _write_chunk(job: RecheckJob, changed: list[dict[str, Any]]) -> tuple[int, int]:
    """Within the caller's transaction: the new verdicts of the decks still at the version
    checked and at the verdict read (a deck saved or re-checked meanwhile keeps that
    verdict), and one notice per written deck whose verdict or total points changed.
    Returns (decks written, notices written)."""
    if not changed:
        return 0, 0
    fmt_name = job.game.definition.format(job.format).name
    for c in changed:
        c["fmt_name"] = fmt_name
    written, notices = write_verdicts(changed, key_tail=f"job{job.pk}")
    notices += _released_notices(job, [c for c in changed if c.get("released")], fmt_name)
    return len(written), notices_write(notices)


def write_verdicts(changed: list[dict[str, Any]], *, key_tail: str) -> tuple[set[int], list]:
    """Within the caller's transaction: the new verdicts of `changed` (dicts of
    `_check_chunk`, each with its format's name as `fmt_name`) whose deck is still at the
    version checked and at the verdict read; the ids written, and the notices (not yet
    saved) of the written decks whose verdict or total points changed, keyed with
    `key_tail` (or the deck's own `key_tail`). A deck released from a deleted pin gets its own notice instead
    (`_released_notices`)."""
    now = timezone.now()
    to_write = [c for c in changed if not c.get("same")]
    if not to_write:
        written: set[int] = set()
    elif connection.vendor == "postgresql":
        written = _write_verdicts_postgresql(to_write, now)
    else:
        written = _write_verdicts_portable(to_write, now)
    notices = []
    for c in to_write:
        if c["pk"] not in written or not c["was_validated"] or c.get("released"):
            continue
        report = c["report"]
        points, was_points = _points(report), c["was_points"]
        # Total points are told when both are known (a list that could not be read has none).
        moved = points is not None and was_points is not None and points != was_points
        if bool(report.get("legal")) == c["was_legal"] and not moved:
            continue
        code = report.get("rule_set") or ""
        kind, message = _message(
            name=c["name"],
            fmt_name=c["fmt_name"],
            code=code,
            report=report,
            was_legal=c["was_legal"],
            was_points=was_points,
            points=points,
        )
        verdict = "legal" if report.get("legal") else "illegal"
        notices.append(
            Notice(
                owner_id=c["owner_id"],
                deck_id=c["pk"],
                kind=kind,
                key=f"{code or '-'}:{verdict}:{points}:{c.get('key_tail') or key_tail}"[:120],
                rule_set_code=code,
                legal=bool(report.get("legal")),
                was_legal=c["was_legal"],
                points=points,
                was_points=was_points,
                message=message,
            )
        )
    return written, notices


def _released_notices(job: RecheckJob, released: list[dict[str, Any]], fmt_name: str) -> list:
    """One notice per deck released from a deleted pin: what it now follows and its verdict
    there (the deck's only notice of the change: no verdict notice besides)."""
    gone = job.released or {}
    out = []
    for c in released:
        report = c["report"]
        code = report.get("rule_set") or ""
        under = f", checked under {code}" if code else ", checked under its own rules"
        if report.get("legal"):
            verdict = "legal"
        else:
            errors = report.get("errors") or []
            verdict = "not legal" + (f": {errors[0]['message']}" if errors else "")
            verdict += f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        message = (
            f"{c['name']} was pinned to the rule set {gone.get('code')} ({gone.get('name')}), "
            f"which was deleted: it now follows {fmt_name}{under}, and is {verdict}."
        )
        out.append(
            Notice(
                owner_id=c["owner_id"],
                deck_id=c["pk"],
                kind=Notice.Kind.PIN,
                key=f"pin:{gone.get('rule_set')}:{gone.get('code')}"[:120],
                rule_set_code=gone.get("code") or "",
                legal=bool(report.get("legal")),
                was_legal=c["was_legal"],
                points=_points(report),
                was_points=c["was_points"],
                message=message[:499],
            )
        )
    return out


def recheck_run_chunk(*, job_id: int, index: int, worker: str = "") -> str:
    """Re-check chunk `index` of a job and count it; finish the job with its last chunk.
    Idempotent. Returns "stored", "finished" or "skipped"."""
    job = RecheckJob.objects.select_related("game").filter(pk=job_id).first()
    key = str(index)
    if job is None or not job.is_active or key in job.chunks_done:
        return "skipped"
    if not 0 <= index < len(job.chunks):
        raise ValueError(f"re-check job {job_id} has no chunk {index}")
    now = timezone.now()
    RecheckJob.objects.filter(pk=job_id, status=RecheckJob.Status.QUEUED).update(
        status=RecheckJob.Status.RUNNING, started_at=now, heartbeat_at=now
    )
    t0 = time.perf_counter()
    lo, hi = job.chunks[index]
    checked, changed = _check_chunk(job, lo, hi)
    with transaction.atomic():
        written, told = _write_chunk(job, changed)
        # The job's row last, so that it is locked only until this commits.
        locked = RecheckJob.objects.select_for_update().filter(pk=job_id).first()
        if locked is None or not locked.is_active or key in locked.chunks_done:
            transaction.set_rollback(True)
            return "skipped"
        now = timezone.now()
        locked.chunks_done[key] = {
            "checked": checked,
            "changed": written,
            "notices": told,
            "seconds": round(time.perf_counter() - t0, 3),
            "worker": worker,
        }
        locked.checked += checked
        locked.changed += written
        locked.notices += told
        locked.heartbeat_at = now
        outcome = "stored"
        if len(locked.chunks_done) >= len(locked.chunks):
            locked.status = RecheckJob.Status.DONE
            locked.finished_at = now
            outcome = "finished"
        locked.save()
    if outcome == "finished":
        logger.info(
            "re-check finished",
            extra={"job": job_id, "checked": locked.checked, "changed": locked.changed},
        )
    return outcome


def recheck_fail(*, job_id: int, reason: str) -> bool:
    """Mark an active job failed with `reason`."""
    now = timezone.now()
    return bool(
        RecheckJob.objects.filter(
            pk=job_id, status__in=[RecheckJob.Status.QUEUED, RecheckJob.Status.RUNNING]
        ).update(status=RecheckJob.Status.FAILED, error=reason[:5000], finished_at=now)
    )


def recheck_sweep(*, now=None) -> dict[str, list[int]]:
    """Send again the chunks not counted of every job that made no progress for
    RECHECK_STALL_SECONDS; fail a job swept RECHECK_MAX_SWEEPS times already."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=stall_seconds())
    out: dict[str, list[int]] = {"requeued": [], "failed": []}
    stalled = RecheckJob.objects.filter(
        status__in=[RecheckJob.Status.QUEUED, RecheckJob.Status.RUNNING], heartbeat_at__lt=cutoff
    ).values_list("pk", flat=True)
    for pk in stalled:
        with transaction.atomic():
            job = RecheckJob.objects.select_for_update().filter(pk=pk).first()
            if job is None or not job.is_active or job.heartbeat_at >= cutoff:
                continue
            if job.sweeps >= max_sweeps():
                job.status = RecheckJob.Status.FAILED
                job.error = f"no progress after {job.sweeps} re-deliveries of its chunks"
                job.finished_at = now
                job.save()
                out["failed"].append(pk)
                continue
            missing = [i for i in range(len(job.chunks)) if str(i) not in job.chunks_done]
            job.sweeps += 1
            job.heartbeat_at = now
            job.save(update_fields=["sweeps", "heartbeat_at"])
            _enqueue_on_commit(pk, missing)
            out["requeued"].append(pk)
    return out


# --- Rule sets taking effect, deleted pins ---------------------------------------------------

#: Rule sets that took effect up to this many days ago still get their re-check (beat was
#: down at midnight); the job's key makes it once per rule set and date.
CATCH_UP_DAYS = 7


def recheck_rule_sets_taking_effect(*, today=None) -> list[int]:
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


def pins_released(*, rule_set) -> RecheckJob | None:
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


def _tell_unsaved_pins(rule_set, game) -> None:
    """The decks pinned to a deleted rule set that have no saved list (nothing to re-check):
    one notice each, at once."""
    fmt_name = game.definition.format(rule_set.format).name
    notices_write(
        [
            Notice(
                owner_id=owner_id,
                deck_id=pk,
                kind=Notice.Kind.PIN,
                key=f"pin:{rule_set.pk}:{rule_set.code}"[:120],
                rule_set_code=rule_set.code,
                message=(
                    f"{name} was pinned to the rule set {rule_set.code} ({rule_set.name}), "
                    f"which was deleted: it now follows {fmt_name}."
                )[:499],
            )
            for pk, owner_id, name in DeckModel.objects.filter(
                rule_set_pin=rule_set, current_version__isnull=True
            ).values_list("pk", "owner_id", "name")
        ]
    )
