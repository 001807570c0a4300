"""The tabletop app's tests use the decks tests' deck factory and example lists."""

from tests.decks.conftest import make_deck, sample_list

__all__ = ["make_deck", "sample_list"]
