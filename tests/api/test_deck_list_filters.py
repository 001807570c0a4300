"""Every list filter of `GET /api/decks/` and of the deck list pages, on the database the suite
runs on and, through `test_the_filters_on_sqlite`, on SQLite (the embedded default) as well:
a filter's query that one database cannot run answered 503 there, forever.

The decks (a tiny REDLINE catalogue, tests/decks/conftest.py, with the stored verdict of the
legal ones written as legal): alice's legal public deck, her illegal public deck, her private deck, a public deck whose stored verdict was checked under a
rule set no longer in force (stale: left out of the verdict filters until re-checked), and
bob's public deck.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection

from catalogue.models import Game, RuleSet
from catalogue.rulesets import today
from decks.models import Deck
from decks.services import deck_create
from tests.decks.conftest import MINI_LIST, import_mini_catalogue

ROOT = Path(__file__).resolve().parents[2]
ILLEGAL_LIST = "General:\n1 General Jeffrey Moore\nArsenal:\n1 Tigercat\n"


@pytest.fixture
def decks(db, user, other_user):
    import_mini_catalogue()
    made = {
        "legal": deck_create(
            owner=user,
            game_slug="redline",
            format="standard",
            name="Legal public",
            visibility="public",
            text=MINI_LIST,
        ),
        "illegal": deck_create(
            owner=user,
            game_slug="redline",
            format="standard",
            name="Short public",
            visibility="public",
            text=ILLEGAL_LIST,
        ),
        "private": deck_create(
            owner=user,
            game_slug="redline",
            format="standard",
            name="Legal private",
            visibility="private",
            text=MINI_LIST,
        ),
        "stale": deck_create(
            owner=user,
            game_slug="redline",
            format="standard",
            name="Stale public",
            visibility="public",
            text=MINI_LIST,
        ),
        "bob": deck_create(
            owner=other_user,
            game_slug="redline",
            format="standard",
            name="Bob public",
            visibility="public",
            text=MINI_LIST,
        ),
    }
    assert not any(deck.legal for deck in made.values())
    # The tiny catalogue makes no legal list: the stored verdict of the "legal" decks says
    # legal, as a check against the whole catalogue would.
    for key in ("legal", "private", "stale", "bob"):
        deck = made[key]
        Deck.objects.filter(pk=deck.pk).update(
            legal=True, report={**deck.report, "legal": True, "errors": []}
        )
    # Checked under a rule set that is no longer the one in force: stale.
    stale = made["stale"]
    Deck.objects.filter(pk=stale.pk).update(
        report={**stale.report, "legal": True, "errors": [], "rule_set": "GONE"}
    )
    return {key: deck.pk for key, deck in made.items()}


def _names(response) -> set[str]:
    assert response.status_code == 200, (response.status_code, response.content[:300])
    return {row["name"] for row in response.json()["results"]}


LIST_FILTERS = [
    ("", {"Legal public", "Short public", "Legal private", "Stale public"}),
    ("?mine=true", {"Legal public", "Short public", "Legal private", "Stale public"}),
    ("?public=true", {"Legal public", "Short public", "Stale public", "Bob public"}),
    ("?game=redline", {"Legal public", "Short public", "Stale public", "Bob public"}),
    ("?fmt=standard", {"Legal public", "Short public", "Legal private", "Stale public"}),
    ("?q=short", {"Short public"}),
    # the stale deck's verdict is not today's: left out of both verdict filters
    ("?legal=true", {"Legal public", "Legal private"}),
    ("?legal=1", {"Legal public", "Legal private"}),
    ("?legal=false", {"Short public"}),
    ("?legal=0", {"Short public"}),
    ("?public=true&legal=true&q=public", {"Legal public", "Bob public"}),
    ("?game=redline&fmt=standard&legal=false", {"Short public"}),
]


@pytest.mark.parametrize(("query", "expected"), LIST_FILTERS)
def test_api_deck_list_filters(client, user, decks, query, expected):
    client.force_login(user)
    assert _names(client.get(f"/api/decks/{query}")) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("?game=redline", {"Legal public", "Short public", "Stale public", "Bob public"}),
        ("?game=redline&legal=true", {"Legal public", "Bob public"}),
        ("?game=redline&legal=false", {"Short public"}),
    ],
)
def test_api_deck_list_filters_anonymous(client, decks, query, expected):
    assert _names(client.get(f"/api/decks/{query}")) == expected


def test_legal_filter_under_a_rule_set_in_force(client, user, decks):
    """A rule set in force since yesterday: a deck checked under it keeps its verdict in the
    filter, one checked before it (no rule set) or under another is left out."""
    today_ = today()
    RuleSet.objects.create(
        game=Game.objects.get(slug="redline"),
        format="standard",
        code="S1",
        name="Season 1",
        announced=today_ - timedelta(days=30),
        effective=today_ - timedelta(days=1),
    )
    legal = Deck.objects.get(pk=decks["legal"])
    Deck.objects.filter(pk=legal.pk).update(report={**legal.report, "rule_set": "S1"})
    client.force_login(user)
    assert _names(client.get("/api/decks/?legal=true")) == {"Legal public"}
    assert _names(client.get("/api/decks/?legal=false")) == set()
    page = client.get("/decks/public/?legal=standard")
    assert _page_names(page, ALL_NAMES) == {"Legal public"}


def _page_names(response, candidates) -> set[str]:
    assert response.status_code == 200, (response.status_code, response.content[:300])
    body = response.content.decode()
    return {name for name in candidates if name in body}


ALL_NAMES = {"Legal public", "Short public", "Legal private", "Stale public", "Bob public"}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/decks/public/", {"Legal public", "Short public", "Stale public", "Bob public"}),
        ("/decks/public/redline/", {"Legal public", "Short public", "Stale public", "Bob public"}),
        ("/decks/public/?q=bob", {"Bob public"}),
        # "legal today in": the stale deck is re-checked only when shown, so it is left out
        ("/decks/public/?legal=standard", {"Legal public", "Bob public"}),
        ("/decks/public/redline/?legal=standard&q=legal", {"Legal public"}),
        ("/decks/public/?legal=standard&page=1", {"Legal public", "Bob public"}),
    ],
)
def test_public_deck_list_page_filters(client, decks, path, expected):
    assert _page_names(client.get(path), ALL_NAMES) == expected


def test_my_decks_page(client, user, decks):
    client.force_login(user)
    assert _page_names(client.get("/decks/mine/"), ALL_NAMES) == ALL_NAMES - {"Bob public"}


def test_the_filters_on_sqlite(tmp_path):
    """This module's tests once more, on SQLite (the embedded default), in a process of its
    own: the database is read from DATABASE_URL when the settings load."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/cardsite.sqlite3",
        "CARDSITE_DATA_DIR": str(tmp_path),
        "CARDSITE_FILTERS_ON_SQLITE": "1",
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-k",
            "not test_the_filters_on_sqlite",
            str(Path(__file__).relative_to(ROOT)),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "failed" not in result.stdout


def test_the_database_is_the_one_asked_for():
    """The SQLite run above really is on SQLite (and this one on the suite's database)."""
    if os.environ.get("CARDSITE_FILTERS_ON_SQLITE"):
        assert connection.vendor == "sqlite"
    else:
        assert connection.vendor == os.environ.get("EXPECTED_DB_VENDOR", connection.vendor)
