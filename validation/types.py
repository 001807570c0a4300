"""Plain facts shared by the whole rules core.

The catalogue hands the rules core `CardFacts` (never model instances); the rules answer
with `Violation`s. Nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Literal

Severity = Literal["error", "warning"]


def plain(obj: Any, *names: str) -> dict[str, Any]:
    """`obj`'s attributes `names`, by name and in that order, for JSON: a tuple as a list."""
    out: dict[str, Any] = {}
    for name in names:
        value = getattr(obj, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the rules need to know about one card: its identity and printed facts.

    `name` is the card's identity within its game (copy limits count names, not printings).
    `attributes` holds the game-specific keys of the game spec, already validated by the kind's
    schema.
    """

    name: str
    kind: str
    faction: str = ""
    cost: int = 0
    text: str = ""
    attributes: Mapping[str, Any] = field(default_factory=dict)

    def attr(self, key: str, default: Any = None) -> Any:
        return self.attributes.get(key, default)


@dataclass(frozen=True, slots=True)
class Entry:
    """`count` copies of a card in one section of a deck; `placement` is the (column, row)
    cell of a placed unit, in a section with a placement area (a Hex Skirmish army's hex),
    else None."""

    card: CardFacts
    count: int
    placement: tuple[int, int] | None = None


@dataclass(slots=True)
class Deck:
    """A deck, army, force or fleet: named sections of entries plus format options
    (e.g. {"points": 50} for Tactical Assault `custom`, or {"collection": {name: n}})."""

    sections: dict[str, list[Entry]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    def section(self, name: str) -> list[Entry]:
        return self.sections.get(name, [])

    def count(self, name: str) -> int:
        return sum(e.count for e in self.section(name))


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken construction rule. `code` is the stable code of the game spec
    (`arsenal.copies`); `message` states the limit and the gap
    ("5 copies of Tigercat; at most 4"); `cards` names the cards involved. `lines` are the
    numbers of the text list's lines that hold them, when a list as written was checked
    (`decklist.locate`); the rules themselves never know lines."""

    code: str
    message: str
    severity: Severity = "error"
    section: str = ""
    cards: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return plain(self, "code", "severity", "message", "section", "cards", "lines")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Violation:
        """The violation `as_dict` wrote (a key left out takes its default, as in a verdict
        stored before the key existed)."""
        severity = data.get("severity", "error")
        return cls(
            code=str(data.get("code", "")),
            message=str(data.get("message", "")),
            severity="warning" if severity == "warning" else "error",
            section=str(data.get("section") or ""),
            cards=tuple(str(c) for c in data.get("cards") or ()),
            lines=tuple(int(n) for n in data.get("lines") or ()),
        )


# A frozen dataclass's __init__ sets each field through object.__setattr__ (a lookup of the
# field's slot each time); the slots' own setters, taken once, set them directly.
_new_violation = object.__new__
_set_code, _set_message, _set_severity, _set_section, _set_cards, _set_lines = (
    Violation.__dict__[name].__set__
    for name in ("code", "message", "severity", "section", "cards", "lines")
)


def violation(
    code: str, message: str, severity: Severity, section: str, cards: tuple[str, ...]
) -> Violation:
    """`Violation(code, message, severity, section, cards)`, made in half the time: the rules
    make one for every problem they find (a list checked in bulk has many)."""
    v = _new_violation(Violation)
    _set_code(v, code)
    _set_message(v, message)
    _set_severity(v, severity)
    _set_section(v, section)
    _set_cards(v, cards)
    _set_lines(v, ())
    return v


@dataclass(frozen=True, slots=True)
class RuleSetFacts:
    """A format's rule set as the rules core sees it (organised play's dated snapshot on top of
    the rulebook's format): `pool` the lower-cased names of the cards printed in its legal
    expansions (None: every expansion is legal), `banned` the lower-cased names of banned
    cards, `limits` / `costs` / `texts` lower-cased name -> copy limit / cost / errata.
    `expansions` are the legal expansions' codes (empty: every expansion), for messages."""

    code: str
    name: str = ""
    effective: date | None = None
    pool: frozenset[str] | None = None
    banned: frozenset[str] = frozenset()
    limits: Mapping[str, int] = field(default_factory=dict)
    costs: Mapping[str, int] = field(default_factory=dict)
    texts: Mapping[str, str] = field(default_factory=dict)
    expansions: tuple[str, ...] = ()
    note: str = ""

    @property
    def label(self) -> str:
        """'S2 (Season 2)', or the code alone."""
        return f"{self.code} ({self.name})" if self.name and self.name != self.code else self.code

    def card(self, card: CardFacts) -> CardFacts:
        """The card with the rule set's cost in place of its printed one (itself when none)."""
        cost = self.costs.get(card.name.lower())
        if cost is None or cost == card.cost:
            return card
        return replace(card, cost=cost)
