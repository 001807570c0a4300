"""`Rule`, the base of every construction rule, and the words its messages share (`a`,
`plural`, `kind_cards`)."""

from __future__ import annotations

from collections.abc import Iterable

from validation.types import Deck, Entry, Severity, Violation, violation

from .context import RuleContext

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
