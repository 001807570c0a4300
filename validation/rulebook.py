"""A game's rulebook as data: the rows of its traceability table (`RuleSource`, one sentence
each, and what Cardsite does with it) and the `Rulebook` a `GameDef` declares. What is
worked out from a rulebook against the games' formats (the rules page, docs/rules/) is
validation/trace.py. Free of Django, like the rest of the rules core.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

#: The decisions a row may record, and how the table words them.
READ_ANOTHER_WAY = "read another way"
LEFT_OUT = "left out"
PLAY_RULE = "play rule, not construction"
DECISIONS: tuple[str, ...] = (READ_ANOTHER_WAY, LEFT_OUT, PLAY_RULE)


@dataclass(frozen=True, slots=True)
class RuleSource:
    """One sentence of a rulebook and what Cardsite does with it (see the module)."""

    section: str
    quote: str
    codes: tuple[str, ...] = ()
    tool: str = ""
    function: str = ""
    decision: str = ""
    reason: str = ""

    def __post_init__(self) -> None:
        if not self.section.strip() or not self.quote.strip():
            raise ValueError(f"a rule source needs a section and a quotation: {self!r}")
        if self.decision and self.decision not in DECISIONS:
            raise ValueError(f"unknown decision {self.decision!r}; one of: {', '.join(DECISIONS)}")
        if self.decision and not self.reason:
            raise ValueError(f"the decision on {self.quote[:40]!r}… needs its reason")
        if self.function and not self.tool:
            raise ValueError(f"function {self.function!r} names no tool")

    @property
    def traced(self) -> bool:
        """Whether Cardsite does something with the sentence (a rule, a tool, a decision)."""
        return bool(self.codes or self.tool or self.decision)

    def treatment(self) -> str:
        """What Cardsite does with it, in words: 'rule arsenal.size', 'tools:combat-odds
        (combat_odds.table_4)', 'left out: …'."""
        parts = []
        if self.codes:
            parts.append("rule " + ", ".join(self.codes))
        if self.tool:
            parts.append(f"{self.tool} ({self.function})" if self.function else self.tool)
        if self.decision:
            parts.append(f"{self.decision}: {self.reason}")
        elif self.reason:
            parts.append(self.reason)
        return "; ".join(parts) or "nothing yet"


@dataclass(frozen=True)
class Rulebook:
    """A game's rulebook (`file`, as the site's rulebook folder names it, and `title`) and
    the rows of its traceability table, in the rulebook's order."""

    file: str
    title: str
    rows: tuple[RuleSource, ...]
    _by_code: dict[str, RuleSource] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_code: dict[str, RuleSource] = {}
        for row in self.rows:
            for code in row.codes:
                by_code.setdefault(code, row)
        object.__setattr__(self, "_by_code", by_code)

    def source(self, code: str) -> RuleSource | None:
        """The row a rule code is explained by: the first that names it."""
        return self._by_code.get(code)

    def codes(self) -> frozenset[str]:
        """Every rule code some row names."""
        return frozenset(self._by_code)

    def untraced(self) -> tuple[RuleSource, ...]:
        """The sentences that trace to nothing."""
        return tuple(row for row in self.rows if not row.traced)

    def anchors(self) -> Iterator[tuple[RuleSource, str, tuple[str, ...]]]:
        """Each row with its own id (`row_id`) and the codes whose explaining row it is (each
        code is an anchor of the rules page: /rules/<game>/#arsenal.size)."""
        for n, row in enumerate(self.rows, 1):
            own = tuple(c for c in row.codes if self._by_code.get(c) is row)
            yield row, f"row-{n}", own
