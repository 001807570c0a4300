"""The rule runner: checks a deck against every rule of a format at once.

`validate(game, format, deck)` answers with a `Report`: whether the deck is legal, every
error and warning (never only the first), and the game's totals (section counts, points…).
One runner serves the builder page, the API and the re-check of saved decks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from validation import rulesets
from validation.registry import FormatDef, GameDef, SectionTally, UnknownFormat, registry
from validation.rules import RuleContext
from validation.types import CardFacts, Deck, Entry, RuleSetFacts, Violation

__all__ = ["Report", "UnknownFormat", "validate", "context_for", "SECTION_CODE", "OPTION_CODE"]

#: Code of the violation for a non-empty section the game or format does not use.
SECTION_CODE = "deck.section"
#: Code of the violation for a format option given a value it does not take.
OPTION_CODE = "format.option"


@dataclass(slots=True)
class Report:
    """The verdict on one deck: `legal` is true when there is no error (warnings do not
    count); `totals` are the game's figures shown beside the deck."""

    legal: bool
    errors: list[Violation] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)
    totals: dict[str, Any] = field(default_factory=dict)
    rule_set: str | None = None

    @property
    def violations(self) -> list[Violation]:
        return self.errors + self.warnings

    def codes(self) -> set[str]:
        """The codes of every error and warning."""
        return {v.code for v in self.errors} | {v.code for v in self.warnings}

    @property
    def points(self) -> int | None:
        """The deck's total points, when the game counts them (`totals["points"]`)."""
        value = self.totals.get("points")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def as_dict(self) -> dict[str, Any]:
        """The verdict as JSON (what a saved deck stores; `from_dict` reads it back)."""
        return {
            "legal": self.legal,
            "errors": [v.as_dict() for v in self.errors],
            "warnings": [v.as_dict() for v in self.warnings],
            "totals": dict(self.totals),
            "rule_set": self.rule_set,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """The verdict `as_dict` wrote, read back once (`from_dict(r.as_dict()) == r` for a
        report whose totals are JSON). A key left out takes its default, as in a verdict
        stored before the key existed."""
        code = data.get("rule_set")
        return cls(
            legal=bool(data.get("legal")),
            errors=[Violation.from_dict(v) for v in data.get("errors") or ()],
            warnings=[Violation.from_dict(v) for v in data.get("warnings") or ()],
            totals=dict(data.get("totals") or {}),
            rule_set=None if code is None else str(code),
        )


def context_for(
    game: GameDef, format: str, deck: Deck, cards: Mapping[str, CardFacts] | None = None
) -> RuleContext:
    """The rule context of `deck` in `format`: the format's options, overlaid with the deck's
    options for the keys the format lets a deck adjust."""
    fmt = game.format(format)
    return RuleContext(game, fmt, _options(fmt, deck), cards, deck)


def _options(fmt: FormatDef, deck: Deck) -> Mapping[str, Any]:
    """The format's options overlaid with the deck's, for the keys the format lets a deck
    adjust."""
    options: Mapping[str, Any] = fmt.options
    if fmt.adjustable and deck.options:
        adjusted = {k: v for k, v in deck.options.items() if k in fmt.adjustable}
        if adjusted:
            options = {**fmt.options, **adjusted}
    return options


def _section_count(tally: SectionTally, deck: Deck, ctx: RuleContext) -> int:
    """The copies in the section of `tally` that belong in it (a stray is not counted)."""
    side = tally.side
    if side is not None:  # a side's section: the card's faction decides too
        return sum(e.count for e in deck.sections.get(side.name, ()) if side.accepts(e.card))
    return ctx.counted(deck, tally.name, tally.kinds, tally.exclude)[0]


def _unused_sections(
    game: GameDef, fmt: FormatDef, sections: Mapping[str, Sequence[Entry]], errors: list[Violation]
) -> None:
    """An error for each section holding cards that the format does not use."""
    allowed = fmt.plan.sections
    for section, entries in sections.items():
        if entries and section not in allowed:
            if section in game.section_names:
                why = f"the {fmt.name} format does not use a {section} section"
            else:
                why = f"{game.name} has no {section!r} section"
            errors.append(
                Violation(
                    SECTION_CODE,
                    f"{why}; sections: {', '.join(fmt.section_names)}",
                    "error",
                    section,
                    tuple(dict.fromkeys(e.card.name for e in entries)),
                )
            )


def _option_problems(
    fmt: FormatDef, deck_options: Mapping[str, Any], errors: list[Violation]
) -> None:
    """An error for each of the deck's adjustable options set to a value the format refuses."""
    for key in fmt.plan.choice_keys:
        if key in deck_options:
            problem = fmt.option_problem(key, deck_options[key])
            if problem:
                errors.append(Violation(OPTION_CODE, problem, "error"))


def validate(
    game: GameDef | str,
    format: str,
    deck: Deck,
    *,
    cards: Mapping[str, CardFacts] | None = None,
    rule_set: RuleSetFacts | None = None,
) -> Report:
    """Check `deck` against every rule of `format` of `game` and collect every violation.

    `cards` (lower-cased name -> CardFacts) is the game's card pool, needed only by rules that
    look beyond the deck's sections (the Red Code map layout). Raises `UnknownFormat` (a
    ValueError listing the valid formats) and KeyError for an unknown game slug.

    `rule_set` is the format's rule set to check the deck under (validation.rulesets): its
    pool, bans and limits are checked too, and its costs replace the printed ones for every
    rule and total. The report names the rule set's code (None for the bare format).

    What does not depend on the deck (the format's sections, rules and options) is read
    from the format's `plan`, worked out once; a rule's message is written only when the
    deck breaks it.
    """
    if isinstance(game, str):
        game = registry.get(game)
    fmt = game.format(format)
    plan = fmt.plan
    changes: dict[str, tuple[int, int]] = {}
    if rule_set is not None:
        changes = rulesets.cost_changes(deck, rule_set)
        deck = rulesets.apply(deck, rule_set)
        if cards is not None and rule_set.costs:
            cards = rulesets.CostedCards(cards, rule_set)
    deck_options = deck.options
    options = _options(fmt, deck) if deck_options and fmt.adjustable else fmt.options
    ctx = RuleContext(game, fmt, options, cards, deck)
    errors: list[Violation] = []
    warnings: list[Violation] = []

    sections = deck.sections
    _unused_sections(game, fmt, sections, errors)
    if deck_options:
        _option_problems(fmt, deck_options, errors)

    if rule_set is not None:
        for v in rulesets.check(deck, fmt, rule_set):
            (errors if v.severity == "error" else warnings).append(v)

    for check, present, reads_cost in plan.rules:
        if present is not None and not sections.get(present):
            continue
        found = check(deck, ctx)
        if found:
            for v in found:
                if changes and reads_cost:
                    v = rulesets.cost_note(v, changes, rule_set.label)  # type: ignore[union-attr]
                if v.severity == "error":
                    errors.append(v)
                else:
                    warnings.append(v)

    # A section's count is of the cards that belong in it (a stray is not counted).
    counted: dict[str, int] = {}
    for tally in plan.tallies:
        if tally.side is None:
            counted[tally.name] = ctx.counted(deck, tally.name, tally.kinds, tally.exclude)[0]
        else:
            counted[tally.name] = _section_count(tally, deck, ctx)
    totals: dict[str, Any] = {"sections": counted}
    totals.update(game.totals(deck, ctx))
    return Report(
        legal=not errors,
        errors=errors,
        warnings=warnings,
        totals=totals,
        rule_set=rule_set.code if rule_set is not None else None,
    )
