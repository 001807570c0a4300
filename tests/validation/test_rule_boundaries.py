"""Every limit of every format, exactly at it and one past it, on both sides where there are
two: generated from the formats' rules (the size rules their SectionSpecs make, the copy,
points, band and uniqueness rules of their checks), not written one by one.

Each case builds a deck of plain CardFacts holding only what the rule under test counts and
asks the runner for that rule's code alone: at the limit the code is absent, past it the code
is reported (as an error, or as a warning for a warning rule). Other rules may complain about
such a bare deck; they are not what the case is about. The rulebook sentence behind each code
is its row in the game's table (validation/games/<game>/trace.py), so every case names it.
Runs without Django: `pytest tests/validation/test_rule_boundaries.py -p no:django`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

import tests.toy_game as pond
from tests.validation.pools import build, pool
from validation.registry import FormatDef, GameDef, registry
from validation.rules import (
    CopyLimit,
    CountBand,
    ExactlyOne,
    ExactSize,
    MinSize,
    PointsLimit,
    PointsUnder,
    Rule,
    SizeBand,
    UniqueAttribute,
)
from validation.runner import context_for, validate
from validation.types import CardFacts, Deck


@dataclass(frozen=True)
class Case:
    """One boundary: `deck()` is a deck at (`breaks` False) or past (True) the limit of
    `rule` in `fmt` of `game`."""

    game: GameDef
    fmt: FormatDef
    rule: Rule
    label: str
    deck: Callable[[], Deck]
    breaks: bool

    @property
    def id(self) -> str:
        verdict = "breaks" if self.breaks else "holds"
        return f"{self.game.slug}-{self.fmt.slug}-{self.rule.code}-{self.label}-{verdict}"


def _kind_and_faction(game: GameDef, fmt: FormatDef, section: str, kinds=None) -> tuple[str, str]:
    """A kind of card the section counts (of `kinds` when the rule names them), and the
    faction the section takes."""
    spec = fmt.section(section)
    if kinds:
        return sorted(kinds)[0], spec.faction if spec else ""
    accepted = spec.kinds_of(tuple(game.kinds)) if spec else tuple(game.kinds)
    return accepted[0], spec.faction if spec else ""


def _distinct(game, fmt, section, n, kinds=None, *, options=None, **card) -> Deck:
    """`n` different cards, one copy each, in `section`."""
    kind, faction = _kind_and_faction(game, fmt, section, kinds)
    cards = [CardFacts(f"{kind} {i}", kind, faction=faction, **card) for i in range(n)]
    return build(pool(*cards), {section: [(c.name, 1) for c in cards]}, options)


def _copies(game, fmt, section, n) -> Deck:
    """`n` copies of one card in `section`."""
    kind, faction = _kind_and_faction(game, fmt, section)
    card = CardFacts(f"Only {kind}", kind, faction=faction)
    return build(pool(card), {section: [(card.name, n)]})


def _costing(game, fmt, section, costs, kinds=None, options=None) -> Deck:
    """One card of each cost in `costs`, in `section` (with the deck's `options`)."""
    kind, faction = _kind_and_faction(game, fmt, section, kinds)
    cards = [CardFacts(f"{kind} {i}", kind, faction=faction, cost=c) for i, c in enumerate(costs)]
    return build(pool(*cards), {section: [(c.name, 1) for c in cards]}, options)


def _valued(game, fmt, section, attr, values) -> Deck:
    """One card for each of `values` of attribute `attr`, in `section`."""
    kind, faction = _kind_and_faction(game, fmt, section)
    cards = [
        CardFacts(f"{kind} {i}", kind, faction=faction, attributes={attr: v})
        for i, v in enumerate(values)
    ]
    return build(pool(*cards), {section: [(c.name, 1) for c in cards]})


def _band(game, fmt, rule, low, high) -> list[tuple[str, Callable[[], Deck], bool]]:
    """At both ends of a band and one past each (no case below an empty section that the
    rule only checks when present: an absent optional section is not checked)."""
    s, kinds = rule.section, rule.kinds

    def deck(n):
        return lambda: _distinct(game, fmt, s, n, kinds)

    out = []
    if low is not None:
        out.append((str(low), deck(low), False))
        if low > 0 and not (low - 1 == 0 and rule.when_present == s):
            out.append((str(low - 1), deck(low - 1), True))
    if high is not None:
        if high != low:
            out.append((str(high), deck(high), False))
        out.append((str(high + 1), deck(high + 1), True))
    return out


def _limits(fmt: FormatDef, option: str) -> list[tuple[int, dict, str]]:
    """The format's limit (its option's default) and, when a deck may adjust the option, an
    agreed one (the default + 14, as Tactical Assault players agree on 50 points)."""
    value = fmt.options[option]
    assert isinstance(value, int) and value > 0, (fmt.slug, option, value)
    out = [(value, {}, "")]
    if option in fmt.adjustable:
        out.append((value + 14, {option: value + 14}, "-agreed"))
    return out


def _points(game, fmt, rule, limit, options, tag):
    """A total of exactly `limit` points and one point past it (a point under it, for a rule
    that warns of points left unused), in each section the rule adds up."""
    kinds = rule.kinds
    past = [limit - 1] if isinstance(rule, PointsUnder) else [limit, 1]
    out = []
    for s in rule.sections[:1] if isinstance(rule, PointsUnder) else rule.sections:
        for costs, breaks in (([limit - 1, 1], False), (past, True)):
            total = sum(costs)
            out.append(
                (
                    f"{total}pts-in-{s}{tag}",
                    lambda s=s, costs=costs: _costing(game, fmt, s, costs, kinds, options),
                    breaks,
                )
            )
    return out


def boundaries(game: GameDef, fmt: FormatDef, rule: Rule):
    """(label, deck factory, breaks) for each boundary of `rule`; [] for a rule without a
    numeric limit (kinds, factions, placement, the game's own rules)."""
    if isinstance(rule, ExactSize):
        return _band(game, fmt, rule, rule.size, rule.size)
    if isinstance(rule, SizeBand | CountBand):
        return _band(game, fmt, rule, rule.low, rule.high)
    if isinstance(rule, MinSize):
        return _band(game, fmt, rule, rule.minimum, None)
    if isinstance(rule, ExactlyOne):
        s, kind = rule.section, (rule.kind,)
        return [
            ("1", lambda: _distinct(game, fmt, s, 1, kind), False),
            ("0", lambda: Deck(), True),
            ("2", lambda: _distinct(game, fmt, s, 2, kind), True),
        ]
    if isinstance(rule, PointsLimit):
        return [
            case
            for limit, options, tag in _limits(fmt, rule.option)
            for case in _points(game, fmt, rule, limit, options, tag)
        ]
    if isinstance(rule, CopyLimit):
        s, n = rule.sections[0], rule.limit
        return [
            (f"{n}x", lambda: _copies(game, fmt, s, n), False),
            (f"{n + 1}x", lambda: _copies(game, fmt, s, n + 1), True),
        ]
    if isinstance(rule, UniqueAttribute):
        s, attr = rule.section, rule.attr
        return [
            (f"distinct-in-{s}", lambda: _valued(game, fmt, s, attr, [1, 2, 3]), False),
            (f"repeated-in-{s}", lambda: _valued(game, fmt, s, attr, [1, 2, 1]), True),
        ]
    return []


#: The site's games and Pond, the toy sixth game: a new game gets its boundaries for free.
GAMES = [*registry.all(), pond.GAME]

CASES = [
    Case(game, fmt, rule, label, deck, breaks)
    for game in GAMES
    for fmt in game.formats.values()
    for rule in fmt.rules
    for label, deck, breaks in boundaries(game, fmt, rule)
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_limit_holds_at_it_and_breaks_one_past_it(case: Case):
    deck = case.deck()
    source = case.game.trace.source(case.rule.code)
    assert source is not None, f"{case.rule.code} has no rulebook row"
    why = (case.rule.describe(), source.quote)
    own = case.rule.check(deck, context_for(case.game, case.fmt.slug, deck))
    assert bool(own) is case.breaks, (*why, own)
    assert all(v.code == case.rule.code for v in own)
    report = validate(case.game, case.fmt.slug, deck)
    found = report.errors if case.rule.severity == "error" else report.warnings
    codes = {v.code for v in found}
    if case.breaks:
        assert case.rule.code in codes, why
    elif [r.code for r in case.fmt.rules].count(case.rule.code) == 1:
        # No other rule of the format reports under this code: the deck is legal for it.
        assert case.rule.code not in codes, (*why, found)


def test_every_game_has_boundary_cases_and_every_size_rule_both_sides():
    """Each game has at least one limit checked; each limit has a case that holds and one
    that breaks it."""
    assert {c.game.slug for c in CASES} == {g.slug for g in GAMES}
    by_rule: dict[tuple[str, str, int], set[bool]] = {}
    for c in CASES:
        by_rule.setdefault((c.game.slug, c.fmt.slug, id(c.rule)), set()).add(c.breaks)
    assert all(v == {True, False} for v in by_rule.values())
