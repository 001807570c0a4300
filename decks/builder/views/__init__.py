"""The interactive deck builder (htmx): search on the left, the deck by section in the
middle, the live verdict and stats on the right.

The server keeps the working list: every change (add, remove, set a count, pick a general,
place a unit on a cell of its placement area, change a format option, deal a new map;
`decks.lists.edits.apply_change`) is
applied to the version the page was based on and autosaved through `services.deck_autosave`:
the same author's edits within a few minutes rewrite one working version (its revision
counted), "Save version" or leaving the page seals it; a stale base or revision is refused
(VersionConflict) and the page says so instead of overwriting. The cost curve, placement
area and map layout are drawn by `decks.builder.figures`.

Nothing here knows a game by name. What differs between games is read from the rules core
(the format's sections, size and kind rules, placement areas, adjustable options) or looked
up by convention: the partial `games/<slug>/builder_extra.html` when it exists, and the
game definition's `map_layout` for games whose matches deal a map from their cards.

The package, one module per job: `listing` (a list's rows and sections, `list_view`),
`context` (the state the panels show), `answers` (autosaving and answering a change),
`search` (the search panel), `changes` (a change, the quick add, sealing, options) and
`pages` (the pages themselves).

Query budget (pinned in tests/decks/test_builder.py): a page or a change costs a constant
number of queries whatever the number of cards: one for the deck (with its game and current
version), one for the card facts of the list, one for search results, one per card kind a
game partial lists (a picker of leaders, say), and the save's own fixed handful.
"""

from decks.lists.edits import section_kinds

from .answers import CONFLICT_MESSAGE, DECK_SAVED_EVENT, save_list
from .changes import (
    COUNT_OPS,
    TooManyMatches,
    builder_change,
    builder_options,
    builder_quick_add,
    builder_seal,
    quick_match,
)
from .context import CardsByKind, builder_state, extra_template, quick_into, state_context
from .listing import group_rows, list_view, row_dom_id
from .pages import builder_availability, builder_deck, builder_meta, builder_new, builder_start
from .search import FIRST_RESULTS, MAX_SEARCH_PAGE, SEARCH_LIMIT, builder_search, search_context

__all__ = [
    "CONFLICT_MESSAGE",
    "COUNT_OPS",
    "DECK_SAVED_EVENT",
    "FIRST_RESULTS",
    "MAX_SEARCH_PAGE",
    "SEARCH_LIMIT",
    "CardsByKind",
    "TooManyMatches",
    "builder_availability",
    "builder_change",
    "builder_deck",
    "builder_meta",
    "builder_new",
    "builder_options",
    "builder_quick_add",
    "builder_search",
    "builder_seal",
    "builder_start",
    "builder_state",
    "extra_template",
    "group_rows",
    "list_view",
    "quick_into",
    "quick_match",
    "row_dom_id",
    "save_list",
    "search_context",
    "section_kinds",
    "state_context",
]
