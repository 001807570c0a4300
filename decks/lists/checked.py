"""A list checked as written: what the rules core said of the lines that were read, and the
lines that were not."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from validation import decklist
from validation.runner import Report
from validation.types import Deck


@dataclass
class CheckedList:
    """A list checked as written: the `deck` of the lines read, the rules' `report` on it
    (as stored with a deck), the card lines not read (`unread`: unknown names, with
    suggestions) and which lines hold each card (`where`), so that a rule problem about a
    card names its lines."""

    deck: Deck
    report: Report
    lines: list[Any] = field(default_factory=list)
    unread: list[decklist.LineError] = field(default_factory=list)
    where: Mapping[tuple[str, str], Any] = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        """Legal: no rule error and every card line read."""
        return self.report.legal and not self.unread

    def located(self) -> Report:
        """The report as shown for the list as written: not legal while a line is unknown,
        every violation about a card naming its lines ("Line 4: …")."""
        return Report(
            legal=self.legal,
            errors=[decklist.locate(v, self.where) for v in self.report.errors],
            warnings=[decklist.locate(v, self.where) for v in self.report.warnings],
            totals=self.report.totals,
            rule_set=self.report.rule_set,
        )

    def answer(self) -> dict[str, Any]:
        """The validate API's answer: the located report and the `unknown` lines."""
        body = self.located().as_dict()
        body["unknown"] = [e.as_unread() for e in self.unread]
        return body

    def problem_items(self) -> list[dict[str, Any]]:
        """Every rule problem (errors, then warnings) as an item of a list of line errors."""
        report = self.located()
        return [
            {
                "line": v.lines[0] if v.lines else 0,
                "message": v.message,
                "suggestions": [],
                "code": v.code,
                "severity": v.severity,
            }
            for v in report.errors + report.warnings
        ]
