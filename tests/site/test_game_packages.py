"""A game is one package: one that is not among the built-in games is registered by naming
it in CARDSITE_GAMES, its integer attributes get their search indexes, and the search help
and search box speak its keys."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from validation.registry import registry

ROOT = Path(__file__).resolve().parents[2]
TOY = "tests.toy_game"


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_game_package_named_in_the_setting_is_registered_at_start():
    shown = _manage(
        "shell",
        "--no-imports",
        "-c",
        "from validation.registry import registry; print(registry.get('pond').name)",
        CARDSITE_GAMES=TOY,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "Pond"
    assert "pond" not in registry  # this process was started without it


def test_a_package_that_is_not_a_game_stops_the_site_with_its_name():
    bad = _manage("check", CARDSITE_GAMES="tests.site")
    assert bad.returncode != 0
    assert "CARDSITE_GAMES: tests.site: tests.site defines no GAME" in bad.stderr
    missing = _manage("check", CARDSITE_GAMES="no_such_games.pond")
    assert "CARDSITE_GAMES: no_such_games.pond: No module named 'no_such_games'" in missing.stderr


def test_loading_a_registered_game_again_is_harmless():
    import tests.toy_game as toy

    with registry.temporarily(toy.GAME):
        assert registry.load(TOY) is toy.GAME
    with pytest.raises(ValueError, match="defines no GAME"):
        registry.load("tests.site")


@pytest.mark.django_db
def test_a_new_games_integer_attributes_get_their_search_index():
    import tests.toy_game as toy
    from catalogue.importer import expansion_import
    from catalogue.search.indexes import missing_keys

    if connection.vendor != "postgresql":
        assert missing_keys() == []
        return
    assert missing_keys() == []  # every built-in key has its index (migrations)
    with registry.temporarily(toy.GAME):
        assert missing_keys() == ["hop", "size"]
        data = json.loads((Path(toy.__file__).parent / "sample_data" / "POND1.json").read_text())
        expansion_import(data=data)
        assert missing_keys() == []
        with connection.cursor() as cursor:
            cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'card_num_hop'")
            (definition,) = cursor.fetchone()
    assert "WHERE (attributes ? 'hop'::text)" in definition


@pytest.mark.django_db
def test_search_help_and_search_box_show_the_games_own_keys(client, sample_catalogue):
    import tests.toy_game as toy
    from catalogue.importer import expansion_import

    with registry.temporarily(toy.GAME):
        expansion_import(
            data=json.loads((Path(toy.__file__).parent / "sample_data" / "POND1.json").read_text())
        )
        page = client.get("/cards/pond/").content.decode()
        assert 'placeholder="e.g. kind:frog hop&gt;=2"' in page
        found = client.get("/cards/pond/", {"q": "kind:frog hop>=3"}).content.decode()
        assert "Leaper" in found and "Croaker" in found and "Plopper" not in found
        help_page = client.get("/cards/help/").content.decode()
    assert '<h2 id="pond">Pond</h2>' in help_page
    assert "<code>kind:frog</code>" in help_page
    for game in registry.all():  # every example term of the help page is a real key
        assert f'<h2 id="{game.slug}">' in help_page
