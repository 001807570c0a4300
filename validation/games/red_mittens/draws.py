"""How Red Mittens' three core decks are drawn: each player opens with 2 cards from each of
the UNIT, ITEM and FIELD decks (rulebook, set-up step 6); later draws come from the core
dice (1–3 cards from a deck of the player's choice). No mulligan."""

from __future__ import annotations

from validation.capabilities import DrawRules

DRAWS = tuple(
    DrawRules(section=section, opening=2, draws_per_turn=0, first_player_draws=False)
    for section in ("units", "items", "fields")
)
