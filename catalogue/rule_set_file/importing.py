"""`rule_set_import`: a checked file written in one transaction (or previewed), each rule set
written announced once it commits."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import transaction

from .. import rulesets
from ..models import Expansion, Game, RuleSet, RuleSetCard
from .checks import check_rule_sets
from .plans import (
    _plan_decks,
)
from .report import (
    Plan,
    RuleSetImportFailed,
    RuleSetImportReport,
)

#: The import's log (its events are named for the package).
logger = logging.getLogger("catalogue.rule_set_file")


def rule_set_import(*, data: Any, dry_run: bool = False) -> RuleSetImportReport:
    """Import a rule set file's document. Raises RuleSetImportFailed (with every error) on a
    bad file; with `dry_run` nothing is written and the report says what would change. A
    rule set whose stored version equals the file's is not written again."""
    report = check_rule_sets(data)
    report.dry_run = dry_run
    if report.errors:
        logger.warning("rule set import refused", extra={"errors": len(report.errors)})
        raise RuleSetImportFailed(report)
    if dry_run:
        for plan in report.plans:
            _plan_decks(plan)
        return report
    written: list[RuleSet] = []
    with transaction.atomic():
        # Stored rule sets whose date the file changes step aside first (a placeholder date
        # far ahead), so that a file may move one set onto another's old date.
        for i, plan in enumerate(report.plans):
            if not plan.created and any(c.startswith("effective:") for c in plan.changes):
                RuleSet.objects.filter(
                    game__slug=plan.game, format=plan.format, code=plan.code
                ).update(effective=dt.date(9999, 12, 31) - dt.timedelta(days=i))
        for plan in report.plans:
            if plan.unchanged:
                continue
            written.append(_write(plan))
        for rule_set in written:
            rulesets.rule_set_changed(rule_set)
    logger.info(
        "rule set import finished",
        extra={"sets": len(report.plans), "written": len(written)},
    )
    return report


def _write(plan: Plan) -> RuleSet:
    game = Game.objects.get(slug=plan.game)
    rule_set, _ = RuleSet.objects.update_or_create(
        game=game,
        format=plan.format,
        code=plan.code,
        defaults={
            "name": plan.name,
            "announced": plan.announced,
            "effective": plan.effective,
            "note": plan.note,
            "sample": plan.sample,
        },
    )
    rule_set.expansions.set(Expansion.objects.filter(game=game, code__in=plan.expansions))
    RuleSetCard.objects.filter(rule_set=rule_set).delete()
    RuleSetCard.objects.bulk_create(
        [
            RuleSetCard(
                rule_set=rule_set,
                card_id=pk,
                banned=e.banned,
                limit=e.limit,
                cost=e.cost,
                text=e.text,
            )
            for pk, (_name, e) in plan.entries.items()
        ],
        batch_size=1000,
    )
    return rule_set
