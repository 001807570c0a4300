"""The sample hand of the deck page: shuffle the sections a game draws from, deal the
opening hand with the game's mulligan, then the next cards one at a time.

Pure and deterministic: the same deck, seed and number of extra draws give the same hand,
so a page can say `?seed=…&drawn=…` instead of keeping a shuffled deck in a session.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from validation.capabilities import DrawRules
from validation.types import CardFacts, Entry

MAX_EXTRA_DRAWS = 60  # more than any drawn section holds after its opening hand


@dataclass(frozen=True)
class DrawnSection:
    """One drawn section: the opening hand (after the mulligan), what the mulligan did, the
    cards drawn since, and how many are left in the library."""

    section: str
    opening: tuple[CardFacts, ...]
    mulligan_note: str
    drawn: tuple[CardFacts, ...]
    library_left: int

    @property
    def hand(self) -> tuple[CardFacts, ...]:
        return self.opening + self.drawn


def _expand(entries: Sequence[Entry]) -> list[CardFacts]:
    return [e.card for e in entries for _ in range(max(0, e.count))]


def deal(
    sections: Mapping[str, Sequence[Entry]],
    rules: Sequence[DrawRules],
    *,
    seed: int,
    extra: Mapping[str, int] | None = None,
) -> list[DrawnSection]:
    """Deal every drawn section of a deck: `extra[section]` more cards after the opening
    hand (capped at what the library holds)."""
    extra = extra or {}
    out = []
    for index, rule in enumerate(rules):
        rng = random.Random(f"{seed}:{index}:{rule.section}")
        library = _expand(sections.get(rule.section, ()))
        rng.shuffle(library)
        hand, library = library[: rule.opening], library[rule.opening :]
        note = ""
        if rule.mulligan is not None and hand:
            hand, library, note = rule.mulligan(hand, library, rng)
        more = max(0, min(int(extra.get(rule.section, 0)), MAX_EXTRA_DRAWS, len(library)))
        out.append(
            DrawnSection(
                section=rule.section,
                opening=tuple(hand),
                mulligan_note=note,
                drawn=tuple(library[:more]),
                library_left=len(library) - more,
            )
        )
    return out
