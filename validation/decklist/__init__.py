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

One module per step: `lines` (what a read list is made of), `parsing`, `recognising`,
`resolving` (with `locate`) and `writing`.
"""

from .lines import _COMMENT as _COMMENT
from .lines import _HEADER as _HEADER
from .lines import _TRAILING_COMMENT as _TRAILING_COMMENT
from .lines import (
    MAX_COUNT,
    MAX_DIGITS,
    MAX_ENTRIES,
    MAX_LIST_BYTES,
    MAX_LIST_LINES,
    MAX_SECTIONS,
    MAX_SUGGESTED,
    PLACEMENT,
    PLACEMENT_ALIAS,
    LineError,
    ListLine,
    ParseResult,
    normalise_section,
    section_aliases,
    sections_size_problem,
    text_size_problem,
)
from .parsing import TypedLine, parse, parse_sections, read_typed_line
from .parsing import _card_line as _card_line
from .recognising import Outline, Recognised, fitting_formats, outline, recognise
from .resolving import (
    MAX_LOCATED_LINES,
    SUGGESTIONS,
    Resolved,
    Suggester,
    closest_names,
    locate,
    normalise_name,
    read_lines,
    resolve,
)
from .writing import export, write

__all__ = [
    "MAX_COUNT",
    "MAX_DIGITS",
    "MAX_ENTRIES",
    "MAX_LIST_BYTES",
    "MAX_LIST_LINES",
    "MAX_LOCATED_LINES",
    "MAX_SECTIONS",
    "MAX_SUGGESTED",
    "PLACEMENT",
    "PLACEMENT_ALIAS",
    "SUGGESTIONS",
    "LineError",
    "ListLine",
    "Outline",
    "ParseResult",
    "Recognised",
    "Resolved",
    "Suggester",
    "TypedLine",
    "closest_names",
    "export",
    "fitting_formats",
    "locate",
    "normalise_name",
    "normalise_section",
    "outline",
    "parse",
    "parse_sections",
    "read_lines",
    "read_typed_line",
    "recognise",
    "resolve",
    "section_aliases",
    "sections_size_problem",
    "text_size_problem",
    "write",
]
