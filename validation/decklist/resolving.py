"""Lines to a `Deck` of `CardFacts` (`resolve`, `read_lines`): each name matched up to case,
spacing and punctuation, an expansion code checked, every name not found an error with the
closest names; and `locate`, a violation naming the lines of its cards."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from validation.types import CardFacts, Deck, Entry, Violation

from .lines import _NON_ALNUM, MAX_SUGGESTED, LineError, ListLine, _did_you_mean


def normalise_name(name: str) -> str:
    """Lower case, letters and digits only: 'General  J. Moore' -> 'generaljmoore'."""
    return _NON_ALNUM.sub("", name.lower())


class _Index:
    """Lookups over a card pool: exact (case-insensitive), then normalised (case, spacing
    and punctuation ignored). A name that is only part of a card's name matches nothing."""

    __slots__ = ("exact", "norm", "names")

    def __init__(self, cards: Mapping[str, CardFacts]) -> None:
        self.exact = {k.lower(): v for k, v in cards.items()}
        self.norm: dict[str, list[CardFacts]] = {}
        for card in self.exact.values():
            self.norm.setdefault(normalise_name(card.name), []).append(card)
        self.names = {c.name.lower(): c.name for c in self.exact.values()}

    def find(self, name: str) -> tuple[CardFacts | None, list[CardFacts]]:
        """The card called `name`, or None and the candidates (several = ambiguous: cards
        whose names differ only in case, spacing or punctuation)."""
        card = self.exact.get(name.lower())
        if card is not None:
            return card, []
        key = normalise_name(name)
        if not key:
            return None, []
        same = self.norm.get(key, [])
        if len(same) == 1:
            return same[0], []
        return None, same

    def suggest(self, name: str) -> tuple[str, ...]:
        return closest_names(name, self.names.values())

    def suggest_many(self, names: Sequence[str]) -> dict[str, tuple[str, ...]]:
        return {name: self.suggest(name) for name in names}


#: How many names "did you mean" offers.
SUGGESTIONS = 3


def closest_names(name: str, candidates: Iterable[str]) -> tuple[str, ...]:
    """Up to three of `candidates` closest to `name` (any case), best first: the names that
    `name` is the beginning of (a letter or a word short; the shortest first), then the
    most similar ones."""
    by_lower = {c.lower(): c for c in candidates}
    key = normalise_name(name)
    starting = (
        sorted(
            (c for c in by_lower if normalise_name(c).startswith(key)), key=lambda c: (len(c), c)
        )
        if key
        else []
    )
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=SUGGESTIONS, cutoff=0.6)
    best = list(dict.fromkeys([*starting, *close]))[:SUGGESTIONS]
    return tuple(by_lower[c] for c in best)


#: Suggestions for unknown names: a callable given the names, answering name -> the closest
#: card names (a name may be left out: no suggestion).
Suggester = Callable[[Sequence[str]], Mapping[str, tuple[str, ...]]]


def _code_error(
    line: ListLine, card: CardFacts, expansions: Mapping[str, Collection[str]], game_name: str
) -> LineError | None:
    """The line's expansion code must be one of the game's expansions, holding the card."""
    codes = {code.lower(): code for code in expansions}
    holding = tuple(sorted(c for c, names in expansions.items() if card.name in names))
    code = codes.get(line.set_code.lower())
    if code is None:
        where = f" in {game_name}" if game_name else ""
        elsewhere = f"; {card.name} is in {', '.join(holding)}" if holding else ""
        return _unread(line, f"no expansion {line.set_code}{where}{elsewhere}", holding)
    if card.name not in expansions[code]:
        elsewhere = f"; it is in {', '.join(holding)}" if holding else ""
        return _unread(line, f"{card.name} is not in expansion {code}{elsewhere}", holding)
    return None


def _unread(line: ListLine, what: str, suggestions: tuple[str, ...] = ()) -> LineError:
    """The error of a card line whose card could not be taken: where, what, suggestions."""
    return LineError(
        line.line_no, f"{line.label}: {what}", suggestions, name=line.name, section=line.section
    )


@dataclass(slots=True)
class Resolved:
    """What `read_lines` made of parsed lines: the `deck` of the lines whose card was
    identified, an error for each line that was not (`unread`: an unknown name, a name
    matching several cards, an expansion code that does not print the card), and `where`:
    (section, card name) -> the lines that hold that card, for messages that name lines."""

    deck: Deck
    unread: list[LineError] = field(default_factory=list)
    where: dict[tuple[str, str], list[ListLine]] = field(default_factory=dict)


def resolve(
    lines: Iterable[ListLine], cards: Mapping[str, CardFacts], **options: Any
) -> tuple[Deck, list[LineError]]:
    """`read_lines` (with its keyword `options`), answering the deck and the errors of the
    lines not read."""
    read = read_lines(lines, cards, **options)
    return read.deck, read.unread


def read_lines(
    lines: Iterable[ListLine],
    cards: Mapping[str, CardFacts],
    *,
    expansions: Mapping[str, Collection[str]] | None = None,
    game_name: str = "",
    suggest: Suggester | None = None,
) -> Resolved:
    """Turn parsed lines into a `Deck`, given the game's cards (lower-cased name ->
    CardFacts). A name matches a card only when it is the card's name up to case, spacing
    and punctuation ("tiger-cat" is Tigercat; "Tigerca" is no card): any other name is an
    unknown card, suggesting the closest names (the names it is the beginning of first),
    and a name that matches several cards an error listing them. Lines for the same card
    (and placement) in one section are merged, in the order first seen.

    A line's expansion code (`Moonrunner (RL1)`) is checked against `expansions` (code ->
    the names of the cards it prints; case-insensitive codes) when given: an unknown code,
    or one whose expansion does not hold the card, is an error naming the expansions that
    do. A card whose own name ends in brackets (`Bunker (Large)`) is read as that name.

    Suggestions are looked for the first MAX_SUGGESTED unknown names only, in one call of
    `suggest` (default: the closest names of `cards`, by difflib)."""
    index = _Index(cards)
    errors: list[LineError] = []
    unknown: list[ListLine] = []
    merged: dict[str, dict[tuple[str, tuple[int, int] | None], list[Any]]] = {}
    where: dict[tuple[str, str], list[ListLine]] = {}
    for line in lines:
        card: CardFacts | None = None
        candidates: list[CardFacts] = []
        code_is_name = False
        if line.set_code:
            # a card whose name itself ends in brackets: "Bunker (Large)"
            card, _ = index.find(f"{line.name} ({line.set_code})")
            code_is_name = card is not None
        if card is None:
            card, candidates = index.find(line.name)
        if card is not None and line.set_code and not code_is_name and expansions is not None:
            error = _code_error(line, card, expansions, game_name)
            if error is not None:
                errors.append(error)
                continue
        if card is None:
            if candidates:
                names = tuple(sorted(c.name for c in candidates))
                shown = ", ".join(names[:10]) + (", …" if len(names) > 10 else "")
                errors.append(
                    _unread(line, f"{line.name!r} matches several cards: {shown}", names[:10])
                )
            else:
                unknown.append(line)
            continue
        section = merged.setdefault(line.section, {})
        key = (card.name, line.placement)
        if key in section:
            section[key][1] += line.count
        else:
            section[key] = [card, line.count, line.placement]
        where.setdefault((line.section, card.name), []).append(line)
    errors.extend(_unknown_errors(unknown, suggest or index.suggest_many))
    errors.sort(key=lambda e: e.line)
    deck = Deck(
        sections={
            s: [Entry(card, count, placement) for card, count, placement in entries.values()]
            for s, entries in merged.items()
        }
    )
    return Resolved(deck, errors, where)


def _unknown_errors(unknown: list[ListLine], suggest: Suggester) -> list[LineError]:
    """An error per unknown name; suggestions for the first MAX_SUGGESTED names only."""
    looked = list(dict.fromkeys(line.name for line in unknown))[:MAX_SUGGESTED]
    found = suggest(looked) if looked else {}
    looked_set = set(looked)
    errors = []
    for line in unknown:
        suggestions = tuple(found.get(line.name, ()))
        if suggestions:
            hint = f"; {_did_you_mean(suggestions)}"
        elif line.name in looked_set:
            hint = ""
        else:
            hint = f" (suggestions are looked for the first {MAX_SUGGESTED} unknown names only)"
        errors.append(_unread(line, f"unknown card {line.name!r}{hint}", suggestions))
    return errors


#: A rule problem names the lines of its cards when they are at most this many (beyond,
#: it is about a whole section, e.g. its points, and names the section only).
MAX_LOCATED_LINES = 4


def locate(violation: Violation, where: Mapping[tuple[str, str], Sequence[ListLine]]) -> Violation:
    """`violation` naming the lines of the list that hold its cards: "Line 4: 5 copies of
    Tigercat; at most 4" ("Lines 4, 9: …" for a card written twice, "arsenal[2]: …" for a
    list given as sections), with `lines` the line numbers of a text list. Unchanged when
    it names no card, or more than MAX_LOCATED_LINES lines."""
    if not violation.cards:
        return violation
    names = set(violation.cards)
    found = sorted(
        {
            line
            for (section, name), lines in where.items()
            if name in names and (not violation.section or section == violation.section)
            for line in lines
        },
        key=lambda line: (line.where != "", line.where, line.line_no),
    )
    if not found or len(found) > MAX_LOCATED_LINES:
        return violation
    if all(not line.where for line in found):
        numbers = tuple(dict.fromkeys(line.line_no for line in found))
        head = (
            f"Line {numbers[0]}" if len(numbers) == 1 else "Lines " + ", ".join(map(str, numbers))
        )
    else:
        numbers = ()
        head = ", ".join(dict.fromkeys(line.label for line in found))
    return replace(violation, message=f"{head}: {violation.message}", lines=numbers)
