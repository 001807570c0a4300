"""The size rules of a section: an exact size, a minimum, a band of sizes or of copies of
some kinds."""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from validation.types import CardFacts, Deck, Violation

from .base import Rule, a, kind_cards, plural
from .context import RuleContext


class _SectionCount(Rule):
    """Shared by the size rules: counts the cards of a section that belong in it (of `kinds`
    when given, not of `exclude`); a card of another kind is never counted, and (with
    `strays`) is reported under the same code. A section whose kind rule reports strays
    counts with `strays` off: the stray is that rule's error, the size the size rule's."""

    __slots__ = ("section", "kinds", "exclude", "noun", "strays")

    def __init__(
        self,
        section: str,
        *,
        code: str,
        kinds: Collection[str] | None = None,
        exclude: Collection[str] = (),
        noun: tuple[str, str] = ("card", "cards"),
        strays: bool = True,
        **kw: Any,
    ) -> None:
        super().__init__(code=code, **kw)
        self.section = section
        self.kinds = frozenset(kinds) if kinds is not None else None
        self.exclude = frozenset(exclude)
        self.noun = noun
        self.strays = strays

    def belongs(self, card: CardFacts) -> bool:
        return (self.kinds is None or card.kind in self.kinds) and card.kind not in self.exclude

    def _count(self, deck: Deck, ctx: RuleContext, out: list[Violation]) -> int:
        # By kind first (a handful of kinds, counted once per deck): the entries are read one
        # by one only when a stray must be named.
        total, stray = ctx.counted(deck, self.section, self.kinds, self.exclude)
        if stray and self.strays:
            return self._strays(deck, ctx, out)
        return total

    def _strays(self, deck: Deck, ctx: RuleContext, out: list[Violation]) -> int:
        """The count of the cards that belong, reading the lines one by one to report each
        stray card in `out`."""
        entries = deck.sections.get(self.section, ())
        total = 0
        for e in entries:
            if self.belongs(e.card):
                total += e.count
            elif self.strays:
                kind = ctx.kind_label(e.card.kind)
                if self.kinds is not None:
                    wanted = " or ".join(sorted(ctx.kind_label(k) for k in self.kinds))
                    why = f"only {kind_cards(wanted)} count"
                else:
                    why = f"{kind_cards(kind)} do not count"
                out.append(
                    self.violation(
                        f"{e.card.name} is {a(kind)}; {self.place(ctx, self.section)} {why}",
                        self.section,
                        (e.card.name,),
                    )
                )
        return total


class _SizeRule(_SectionCount):
    """A size rule: the section's count checked by `_wrong(n)`, the wanted size (the words
    after the semicolon of the message) when `n` is not, else None. `_fits` are the lowest
    and highest counts `_wrong` takes (the highest infinite when there is none), compared
    first: its words are written only for a count out of them."""

    __slots__ = ("_fits",)

    def __init__(self, section: str, low: int, high: float, **kw: Any) -> None:
        super().__init__(section, **kw)
        self._fits = (low, high)

    def _wrong(self, n: int) -> str | None:
        raise NotImplementedError

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        total, stray = ctx.counted(deck, self.section, self.kinds, self.exclude)
        low, high = self._fits
        if low <= total <= high and not (stray and self.strays):
            return []  # the common case: no stray to name, the size right
        out: list[Violation] = []
        n = self._count(deck, ctx, out)
        wanted = self._wrong(n)
        if wanted is not None:
            out.append(
                self.violation(
                    f"{plural(n, *self.noun)} {self.place(ctx, self.section)}; {wanted}",
                    self.section,
                )
            )
        return out


class ExactSize(_SizeRule):
    """A section holds exactly `size` cards (of `kinds`, when given)."""

    __slots__ = ("size",)

    def __init__(self, section: str, size: int, **kw: Any) -> None:
        super().__init__(section, size, size, **kw)
        self.size = size

    def _wrong(self, n: int) -> str | None:
        return None if n == self.size else f"exactly {self.size}"


class MinSize(_SizeRule):
    """A section holds at least `minimum` cards (of `kinds`, when given)."""

    __slots__ = ("minimum",)

    def __init__(self, section: str, minimum: int, **kw: Any) -> None:
        super().__init__(section, minimum, math.inf, **kw)
        self.minimum = minimum

    def _wrong(self, n: int) -> str | None:
        return None if n >= self.minimum else f"at least {self.minimum}"


class _Band(_SizeRule):
    __slots__ = ("low", "high")

    def __init__(self, section: str, low: int, high: int, **kw: Any) -> None:
        super().__init__(section, low, high, **kw)
        self.low = low
        self.high = high


class SizeBand(_Band):
    """A section holds between `low` and `high` cards (of `kinds`, when given)."""

    __slots__ = ()

    def _wrong(self, n: int) -> str | None:
        return None if self.low <= n <= self.high else f"{self.low} to {self.high}"


class CountBand(_Band):
    """The cards of `kinds` in a section number between `low` and `high` (a warning by
    default: a REDLINE arsenal usually holds 22 to 24 resources). Other kinds are ignored."""

    __slots__ = ()

    def __init__(self, section: str, low: int, high: int, **kw: Any) -> None:
        kw.setdefault("severity", "warning")
        kw.setdefault("strays", False)
        super().__init__(section, low, high, **kw)

    def _wrong(self, n: int) -> str | None:
        if self.low <= n <= self.high:
            return None
        gap = f"{self.low - n} too few" if n < self.low else f"{n - self.high} too many"
        return f"usually {self.low} to {self.high} ({gap})"
