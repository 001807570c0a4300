"""What a saved version holds, as every export reads it: its lines in the order the deck page
lists them, each with its catalogue card (one query), grouped by section."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models.functions import Lower

from catalogue.models import Card
from decks.selectors import listed_entries
from validation.decklist import PLACEMENT
from validation.registry import registry
from validation.types import CardFacts


@dataclass(frozen=True)
class Line:
    section: str
    label: str
    count: int
    card: Card | None  # None: no longer in the catalogue
    name: str
    placement: tuple[int, int] | None = None

    @property
    def where(self) -> str:
        """The cell a placed unit stands on, as the list writes it (" @3,1"), else ""."""
        return f" @{self.placement[0]},{self.placement[1]}" if self.placement else ""


def version_lines(
    deck, version, *, facts: Mapping[str, CardFacts] | None = None, with_cards: bool = True
) -> list[Line]:
    """The version's entries in the order the deck page lists them (section by section,
    each section's cards grouped by kind: `selectors.listed_entries`), each with its
    catalogue card (one query). With `with_cards=False` and the cards' `facts` given, no
    query: the cards are then None."""
    game = registry.get(deck.game.slug)
    names = {e["card"].lower() for e in version.entries}
    cards: dict[str, Card] = {}
    if names and (with_cards or facts is None):
        cards = {
            c.name.lower(): c
            for c in Card.objects.annotate(lname=Lower("name")).filter(
                game_id=deck.game_id, lname__in=names
            )
        }
        facts = {name: card.facts() for name, card in cards.items()}
    return [
        Line(
            e["section"],
            game.section_label(e["section"]),
            int(e["count"]),
            cards.get(e["card"].lower()),
            e["card"],
            _cell(e.get(PLACEMENT)),
        )
        for _, entries in listed_entries(deck=deck, version=version, facts=facts or {})
        for e in entries
    ]


def _cell(value: Any) -> tuple[int, int] | None:
    return None if value is None else (int(value[0]), int(value[1]))


def by_section(lines: list[Line]) -> list[tuple[str, str, list[Line]]]:
    out: dict[str, tuple[str, str, list[Line]]] = {}
    for line in lines:
        out.setdefault(line.section, (line.section, line.label, []))[2].append(line)
    return list(out.values())


def title(deck, version) -> tuple[str, str]:
    game = registry.get(deck.game.slug)
    fmt = game.formats.get(deck.format)
    return deck.name, f"{game.name} · {fmt.name if fmt else deck.format} · version {version.number}"
