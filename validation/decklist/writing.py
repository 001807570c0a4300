"""A deck written back as list text (`export`, `write`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from validation.types import Deck

if TYPE_CHECKING:
    from validation.registry import GameDef

from .lines import _header


def export(deck: Deck, game: GameDef) -> str:
    """Write `deck` as a deck list: the game's sections in display order (then any others),
    a header and `N Name` lines, `@c,r` for placed units. Parsing and resolving the result
    gives the same deck."""
    order = [s for s in game.section_names if deck.sections.get(s)]
    order += [s for s in deck.sections if s not in game.section_names and deck.sections[s]]
    return write(
        game,
        [(s, [(e.count, e.card.name, e.placement) for e in deck.sections[s]]) for s in order],
    )


def write(
    game: GameDef, sections: Iterable[tuple[str, Iterable[tuple[int, str, tuple[int, int] | None]]]]
) -> str:
    """Write a list's lines, section by section in the order given, as `export` does:
    (section, [(count, card name, cell or None)])."""
    out = [f"# {game.name}"]
    for section, lines in sections:
        out.append(_header(section, game))
        for count, name, cell in lines:
            where = f" @{cell[0]},{cell[1]}" if cell else ""
            out.append(f"{count} {name}{where}")
    return "\n".join(out) + "\n"
