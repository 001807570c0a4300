"""`RuleContext`: what a rule may know besides the deck, and what the rules read of the
deck's sections counted once for all of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from validation.types import CardFacts, Deck, Entry

if TYPE_CHECKING:
    from validation.schema import KindSchema


NEUTRAL_FACTIONS: frozenset[str] = frozenset({"neutral", ""})


class GameView(Protocol):
    """What a rule reads of its game (a `validation.registry.GameDef`, which holds the
    formats and so the rules: the rules name no registry class)."""

    @property
    def slug(self) -> str: ...

    @property
    def kinds(self) -> Mapping[str, KindSchema]: ...

    @property
    def factions(self) -> Mapping[str, str]: ...

    def section_place(self, section: str) -> str: ...


class FormatView(Protocol):
    """What a rule reads of its format (a `validation.registry.FormatDef`)."""

    @property
    def slug(self) -> str: ...


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
        game: GameView,
        format: FormatView,
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
