"""Re-checking a chunk of saved decks in memory (decks.verdicts.recheck_jobs): the decks in
scope, read in one query, the rules core run once per distinct list, and the decks whose
verdict or upcoming effect differs from the stored one (nothing written)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from catalogue.services import GamePool
from decks.lists import SavedList, version_check
from decks.models import Deck as DeckModel
from decks.models import RecheckJob, stored_verdict
from validation.runner import Report
from validation.types import RuleSetFacts

from .rechecks import RuleSetCache
from .rulesets import effect_parts, stored_effect


def _scope(*, game_id: int, format: str, rule_set_code: str = "") -> QuerySet[DeckModel]:
    """The saved decks a job re-checks: of the game and format (every format for ""), with
    a version; for the change of a rule set, those that follow the format and those pinned
    to that rule set (a deck pinned to another keeps its verdict)."""
    decks = DeckModel.objects.filter(game_id=game_id, current_version__isnull=False)
    if format:
        decks = decks.filter(format=format)
    if rule_set_code:
        decks = decks.filter(Q(rule_set_pin__isnull=True) | Q(rule_set_pin__code=rule_set_code))
    return decks


#: The columns a saved deck and its current version are checked from (the preview and a
#: chunk read more after them): pk, owner, name, the version's id, entries and options.
_DECK_COLUMNS = (
    "pk",
    "owner_id",
    "name",
    "current_version_id",
    "current_version__entries",
    "current_version__options",
)


def _points(report: Report | None) -> int | None:
    return report.points if report is not None else None


def _memo_key(saved: SavedList) -> tuple[object, ...]:
    """What a check of a saved deck's list depends on besides the rule set: many decks share
    a list, checked once."""
    return (
        saved.format,
        saved.entries,
        repr(dict(saved.options)),
        saved.owner_id if saved.options else None,
    )


def _upcoming_effect(
    saved: SavedList,
    pool: GamePool,
    sets: RuleSetCache,
    upcoming: tuple[str, RuleSetFacts] | None,
    memo: dict[tuple[object, ...], tuple[list[str], bool, int]],
) -> dict[str, Any]:
    """The upcoming rule set's effect on a deck that follows its format, in memory (the
    rule sets loaded once a chunk; the check under the upcoming one done once per distinct
    list and options in the chunk: many decks share a list)."""
    if upcoming is None or saved.pin is not None:
        return {}
    key, later = upcoming
    memo_key = _memo_key(saved)
    found = memo.get(memo_key)
    if found is None:
        report = version_check(saved, pool=pool, rule_set=later)
        found = effect_parts(
            entries=saved.entries,
            now=sets.in_force(saved.format),
            later=later,
            cards=pool,
            report=report,
        )
        memo[memo_key] = found
    items, legal, errors = found
    return stored_effect(key=key, saved=saved, items=items, legal=legal, errors=errors)


def _check_chunk(
    job: RecheckJob, lo: int | None = None, hi: int | None = None
) -> tuple[int, list[dict[str, Any]]]:
    """Run the rules core on the chunk's decks, those with ids in [lo, hi] (every deck in
    scope without them; loaded in one query, the pool once); the decks whose stored verdict
    differs from the new one."""
    game = job.game
    pool = GamePool(game_slug=game.slug)
    sets = RuleSetCache(game.slug)  # today's rule set and each pinned one, once
    decks = _scope(game_id=game.pk, format=job.format, rule_set_code=job.rule_set_code)
    if lo is not None and hi is not None:
        decks = decks.filter(pk__gte=lo, pk__lte=hi)
    rows = decks.order_by("pk").values_list(
        *_DECK_COLUMNS,
        "format",
        "current_version__revision",
        "rule_set_pin_id",
        "legal",
        "report",
        "upcoming",
        "validated_at",
    )
    effects: dict[tuple[object, ...], tuple[list[str], bool, int]] = {}
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
            fmt,
            revision,
            pin,
            legal,
            stored_json,
            stored_effect,
            validated_at,
        ) = row
        stored = stored_verdict(stored_json)
        n += 1
        saved = SavedList.stored(
            game=game,
            format=fmt,
            entries=entries,
            options=options,
            pin=pin,
            owner_id=owner_id,
            version=version_id,
            revision=revision,
        )
        report = version_check(saved, pool=pool, rule_set=sets.for_pin(saved.format, saved.pin))
        effect = _upcoming_effect(saved, pool, sets, sets.upcoming(fmt), effects)
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
