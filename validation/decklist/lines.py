"""The pieces of a read list: `ListLine`, `LineError` and `ParseResult`, the bounds of a list,
and the names of sections as a list may write them."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from validation.types import plain

if TYPE_CHECKING:
    from validation.registry import GameDef


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


def _header(section: str, game: GameDef) -> str:
    return section.replace("_", " ").capitalize() + ":"
