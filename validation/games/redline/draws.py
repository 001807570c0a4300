"""How a REDLINE arsenal is drawn: an opening hand of 7, one card a turn (the first player
too), and the partial mulligan of the goldfish's default policy (GAMES.md): keep 2–4
resources; with fewer, every non-resource card goes to the bottom and as many are drawn;
with more, the extra resources (lowest `provides` first) go to the bottom."""

from __future__ import annotations

import numpy as np

from validation.capabilities import DrawRules
from validation.types import CardFacts

OPENING = 7
MULLIGAN_LO = 2
MULLIGAN_HI = 4


def _is_resource(card: CardFacts) -> bool:
    return card.kind == "resource"


def partial_mulligan(
    hand: list[CardFacts],
    library: list[CardFacts],
    rng: np.random.Generator,
    lo: int = MULLIGAN_LO,
    hi: int = MULLIGAN_HI,
) -> tuple[list[CardFacts], list[CardFacts], str]:
    resources = [c for c in hand if _is_resource(c)]
    r = len(resources)
    if lo <= r <= hi:
        return hand, library, ""
    if r < lo:
        bottom = [c for c in hand if not _is_resource(c)]
        kept = resources
        why = f"{r} resource{'s' if r != 1 else ''} (fewer than {lo})"
    else:
        by_provides = sorted(resources, key=lambda c: -int(c.attr("provides", 1) or 0))
        bottom = by_provides[hi:]
        kept = [c for c in hand if not _is_resource(c)] + by_provides[:hi]
        why = f"{r} resources (more than {hi})"
    n = len(bottom)
    new_hand = kept + library[:n]
    new_library = library[n:] + bottom
    return (
        new_hand,
        new_library,
        f"Partial mulligan: {why}; {n} card{'s' if n != 1 else ''} to the bottom, {n} drawn.",
    )


DRAWS = (
    DrawRules(
        section="arsenal",
        opening=OPENING,
        draws_per_turn=1,
        first_player_draws=True,
        mulligan=partial_mulligan,
        mulligan_rule=f"Partial mulligan once: keep {MULLIGAN_LO}–{MULLIGAN_HI} resources.",
    ),
)
