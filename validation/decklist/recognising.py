"""Which game and formats a list is of when it does not say: the section headers it writes
(`outline`), the game they and its card names point to (`recognise`), and the formats
whose sections hold it (`fitting_formats`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from validation.registry import FormatDef, GameDef

from .lines import ParseResult, normalise_section, section_aliases, text_size_problem
from .parsing import _card_line, _text_lines


@dataclass(frozen=True, slots=True)
class Outline:
    """What a list says before its game is known: the section headers written (normalised,
    in order, without repeats) and the card names of its card lines (as written, without
    repeats). Read by `outline`, for `recognise`."""

    headers: tuple[str, ...] = ()
    names: tuple[str, ...] = ()


def outline(text: str) -> Outline:
    """The headers and card names of a list, read without a game (comment lines and lines
    that are no card line are passed over). A list larger than the site reads answers an
    empty outline."""
    if text_size_problem(text):
        return Outline()
    headers: dict[str, None] = {}
    lines = ParseResult()
    for line_no, line, header in _text_lines(text):
        if header:
            headers.setdefault(normalise_section(header.group(1)), None)
            continue
        _card_line(lines, line_no, line, None, None)
    names = dict.fromkeys(line.name for line in lines.lines)
    return Outline(tuple(headers), tuple(names))


@dataclass(frozen=True, slots=True)
class Recognised:
    """Which game a list is of, read from its outline: `game` (None when the list fits no
    game, or several alike: then `tied` names them), the formats of that game whose sections
    hold every section the list names (`formats`, the game's order), and `problem`, the
    sentence that says why no game was taken."""

    game: GameDef | None = None
    formats: tuple[FormatDef, ...] = ()
    tied: tuple[GameDef, ...] = ()
    problem: str = ""


def recognise(listed: Outline, games: Sequence[GameDef], found: Mapping[str, int]) -> Recognised:
    """The game a list is of, from its section headers and card names: the game that knows
    the most of its headers (a section's name or label), then, among those alike, the one
    whose catalogue holds the most of its card names (`found`: game slug -> how many of
    `listed.names` are its cards). Ties at the top, or a list that fits no game at all
    (no header and no name known), recognise nothing and say why."""
    scored = [(_known_headers(listed, game), found.get(game.slug, 0), game) for game in games]
    if not scored:
        return Recognised(problem="no game is registered")
    best = max((h, n) for h, n, _ in scored)
    if best == (0, 0):
        return Recognised(problem="its sections and card names are of no game the site knows")
    tied = tuple(game for h, n, game in scored if (h, n) == best)
    if len(tied) > 1:
        return Recognised(
            tied=tied,
            problem="its sections and card names fit "
            + " and ".join(g.name for g in tied)
            + " alike",
        )
    return Recognised(game=tied[0], formats=fitting_formats(listed, tied[0]))


def _known_headers(listed: Outline, game: GameDef) -> int:
    aliases = section_aliases(game)
    return sum(1 for header in listed.headers if header in aliases)


def fitting_formats(listed: Outline, game: GameDef) -> tuple[FormatDef, ...]:
    """The formats of `game` that have every section the list names (headers no section of
    the game are left to the parser to report), those whose required sections the list
    all names first, else in the game's order; every format when none fits."""
    aliases = section_aliases(game)
    named = {aliases[h] for h in listed.headers if h in aliases}
    fitting = [f for f in game.formats.values() if named <= set(f.section_names)]
    fitting = fitting or list(game.formats.values())
    return tuple(sorted(fitting, key=lambda f: not set(f.required_sections) <= named))
