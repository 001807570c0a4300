"""API test fixtures: the simulation tests' sample decks."""

from tests.simulations.conftest import make_deck, redline_deck  # noqa: F401 - fixtures
