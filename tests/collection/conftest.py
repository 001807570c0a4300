"""Collection test helpers: the decks tests' catalogue, accounts and deck factory (a
collection is set against decks)."""

from __future__ import annotations

from tests.decks.conftest import (  # noqa: F401  (fixtures and helpers shared with the decks tests)
    MINI_CARDS,
    MINI_LIST,
    MINI_LIST_2,
    import_mini_catalogue,
    make_accounts,
    make_deck,
    mini_catalogue,
    sample_expansion,
    sample_list,
)
