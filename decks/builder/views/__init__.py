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

from .answers import DECK_SAVED_EVENT
from .listing import list_view, row_dom_id
from .search import FIRST_RESULTS, SEARCH_LIMIT

# What other modules read here: the deck page's list (`list_view`), and the figures the
# builder's tests pin (the URLs name the modules' views themselves).
__all__ = [
    "DECK_SAVED_EVENT",
    "FIRST_RESULTS",
    "SEARCH_LIMIT",
    "list_view",
    "row_dom_id",
    "section_kinds",
]
