"""What a game's package carries besides its Python objects: its own templates and its sample
data, found in the package's folder (no Django here; the web side's template loader,
cardsite/game_templates.py, reads `template_dir`).

    validation/games/<python_name>/
        __init__.py             GAME, a GameDef
        templates/              the game's own partials: builder_extra.html, tools/<tool>.html
        sample_data/<CODE>.json the sample expansion files (expansion file format)
        sample_data/decks/<format>.txt  an example list of each format that has one
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validation.registry import GameDef, registry

TEMPLATES = "templates"
SAMPLE_DATA = "sample_data"


def package_dir(slug: str) -> Path | None:
    """The folder of the package defining game `slug` (None when it has no folder)."""
    name = registry.package(slug)
    if not name:
        return None
    module = importlib.import_module(name)
    file = getattr(module, "__file__", None)
    return Path(file).resolve().parent if file else None


def template_dir(slug: str) -> Path | None:
    """The game's own templates folder, when it has one."""
    folder = package_dir(slug)
    return folder / TEMPLATES if folder is not None and (folder / TEMPLATES).is_dir() else None


def sample_data_dir(slug: str) -> Path | None:
    """The game's sample data folder, when it has one."""
    folder = package_dir(slug)
    return folder / SAMPLE_DATA if folder is not None and (folder / SAMPLE_DATA).is_dir() else None


def sample_expansions(slug: str) -> list[Path]:
    """The game's sample expansion files, by name."""
    folder = sample_data_dir(slug)
    return sorted(folder.glob("*.json")) if folder is not None else []


def sample_rule_sets(slug: str) -> list[Path]:
    """The game's sample rule set files (`sample_data/rule_sets/<format>.json`), by name."""
    folder = sample_data_dir(slug)
    return sorted((folder / "rule_sets").glob("*.json")) if folder is not None else []


@dataclass(frozen=True, slots=True)
class SampleList:
    """An example list of a format of a game, shipped with its sample data."""

    game: str
    format: str
    path: Path

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")


def sample_lists(slug: str) -> list[SampleList]:
    """The game's example lists, one per format that has one, by format slug (a file not
    named after a format of the game is not one)."""
    folder = sample_data_dir(slug)
    if folder is None:
        return []
    game: GameDef = registry.get(slug)
    return [
        SampleList(slug, fmt, folder / "decks" / f"{fmt}.txt")
        for fmt in sorted(game.formats)
        if (folder / "decks" / f"{fmt}.txt").is_file()
    ]


def sample_list(slug: str, format: str) -> SampleList:
    """The example list of `format` of game `slug`; LookupError when there is none."""
    for found in sample_lists(slug):
        if found.format == format:
            return found
    raise LookupError(f"{slug} has no sample list of the {format!r} format")


def main_sample_list(slug: str) -> SampleList | None:
    """The example list of the game's first format (in the game's order) that has one."""
    by_format = {found.format: found for found in sample_lists(slug)}
    game: GameDef = registry.get(slug)
    return next((by_format[fmt] for fmt in game.formats if fmt in by_format), None)


def all_sample_expansions() -> list[tuple[str, Path]]:
    """(game slug, file) of every registered game's sample expansion files."""
    return [(g.slug, p) for g in registry.all() for p in sample_expansions(g.slug)]


def all_sample_rule_sets() -> list[tuple[str, Path]]:
    """(game slug, file) of every registered game's sample rule set files."""
    return [(g.slug, p) for g in registry.all() for p in sample_rule_sets(g.slug)]


def all_sample_lists() -> list[SampleList]:
    """Every registered game's example lists, game by game."""
    return [found for g in registry.all() for found in sample_lists(g.slug)]


def kind_examples(slug: str) -> dict[str, dict[str, Any]]:
    """An example of each card kind of the game, from its sample data: kind -> the attributes
    of the first card of that kind in its sample expansions (a kind no sample card has is
    left out)."""
    examples: dict[str, dict[str, Any]] = {}
    for path in sample_expansions(slug):
        document = json.loads(path.read_text(encoding="utf-8"))
        for card in document.get("cards", ()) if isinstance(document, dict) else ():
            kind = card.get("kind") if isinstance(card, dict) else None
            if isinstance(kind, str) and kind not in examples:
                examples[kind] = dict(card.get("attributes") or {})
    return examples
