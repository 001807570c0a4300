"""The sections of a deck list, declared once by each game: what each holds and how big it is.

A `SectionSpec` says what a section of a format is: its name and label, the card kinds that
belong in it, the band of its size, where its units are placed, whether a list may leave it
out. The format generates from its specs the size, kind and placement rules (each with the
rule code the game's spec gives it), and the builder reads the same specs to know which
section a card goes in, what size a section aims at and where units are deployed. A game
adds only the rules that are truly its own (faction of the leader, copy limits, points).
"""

from __future__ import annotations

from dataclasses import dataclass

from validation.rules import (
    DistinctPlacement,
    ExactlyOne,
    ExactSize,
    KindAllowed,
    KindForbidden,
    MinSize,
    Rule,
    SizeBand,
    kind_cards,
)
from validation.types import CardFacts


def _kind_words(kinds: tuple[str, ...]) -> str:
    """'general, mission or critical hit' for ('general', 'mission', 'critical_hit')."""
    words = [k.replace("_", " ") for k in kinds]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


@dataclass(frozen=True, slots=True)
class SectionSpec:
    """One section of a deck list: an arsenal, a side of a match, a deck of units.

    - `kinds`: the card kinds that belong (empty: every kind of the game not in `exclude`).
    - `size`: the band (lowest, highest) of its cards, None for no bound at that end (an
      exact size is (n, n)). Its rule carries `size_code` ("" makes none); `noun` names the
      counted cards in its messages ("mission", "missions") and `where` places the section
      in them ("in the army"; by default "in the <label>", as in the other rules' messages). An exact size of 1 of a single
      kind is a leader ("no general leading the arsenal; exactly 1").
    - `kind_code`: the code of a rule refusing cards of other kinds (of `exclude` kinds when
      `kinds` is empty). A section's size counts only the cards that belong in it, always:
      a card of a kind it does not take is never counted. With a kind rule, that rule
      reports the stray card; without, the size rule reports it under its own code. A
      section one card short with a stray card breaks both rules, and both are reported.
    - `faction`: a side that takes only that faction's cards (a Red Code side's ships).
    - `placement`: (columns, rows) of the area its units are deployed on, one unit a cell,
      checked under `placement_code`.
    - `optional`: a list may leave the section out; its rules run only when it is present.
    - `description`: the size rule in words, for the builder page (generated when empty).
    - `laid_out`: its cards are laid out face up on the table (a leader, a force's unit
      cards, units on the battlefield, a red line in its order), not shuffled and drawn as a
      deck; a Tabletop Simulator export lays them out side by side instead of stacking them.
    """

    name: str
    label: str
    kinds: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    size: tuple[int | None, int | None] = (None, None)
    size_code: str = ""
    kind_code: str = ""
    noun: tuple[str, str] = ("card", "cards")
    where: str = ""
    faction: str = ""
    placement: tuple[int, int] | None = None
    placement_code: str = ""
    optional: bool = False
    description: str = ""
    laid_out: bool = False

    def __post_init__(self) -> None:
        low, high = self.size
        if (low is not None and low < 0) or (low is not None and high is not None and high < low):
            raise ValueError(f"section {self.name!r}: size band {self.size} is empty")
        if self.placement is not None and min(self.placement) < 1:
            raise ValueError(f"section {self.name!r}: placement area {self.placement}")

    # --- What the builder reads --------------------------------------------------------

    def accepts(self, card: CardFacts) -> bool:
        """Whether `card` belongs in this section by kind (and side)."""
        if self.kinds and card.kind not in self.kinds:
            return False
        if card.kind in self.exclude:
            return False
        return not self.faction or card.faction == self.faction

    def kinds_of(self, game_kinds: tuple[str, ...] | list[str]) -> tuple[str, ...]:
        """The kinds of the game (in its order) that belong in this section."""
        return tuple(
            k for k in game_kinds if (not self.kinds or k in self.kinds) and k not in self.exclude
        )

    def target(self) -> str:
        """'60', '≥ 20', '1–3' or '' for the section's header."""
        low, high = self.size
        if low is not None and low == high:
            return str(low)
        if low is not None and high is not None:
            return f"{low}–{high}"
        if low is not None:
            return f"≥ {low}"
        if high is not None:
            return f"≤ {high}"
        return ""

    def met(self, count: int) -> bool:
        """Whether `count` cards meet the size band (False for a section without one)."""
        low, high = self.size
        if low is None and high is None:
            return False
        return (low is None or count >= low) and (high is None or count <= high)

    # --- The rules it generates ----------------------------------------------------------

    def rules(self) -> tuple[Rule, ...]:
        """The size, kind and placement rules of the section, in that order."""
        made = (self._size_rule(), self._kind_rule(), self._placement_rule())
        return tuple(rule for rule in made if rule is not None)

    def _when(self) -> str | None:
        return self.name if self.optional else None

    def _size_rule(self) -> Rule | None:
        low, high = self.size
        if not self.size_code or (low is None and high is None):
            return None
        label = self.label.lower()
        common = {"when_present": self._when(), "where": self.where or None, "code": self.size_code}
        if low == high == 1 and len(self.kinds) == 1:
            described = f"exactly one {_kind_words(self.kinds)} in the {label}"
            return ExactlyOne(
                self.name, self.kinds[0], description=self.description or described, **common
            )
        # Only the cards that belong are counted; a stray is reported once: by the kind
        # rule when the section has one, else by the size rule.
        has_kind_rule = bool(self.kind_code and (self.kinds or self.exclude))
        sized = {
            **common,
            "kinds": self.kinds or None,
            "exclude": self.exclude,
            "noun": self.noun,
            "strays": not has_kind_rule,
        }
        cards = self.noun[1]
        if low is not None and low == high:
            described = f"the {label} holds exactly {low} {cards}"
            return ExactSize(self.name, low, description=self.description or described, **sized)
        if high is None:
            described = f"the {label} holds at least {low} {cards}"
            return MinSize(self.name, low or 0, description=self.description or described, **sized)
        described = f"the {label} holds {self.target()} {cards}"
        return SizeBand(
            self.name, low or 0, high, description=self.description or described, **sized
        )

    def _kind_rule(self) -> Rule | None:
        if not self.kind_code or not (self.kinds or self.exclude):
            return None
        label = self.label.lower()
        common = {"when_present": self._when(), "code": self.kind_code}
        if self.kinds:
            described = f"the {label} holds only {kind_cards(_kind_words(self.kinds))}"
            return KindAllowed(self.name, self.kinds, description=described, **common)
        described = f"no {kind_cards(_kind_words(self.exclude))} in the {label}"
        return KindForbidden(self.name, self.exclude, description=described, **common)

    def _placement_rule(self) -> Rule | None:
        if self.placement is None or not self.placement_code:
            return None
        columns, rows = self.placement
        return DistinctPlacement(
            self.name,
            columns=columns,
            rows=rows,
            code=self.placement_code,
            when_present=self._when(),
            description=f"every card of the {self.label.lower()} placed on its own cell of "
            f"the {columns} × {rows} deployment area",
        )

    def as_dict(self) -> dict[str, object]:
        low, high = self.size
        return {
            "name": self.name,
            "label": self.label,
            "kinds": list(self.kinds),
            "exclude": list(self.exclude),
            "size": {"min": low, "max": high},
            "faction": self.faction,
            "placement": list(self.placement) if self.placement else None,
            "optional": self.optional,
        }
