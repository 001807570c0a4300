"""Simulation test helpers: sample decks of REDLINE and Hex Skirmish, and playing a run's chunks
in-process (the dedicated Celery worker a test may kill is in tests/conftest.py)."""

from __future__ import annotations

import pytest

from validation import packages


def sample_list(game: str, fmt: str) -> str:
    return packages.sample_list(game, fmt).text()


@pytest.fixture
def make_deck():
    """make_deck(owner, game="redline", fmt="standard", visibility="private")."""
    from decks.services import deck_create

    def make(owner, game="redline", fmt="standard", visibility="private", name=None):
        return deck_create(
            owner=owner,
            game_slug=game,
            format=fmt,
            name=name or f"{game} {fmt}",
            visibility=visibility,
            text=sample_list(game, fmt),
        )

    return make


@pytest.fixture
def redline_deck(sample_catalogue, user, make_deck):
    return make_deck(user)


@pytest.fixture
def hex_deck(sample_catalogue, user, make_deck):
    return make_deck(user, game="hex-skirmish")


def copy_of(deck):
    """Another deck of the same owner with the same list (a version is never compared with
    itself: equal decks are a deck and its copy)."""
    from decks.services import deck_clone

    return deck_clone(deck=deck, owner=deck.owner)


def play_inline(run) -> None:
    """Play every chunk of a run in this process (what the workers do), in reverse order so
    that finalising does not depend on chunk 0 being last."""
    from simulations.services import simulation_run_chunk

    for i in reversed(range(run.n_chunks)):
        simulation_run_chunk(run_id=run.pk, chunk_index=i, worker="inline")
    run.refresh_from_db()
