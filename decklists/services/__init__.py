"""Decklists services, one module per job:

- `publish`: a deck frozen as a decklist (legal today, or refused with its problems), a set
  of decks published together, a decklist copied into one's decks;
- `legality`: a decklist's verdict today in every format of its game;
- `legality_jobs`: its re-check on the workers when rule sets or the catalogue change, a
  job of the site's job system;
- `people`: likes, favourites, follows, the author's reputation, the followers' notices;
- `talk`: comments (and their notices), reports and moderation;
- `search`: finding decklists (cards included and excluded, game, format, faction, author,
  name, date, legal today; sorted by popularity, date, likes, favourites or comments);
- `popularity`: the score the popular lists are ordered by.

Services are named by verb and take keyword arguments; the caller scopes objects in its
query (a hidden decklist is not found by anyone but staff).
"""

from .errors import DecklistInvalid, NotAllowed, ProblemEntry, PublishRefused
from .legality import legality_refresh, recheck_decklists
from .legality_jobs import legality_recheck_start, recheck_due
from .people import (
    author_follow,
    author_unfollow,
    decklist_favourite,
    decklist_like,
    decklist_unfavourite,
    decklist_unlike,
    followers_tell,
    user_by_name,
)
from .publish import (
    decklist_copy,
    decklist_publish,
    decklist_publish_set,
    duplicate_of,
    signature,
)
from .talk import (
    comment_delete,
    comment_hide,
    comment_post,
    comment_restore,
    decklist_delete,
    decklist_hide,
    decklist_restore,
    may_comment,
    may_moderate_comment,
    report_file,
    reports_dismiss,
)

__all__ = [
    "DecklistInvalid",
    "NotAllowed",
    "ProblemEntry",
    "PublishRefused",
    "author_follow",
    "author_unfollow",
    "comment_delete",
    "comment_hide",
    "comment_post",
    "comment_restore",
    "decklist_copy",
    "decklist_delete",
    "decklist_favourite",
    "decklist_hide",
    "decklist_like",
    "decklist_publish",
    "decklist_publish_set",
    "decklist_restore",
    "decklist_unfavourite",
    "decklist_unlike",
    "duplicate_of",
    "followers_tell",
    "legality_refresh",
    "legality_recheck_start",
    "may_comment",
    "may_moderate_comment",
    "recheck_decklists",
    "recheck_due",
    "report_file",
    "reports_dismiss",
    "signature",
    "user_by_name",
]
