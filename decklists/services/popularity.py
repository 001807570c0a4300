"""How popular lists are ordered: a score with time decay that an index can serve.

    score = log2(1 + likes) + days since 1970-01-01 of publication / HALF_LIFE_DAYS

A decklist published HALF_LIFE_DAYS later than another ranks with it at half as many likes
(plus one); so a week-old decklist needs four times the likes of today's. Unlike the
anchors' `(1 + likes) / (1 + age_days²)`, whose order changes as time passes, this order
never changes by itself: the score is stored, moved only when a like comes or goes (an
`F()` update), and the popular lists read an index on it (`decklist_score`,
`decklist_game_score`) instead of computing every decklist's score on each request.
"""

from __future__ import annotations

import math
from datetime import datetime

from django.db.models import F, FloatField, Value
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Cast, Ln

#: Days of age that halve a decklist's weight.
HALF_LIFE_DAYS = 3.5
_EPOCH = datetime(1970, 1, 1).toordinal()


def freshness(published_at: datetime) -> float:
    """The score's time part of a decklist published at `published_at`."""
    days = (
        published_at.toordinal()
        - _EPOCH
        + (published_at.hour * 3600 + published_at.minute * 60 + published_at.second) / 86400
    )
    return days / HALF_LIFE_DAYS


def score(*, likes: int, fresh: float) -> float:
    return math.log2(1 + likes) + fresh


def score_after(delta: int) -> CombinedExpression:
    """The score expression of an UPDATE that moves `likes` by `delta` in the same
    statement (its right-hand side reads the row's values before the update)."""
    return Ln(Cast(F("likes") + (1 + delta), FloatField())) / Value(math.log(2)) + F("freshness")
