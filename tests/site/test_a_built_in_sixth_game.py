"""A sixth built-in game is one folder plus one line, as docs/architecture.md ("Adding a
game") says: a copy of the toy game (tests/toy_game/) is made a package of validation/games/
(in a folder of the test's own, added to that package's search path), the one line naming it
is added to `BUILT_IN` in a copy of validation/games/__init__.py, which is run as that module,
and the site is checked with it as it checks the built-in games: its sample data loads, its
catalogue page lists its cards, its example list is legal, its builder renders its own panel
with every variable it asks for, and its sample deck is published. Nothing outside the copied
folder and that line knows the game."""

from __future__ import annotations

import importlib
import shutil
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

import tests.toy_game as toy
import validation.games
from decks.models import Deck
from decks.samples import publish_sample_decks
from tests.decks.test_builder_state import MissingVariable
from validation import packages
from validation.registry import registry

pytestmark = pytest.mark.django_db

GAMES_INIT = Path(validation.games.__file__)
LINE = '    "pond",\n'


def _with_one_more_line(source: str) -> str:
    """The source of validation/games/__init__.py with the line of one more game added as the
    last entry of `BUILT_IN`."""
    start = source.index("BUILT_IN = (")
    end = source.index("\n)", start)
    return source[: end + 1] + LINE + source[end + 1 :]


@pytest.fixture
def sixth_game(tmp_path, monkeypatch, settings):
    folder = tmp_path / "games"
    shutil.copytree(
        Path(toy.__file__).parent, folder / "pond", ignore=shutil.ignore_patterns("__pycache__")
    )
    monkeypatch.setattr(validation.games, "__path__", [*validation.games.__path__, str(folder)])
    source = _with_one_more_line(GAMES_INIT.read_text())
    assert source.count("\n") == GAMES_INIT.read_text().count("\n") + 1
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [
        {**engine, "OPTIONS": {**engine["OPTIONS"], "string_if_invalid": MissingVariable("%s")}}
    ]
    try:
        with registry.restored():
            namespace = {"__name__": "validation.games", "__file__": str(GAMES_INIT)}
            exec(compile(source, str(GAMES_INIT), "exec"), namespace)  # noqa: S102
            yield registry.get("pond")
    finally:
        for name in [n for n in sys.modules if n.startswith("validation.games.pond")]:
            del sys.modules[name]
        importlib.invalidate_caches()


def test_a_sixth_built_in_game_is_one_folder_and_one_line(client, user, sixth_game):
    game = sixth_game
    # registered from the copied folder, after the built-in games, by the one line
    assert registry.slugs()[-1] == "pond" and len(registry) == len(validation.games.BUILT_IN) + 1
    assert registry.package("pond") == "validation.games.pond"
    folder = packages.package_dir("pond")
    assert folder is not None and folder != Path(toy.__file__).parent
    assert game is not toy.GAME and game.formats.keys() == toy.GAME.formats.keys()

    # its sample data, found in its package, loads with every game's
    out = StringIO()
    call_command("load_sample_data", stdout=out)
    assert "pond/POND1.json: Pond POND1: 6 cards were created" in out.getvalue()
    expansions = len(packages.all_sample_expansions())
    assert expansions == len(registry) and f"({expansions} expansions)" in out.getvalue()

    # the catalogue shows it
    assert 'href="/cards/pond/"' in client.get("/").content.decode()
    page = client.get("/cards/pond/").content.decode()
    assert all(name in page for name in ("Leaper", "Croaker", "Broad Pad", "Small Pad"))

    # its example list is legal, through the validate API
    (sample,) = packages.sample_lists("pond")
    answer = client.post(
        "/api/validate/",
        {"game": "pond", "format": sample.format, "list": sample.text()},
        content_type="application/json",
    ).json()
    assert answer["legal"] is True and answer["totals"]["sections"] == {"frogs": 4, "pads": 6}

    # its sample deck is published, and the builder draws its own panel from its package
    published = publish_sample_decks(owner=user)
    assert "Pond Pond sample" in published.created and not published.failed
    deck = Deck.objects.get(owner=user, game__slug="pond")
    assert deck.legal
    client.force_login(user)
    html = client.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert 'id="pond-panel"' in html
    assert '<b id="pond-frogs">4</b> frogs and <b id="pond-pads">6</b> lily pads' in html
    assert "Frogs" in html and "Lily pads" in html

    # and its tool answers on its page
    tool = client.get("/play/pond/hop-odds/", {"frog": "Leaper"})
    assert tool.status_code == 200 and "Leaper" in tool.content.decode()


def test_the_one_line_is_what_the_docs_say():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text()
    assert "BUILT_IN" in doc and LINE.strip() in doc
