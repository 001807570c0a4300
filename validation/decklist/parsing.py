"""Reading a list's text (`parse`), one typed line (`read_typed_line`, the builder's quick
add) and the JSON form (`parse_sections`) into `ListLine`s, every line not read an error."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from validation.registry import GameDef

from .lines import (
    _CODE,
    _COMMENT,
    _COUNT,
    _HEADER,
    _NUMBER_TOO_LONG,
    _PLACEMENT,
    _TRAILING_COMMENT,
    MAX_COUNT,
    MAX_LIST_BYTES,
    PLACEMENT,
    PLACEMENT_ALIAS,
    LineError,
    ListLine,
    ParseResult,
    _header,
    _section_error,
    normalise_section,
    section_aliases,
    sections_size_problem,
    text_size_problem,
)


def _parse_count(token: str) -> tuple[int | None, str | None]:
    m = _COUNT.match(token)
    if not m:
        return None, f"bad count {token!r}; a card line starts with a number"
    if _NUMBER_TOO_LONG.search(m.group(1)):
        return None, f"bad count {token[:12]!r}…; at most {MAX_COUNT}"
    n = int(m.group(1))
    if n < 1:
        return None, f"bad count {n}; at least 1"
    if n > MAX_COUNT:
        return None, f"bad count {n}; at most {MAX_COUNT}"
    return n, None


def _text_lines(text: str) -> Iterator[tuple[int, str, re.Match[str] | None]]:
    """Each line of a list text that is neither blank nor a comment: its number (1-based),
    its text without a trailing comment, and its header match when it is a header."""
    for line_no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or _COMMENT.match(raw):
            continue
        line = _TRAILING_COMMENT.sub("", raw).strip()
        yield line_no, line, _HEADER.match(line)


def parse(text: str, game: GameDef) -> ParseResult:
    """Read a deck list. Every line that is neither blank, a comment, a header nor a valid
    card line gives a `LineError`; so does a card line before any header or under an unknown
    header, and a placement outside the game's placement sections."""
    result = ParseResult()
    too_large = text_size_problem(text)
    if too_large:
        result.errors.append(LineError(0, too_large))
        return result
    aliases = section_aliases(game)
    section: str | None = None
    unknown_section = False
    for line_no, line, header in _text_lines(text):
        if header:
            key = normalise_section(header.group(1))
            if key in aliases:
                section, unknown_section = aliases[key], False
            else:
                result.errors.append(
                    _section_error(line_no, header.group(1).strip(), game, f"Line {line_no}")
                )
                section, unknown_section = None, True
            continue
        error = _card_line(result, line_no, line, section, game)
        if error:
            result.errors.append(error)
        elif section is None:
            why = (
                "it is under an unknown section"
                if unknown_section
                else "it comes before any section header"
            )
            result.lines.pop()
            result.errors.append(
                LineError(
                    line_no,
                    f"Line {line_no}: {line!r} is not read: {why}; start a section with one "
                    f"of {', '.join(_header(s, game) for s in game.section_names)}",
                    game.section_names,
                )
            )
    return result


def _card_line(
    result: ParseResult,
    line_no: int,
    line: str,
    section: str | None,
    game: GameDef | None,
    at: str | None = None,
) -> LineError | None:
    """Read one card line into `result.lines` (section may be None: the caller reports it;
    `game` None reads the line whatever the game, its placement unchecked). Its errors
    start with `at` ("Line 3: " unless given)."""
    if at is None:
        at = f"Line {line_no}: "
    parts = line.split(None, 1)
    count, problem = _parse_count(parts[0])
    if problem or count is None:
        if len(parts) == 1 and not _COUNT.match(parts[0]):
            problem = f"{line!r} has no count; write '1 {line}'"
        return LineError(line_no, f"{at}{problem}")
    rest = parts[1].strip() if len(parts) > 1 else ""
    if rest[:2].lower() == "x " and re.match(r"^\d+$", parts[0]):  # "4 x Tigercat"
        rest = rest[2:].strip()
    placement = None
    if "@" in rest:
        rest, _, where = rest.rpartition("@")
        rest = rest.strip()
        m = _PLACEMENT.match(where)
        if not m or _NUMBER_TOO_LONG.search(where):
            shown = where.strip()
            shown = shown if len(shown) <= 20 else shown[:20] + "…"
            return LineError(
                line_no,
                f"{at}malformed placement '@{shown}'; write @column,row",
            )
        if game is not None and section is not None and section not in game.placement_sections:
            where_ok = (
                f"only in {', '.join(game.placement_sections)}"
                if game.placement_sections
                else f"not in {game.name}"
            )
            return LineError(line_no, f"{at}a placement (@column,row) is used {where_ok}")
        placement = (int(m.group(1)), int(m.group(2)))
    set_code = ""
    m = _CODE.match(rest)
    if m and m.group(1):
        rest, set_code = m.group(1).strip(), m.group(2).strip()
    if not rest:
        return LineError(line_no, f"{at}no card name after the count")
    result.lines.append(
        ListLine(line_no, section or "", count, " ".join(rest.split()), set_code, placement)
    )
    return None


@dataclass(frozen=True, slots=True)
class TypedLine:
    """One line of a list typed on its own (the builder's quick add), read as the list text
    format reads it. A header gives `section` (`header` as written; `error` when the game
    has no such section); a card line gives `count` (1 when none is written), `name` and
    `placement`; a blank or comment line gives none of them. `error` says what could not
    be read."""

    section: str = ""
    header: str = ""
    count: int = 0
    name: str = ""
    placement: tuple[int, int] | None = None
    error: str = ""


def read_typed_line(text: str, game: GameDef) -> TypedLine:
    """Read one typed line: `Arsenal:`, `4 Tigercat`, `4x Tigercat (RL1)`, `Lancers @1,2`,
    or a bare name (one copy)."""
    lines = list(_text_lines(text.replace("\r", " ").replace("\n", " ")[:MAX_LIST_BYTES]))
    if not lines:
        return TypedLine()
    _, line, header = lines[0]
    if header:
        written = header.group(1).strip()
        section = section_aliases(game).get(normalise_section(written))
        if section is None:
            return TypedLine(header=written, error=_section_error(0, written, game).message)
        return TypedLine(section=section, header=written)
    first = line.split(None, 1)
    if not (len(first) == 2 and _COUNT.match(first[0])):
        line = f"1 {line}"
    result = ParseResult()
    error = _card_line(result, 0, line, None, None, at="")
    if error is not None:
        return TypedLine(error=error.message)
    read = result.lines[0]
    return TypedLine(count=read.count, name=read.name, placement=read.placement)


def _placement_of(item: Mapping[str, Any]) -> tuple[str, Any]:
    """(the key written, its value) of an item's placement: ("", None) when it has none,
    (key, None) when it gives both `placement` and its alias `hex` with different values."""
    given = [(k, item[k]) for k in (PLACEMENT, PLACEMENT_ALIAS) if item.get(k) is not None]
    if not given:
        return "", None
    if len(given) == 2 and given[0][1] != given[1][1]:
        return PLACEMENT, None
    return given[0]


def parse_sections(data: Mapping[str, Any], game: GameDef) -> ParseResult:
    """Read the JSON form {"section": [{"card": name, "count": n, "placement": [c, r]}]} into
    the same lines as `parse` (`line_no` is the item's index within its section). An item
    may write its placement under `hex`, the key's former name."""
    result = ParseResult()
    if not isinstance(data, Mapping):
        result.errors.append(LineError(0, "expected an object of sections"))
        return result
    too_large = sections_size_problem(data)
    if too_large:
        result.errors.append(LineError(0, too_large))
        return result
    aliases = section_aliases(game)
    for written, items in data.items():
        section = aliases.get(normalise_section(str(written)))
        if section is None:
            result.errors.append(_section_error(0, str(written), game))
            continue
        if not isinstance(items, list | tuple):
            result.errors.append(LineError(0, f"{section}: expected a list of cards"))
            continue
        for i, item in enumerate(items):
            where = f"{section}[{i}]"
            if not isinstance(item, Mapping):
                result.errors.append(
                    LineError(i, f"{where}: expected {{'card': name, 'count': n}}")
                )
                continue
            name = item.get("card")
            if not isinstance(name, str) or not name.strip():
                result.errors.append(LineError(i, f"{where}: no card name"))
                continue
            count = item.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool):
                result.errors.append(LineError(i, f"{where}: bad count {count!r}; a whole number"))
                continue
            if count < 1 or count > MAX_COUNT:
                limit = "at least 1" if count < 1 else f"at most {MAX_COUNT}"
                shown = str(count) if abs(count) < 10**12 else f"of {len(str(abs(count)))} digits"
                result.errors.append(LineError(i, f"{where}: bad count {shown}; {limit}"))
                continue
            placement = None
            key, cell = _placement_of(item)
            if key and cell is None:
                result.errors.append(
                    LineError(i, f"{where}: both placement and hex are given; write one")
                )
                continue
            if cell is not None:
                if (
                    not isinstance(cell, list | tuple)
                    or len(cell) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
                ):
                    result.errors.append(
                        LineError(i, f"{where}: malformed {key} {cell!r}; write [column, row]")
                    )
                    continue
                if section not in game.placement_sections:
                    result.errors.append(
                        LineError(i, f"{where}: a {key} is not used in the {section} section")
                    )
                    continue
                placement = (cell[0], cell[1])
            set_code = item.get("set", "")
            result.lines.append(
                ListLine(
                    i,
                    section,
                    count,
                    " ".join(name.split()),
                    set_code if isinstance(set_code, str) else "",
                    placement,
                    where,
                )
            )
    return result
