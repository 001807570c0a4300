"""Construction rules: small composable checks, configured per format.

In the spirit of `django.contrib.auth.password_validation`: each rule is a small object
with a stable `code` and a `severity`, and `check(deck, ctx)` returns every `Violation` it
finds (an empty list when the deck follows it). A format is a tuple of rules; the runner
(`validation.runner.validate`) runs them all and collects every violation.

A rule with `when_present` set runs only when that section of the deck is non-empty: this
is how optional sections are checked only when a list includes them (a REDLINE mission deck).
Messages state the limit and the gap: "5 copies of Tigercat; at most 4".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from validation.types import CardFacts, Deck, Entry, Severity, Violation, violation

if TYPE_CHECKING:
    from validation.registry import FormatDef, GameDef

NEUTRAL_FACTIONS: frozenset[str] = frozenset({"neutral", ""})


class RuleContext:
    """What a rule may know besides the deck: the game, the format, the format's options
    (defaults overlaid with the deck's adjustable options) and, when the caller supplies it,
    the game's card pool (lower-cased name -> CardFacts) for rules that name cards outside
    the deck's sections (the Red Code map layout).

    `deck` is the deck being checked in this context (the runner sets it): what the rules
    read of its sections (copies by kind, factions) is counted once and shared by every rule
    and the runner's totals. A context is made for every deck checked, so it is a plain
    object with slots (no dataclass machinery to run)."""

    __slots__ = ("game", "format", "options", "cards", "deck", "by_kind", "_factions", "_counted")

    def __init__(
        self,
        game: GameDef,
        format: FormatDef,
        options: Mapping[str, Any],
        cards: Mapping[str, CardFacts] | None = None,
        deck: Deck | None = None,
    ) -> None:
        self.game = game
        self.format = format
        self.options = options
        self.cards = cards
        self.deck = deck
        #: section -> copies by kind, of the sections of `deck` counted so far.
        self.by_kind: dict[str, dict[str, int]] = {}
        self._factions: dict[str, frozenset[str]] = {}
        #: (section, kinds, exclude) -> what `counted` answered, for `deck`.
        self._counted: dict[
            tuple[str, frozenset[str] | None, frozenset[str]], tuple[int, bool]
        ] = {}

    def __repr__(self) -> str:
        return f"<RuleContext {self.game.slug} {self.format.slug}>"

    def kind_counts(self, deck: Deck, section: str) -> Mapping[str, int]:
        """How many copies of each card kind the section `section` of `deck` holds."""
        if deck is not self.deck:
            return _kind_counts(deck.sections.get(section, ()))
        counts = self.by_kind.get(section)
        if counts is None:
            counts = self.by_kind[section] = _kind_counts(deck.sections.get(section, ()))
        return counts

    def counted(
        self, deck: Deck, section: str, kinds: frozenset[str] | None, exclude: frozenset[str]
    ) -> tuple[int, bool]:
        """The copies in the section `section` of `deck` of the cards of `kinds` (of any kind
        when None) and not of `exclude`, and whether it holds a card of another kind (a
        stray). A section's size rule and its count in the totals read it (for `deck`, it is
        worked out once)."""
        if deck is not self.deck:
            return _counted(_kind_counts(deck.sections.get(section, ())), kinds, exclude)
        key = (section, kinds, exclude)
        got = self._counted.get(key)
        if got is not None:
            return got
        counts = self.by_kind.get(section)
        if counts is None:
            counts = self.by_kind[section] = _kind_counts(deck.sections.get(section, ()))
        # The common case, in set operations: every kind of the section belongs.
        if exclude.isdisjoint(counts) and (kinds is None or kinds.issuperset(counts)):
            got = self._counted[key] = (sum(counts.values()), False)
        else:
            got = self._counted[key] = _counted(counts, kinds, exclude)
        return got

    def factions(self, deck: Deck, section: str) -> frozenset[str]:
        """The factions of the cards of the section `section` of `deck`."""
        if deck is not self.deck:
            return frozenset({e.card.faction for e in deck.sections.get(section, ())})
        got = self._factions.get(section)
        if got is None:
            got = frozenset({e.card.faction for e in deck.sections.get(section, ())})
            self._factions[section] = got
        return got

    def where(self, section: str) -> str:
        """'in the arsenal' for section 'arsenal'."""
        return self.game.section_place(section)

    def kind_label(self, kind: str) -> str:
        schema = self.game.kinds.get(kind)
        return schema.label.lower() if schema else kind


def _kind_counts(entries: Iterable[Entry]) -> dict[str, int]:
    """Copies by card kind of `entries`, the kinds in the order they first appear. A list
    holds its cards of one kind together, mostly: a run of lines of one kind is summed
    before the dict is touched."""
    counts: dict[str, int] = {}
    lines = iter(entries)
    first = next(lines, None)
    if first is None:
        return counts
    kind = first.card.kind
    n = first.count
    for e in lines:
        k = e.card.kind
        if k == kind:
            n += e.count
        else:
            counts[kind] = counts.get(kind, 0) + n
            kind = k
            n = e.count
    counts[kind] = counts.get(kind, 0) + n
    return counts


def _counted(
    counts: Mapping[str, int], kinds: frozenset[str] | None, exclude: frozenset[str]
) -> tuple[int, bool]:
    """`RuleContext.counted` of the copies by kind `counts`."""
    # The common case, in set operations: every kind of the section belongs.
    if exclude.isdisjoint(counts) and (kinds is None or kinds.issuperset(counts)):
        return sum(counts.values()), False
    total = 0
    for kind, n in counts.items():
        if (kinds is None or kind in kinds) and kind not in exclude:
            total += n
    return total, True


#: Words that start with a vowel letter and a consonant sound ("a unit", "a one-off"), and
#: the reverse ("an hour").
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "ure", "euro", "eu", "one", "once", "ubiq")
_VOWEL_SOUND = ("hour", "honest", "honou", "heir")


def a(noun: str) -> str:
    """'an efreet', 'a general', 'a unit', 'an hour'."""
    word = noun.lower()
    if word.startswith(_VOWEL_SOUND):
        article = "an"
    elif word.startswith(_CONSONANT_SOUND):
        article = "a"
    else:
        article = "an" if word[:1] in "aeiou" else "a"
    return f"{article} {noun}"


def kind_cards(kinds: str) -> str:
    """'efreet cards', 'combat cards' (for 'combat card'), 'map cards'."""
    if kinds.endswith(" card"):
        return kinds + "s"
    if kinds.endswith(" cards"):
        return kinds
    return f"{kinds} cards"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """'1 card', '61 cards'."""
    if count == 1:
        return f"{count} {singular}"
    return f"{count} {plural_form or singular + 's'}"


def _names(entries: Iterable[Entry]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(e.card.name for e in entries))


class Rule:
    """Base of every construction rule.

    `code` is the stable code of the game spec, `severity` "error" (the deck is illegal) or
    "warning" (shown, but the deck stays legal), `when_present` a section whose absence
    skips the rule, `description` the rule in words for the builder page.
    """

    __slots__ = ("code", "severity", "when_present", "description", "where")

    #: Whether the rule reads cards' costs (a rule set's new costs are then named in its
    #: messages: validation.rulesets.cost_note).
    reads_cost = False

    def __init__(
        self,
        *,
        code: str,
        severity: Severity = "error",
        when_present: str | None = None,
        description: str = "",
        where: str | None = None,
    ) -> None:
        self.code = code
        self.severity = severity
        self.when_present = when_present
        self.description = description
        self.where = where

    def place(self, ctx: RuleContext, section: str) -> str:
        """Where a section is, in messages: the rule's `where` or 'in the <label>'."""
        return self.where or ctx.game.section_place(section)

    def applies(self, deck: Deck) -> bool:
        return self.when_present is None or bool(deck.sections.get(self.when_present))

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        raise NotImplementedError

    def describe(self) -> str:
        return self.description or self.code

    def violation(self, message: str, section: str = "", cards: Iterable[str] = ()) -> Violation:
        return violation(self.code, message, self.severity, section, tuple(cards))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.code}>"


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


class CopyLimit(Rule):
    """At most `limit` copies of one card (by name) across `sections`; cards for which
    `exempt(card)` is true (REDLINE basic supply drops) have no limit."""

    __slots__ = ("sections", "limit", "exempt")

    def __init__(
        self,
        sections: str | tuple[str, ...],
        limit: int,
        *,
        exempt: Callable[[CardFacts], bool] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.sections = (sections,) if isinstance(sections, str) else tuple(sections)
        self.limit = limit
        self.exempt = exempt

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        limit = self.limit
        exempt = self.exempt
        sections = deck.sections
        if len(self.sections) == 1:
            entries = sections.get(self.sections[0], ())
        else:
            entries = [e for s in self.sections for e in sections.get(s, ())]
        # The common case: every card on one line, so a card's copies are its line's count
        # and only the lines over the limit are read again (the exempt ones among them: a
        # REDLINE arsenal's 20 basic supply drops).
        if len({e.card.name for e in entries}) == len(entries):
            section = self.sections[0] if len(self.sections) == 1 else ""
            return [
                self.violation(
                    f"{e.count} copies of {e.card.name}; at most {limit}", section, (e.card.name,)
                )
                for e in entries
                if e.count > limit and (exempt is None or not exempt(e.card))
            ]
        counts: dict[str, int] = {}
        over = False
        for section in self.sections:
            for e in sections.get(section, ()):
                card = e.card
                if exempt is not None and exempt(card):
                    continue
                n = counts.get(card.name, 0) + e.count
                counts[card.name] = n
                if n > limit:
                    over = True
        if not over:
            return []
        section = self.sections[0] if len(self.sections) == 1 else ""
        return [
            self.violation(f"{n} copies of {name}; at most {limit}", section, (name,))
            for name, n in counts.items()
            if n > limit
        ]


class _KindRule(Rule):
    """A rule on the kinds of one section's cards: each card of a kind `_refuses` is
    reported, with `_why` it may not be there."""

    __slots__ = ("section", "kinds")

    def __init__(self, section: str, kinds: Collection[str], **kw: Any) -> None:
        super().__init__(**kw)
        self.section = section
        self.kinds = frozenset(kinds)

    def _refuses(self, kind: str) -> bool:
        raise NotImplementedError

    def _refuses_any(self, kinds: Collection[str]) -> bool:
        """Whether a kind of `kinds` is refused (one set operation)."""
        raise NotImplementedError

    def _why(self, ctx: RuleContext, kind: str) -> str:
        raise NotImplementedError

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        # By kind first (counted once per deck): the lines are read only when one is refused.
        if not self._refuses_any(ctx.kind_counts(deck, self.section).keys()):
            return []
        return [
            self.violation(
                f"{e.card.name} is {a(ctx.kind_label(e.card.kind))}; {self._why(ctx, e.card.kind)}",
                self.section,
                (e.card.name,),
            )
            for e in deck.sections.get(self.section, ())
            if self._refuses(e.card.kind)
        ]


class KindAllowed(_KindRule):
    """A section may hold only cards of `kinds`."""

    __slots__ = ()

    def _refuses(self, kind: str) -> bool:
        return kind not in self.kinds

    def _refuses_any(self, kinds: Collection[str]) -> bool:
        return not self.kinds.issuperset(kinds)

    def _why(self, ctx: RuleContext, kind: str) -> str:
        wanted = " or ".join(sorted(ctx.kind_label(k) for k in self.kinds))
        return f"{self.place(ctx, self.section)} only {kind_cards(wanted)} are allowed"


class KindForbidden(_KindRule):
    """A section may not hold cards of `kinds`."""

    __slots__ = ()

    def _refuses(self, kind: str) -> bool:
        return kind in self.kinds

    def _refuses_any(self, kinds: Collection[str]) -> bool:
        return not self.kinds.isdisjoint(kinds)

    def _why(self, ctx: RuleContext, kind: str) -> str:
        return f"no {kind_cards(ctx.kind_label(kind))} {self.place(ctx, self.section)}"


class ExactlyOne(Rule):
    """A section holds exactly one card, of `kind` (a REDLINE general)."""

    __slots__ = ("section", "kind")

    def __init__(self, section: str, kind: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.section = section
        self.kind = kind

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        entries = deck.sections.get(self.section, ())
        if len(entries) == 1 and entries[0].count == 1 and entries[0].card.kind == self.kind:
            return []
        label = ctx.kind_label(self.kind)
        out = [
            self.violation(
                f"{e.card.name} is {a(ctx.kind_label(e.card.kind))}, not {a(label)}",
                self.section,
                (e.card.name,),
            )
            for e in entries
            if e.card.kind != self.kind
        ]
        leaders = [e for e in entries if e.card.kind == self.kind]
        n = sum(e.count for e in leaders)
        if n != 1:
            out.append(
                self.violation(
                    f"{plural(n, label) if n else 'no ' + label} {self.place(ctx, self.section)}; "
                    "exactly 1",
                    self.section,
                    _names(leaders),
                )
            )
        return out


def leader_of(deck: Deck, section: str, kind: str) -> CardFacts | None:
    """The single card of `kind` in `section`, or None when there is not exactly one."""
    entries = deck.sections.get(section, ())
    if len(entries) == 1:  # the common case: the leader's section holds the leader alone
        only = entries[0]
        return only.card if only.count == 1 and only.card.kind == kind else None
    leaders = [e for e in entries if e.card.kind == kind]
    if len(leaders) == 1 and leaders[0].count == 1:
        return leaders[0].card
    return None


class LeaderFaction(Rule):
    """Every card of `sections` is neutral or of the leader's faction. Skipped when there is
    not exactly one leader (another rule reports that)."""

    __slots__ = ("leader_section", "leader_kind", "sections", "neutral", "_allowed")

    def __init__(
        self,
        leader_section: str,
        leader_kind: str,
        sections: str | tuple[str, ...],
        *,
        neutral: Collection[str] = NEUTRAL_FACTIONS,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.leader_section = leader_section
        self.leader_kind = leader_kind
        self.sections = (sections,) if isinstance(sections, str) else tuple(sections)
        self.neutral = frozenset(neutral)
        #: A leader's faction -> the factions allowed beside it (made once for each).
        self._allowed: dict[str, frozenset[str]] = {}

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        leader = leader_of(deck, self.leader_section, self.leader_kind)
        if leader is None:
            return []
        allowed = self._allowed.get(leader.faction)
        if allowed is None:
            allowed = self._allowed[leader.faction] = self.neutral | {leader.faction}
        for section in self.sections:
            if not ctx.factions(deck, section) <= allowed:
                break
        else:
            return []
        out = []
        for section in self.sections:
            for e in deck.sections.get(section, ()):
                if e.card.faction not in allowed:
                    faction = ctx.game.factions.get(e.card.faction, e.card.faction)
                    own = ctx.game.factions.get(leader.faction, leader.faction)
                    out.append(
                        self.violation(
                            f"{e.card.name} is {faction} {self.place(ctx, section)}; only neutral "
                            f"cards or {own} cards of {leader.name}",
                            section,
                            (e.card.name,),
                        )
                    )
        return out


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


class DistinctPlacement(Rule):
    """Every unit of `section` stands on its own cell (one unit per line, `count` 1) of the
    area `columns` × `rows` (a Hex Skirmish player's own 8 × 8 half); the messages call a
    cell by the word of the game's placement grid (a hex, a square)."""

    __slots__ = ("section", "columns", "rows")

    def __init__(self, section: str, *, columns: int, rows: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.section = section
        self.columns = columns
        self.rows = rows

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        out: list[Violation] = []
        taken: dict[tuple[int, int], str] = {}
        s = self.section
        grid = getattr(ctx.game, "placement", None)
        cell = grid.noun[0] if grid is not None else "cell"
        for e in deck.sections.get(s, ()):
            name = e.card.name
            if e.placement is None:
                out.append(
                    self.violation(f"{name} has no {cell}; every unit is placed", s, (name,))
                )
                continue
            c, r = e.placement
            if not (0 <= c < self.columns and 0 <= r < self.rows):
                out.append(
                    self.violation(
                        f"{name} at {c},{r} is outside the deployment area; columns "
                        f"0–{self.columns - 1}, rows 0–{self.rows - 1}",
                        s,
                        (name,),
                    )
                )
                continue
            if e.count > 1:
                out.append(
                    self.violation(
                        f"{e.count} {name} on {cell} {c},{r}; one unit a {cell}", s, (name,)
                    )
                )
            other = taken.get((c, r))
            if other is not None:
                both = f"two {name} units" if other == name else f"{other} and {name}"
                out.append(
                    self.violation(
                        f"{both} on the same {cell} {c},{r}; one unit a {cell}",
                        s,
                        dict.fromkeys((other, name)),
                    )
                )
            else:
                taken[(c, r)] = name
        return out


class UniqueAttribute(Rule):
    """At most one card a value of attribute `attr` in `section` (a Tactical Assault combat
    card number, a Red Code ship class on one side). Cards without the attribute are
    ignored, and so are cards that do not belong in the section (not of `kinds`, or not of
    `faction`: an enemy ship on a side is not a second ship of its class there)."""

    __slots__ = ("section", "attr", "label", "kinds", "faction")

    def __init__(
        self,
        section: str,
        attr: str,
        *,
        label: str | None = None,
        kinds: Collection[str] | None = None,
        faction: str = "",
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.section = section
        self.attr = attr
        self.label = label or attr.replace("_", " ")
        self.kinds = frozenset(kinds) if kinds is not None else None
        self.faction = faction

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        entries = deck.sections.get(self.section, ())
        kinds = self.kinds
        faction = self.faction
        attr = self.attr
        # Copies by value, in one pass over the entries; the names of the cards holding a
        # value are gathered, from the entries that hold one, only for the values held more
        # than once.
        counts: dict[Any, int] = {}
        held: list[tuple[Any, str]] = []
        for e in entries:
            card = e.card
            if kinds is not None and card.kind not in kinds:
                continue
            if faction and card.faction != faction:
                continue
            value = card.attributes.get(attr)
            if value is None:
                continue
            try:
                counts[value] = counts.get(value, 0) + e.count
            except TypeError:  # an unhashable value cannot collide by identity here
                continue
            held.append((value, card.name))
        holders: dict[Any, list[str]] = {value: [] for value, n in counts.items() if n > 1}
        if not holders:
            return []
        for value, name in held:
            names = holders.get(value)
            if names is not None:
                names.append(name)
        place = self.place(ctx, self.section)
        out = []
        for value, names in holders.items():
            cards = tuple(dict.fromkeys(names))
            out.append(
                violation(
                    self.code,
                    f"{counts[value]} cards with {self.label} {value} {place} "
                    f"({', '.join(cards)}); at most 1",
                    self.severity,
                    self.section,
                    cards,
                )
            )
        return out


class CollectionLimit(Rule):
    """When the deck is built from a collection (`Deck.options[option]` = {card name: owned
    count}), it uses no more copies of a card than the player owns. Names match
    case-insensitively."""

    __slots__ = ("sections", "option")

    def __init__(
        self, sections: str | tuple[str, ...], *, option: str = "collection", **kw: Any
    ) -> None:
        super().__init__(**kw)
        self.sections = (sections,) if isinstance(sections, str) else tuple(sections)
        self.option = option

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        collection = deck.options.get(self.option)
        if collection is None:
            return []
        if not isinstance(collection, Mapping):
            return [
                self.violation(
                    f"the collection must map card names to counts, got {type(collection).__name__}"
                )
            ]
        owned: dict[str, int] = {}
        for name, n in collection.items():
            if isinstance(n, int) and not isinstance(n, bool):
                key = str(name).lower()
                owned[key] = owned.get(key, 0) + n
        used: Counter[str] = Counter()
        display: dict[str, str] = {}
        for section in self.sections:
            for e in deck.sections.get(section, ()):
                used[e.card.name.lower()] += e.count
                display[e.card.name.lower()] = e.card.name
        return [
            self.violation(
                f"{plural(n, 'copy', 'copies')} of {display[key]}; the collection holds "
                f"{owned.get(key, 0)}",
                "",
                (display[key],),
            )
            for key, n in used.items()
            if n > owned.get(key, 0)
        ]
