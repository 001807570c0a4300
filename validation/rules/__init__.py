"""Construction rules: small composable checks, configured per format.

In the spirit of `django.contrib.auth.password_validation`: each rule is a small object
with a stable `code` and a `severity`, and `check(deck, ctx)` returns every `Violation` it
finds (an empty list when the deck follows it). A format is a tuple of rules; the runner
(`validation.runner.validate`) runs them all and collects every violation.

A rule with `when_present` set runs only when that section of the deck is non-empty: this
is how optional sections are checked only when a list includes them (a REDLINE mission deck).
Messages state the limit and the gap: "5 copies of Tigercat; at most 4".

One module per kind of rule: `context` (`RuleContext`), `base` (`Rule` and the words of
messages), `sizes`, `cards`, `points` and `unique` (one per value).
"""

from .base import Rule, a, kind_cards, plural
from .cards import CopyLimit, ExactlyOne, KindAllowed, KindForbidden, LeaderFaction, leader_of
from .context import NEUTRAL_FACTIONS, RuleContext
from .points import PointsLimit, PointsUnder, option_limit, points
from .sizes import CountBand, ExactSize, MinSize, SizeBand
from .unique import CollectionLimit, DistinctPlacement, UniqueAttribute

__all__ = [
    "NEUTRAL_FACTIONS",
    "CollectionLimit",
    "CopyLimit",
    "CountBand",
    "DistinctPlacement",
    "ExactSize",
    "ExactlyOne",
    "KindAllowed",
    "KindForbidden",
    "LeaderFaction",
    "MinSize",
    "PointsLimit",
    "PointsUnder",
    "Rule",
    "RuleContext",
    "SizeBand",
    "UniqueAttribute",
    "a",
    "kind_cards",
    "leader_of",
    "option_limit",
    "plural",
    "points",
]
