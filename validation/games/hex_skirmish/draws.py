"""How a Hex Skirmish army's command cards are drawn: a 5-card opening hand (6 for the second
player), no mulligan; the "draw" action draws 5."""

from __future__ import annotations

from validation.capabilities import DrawRules

DRAWS = (
    DrawRules(
        section="cards",
        opening=5,
        draws_per_turn=5,
        first_player_draws=True,
        mulligan_rule="No mulligan; the second player opens with 6.",
    ),
)
