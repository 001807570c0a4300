"""Re-checking a saved deck against today's catalogue, the verdict stored with the deck (every
deck of a game is a job: `recheck_jobs.revalidate_start`), and the rule sets a re-check of
many loads once. A deck is checked under its pinned rule set, or
(when it follows its format) under the rule set in effect today."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from catalogue import rulesets
from catalogue.models import RuleSet
from decks.lists import IN_FORCE, SavedList, version_check
from decks.models import Deck as DeckModel
from decks.models import DeckVersion
from validation.runner import Report
from validation.types import RuleSetFacts

from .rulesets import effect_key, upcoming_effect


def apply_report(deck, report: Report) -> None:
    """The verdict of `report` set on `deck` (an instance; the caller saves it)."""
    deck.legal = report.legal
    deck.violations_count = len(report.errors)
    deck.warnings_count = len(report.warnings)
    deck.report = report.as_dict()
    deck.validated_at = timezone.now()


def deck_revalidate(
    *,
    deck,
    pool: Mapping[str, Any] | None = None,
    rule_set: RuleSetFacts | None = IN_FORCE,
) -> Report | None:
    """Re-run the rules core on the deck's current version and store the verdict (legal,
    counts, report, the upcoming rule set's effect), under `rule_set` (by default the deck's own: its pin, or the rule set in
    effect today). Returns the report, or None for a deck without a version. Idempotent;
    a save that lands meanwhile wins (the update is conditional on the version)."""

    version = deck.current_version
    if version is None:
        return None
    if not isinstance(version, DeckVersion):  # pragma: no cover - defensive
        version = DeckVersion.objects.get(pk=deck.current_version_id)
    report = version_check(SavedList.of_deck(deck, version), pool=pool, rule_set=rule_set)
    apply_report(deck, report)
    deck.upcoming = upcoming_effect(deck=deck, version=version)
    DeckModel.objects.filter(pk=deck.pk, current_version_id=version.pk).update(
        legal=deck.legal,
        violations_count=deck.violations_count,
        warnings_count=deck.warnings_count,
        report=deck.report,
        upcoming=deck.upcoming,
        validated_at=deck.validated_at or timezone.now(),
    )
    return report


class RuleSetCache:
    """The rule sets of one game's saved decks, each loaded once for a re-check of many: the
    one in effect today per format, and each pinned one (a deleted pin falls back to the one
    in effect)."""

    def __init__(self, game_slug: str) -> None:
        self.game_slug = game_slug
        self.today = rulesets.today()
        self._in_force: dict[str, RuleSetFacts | None] = {}
        self._pinned: dict[int, RuleSetFacts | None] = {}
        self._upcoming: dict[str, tuple[str, RuleSetFacts] | None] = {}

    def upcoming(self, format: str) -> tuple[str, RuleSetFacts] | None:
        """The upcoming rule set of a format, loaded once: (its `effect_key`, its facts), or
        None when the format has none."""
        if format not in self._upcoming:
            found = rulesets.upcoming(self.game_slug, format, self.today)
            if found is None:
                self._upcoming[format] = None
            else:
                current = rulesets.in_force(self.game_slug, format, self.today)
                self._upcoming[format] = (effect_key(current, found), rulesets.facts(found))
        return self._upcoming[format]

    def in_force(self, format: str) -> RuleSetFacts | None:
        if format not in self._in_force:
            self._in_force[format] = rulesets.facts_in_force(self.game_slug, format, self.today)
        return self._in_force[format]

    def for_deck(self, deck) -> RuleSetFacts | None:
        return self.for_pin(deck.format, deck.rule_set_pin_id)

    def for_pin(self, format: str, pin: int | None) -> RuleSetFacts | None:
        """The rule set of the id `pin`, or (None, or deleted) the one in effect today in
        `format`."""
        if pin is not None:
            if pin not in self._pinned:
                found = RuleSet.objects.filter(pk=pin).first()
                self._pinned[pin] = rulesets.facts(found) if found is not None else None
            if self._pinned[pin] is not None:
                return self._pinned[pin]
        return self.in_force(format)
