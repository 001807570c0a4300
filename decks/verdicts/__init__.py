"""Stored verdicts: what a saved deck's last check said, and keeping it true.

- `rechecks`: re-checking one deck and storing the verdict (`deck_revalidate`,
  `apply_report`);
- `rulesets`: a deck and its format's rule sets: the rule set it is checked under, and what
  the upcoming one will do to it (`deck_rule_sets`, `upcoming_effect`, `deck_legality`);
- `freshness`: the day a rule set comes into force, a page re-checks at once the decks it
  shows whose verdict is under the rule set of the day before (`decks_refresh`);
- `recheck_jobs`: re-checking a format's saved decks on the workers, in chunks, and the
  notices to their owners (`recheck_start`, `pins_released`); every deck of a game after
  its catalogue changed (`revalidate_start`, or at once in this process:
  `revalidate_game_decks`), over `recheck_checks` (a chunk's decks checked in memory) and
  `verdict_writes` (their verdicts written, and the notices to their owners).

The names below are the package's public interface.
"""

from .freshness import decks_refresh, is_stale, only_fresh, with_in_force
from .recheck_jobs import revalidate_game_decks
from .rechecks import RuleSetCache, apply_report, deck_revalidate
from .rulesets import (
    DeckRuleSets,
    Effect,
    deck_legality,
    deck_rule_sets,
    effect_of,
    upcoming_effect,
)

__all__ = [
    "DeckRuleSets",
    "Effect",
    "RuleSetCache",
    "apply_report",
    "deck_legality",
    "deck_revalidate",
    "deck_rule_sets",
    "decks_refresh",
    "effect_of",
    "is_stale",
    "only_fresh",
    "revalidate_game_decks",
    "upcoming_effect",
    "with_in_force",
]
