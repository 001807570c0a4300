"""Exact draw odds (hypergeometric), computed with integer binomials (``math.comb``).

``by_turn`` counts the cards seen by the end of each turn's draw. REDLINE has every deploy
phase start with a draw, the first player's too (the game spec decision), so by default the
first turn draws; set ``first_player_draws=False`` for games where the player going first
skips the first draw (it only matters with ``on_the_play=True``).
"""

from __future__ import annotations

from math import comb


def _check(group_size: int, deck_size: int, cards_seen: int) -> None:
    if deck_size < 0 or not 0 <= group_size <= deck_size:
        raise ValueError(f"need 0 <= group_size ({group_size}) <= deck_size ({deck_size})")
    if not 0 <= cards_seen <= deck_size:
        raise ValueError(f"need 0 <= cards_seen ({cards_seen}) <= deck_size ({deck_size})")


def p_exactly(k: int, group_size: int, deck_size: int, cards_seen: int) -> float:
    """P(exactly ``k`` of the ``group_size`` cards among ``cards_seen`` drawn from the deck)."""
    _check(group_size, deck_size, cards_seen)
    if k < 0 or k > group_size or k > cards_seen or cards_seen - k > deck_size - group_size:
        return 0.0
    num = comb(group_size, k) * comb(deck_size - group_size, cards_seen - k)
    return num / comb(deck_size, cards_seen)


def distribution(group_size: int, deck_size: int, cards_seen: int) -> list[float]:
    """P(exactly k) for k = 0..cards_seen."""
    return [p_exactly(k, group_size, deck_size, cards_seen) for k in range(cards_seen + 1)]


def p_at_least(k: int, group_size: int, deck_size: int, cards_seen: int) -> float:
    """P(at least ``k`` of the ``group_size`` cards among ``cards_seen`` cards drawn)."""
    _check(group_size, deck_size, cards_seen)
    if k <= 0:
        return 1.0
    hi = min(group_size, cards_seen)
    if k > hi:
        return 0.0
    num = sum(
        comb(group_size, i) * comb(deck_size - group_size, cards_seen - i) for i in range(k, hi + 1)
    )
    return num / comb(deck_size, cards_seen)


def cards_seen_by_turn(
    turn: int,
    deck_size: int,
    opening: int = 7,
    draws_per_turn: int = 1,
    on_the_play: bool = True,
    first_player_draws: bool = True,
) -> int:
    """Cards seen by the end of ``turn``'s draw (capped at the deck size)."""
    skipped = 1 if on_the_play and not first_player_draws else 0
    return min(deck_size, opening + draws_per_turn * max(turn - skipped, 0))


def by_turn(
    k: int,
    group_size: int,
    deck_size: int,
    opening: int = 7,
    draws_per_turn: int = 1,
    turns: int = 12,
    on_the_play: bool = True,
    first_player_draws: bool = True,
) -> list[float]:
    """P(at least ``k`` of the group seen) after the draw of turns 1..``turns``."""
    return [
        p_at_least(
            k,
            group_size,
            deck_size,
            cards_seen_by_turn(
                t, deck_size, opening, draws_per_turn, on_the_play, first_player_draws
            ),
        )
        for t in range(1, turns + 1)
    ]
