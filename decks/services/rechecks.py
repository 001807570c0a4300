"""Re-checking saved decks against today's catalogue: one version, one deck, or every deck
of a game (after an import or an admin edit). A deck is checked under its pinned rule set, or
(when it follows its format) under the rule set in effect today."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from catalogue import rulesets
from catalogue.models import RuleSet
from catalogue.services import (
    GamePool,
    card_facts_by_names,
)
from decks.models import Deck as DeckModel
from decks.models import DeckVersion
from validation import decklist
from validation.runner import validate
from validation.types import Deck, Entry, RuleSetFacts

from .lists import IN_FORCE, deck_rule_set
from .options import COLLECTION_OPTION, rules_options
from .versions import _apply_report


def _unreadable_report(errors: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "legal": False,
        "errors": [
            {
                "code": "deck.card",
                "severity": "error",
                "message": e["message"],
                "section": e.get("section", ""),
                "cards": e.get("cards", []),
            }
            for e in errors
        ],
        "warnings": [],
        "totals": {},
    }


def version_check(
    *,
    deck,
    version,
    pool: Mapping[str, Any] | None = None,
    rule_set: RuleSetFacts | None = IN_FORCE,
) -> dict[str, Any]:
    """Validate a stored version against today's catalogue; the report as a dict. A card
    that has left the catalogue makes the deck illegal (code `deck.card`). `rule_set` is the
    rule set to check it under; by default the deck's own (its pin, or the one in effect
    today)."""
    slug = deck.game.slug
    if rule_set is IN_FORCE:
        rule_set = deck_rule_set(deck=deck, names=[e["card"] for e in version.entries])
    if pool is None:
        pool = card_facts_by_names(game_slug=slug, names=[e["card"] for e in version.entries])
    sections: dict[str, list[Entry]] = {}
    missing = []
    for e in version.entries:
        facts = pool.get(e["card"].lower())
        if facts is None:
            missing.append(
                {
                    "message": f"{e['card']} is no longer in the {deck.game.name} catalogue",
                    "section": e["section"],
                    "cards": [e["card"]],
                }
            )
            continue
        cell = e.get(decklist.PLACEMENT)
        sections.setdefault(e["section"], []).append(
            Entry(facts, e["count"], (cell[0], cell[1]) if cell else None)
        )
    if missing:
        return {**_unreadable_report(missing), "rule_set": rule_set.code if rule_set else None}
    rules_deck = Deck(sections=sections)
    options = dict(version.options)
    owner = deck.owner if options.get(COLLECTION_OPTION) is True else None
    rules_deck.options = rules_options(options, owner=owner, game_slug=slug, deck=rules_deck)
    try:
        report = validate(
            slug,
            deck.format,
            rules_deck,
            cards=pool if isinstance(pool, GamePool) else GamePool(game_slug=slug),
            rule_set=rule_set,
        )
    except (KeyError, ValueError) as exc:  # game or format gone from the rules core
        return {
            **_unreadable_report([{"message": str(exc)}]),
            "rule_set": rule_set.code if rule_set else None,
        }
    return report.as_dict()


def deck_revalidate(
    *,
    deck,
    pool: Mapping[str, Any] | None = None,
    rule_set: RuleSetFacts | None = IN_FORCE,
) -> dict[str, Any] | None:
    """Re-run the rules core on the deck's current version and store the verdict (legal,
    counts, report, the upcoming rule set's effect), under `rule_set` (by default the deck's own: its pin, or the rule set in
    effect today). Returns the report, or None for a deck without a version. Idempotent;
    a save that lands meanwhile wins (the update is conditional on the version)."""

    version = deck.current_version
    if version is None:
        return None
    if not isinstance(version, DeckVersion):  # pragma: no cover - defensive
        version = DeckVersion.objects.get(pk=deck.current_version_id)
    from .rulesets import upcoming_effect

    report = version_check(deck=deck, version=version, pool=pool, rule_set=rule_set)
    _apply_report(deck, report)
    deck.upcoming = upcoming_effect(deck=deck, version=version)
    DeckModel.objects.filter(pk=deck.pk, current_version_id=version.pk).update(
        legal=deck.legal,
        violations_count=deck.violations_count,
        warnings_count=deck.warnings_count,
        report=report,
        upcoming=deck.upcoming,
        validated_at=deck.validated_at or timezone.now(),
    )
    return report


def revalidate_game_decks(*, game_slug: str) -> int:
    """Re-validate every saved deck of a game against its current catalogue (after an
    import or an admin edit), each under its own rule set (its pin, or the one in effect today
    in its format). The game's pool and each rule set are loaded once. Returns the number of
    decks."""
    pool = GamePool(game_slug=game_slug)
    sets = RuleSetCache(game_slug)
    n = 0
    decks = (
        DeckModel.objects.filter(game__slug=game_slug, current_version__isnull=False)
        .select_related("game", "owner", "current_version")
        .order_by("pk")
    )
    for deck in decks.iterator(chunk_size=200):
        deck_revalidate(deck=deck, pool=pool, rule_set=sets.for_deck(deck))
        n += 1
    return n


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
            from .rulesets import effect_key

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
        pin = deck.rule_set_pin_id
        if pin is not None:
            if pin not in self._pinned:
                found = RuleSet.objects.filter(pk=pin).first()
                self._pinned[pin] = rulesets.facts(found) if found is not None else None
            if self._pinned[pin] is not None:
                return self._pinned[pin]
        return self.in_force(deck.format)


# --- Collections --------------------------------------------------------------------------
