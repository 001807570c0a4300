"""The deck-list text format (import and export, every game), and its JSON twin.

    # REDLINE standard — comment lines start with # or //
    General:
    1 General Jeffrey Moore
    Arsenal:
    4 Tigercat
    24x Supply Drop
    Missions:
    3 Hardened Bunker (RL1)

A section header is `Name:`, matched case-insensitively with spaces, underscores or hyphens
against the game's sections (or their labels); a card line is `N Name` or `Nx Name`,
optionally followed by an expansion code in brackets and, in a section that places units
(Hex Skirmish `units`), by `@column,row`.

Reading a list takes two steps: `parse` (text -> `ListLine`s, syntax errors) and `resolve`
(lines -> a `Deck` of `CardFacts`, unknown or ambiguous names, expansion codes that are
unknown or do not print the card). `parse_sections` turns the
JSON form into the same lines. Nothing is ever dropped silently: every line that is not
read gives a `LineError`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from validation.types import CardFacts, Deck, Entry, Violation, plain

if TYPE_CHECKING:
    from validation.registry import FormatDef, GameDef

MAX_COUNT = 9999
#: "Did you mean" suggestions are looked for the first this many unknown names of a list
#: only: each costs a search of the game's names.
MAX_SUGGESTED = 20
#: The key of a placed unit's [column, row] in the JSON form of a list and in stored
#: entries; `PLACEMENT_ALIAS`, its former name, is still read wherever a list is given.
PLACEMENT = "placement"
PLACEMENT_ALIAS = "hex"

#: Digits a count or a placement coordinate may have (Python refuses to read numbers of more
#: than 4,300 digits; none of these needs more than a few).
MAX_DIGITS = 9

#: The largest list the site reads, as text (bytes of UTF-8, lines) and as sections (the
#: sections, the entries of all of them): far above any deck, and what one request may cost.
MAX_LIST_BYTES = 50_000
MAX_LIST_LINES = 1_000
MAX_SECTIONS = 20
MAX_ENTRIES = 500

_COMMENT = re.compile(r"^\s*(#|//)")
_TRAILING_COMMENT = re.compile(r"\s+(#|//).*$")
_HEADER = re.compile(r"^([^\d\s:][^:]*):\s*$")
_COUNT = re.compile(r"^(-?\d+)\s*[xX]?$")
_NUMBER_TOO_LONG = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
_CODE = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")
_PLACEMENT = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


@dataclass(frozen=True, slots=True)
class ListLine:
    """One card line of a list: `count` copies of the card called `name` in `section`, as
    written (not yet resolved to a card). `set_code` is the optional expansion code in
    brackets; `placement` the (column, row) cell of a placed unit."""

    line_no: int
    section: str
    count: int
    name: str
    set_code: str = ""
    placement: tuple[int, int] | None = None
    where: str = field(default="", compare=False)

    @property
    def label(self) -> str:
        """How messages name this line: "Line 3" for text, "arsenal[2]" for JSON."""
        return self.where or f"Line {self.line_no}"


@dataclass(frozen=True, slots=True)
class LineError:
    """A line that could not be read: its number (1-based for text, the item's index for
    JSON), what is wrong, and the closest valid names when there are any.

    `message` is the whole sentence as shown to a person, said once: where ("Line 3:" for
    text, "arsenal[2]:" for JSON), what is wrong and, when there are suggestions, "did you
    mean …?". Pages print it as it is; `suggestions` repeats the names for programs."""

    line: int
    message: str
    suggestions: tuple[str, ...] = ()
    #: For a card line whose card was not identified: the name as written, its section.
    name: str = ""
    section: str = ""

    def as_dict(self) -> dict[str, Any]:
        return plain(self, "line", "message", "suggestions")

    def as_unread(self) -> dict[str, Any]:
        """A card line not read, as the validate API lists it (`unknown`)."""
        return plain(self, "line", "section", "name", "message", "suggestions")


@dataclass(slots=True)
class ParseResult:
    """What `parse` read: the card lines in order, and every line it could not read."""

    lines: list[ListLine] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def text_size_problem(text: str) -> str | None:
    """Why a list text is too large to be read (None when it is not)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_LIST_BYTES:
        return f"the list is {size:,} bytes long; at most {MAX_LIST_BYTES:,} bytes are read"
    lines = text.count("\n") + 1
    if lines > MAX_LIST_LINES:
        return f"the list has {lines:,} lines; at most {MAX_LIST_LINES:,} lines are read"
    return None


def sections_size_problem(sections: Any) -> str | None:
    """Why a list given as sections is too large to be read (None when it is not)."""
    if not isinstance(sections, Mapping):
        return None
    if len(sections) > MAX_SECTIONS:
        return f"{len(sections):,} sections given; at most {MAX_SECTIONS} are read"
    entries = sum(len(v) for v in sections.values() if isinstance(v, list | tuple))
    if entries > MAX_ENTRIES:
        return f"{entries:,} entries given; at most {MAX_ENTRIES} are read"
    return None


def normalise_section(name: str) -> str:
    """'Critical hits' -> 'critical_hits'."""
    return "_".join(re.split(r"[\s_\-]+", name.strip().lower())).strip("_")


def section_aliases(game: GameDef) -> dict[str, str]:
    """Every accepted header (normalised) -> section: the section names and their labels."""
    aliases = {normalise_section(game.section_label(s)): s for s in game.section_names}
    aliases.update({s: s for s in game.section_names})
    return aliases


def _suggest(word: str, options: Iterable[str], n: int = 3) -> tuple[str, ...]:
    return tuple(difflib.get_close_matches(word, list(options), n=n, cutoff=0.5))


def _did_you_mean(suggestions: Iterable[str]) -> str:
    names = list(suggestions)
    return f"did you mean {', '.join(names)}?" if names else ""


def _section_error(line: int, written: str, game: GameDef, where: str = "") -> LineError:
    key = normalise_section(written)
    suggestions = _suggest(key, game.section_names)
    if not suggestions:
        aliases = section_aliases(game)
        suggestions = tuple(dict.fromkeys(aliases[a] for a in _suggest(key, aliases)))
    hint = f" {_did_you_mean(suggestions)}" if suggestions else ""
    prefix = f"{where}: " if where else ""
    return LineError(
        line,
        f"{prefix}unknown section {written!r};{hint} {game.name} has {', '.join(game.section_names)}",
        suggestions,
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


def normalise_name(name: str) -> str:
    """Lower case, letters and digits only: 'General  J. Moore' -> 'generaljmoore'."""
    return _NON_ALNUM.sub("", name.lower())


class _Index:
    """Lookups over a card pool: exact (case-insensitive), then normalised (case, spacing
    and punctuation ignored). A name that is only part of a card's name matches nothing."""

    __slots__ = ("exact", "norm", "names")

    def __init__(self, cards: Mapping[str, CardFacts]) -> None:
        self.exact = {k.lower(): v for k, v in cards.items()}
        self.norm: dict[str, list[CardFacts]] = {}
        for card in self.exact.values():
            self.norm.setdefault(normalise_name(card.name), []).append(card)
        self.names = {c.name.lower(): c.name for c in self.exact.values()}

    def find(self, name: str) -> tuple[CardFacts | None, list[CardFacts]]:
        """The card called `name`, or None and the candidates (several = ambiguous: cards
        whose names differ only in case, spacing or punctuation)."""
        card = self.exact.get(name.lower())
        if card is not None:
            return card, []
        key = normalise_name(name)
        if not key:
            return None, []
        same = self.norm.get(key, [])
        if len(same) == 1:
            return same[0], []
        return None, same

    def suggest(self, name: str) -> tuple[str, ...]:
        return closest_names(name, self.names.values())

    def suggest_many(self, names: Sequence[str]) -> dict[str, tuple[str, ...]]:
        return {name: self.suggest(name) for name in names}


#: How many names "did you mean" offers.
SUGGESTIONS = 3


def closest_names(name: str, candidates: Iterable[str]) -> tuple[str, ...]:
    """Up to three of `candidates` closest to `name` (any case), best first: the names that
    `name` is the beginning of (a letter or a word short; the shortest first), then the
    most similar ones."""
    by_lower = {c.lower(): c for c in candidates}
    key = normalise_name(name)
    starting = (
        sorted(
            (c for c in by_lower if normalise_name(c).startswith(key)), key=lambda c: (len(c), c)
        )
        if key
        else []
    )
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=SUGGESTIONS, cutoff=0.6)
    best = list(dict.fromkeys([*starting, *close]))[:SUGGESTIONS]
    return tuple(by_lower[c] for c in best)


#: Suggestions for unknown names: a callable given the names, answering name -> the closest
#: card names (a name may be left out: no suggestion).
Suggester = Callable[[Sequence[str]], Mapping[str, tuple[str, ...]]]


def _code_error(
    line: ListLine, card: CardFacts, expansions: Mapping[str, Collection[str]], game_name: str
) -> LineError | None:
    """The line's expansion code must be one of the game's expansions, holding the card."""
    codes = {code.lower(): code for code in expansions}
    holding = tuple(sorted(c for c, names in expansions.items() if card.name in names))
    code = codes.get(line.set_code.lower())
    if code is None:
        where = f" in {game_name}" if game_name else ""
        elsewhere = f"; {card.name} is in {', '.join(holding)}" if holding else ""
        return _unread(line, f"no expansion {line.set_code}{where}{elsewhere}", holding)
    if card.name not in expansions[code]:
        elsewhere = f"; it is in {', '.join(holding)}" if holding else ""
        return _unread(line, f"{card.name} is not in expansion {code}{elsewhere}", holding)
    return None


def _unread(line: ListLine, what: str, suggestions: tuple[str, ...] = ()) -> LineError:
    """The error of a card line whose card could not be taken: where, what, suggestions."""
    return LineError(
        line.line_no, f"{line.label}: {what}", suggestions, name=line.name, section=line.section
    )


@dataclass(slots=True)
class Resolved:
    """What `read_lines` made of parsed lines: the `deck` of the lines whose card was
    identified, an error for each line that was not (`unread`: an unknown name, a name
    matching several cards, an expansion code that does not print the card), and `where`:
    (section, card name) -> the lines that hold that card, for messages that name lines."""

    deck: Deck
    unread: list[LineError] = field(default_factory=list)
    where: dict[tuple[str, str], list[ListLine]] = field(default_factory=dict)


def resolve(
    lines: Iterable[ListLine], cards: Mapping[str, CardFacts], **options: Any
) -> tuple[Deck, list[LineError]]:
    """`read_lines` (with its keyword `options`), answering the deck and the errors of the
    lines not read."""
    read = read_lines(lines, cards, **options)
    return read.deck, read.unread


def read_lines(
    lines: Iterable[ListLine],
    cards: Mapping[str, CardFacts],
    *,
    expansions: Mapping[str, Collection[str]] | None = None,
    game_name: str = "",
    suggest: Suggester | None = None,
) -> Resolved:
    """Turn parsed lines into a `Deck`, given the game's cards (lower-cased name ->
    CardFacts). A name matches a card only when it is the card's name up to case, spacing
    and punctuation ("tiger-cat" is Tigercat; "Tigerca" is no card): any other name is an
    unknown card, suggesting the closest names (the names it is the beginning of first),
    and a name that matches several cards an error listing them. Lines for the same card
    (and placement) in one section are merged, in the order first seen.

    A line's expansion code (`Moonrunner (RL1)`) is checked against `expansions` (code ->
    the names of the cards it prints; case-insensitive codes) when given: an unknown code,
    or one whose expansion does not hold the card, is an error naming the expansions that
    do. A card whose own name ends in brackets (`Bunker (Large)`) is read as that name.

    Suggestions are looked for the first MAX_SUGGESTED unknown names only, in one call of
    `suggest` (default: the closest names of `cards`, by difflib)."""
    index = _Index(cards)
    errors: list[LineError] = []
    unknown: list[ListLine] = []
    merged: dict[str, dict[tuple[str, tuple[int, int] | None], list[Any]]] = {}
    where: dict[tuple[str, str], list[ListLine]] = {}
    for line in lines:
        card: CardFacts | None = None
        candidates: list[CardFacts] = []
        code_is_name = False
        if line.set_code:
            # a card whose name itself ends in brackets: "Bunker (Large)"
            card, _ = index.find(f"{line.name} ({line.set_code})")
            code_is_name = card is not None
        if card is None:
            card, candidates = index.find(line.name)
        if card is not None and line.set_code and not code_is_name and expansions is not None:
            error = _code_error(line, card, expansions, game_name)
            if error is not None:
                errors.append(error)
                continue
        if card is None:
            if candidates:
                names = tuple(sorted(c.name for c in candidates))
                shown = ", ".join(names[:10]) + (", …" if len(names) > 10 else "")
                errors.append(
                    _unread(line, f"{line.name!r} matches several cards: {shown}", names[:10])
                )
            else:
                unknown.append(line)
            continue
        section = merged.setdefault(line.section, {})
        key = (card.name, line.placement)
        if key in section:
            section[key][1] += line.count
        else:
            section[key] = [card, line.count, line.placement]
        where.setdefault((line.section, card.name), []).append(line)
    errors.extend(_unknown_errors(unknown, suggest or index.suggest_many))
    errors.sort(key=lambda e: e.line)
    deck = Deck(
        sections={
            s: [Entry(card, count, placement) for card, count, placement in entries.values()]
            for s, entries in merged.items()
        }
    )
    return Resolved(deck, errors, where)


def _unknown_errors(unknown: list[ListLine], suggest: Suggester) -> list[LineError]:
    """An error per unknown name; suggestions for the first MAX_SUGGESTED names only."""
    looked = list(dict.fromkeys(line.name for line in unknown))[:MAX_SUGGESTED]
    found = suggest(looked) if looked else {}
    looked_set = set(looked)
    errors = []
    for line in unknown:
        suggestions = tuple(found.get(line.name, ()))
        if suggestions:
            hint = f"; {_did_you_mean(suggestions)}"
        elif line.name in looked_set:
            hint = ""
        else:
            hint = f" (suggestions are looked for the first {MAX_SUGGESTED} unknown names only)"
        errors.append(_unread(line, f"unknown card {line.name!r}{hint}", suggestions))
    return errors


#: A rule problem names the lines of its cards when they are at most this many (beyond,
#: it is about a whole section, e.g. its points, and names the section only).
MAX_LOCATED_LINES = 4


def locate(violation: Violation, where: Mapping[tuple[str, str], Sequence[ListLine]]) -> Violation:
    """`violation` naming the lines of the list that hold its cards: "Line 4: 5 copies of
    Tigercat; at most 4" ("Lines 4, 9: …" for a card written twice, "arsenal[2]: …" for a
    list given as sections), with `lines` the line numbers of a text list. Unchanged when
    it names no card, or more than MAX_LOCATED_LINES lines."""
    if not violation.cards:
        return violation
    names = set(violation.cards)
    found = sorted(
        {
            line
            for (section, name), lines in where.items()
            if name in names and (not violation.section or section == violation.section)
            for line in lines
        },
        key=lambda line: (line.where != "", line.where, line.line_no),
    )
    if not found or len(found) > MAX_LOCATED_LINES:
        return violation
    if all(not line.where for line in found):
        numbers = tuple(dict.fromkeys(line.line_no for line in found))
        head = (
            f"Line {numbers[0]}" if len(numbers) == 1 else "Lines " + ", ".join(map(str, numbers))
        )
    else:
        numbers = ()
        head = ", ".join(dict.fromkeys(line.label for line in found))
    return replace(violation, message=f"{head}: {violation.message}", lines=numbers)


def _header(section: str, game: GameDef) -> str:
    return section.replace("_", " ").capitalize() + ":"


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
