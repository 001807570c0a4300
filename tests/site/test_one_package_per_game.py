"""A game is one package: the web apps hold no game's name and no concept only one game has.

Everything a game is lives in its package under validation/games/<python_name>/, its own
templates and sample data included. The apps read it through the registry, so that the code
of catalogue/, decks/, simulations/, play/ and cardsite/, and the site's templates, name no
game, none of its kinds, sections, formats, attributes, tools or other words of its own.
Migrations are history and are not read.
"""

from __future__ import annotations

import re
from pathlib import Path

from validation.registry import registry

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "catalogue",
    "decks",
    "collection",
    "tabletop",
    "notices",
    "simulations",
    "decklists",
    "play",
    "cardsite",
)

#: Words of a game's definition that are also plain English or the site's own vocabulary
#: (a deck, its cards, a side's colour, an order of a list): not a sign of game code.
EVERYDAY = frozenset(
    {
        "blue",
        "campaign",
        "cards",
        "command",
        "core",
        "custom",
        "deck",
        "equipment",
        "field",
        "fields",
        "general",
        "item",
        "items",
        "mission",
        "missions",
        "order",
        "orders",
        "red",
        "resource",
        "standard",
        "strategy",
        "tactic",
        "unit",
        "units",
        "war",
    }
)

#: Words of the games that their definitions do not spell out as keys.
CONCEPTS = (
    "efreet",
    "manoeuvre",
    "crew",
    "force",
    "promotion",
    "red line",
    "supply drop",
    "tigercat",
    "visual field",
    "combat odds",
    "close combat",
    "unit point",
    "combat card",
    "ship",
    "hex",
    "hexes",
)


def _game_words() -> set[str]:
    words: set[str] = set(CONCEPTS)
    for game in registry.all():
        words |= {game.slug, game.python_name, game.name, game.name.split(":")[0]}
        words |= set(game.kinds) | set(game.section_names) | set(game.formats)
        # Compound attribute keys only: a key of one plain word (number, range, time) is
        # also everyone's word.
        words |= {a.key for schema in game.kinds.values() for a in schema.attrs if "_" in a.key}
        words |= {t.slug for t in game.tools}
        if game.goldfish is not None:
            words.add(game.goldfish.slug)
    return {w.lower() for w in words if w and w.lower() not in EVERYDAY}


def _files() -> list[Path]:
    files = [
        p
        for app in APPS
        for p in (ROOT / app).rglob("*.py")
        if "migrations" not in p.parts and "__pycache__" not in p.parts
    ]
    files += list((ROOT / "templates").rglob("*.html"))
    files += [p for p in (ROOT / "static").rglob("*") if p.suffix in (".js", ".css")]
    return [p for p in files if not p.name.endswith(".min.js")]


def test_a_game_keeps_nothing_outside_its_package():
    assert not (ROOT / "templates" / "games").exists()
    assert not (ROOT / "catalogue" / "sample_data").exists()


def test_the_web_apps_name_no_game_and_no_concept_of_one():
    words = sorted(_game_words(), key=len, reverse=True)
    spelled = [re.escape(w).replace(r"\ ", r"[\s_-]") for w in words]
    pattern = re.compile(rf"(?<![\w-])({'|'.join(spelled)})s?(?![\w-])", re.IGNORECASE)
    found = []
    for path in _files():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for match in pattern.finditer(line):
                if line[: match.start()].endswith(".") and match.group(0) == "hex":
                    continue  # a value's hex digits (uuid4().hex), not the game's cells
                if match.group(0) == "field_class" and re.match(r"\s*field_class\s*=", line):
                    continue  # django-filter's API (a filter's form field class), not a card's
                if match.group(0).lower() == "force" and re.search(
                    r"\b(in|into|in-)\s*$", line[: match.start()], re.IGNORECASE
                ):
                    continue  # a rule set "in force" (organised play), not an army's force
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}")
    assert found == [], "\n".join(found)


def test_the_list_of_words_is_not_empty():
    words = _game_words()
    assert {"redline", "red-code", "efreet", "arsenal", "unit_type"} <= words
