"""Decklist test helpers: decks of the shipped example lists (legal against the sample
catalogue) and their publication."""

from __future__ import annotations

import pytest

from validation import packages


def sample_list(game: str, fmt: str) -> str:
    return packages.sample_list(game, fmt).text()


#: Every game's example lists: (game, format).
SAMPLE_LISTS = [(s.game, s.format) for s in packages.all_sample_lists()]


@pytest.fixture
def make_deck():
    """make_deck(owner, game="redline", fmt="standard", text=None, name=None)."""
    from decks.list_header import header_options
    from decks.services import deck_create
    from validation.registry import registry

    def make(owner, game="redline", fmt="standard", text=None, name=None):
        text = text if text is not None else sample_list(game, fmt)
        return deck_create(
            owner=owner,
            game_slug=game,
            format=fmt,
            name=name or f"{game} {fmt}",
            text=text,
            options=header_options(text, registry.get(game).format(fmt)),
        )

    return make


@pytest.fixture
def publish(make_deck):
    """publish(owner, game="redline", fmt="standard", name=None, description="")."""
    from decklists.services import decklist_publish

    def run(owner, game="redline", fmt="standard", name=None, description="", deck=None):
        deck = deck or make_deck(owner, game, fmt)
        return decklist_publish(
            deck=deck, author=owner, name=name or f"{game} {fmt} list", description=description
        )

    return run


@pytest.fixture
def carol(django_user_model):
    return django_user_model.objects.create_user("carol", "carol@example.com", "a-long-pass-321")
