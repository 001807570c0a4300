"""Writing a re-check's verdicts (decks.verdicts.recheck_jobs): each only while the deck is
still at the version checked and the verdict read (one statement per batch on PostgreSQL),
and the notices to the owners of the decks whose verdict or points changed."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from decks.models import Deck as DeckModel
from decks.models import RecheckJob
from notices.models import Notice
from notices.services import NoticeDraft, Subject, VerdictChange, notices_write
from notices.subjects import DECK
from validation.runner import Report

from .recheck_checks import _points

VERDICT_FIELDS = ["legal", "violations_count", "warnings_count", "report", "validated_at"]
#: Verdicts written by one statement.
WRITE_BATCH = 1000


def deck_subject(pk: int) -> Subject:
    """A deck as the subject of its notices (linked to its page by the link the decks app
    registered for the kind: decks.apps)."""
    return Subject(kind=DECK, id=pk)


def _message(
    *,
    name: str,
    fmt_name: str,
    code: str,
    report: Report,
    was_legal: bool,
    was_points: int | None,
    points: int | None,
) -> tuple[str, str]:
    """(kind, message) of a notice."""
    under = f" under {code}" if code else ""
    legal = report.legal
    moved = (
        f"; total points {was_points} → {points}"
        if points != was_points and points is not None and was_points is not None
        else ""
    )
    if legal != was_legal:
        if legal:
            return "verdict", f"{name} is legal again in {fmt_name}{under}{moved}."
        errors = report.errors
        first = f": {errors[0].message}" if errors else ""
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        message = f"{name} is no longer legal in {fmt_name}{under}{moved}{first}{more}"
        return "verdict", message[:499]
    return "points", f"{name}: total points {was_points} → {points} in {fmt_name}{under}."


def _verdict(report: Report) -> tuple[bool, int, int]:
    return report.legal, len(report.errors), len(report.warnings)


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


def _write_verdicts_postgresql(changed: list[dict[str, Any]], now: datetime) -> set[int]:
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
                        "report": c["report"].as_dict(),
                        "upcoming": c.get("upcoming"),
                    }
                )
            cursor.execute(_UPDATE_SQL, [now, json.dumps(rows)])
            written.update(row[0] for row in cursor.fetchall())
    return written


def _write_verdicts_portable(changed: list[dict[str, Any]], now: datetime) -> set[int]:
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
                report=c["report"].as_dict(),
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


def verdicts_write(changed: list[dict[str, Any]]) -> set[int]:
    """Within the caller's transaction: the new verdicts of `changed` (dicts of
    `_check_chunk`) whose deck is still at the version checked and at the verdict read; the
    ids written."""
    if not changed:
        return set()
    if connection.vendor == "postgresql":
        return _write_verdicts_postgresql(changed, timezone.now())
    return _write_verdicts_portable(changed, timezone.now())


def write_verdicts(
    changed: list[dict[str, Any]], *, key_tail: str
) -> tuple[set[int], list[NoticeDraft]]:
    """Within the caller's transaction: the new verdicts of `changed` (dicts of
    `_check_chunk`, each with its format's name as `fmt_name`) whose deck is still at the
    version checked and at the verdict read; the ids written, and the notices (not yet
    saved) of the written decks whose verdict or total points changed, keyed with
    `key_tail` (or the deck's own `key_tail`). A deck released from a deleted pin gets its own notice instead
    (`_released_notices`)."""
    to_write = [c for c in changed if not c.get("same")]
    written = verdicts_write(to_write)
    notices = []
    for c in to_write:
        if c["pk"] not in written or not c["was_validated"] or c.get("released"):
            continue
        report = c["report"]
        points, was_points = _points(report), c["was_points"]
        # Total points are told when both are known (a list that could not be read has none).
        moved = points is not None and was_points is not None and points != was_points
        if report.legal == c["was_legal"] and not moved:
            continue
        code = report.rule_set or ""
        kind, message = _message(
            name=c["name"],
            fmt_name=c["fmt_name"],
            code=code,
            report=report,
            was_legal=c["was_legal"],
            was_points=was_points,
            points=points,
        )
        verdict = "legal" if report.legal else "illegal"
        notices.append(
            NoticeDraft(
                owner_id=c["owner_id"],
                subject=deck_subject(c["pk"]),
                kind=kind,
                key=f"{code or '-'}:{verdict}:{points}:{c.get('key_tail') or key_tail}",
                payload=VerdictChange(
                    rule_set_code=code,
                    legal=report.legal,
                    was_legal=c["was_legal"],
                    points=points,
                    was_points=was_points,
                ),
                message=message,
            )
        )
    return written, notices


def _released_notices(
    job: RecheckJob, released: list[dict[str, Any]], fmt_name: str
) -> list[NoticeDraft]:
    """One notice per deck released from a deleted pin: what it now follows and its verdict
    there (the deck's only notice of the change: no verdict notice besides)."""
    gone = job.released or {}
    out = []
    for c in released:
        report = c["report"]
        code = report.rule_set or ""
        under = f", checked under {code}" if code else ", checked under its own rules"
        if report.legal:
            verdict = "legal"
        else:
            errors = report.errors
            verdict = "not legal" + (f": {errors[0].message}" if errors else "")
            verdict += f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        message = (
            f"{c['name']} was pinned to the rule set {gone.get('code')} ({gone.get('name')}), "
            f"which was deleted: it now follows {fmt_name}{under}, and is {verdict}."
        )
        out.append(
            NoticeDraft(
                owner_id=c["owner_id"],
                subject=deck_subject(c["pk"]),
                kind=Notice.Kind.PIN,
                key=f"pin:{gone.get('rule_set')}:{gone.get('code')}",
                payload=VerdictChange(
                    rule_set_code=gone.get("code") or "",
                    legal=report.legal,
                    was_legal=c["was_legal"],
                    points=_points(report),
                    was_points=c["was_points"],
                ),
                message=message,
            )
        )
    return out
