"""The rules of one per value: one unit a cell, one card per value of an attribute, and no
more copies than the player's collection holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any

from validation.types import Deck, Violation, violation

from .base import Rule, plural
from .context import RuleContext


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
