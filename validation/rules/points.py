"""The points rules: a format's points limit (an option a deck may adjust) and the points
of some sections' cards."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from validation.types import Deck, Violation

from .base import Rule
from .context import RuleContext


def option_limit(ctx: RuleContext, option: str) -> int | None:
    """A positive integer option of the format, or None when it is missing or malformed."""
    value = ctx.options.get(option)
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def points(deck: Deck, sections: Iterable[str], kinds: Collection[str] | None = None) -> int:
    """Sum of cost × count over the cards of `sections` (of `kinds`, when given)."""
    total = 0
    for section in sections:
        for e in deck.sections.get(section, ()):
            if kinds is None or e.card.kind in kinds:
                total += e.card.cost * e.count
    return total


class PointsLimit(Rule):
    """The cards of `sections` cost at most the format option `option` in total
    ("38 force points; at most 36"). A malformed limit is itself a violation."""

    __slots__ = ("sections", "option", "noun", "kinds")

    reads_cost = True

    def __init__(
        self,
        sections: str | tuple[str, ...],
        *,
        option: str = "points",
        noun: str = "points",
        kinds: Collection[str] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.sections = (sections,) if isinstance(sections, str) else tuple(sections)
        self.option = option
        self.noun = noun
        self.kinds = frozenset(kinds) if kinds is not None else None

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        limit = option_limit(ctx, self.option)
        if limit is None:
            return [
                self.violation(
                    f"the {self.option} limit must be a positive whole number, "
                    f"got {ctx.options.get(self.option)!r}"
                )
            ]
        total = points(deck, self.sections, self.kinds)
        if total <= limit:
            return []
        cards = [
            e.card.name
            for s in self.sections
            for e in deck.sections.get(s, ())
            if e.card.cost and (self.kinds is None or e.card.kind in self.kinds)
        ]
        section = self.sections[0] if len(self.sections) == 1 else ""
        return [
            self.violation(
                f"{total} {self.noun}; at most {limit}",
                section,
                dict.fromkeys(cards),
            )
        ]


class PointsUnder(PointsLimit):
    """A warning when the cards of `sections` cost less than the format's limit."""

    __slots__ = ()

    def __init__(self, sections: str | tuple[str, ...], **kw: Any) -> None:
        kw.setdefault("severity", "warning")
        super().__init__(sections, **kw)

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        limit = option_limit(ctx, self.option)
        if limit is None:
            return []  # PointsLimit reports it
        total = points(deck, self.sections, self.kinds)
        if total >= limit:
            return []
        section = self.sections[0] if len(self.sections) == 1 else ""
        return [
            self.violation(
                f"{total} {self.noun}; {limit} allowed ({limit - total} unused)", section
            )
        ]
