"""The deck builder's pages: one deck edited card by card, with live feedback.

- `views`: the pages and their htmx answers, one module per job: `pages` (the pages, the
  collection panel, the deck's name and visibility), `search` (the search panel),
  `changes` (a change to the working list, the quick add, sealing a version, options),
  `answers` (autosaving and answering a change with what changed), `context` (the state
  the panels show) and `listing` (the list as the builder draws it, `list_view`, also
  drawn by the deck page);
- `state`: `BuilderState`, the typed state the builder hands its templates and a game's own
  panel;
- `figures`: the cost curve, the points meters, the placement area drawn by the game's grid
  and the map layout drawn by the game's `MapLayout.draw`;
- `urls`: its URLs (namespace `builder`).

The changes themselves are `decks.lists.edits`; saving is `decks.services`.
"""
