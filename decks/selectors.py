"""Reads of decks that compute something for a page (no writes)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from catalogue.models import Card
from catalogue.services import card_facts_by_names
from validation.capabilities import DrawRules
from validation.registry import registry
from validation.sample_hand import MAX_EXTRA_DRAWS, DrawnSection, deal
from validation.types import Entry

MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class HandSection:
    """A drawn section as the page shows it: its label, the rule, and the cards with links."""

    section: str
    label: str
    rule: DrawRules
    dealt: DrawnSection
    opening: list[dict[str, Any]]
    drawn: list[dict[str, Any]]
    drawn_count: int


def new_seed() -> int:
    return random.SystemRandom().randint(1, MAX_SEED)


def drawn_sections(game_slug: str) -> tuple[DrawRules, ...]:
    return registry.get(game_slug).draws if game_slug in registry else ()


def sample_hand(*, deck, version, seed: int, extra: dict[str, int]) -> list[HandSection]:
    """The sample hand of a version: every drawn section dealt with the game's rules, from
    the seed, with `extra[section]` cards drawn after the opening hand. Two queries."""
    rules = drawn_sections(deck.game.slug)
    wanted = {r.section for r in rules}
    entries = [e for e in version.entries if e["section"] in wanted]
    pool = card_facts_by_names(game_slug=deck.game.slug, names=[e["card"] for e in entries])
    sections: dict[str, list[Entry]] = {}
    for e in entries:
        facts = pool.get(e["card"].lower())
        if facts is not None:
            sections.setdefault(e["section"], []).append(Entry(facts, e["count"]))
    pks = dict(
        Card.objects.filter(
            game_id=deck.game_id, name__in=[f.name for f in pool.values()]
        ).values_list("name", "pk")
    )
    definition = registry.get(deck.game.slug)

    def shown(cards) -> list[dict[str, Any]]:
        return [
            {"name": c.name, "kind": c.kind, "cost": c.cost, "pk": pks.get(c.name)} for c in cards
        ]

    clamped = {k: max(0, min(int(v), MAX_EXTRA_DRAWS)) for k, v in extra.items()}
    dealt = deal(sections, rules, seed=seed, extra=clamped)
    return [
        HandSection(
            section=d.section,
            label=definition.section_label(d.section),
            rule=rule,
            dealt=d,
            opening=shown(d.opening),
            drawn=shown(d.drawn),
            drawn_count=len(d.drawn),
        )
        for rule, d in zip(rules, dealt, strict=True)
    ]
