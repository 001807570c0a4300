"""What a rule set file import reports: each error, each rule set's plan (what it changes
and for whom) and the bounds of a file."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import ngettext

from validation.registry import registry

from .. import rulesets
from ..file_imports import FileImportFailed, FileImportReport
from ..hooks import DeckVerdicts as DeckVerdicts

#: The file format's version (`"rule_set": 1`).
FILE_VERSION = 1
KNOWN_TOP_KEYS = frozenset(
    {"rule_set", "game", "format", "code", "name", "announced", "effective", "expansions",
     "cards", "note", "sample"}
)  # fmt: skip
KNOWN_ROW_KEYS = frozenset({"name", "banned", "limit", "cost", "text"})
#: Bounds of a file: rule sets in one file, card rows in one rule set, expansions listed.
MAX_SETS = 200
MAX_ROWS = 20_000
MAX_EXPANSIONS = 500
#: The largest copy limit and cost a row may give (no game comes near them).
MAX_LIMIT = 1_000
MAX_COST = 1_000_000
#: A card row's whole-number keys: the largest value each takes, as an error shows it.
WHOLE_NUMBER_ROW_KEYS = (("limit", MAX_LIMIT, f"{MAX_LIMIT}"), ("cost", MAX_COST, f"{MAX_COST:,}"))


@dataclass(frozen=True)
class RuleSetError:
    """One reason a file cannot be imported: the rule set (`index` in the file, its code when
    readable), the card row (`row`, None for the rule set's own fields), the field and why."""

    index: int
    field: str
    message: str
    code: str = ""
    row: int | None = None
    name: str = ""

    def __str__(self) -> str:
        where = f"rule set #{self.index}"
        if self.code:
            where += f" ({self.code})"
        if self.row is not None:
            where += f", card #{self.row}"
            if self.name:
                where += f" ({self.name})"
        return f"{where}, {self.field}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "code": self.code,
            "row": self.row,
            "name": self.name,
            "field": self.field,
            "message": self.message,
        }


@dataclass
class Entry:
    """A card's entry in a rule set, by its canonical name."""

    banned: bool = False
    limit: int | None = None
    cost: int | None = None
    text: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.banned:
            out["banned"] = True
        if self.limit is not None:
            out["limit"] = self.limit
        if self.cost is not None:
            out["cost"] = self.cost
        if self.text:
            out["text"] = self.text
        return out


@dataclass
class Plan:
    """One rule set of a file, checked: its fields, entries by card id, and what importing
    it changes against the stored rule set of the same code (`changes`, in words; `created`
    when there is none)."""

    game: str
    format: str
    code: str
    name: str
    announced: dt.date
    effective: dt.date
    expansions: list[str]
    note: str
    sample: bool
    entries: dict[int, tuple[str, Entry]] = field(default_factory=dict)
    created: bool = True
    changes: list[str] = field(default_factory=list)
    #: What the rule set changes for the players, against the rule set it replaces (the
    #: stored one of its code) or, when new, the one it follows (in effect before it; None:
    #: the format's own rules): banned, unbanned, limits, costs, errata, expansions.
    against: list[rulesets.Change] = field(default_factory=list)
    #: What it is compared with, in words: "S1 (Season 1), which it follows".
    compared_with: str = ""
    #: The saved decks whose verdict it would change (None: no hook answered).
    decks: DeckVerdicts | None = None

    @property
    def unchanged(self) -> bool:
        return not self.created and not self.changes

    @property
    def game_name(self) -> str:
        """The game's short name as its package spells it; the slug of an unknown one."""
        try:
            return registry.get(self.game).short_name
        except KeyError:
            return self.game

    @property
    def format_name(self) -> str:
        """The format's name as its game spells it ("Standard"); the slug of an unknown one."""
        try:
            return registry.get(self.game).format(self.format).name
        except (KeyError, ValueError):
            return self.format

    def summary(self) -> str:
        if self.created:
            n = len(self.against)
            what = f"new; against {self.compared_with}: " + (
                ngettext("%(n)d change", "%(n)d changes", n) % {"n": n}
                if self.against
                else "nothing changes"
            )
        elif self.changes:
            n = len(self.changes)
            what = ngettext(
                "%(n)d change to the stored %(code)s", "%(n)d changes to the stored %(code)s", n
            ) % {"n": n, "code": self.code}
        else:
            what = "unchanged"
        named = f" ({self.name})" if self.name else ""
        line = f"{self.game_name} {self.format_name} {self.code}{named}: {what}"
        if self.decks is not None:
            line += f"; {self.decks.text}"
        return line

    def lines(self) -> list[str]:
        """Every change in words: the rule set's own fields (an update), then what changes
        for the players."""
        return [*self.changes] if not self.created else [c.text for c in self.against]


@dataclass
class RuleSetImportReport(FileImportReport):
    plans: list[Plan] = field(default_factory=list)
    errors: list[RuleSetError] = field(default_factory=list)
    dry_run: bool = False

    def counts(self) -> str:
        created = sum(p.created for p in self.plans)
        updated = sum(bool(not p.created and p.changes) for p in self.plans)
        unchanged = sum(p.unchanged for p in self.plans)
        n = len(self.plans)
        sets = ngettext("%(n)d rule set", "%(n)d rule sets", n) % {"n": n}
        return f"{sets}: {self.created_words(created)}, {updated} updated, {unchanged} unchanged."


class RuleSetImportFailed(FileImportFailed):
    """A rule set file with at least one bad row (`report`: every one)."""

    report: RuleSetImportReport
