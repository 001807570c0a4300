"""`expansion_import`: one expansion document checked, then written in one transaction (or
previewed and rolled back), and the rule sets whose pools leave it out."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from validation.registry import GameDef, registry

from .. import rulesets
from ..models import Printing
from ..search.indexes import ensure_attribute_indexes
from ..services import catalogue_changed, catalogue_files_changed
from .checks import (
    _check,
)
from .report import (
    ImportFailed,
    ImportReport,
    PoolLeftOut,
)
from .writes import (
    Progress,
    _existing_cards,
    _lift_statement_timeout,
    _lock_game,
    _save_expansion,
    _write_cards,
    _write_printings,
    analyze_catalogue,
)

#: The importer's log (its events are named for the package).
logger = logging.getLogger("catalogue.importer")


def expansion_import(
    *, data: Any, dry_run: bool = False, progress: Progress | None = None
) -> ImportReport:
    """Import one expansion document. Raises ImportFailed (with every error) on a bad file;
    with `dry_run` nothing is written and the report says what would change.

    Assumes nothing of `data`: it is checked whole before anything is written. The writes
    share one transaction, under the game's advisory lock, in batches of BATCH_SIZE rows,
    with the statement timeout lifted for that transaction only; a dry run makes them all
    and then rolls them back, so that its report counts exactly what an import would do.
    `progress` hears of every batch written.
    """
    report, rows, meta = _check(data)
    report.dry_run = dry_run
    if report.errors:
        logger.warning(
            "import refused",
            extra={"game": report.game, "code": report.code, "errors": len(report.errors)},
        )
        raise ImportFailed(report)
    game_def = registry.get(report.game)
    logger.info(
        "import started",
        extra={"game": report.game, "code": report.code, "cards": len(rows), "dry_run": dry_run},
    )
    report_progress = progress or (lambda stage, done, total: None)
    with transaction.atomic():
        _lift_statement_timeout()
        _lock_game(game_def.slug)
        game, expansion = _save_expansion(game_def, meta, report)
        existing = _existing_cards(game, rows)
        printings = {
            p.card_id: p for p in Printing.objects.filter(expansion=expansion) if expansion.pk
        }
        new_cards = _write_cards(game, rows, existing, printings, report, report_progress)
        by_name = {c.name.lower(): c for c in [*existing.values(), *new_cards]}
        _write_printings(expansion, rows, by_name, printings, report_progress)
        report.left_out = pools_without(game_def, expansion.code)
        if dry_run:
            transaction.set_rollback(True)
        elif report.created or report.updated:
            catalogue_changed(game_slug=game.slug)
        else:  # the expansion's own fields may have changed, which the bulk files show
            catalogue_files_changed()
    if not dry_run and (report.created or report.updated):
        # Index and statistics upkeep, also with the import's statement timeout (an ANALYZE
        # of a large catalogue outlasts a request's limit).
        with transaction.atomic():
            _lift_statement_timeout()
            ensure_attribute_indexes()
            analyze_catalogue()
    logger.info(
        "import finished" if not dry_run else "import previewed",
        extra={
            "game": report.game,
            "code": report.code,
            "cards_created": len(report.created),
            "cards_updated": len(report.updated),
            "cards_unchanged": len(report.unchanged),
        },
    )
    return report


def pools_without(game_def: GameDef, code: str) -> list[PoolLeftOut]:
    """The rule sets in force today and upcoming, one of each at most per format of the
    game, that list legal expansions without `code` (two queries per format)."""
    found = []
    for fmt in game_def.formats.values():
        for rule_set, upcoming in (
            (rulesets.in_force(game_def.slug, fmt.slug), False),
            (rulesets.upcoming(game_def.slug, fmt.slug), True),
        ):
            if rule_set is None:
                continue
            listed = set(rule_set.expansions.values_list("code", flat=True))
            if listed and code not in listed:
                found.append(
                    PoolLeftOut(
                        format=fmt.slug,
                        format_name=fmt.name,
                        code=rule_set.code,
                        name=rule_set.name,
                        rule_set_id=rule_set.pk,
                        effective=rule_set.effective,
                        upcoming=upcoming,
                    )
                )
    return found
