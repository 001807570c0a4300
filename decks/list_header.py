"""The comment lines an exported list starts with, and reading them back on import.

    # Deck: <the deck's name>
    # Game: <the game's name> (<its slug>)
    # Format: <the format's name> (<its slug>)
    # Points: 50

Comment lines are ignored by the list format itself, so the text reads anywhere a list
does; the import form (game, format, name, the format's adjustable options) and the check
form (game, format, options) read them when the form does not say
(`decks.forms.read_game_format`). The adjustable options are those of the format
(`FormatDef.adjustable`), written "# <Option>: <whole number>".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from validation.registry import FormatDef, registry


def option_label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def export_header(*, name: str, game_slug: str, format: str, options: Mapping[str, Any]) -> str:
    """The comment lines for a deck's exported list (ending with a newline)."""
    lines = [f"# Deck: {' '.join(name.split())}"]
    if game_slug in registry:
        game = registry.get(game_slug)
        lines.append(f"# Game: {game.name} ({game.slug})")
        fmt = game.formats.get(format)
        lines.append(f"# Format: {fmt.name if fmt else format} ({format})")
        for key in sorted(fmt.adjustable if fmt else ()):
            value = options.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                lines.append(f"# {option_label(key)}: {value}")
    return "\n".join(lines) + "\n"


def header_options(text: str, fmt: FormatDef) -> dict[str, Any]:
    """The adjustable options of `fmt` a list's comment lines give ("# … points: 50")."""
    comments = "\n".join(line for line in text.splitlines() if line.lstrip().startswith("#"))
    out: dict[str, Any] = {}
    for key in sorted(fmt.adjustable):
        label = re.escape(key.replace("_", " "))
        match = re.search(rf"\b{label}\s*:\s*(\d{{1,6}})\b", comments, re.IGNORECASE)
        if match:
            out[key] = int(match.group(1))
    return out


@dataclass
class Header:
    """What a list's comment lines say: empty strings where they say nothing."""

    name: str = ""
    game: str = ""
    format: str = ""
    options: dict[str, Any] = field(default_factory=dict)


_LINE = re.compile(r"^\s*#\s*(deck|game|format)\s*:\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_SLUG = re.compile(r"\(([a-z0-9][a-z0-9_-]*)\)$")


def read_header(text: str) -> Header:
    """The deck's name, game, format and options from the list's comment lines."""
    found: dict[str, str] = {}
    for match in _LINE.finditer(text[:4000]):
        found.setdefault(match.group(1).lower(), match.group(2))
    header = Header(name=found.get("deck", "")[:200])
    game_text = found.get("game", "")
    slug = _SLUG.search(game_text)
    games = registry.all()
    game = next(
        (
            g
            for g in games
            if (slug and g.slug == slug.group(1)) or g.name.lower() == game_text.lower()
        ),
        None,
    )
    if game is None:
        return header
    header.game = game.slug
    fmt_text = found.get("format", "")
    slug = _SLUG.search(fmt_text)
    fmt = next(
        (
            f
            for f in game.formats.values()
            if (slug and f.slug == slug.group(1)) or f.name.lower() == fmt_text.lower()
        ),
        None,
    )
    if fmt is not None:
        header.format = fmt.slug
        header.options = header_options(text, fmt)
    return header
