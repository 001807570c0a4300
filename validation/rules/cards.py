"""The rules of the cards a deck holds: copies of a card, the kinds a section takes, exactly
one card of a kind, and the faction a leader allows."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from validation.types import CardFacts, Deck, Violation

from .base import Rule, _names, a, kind_cards, plural
from .context import NEUTRAL_FACTIONS, RuleContext


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
