"""Deck test helpers: a tiny REDLINE catalogue (fast, for the permission matrix), the
accounts of the user fixtures for data shared by a module, the shipped example lists, and a
deck factory."""

from __future__ import annotations

import json

import pytest

from validation import packages

MINI_CARDS = ("General Jeffrey Moore", "Tigercat", "Rabbit", "Supply Drop")
MINI_LIST = "General:\n1 General Jeffrey Moore\nArsenal:\n4 Tigercat\n20 Supply Drop\n"
MINI_LIST_2 = "General:\n1 General Jeffrey Moore\nArsenal:\n3 Tigercat\n2 Rabbit\n20 Supply Drop\n"


def sample_list(game: str, fmt: str) -> str:
    """A shipped example list: legal in its format against the sample catalogue."""
    return packages.sample_list(game, fmt).text()


def sample_expansion(game: str, code: str) -> dict:
    path = next(p for p in packages.sample_expansions(game) if p.stem == code)
    return json.loads(path.read_text())


def import_mini_catalogue() -> None:
    """Four REDLINE cards imported through the importer: enough to save lists quickly."""
    from catalogue.importer import expansion_import

    data = sample_expansion("redline", "RL1")
    data["cards"] = [c for c in data["cards"] if c["name"] in MINI_CARDS]
    expansion_import(data=data)


@pytest.fixture
def mini_catalogue(db):
    """Four REDLINE cards imported through the importer: enough to save lists quickly."""
    import_mini_catalogue()


def make_accounts() -> dict:
    """alice (the owner), bob (another user) and a staff member, as the `user`,
    `other_user` and `staff_user` fixtures make them, for data shared by a module's tests
    (made with the tests' fast password hasher)."""
    from django.contrib.auth import get_user_model
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        users = get_user_model().objects
        return {
            "owner": users.create_user("alice", "alice@example.com", "a-long-pass-123"),
            "other": users.create_user("bob", "bob@example.com", "a-long-pass-456"),
            "staff": users.create_user(
                "staff", "staff@example.com", "a-long-pass-789", is_staff=True, is_superuser=True
            ),
        }


@pytest.fixture
def make_deck():
    """make_deck(owner, visibility="private", text=MINI_LIST, game="redline", ...)."""
    from decks.services import deck_create

    def make(
        owner, visibility="private", *, text=MINI_LIST, game="redline", fmt="standard", name="Deck"
    ):
        return deck_create(
            owner=owner,
            game_slug=game,
            format=fmt,
            name=name,
            visibility=visibility,
            text=text,
        )

    return make
