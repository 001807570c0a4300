"""A format's rule set in the rules core: the card pool, banned and limited cards, and cost
changes of organised play, checked on top of the format's own construction rules.

The catalogue hands the runner a `RuleSetFacts` (validation.types); `apply` gives the deck
the rule set's costs (so every rule, total and goldfish that reads a cost reads the new one)
and `check` answers the rule set's own violations:

- `format.pool`: a card none of whose printings is in a legal expansion;
- `format.banned`: a banned card (no copies);
- `format.limit`: more copies of a card than the rule set allows, when that limit is lower
  than the format's own copy limit for the card (a lower format limit is the format's rule,
  reported under its own code).

Free of Django, like the rest of the rules core.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from validation.rules import CopyLimit, plural
from validation.types import CardFacts, Deck, Entry, RuleSetFacts, Violation

if TYPE_CHECKING:
    from validation.registry import FormatDef

POOL_CODE = "format.pool"
BANNED_CODE = "format.banned"
LIMIT_CODE = "format.limit"
#: The rule set's codes, in the order they are checked.
CODES: tuple[str, ...] = (POOL_CODE, BANNED_CODE, LIMIT_CODE)

#: Each code in one sentence, for the pages that explain a violation (without a final stop,
#: like a rule's own `describe()`: the pages end the sentence).
DESCRIPTIONS: Mapping[str, str] = {
    POOL_CODE: "only cards printed in the rule set's legal expansions may be played",
    BANNED_CODE: "a card the rule set bans may not be played at all",
    LIMIT_CODE: "at most the rule set's limit of copies of a limited card (the lower of it "
    "and the format's own copy limit holds)",
}


def cost_noted(message: str, label: str) -> bool:
    """Whether a violation's message names cards the rule set of `label` re-costed (the
    note `cost_note` adds)."""
    return f"; costs of {label}: " in message


class CostedCards(Mapping[str, CardFacts]):
    """A card pool (lower-cased name -> CardFacts) seen through a rule set's costs; cards are
    replaced only when read, so a pool that no rule reads is never loaded."""

    def __init__(self, cards: Mapping[str, CardFacts], rule_set: RuleSetFacts) -> None:
        self._cards = cards
        self._rule_set = rule_set

    def __getitem__(self, key: str) -> CardFacts:
        return self._rule_set.card(self._cards[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)


def apply(deck: Deck, rule_set: RuleSetFacts | None) -> Deck:
    """`deck` with the rule set's costs in place of the printed ones (a new Deck sharing the
    options; `deck` itself when the rule set changes no cost of its cards)."""
    if rule_set is None or not rule_set.costs:
        return deck
    changed = False
    sections: dict[str, list[Entry]] = {}
    for name, entries in deck.sections.items():
        out = []
        for e in entries:
            card = rule_set.card(e.card)
            if card is not e.card:
                changed = True
                e = Entry(card, e.count, e.placement)
            out.append(e)
        sections[name] = out
    return Deck(sections=sections, options=deck.options) if changed else deck


def cost_changes(deck: Deck, rule_set: RuleSetFacts | None) -> dict[str, tuple[int, int]]:
    """Card name -> (printed cost, the rule set's cost) for the deck's cards whose cost the
    rule set changes."""
    if rule_set is None or not rule_set.costs:
        return {}
    out: dict[str, tuple[int, int]] = {}
    for entries in deck.sections.values():
        for e in entries:
            new = rule_set.costs.get(e.card.name.lower())
            if new is not None and new != e.card.cost:
                out[e.card.name] = (e.card.cost, new)
    return out


def cost_note(v: Violation, changes: Mapping[str, tuple[int, int]], label: str) -> Violation:
    """A violation of a rule that reads costs, saying which of its cards the rule set
    re-costed ("…; costs of S2 (Season 2): Longbow 3 → 4")."""
    named = [f"{c} {changes[c][0]} → {changes[c][1]}" for c in v.cards if c in changes]
    if not named:
        return v
    return replace(v, message=f"{v.message}; costs of {label}: {', '.join(named)}")


def is_rule_set_code(code: str) -> bool:
    """Whether `code` is one of a rule set's own codes (not a rule of the rulebook)."""
    return code in CODES


def format_limit(fmt: FormatDef, section: str, card: CardFacts) -> int | None:
    """The format's own copy limit of `card` in `section` (the lowest of its copy rules that
    cover it), None when it has none."""
    limits = [
        r.limit
        for r in fmt.rules
        if isinstance(r, CopyLimit)
        and section in r.sections
        and not (r.exempt is not None and r.exempt(card))
    ]
    return min(limits) if limits else None


def check(deck: Deck, fmt: FormatDef, rule_set: RuleSetFacts) -> list[Violation]:
    """Every violation of the rule set's pool, bans and limits by `deck` (see the module)."""
    out: list[Violation] = []
    label = rule_set.label
    counts: dict[str, int] = {}
    first: dict[str, tuple[str, CardFacts]] = {}
    for section, entries in deck.sections.items():
        for e in entries:
            key = e.card.name.lower()
            counts[key] = counts.get(key, 0) + e.count
            first.setdefault(key, (section, e.card))
    pool = rule_set.pool
    for key, (section, card) in first.items():
        if key in rule_set.banned:
            out.append(
                Violation(
                    BANNED_CODE,
                    f"{card.name} is banned in {label}; "
                    f"{plural(counts[key], 'copy', 'copies')}, none allowed",
                    "error",
                    section,
                    (card.name,),
                )
            )
            continue
        if pool is not None and key not in pool:
            where = ", ".join(rule_set.expansions) or "none"
            out.append(
                Violation(
                    POOL_CODE,
                    f"{card.name} is not in the card pool of {label}: it is printed in "
                    f"none of its expansions ({where})",
                    "error",
                    section,
                    (card.name,),
                )
            )
        limit = rule_set.limits.get(key)
        if limit is None or counts[key] <= limit:
            continue
        own = format_limit(fmt, section, card)
        if own is not None and own <= limit:
            continue  # the format's own copy rule reports it
        out.append(
            Violation(
                LIMIT_CODE,
                f"{counts[key]} copies of {card.name}; at most {limit} in {label}",
                "error",
                section,
                (card.name,),
            )
        )
    return out
