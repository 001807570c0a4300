"""Every rule traced to its sentence: a game's rulebook, sentence by sentence, against what
Cardsite does with it.

A game declares its `Rulebook` (GameDef.trace, validation/rulebook.py): the rulebook's file and title and a tuple of
`RuleSource` rows. Each row quotes one sentence of the rulebook that bears on building a
deck, army, force or fleet, or on the mathematics of a play tool or goldfish, under the
section the rulebook files it in, and says what Cardsite does with it:

- `codes`: the construction rules (rule codes of the game's formats) that check it;
- `tool` and `function`: the play tool, goldfish or sample hand that computes with it
  ("tools:combat-odds", "combat_odds.attack_shift");
- `decision` and `reason`: a sentence read another way, left out, or a rule of play rather
  than of construction, and why.

A row with none of these is a sentence that traces to nothing, and a rule code no row names
is a rule without a source: `render_markdown` lists both under the table (docs/rules/), the
rules page of the site shows the same, and the test suite fails on the second.
Free of Django, like the rest of the rules core.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from validation.rulebook import (
    DECISIONS as DECISIONS,
)
from validation.rulebook import (
    LEFT_OUT as LEFT_OUT,
)
from validation.rulebook import (
    PLAY_RULE as PLAY_RULE,
)
from validation.rulebook import (
    READ_ANOTHER_WAY as READ_ANOTHER_WAY,
)
from validation.rulebook import (
    Rulebook as Rulebook,
)
from validation.rulebook import (
    RuleSource as RuleSource,
)
from validation.rulesets import DESCRIPTIONS as RULE_SET_RULES

if TYPE_CHECKING:
    from validation.registry import FormatDef, GameDef


def format_codes(fmt: FormatDef) -> tuple[str, ...]:
    """Every rule code a format's rules can emit, in rule order."""
    return fmt.codes()


def game_codes(game: GameDef) -> tuple[str, ...]:
    """Every rule code of every format of a game, in first-seen order."""
    return tuple(dict.fromkeys(c for fmt in game.formats.values() for c in format_codes(fmt)))


def codes_without_source(game: GameDef) -> tuple[str, ...]:
    """The rule codes of the game's formats that no row of its rulebook table names (every
    code, when the game has no table)."""
    book = game.trace
    known = book.codes() if book is not None else frozenset()
    return tuple(c for c in game_codes(game) if c not in known)


def anchor(code: str) -> str:
    """The id of a rule code's row on the rules page (the code itself: ids may hold dots)."""
    return code


@dataclass(frozen=True, slots=True)
class Why:
    """Why a violation is one: the rule in one sentence (`rule`, the format's own words) and
    the rulebook row it comes from (`source`, None when the code has none)."""

    code: str
    rule: str
    source: RuleSource | None

    @property
    def anchor(self) -> str:
        return anchor(self.code)


def why(game: GameDef, code: str, format: str | None = None) -> Why | None:
    """The rule of `code` in `format` (any format of the game when None) and its rulebook
    row; None when the game's formats have no rule of that code and no row names it."""
    formats: Iterable[FormatDef] = game.formats.values()
    if format is not None and format in game.formats:
        formats = (game.formats[format], *game.formats.values())
    rule = next((r.describe() for f in formats for r in f.rules if r.code == code), "")
    if not rule:
        # The codes of a format's rule set (organised play, not the rulebook): no row.
        rule = RULE_SET_RULES.get(code, "")
    source = game.trace.source(code) if game.trace is not None else None
    if not rule and source is None:
        return None
    return Why(code=code, rule=rule, source=source)


# --- The table as Markdown (docs/rules/<game>.md) -----------------------------------------


def _cell(text: str) -> str:
    return re.sub(r"\s+", " ", text).replace("|", "\\|").strip()


def render_markdown(game: GameDef) -> str:
    """The traceability table of `game` as the Markdown page docs/rules/<slug>.md holds."""
    book = game.trace
    if book is None:
        raise ValueError(f"{game.name} has no rulebook table")
    out = [
        f"# {game.name}: every rule traced to its sentence",
        "",
        "<!-- Generated from validation/games/"
        f"{game.python_name or game.slug}/trace.py by `python manage.py rules_docs`; "
        "do not edit by hand. -->",
        "",
        f"Rulebook: *{book.title}* (`{book.file}`). Each row quotes one sentence that bears "
        "on building a list or on a play tool's mathematics, and says what Cardsite does "
        "with it: the rule code that checks it, the tool that computes with it, or the "
        "decision (and its reason) to read it another way or leave it out.",
        "",
        "| # | Section | Rulebook sentence | Cardsite |",
        "|---|---|---|---|",
    ]
    for n, (row, _id, _own) in enumerate(book.anchors(), 1):
        out.append(
            f"| {n} | {_cell(row.section)} | “{_cell(row.quote)}” | {_cell(row.treatment())} |"
        )
    missing = codes_without_source(game)
    out += ["", "## Rule codes that trace to no sentence", ""]
    out += [f"- `{c}`" for c in missing] or ["None: every rule code of every format has a row."]
    untraced = book.untraced()
    out += ["", "## Sentences that trace to nothing", ""]
    out += [f"- {_cell(r.section)}: “{_cell(r.quote)}”" for r in untraced] or [
        "None: every sentence above is a rule, a tool's input or a recorded decision."
    ]
    rules = sorted({c for fmt in game.formats.values() for c in fmt.codes()})
    out += ["", "## Coverage", ""]
    out.append(
        f"{len(book.rows)} rows; {len(rules) - len(missing)} of {len(rules)} rule codes "
        f"traced; {len(untraced)} sentences untraced."
    )
    return "\n".join(out) + "\n"


def docs_name(game: GameDef) -> str:
    """The file name of a game's page under docs/rules/."""
    return f"{game.slug}.md"


def rules_docs(games: Iterable[GameDef]) -> dict[str, str]:
    """The pages of docs/rules/: file name -> Markdown, for every game with a table."""
    return {docs_name(g): render_markdown(g) for g in games if g.trace is not None}
