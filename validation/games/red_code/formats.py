"""Red Code formats and match rules (the game spec §3).

A Red Code "deck" is a match set-up: the ships of the blue and red sides (one line per
player's ship), optionally the order deck (section `orders`, or `Deck.options["orders"]` as
{name: count}) and the map (`Deck.options["map"]`, see `layout`).
"""

from __future__ import annotations

from collections.abc import Mapping

from validation.games.red_code.layout import layout_problems
from validation.registry import FormatDef
from validation.rules import Rule, RuleContext, UniqueAttribute, a, plural
from validation.sections import SectionSpec
from validation.types import Deck, Violation

SIDES = ("blue", "red")
SIDE_SIZES = (1, 2, 3)
ORDER_DECK_SIZE = 30


def players(deck: Deck, side: str) -> int:
    """The players of a side: its ships of the side's colour (a card that is not one is no
    player; `match.ships` reports it)."""
    return sum(
        e.count
        for e in deck.sections.get(side, ())
        if e.card.kind == "ship" and e.card.faction == side
    )


class MatchSides(Rule):
    """Two sides, blue and red, each of 1, 2 or 3 players, equal in size. Only the ships of
    a side's colour are its players."""

    __slots__ = ()

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        blue, red = players(deck, "blue"), players(deck, "red")
        if blue == red and blue in SIDE_SIZES:
            return []
        return [
            self.violation(
                f"{plural(blue, 'player')} on blue and {red} on red; two equal sides of "
                "1, 2 or 3 players"
            )
        ]


class SideShips(Rule):
    """Each player commands exactly one ship of their side's colour: every line of a side
    is a ship of that colour."""

    __slots__ = ()

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        out = []
        for side in SIDES:
            for e in deck.sections.get(side, ()):
                card = e.card
                if card.kind != "ship":
                    out.append(
                        self.violation(
                            f"{card.name} is {a(ctx.kind_label(card.kind))}; each player on "
                            f"{side} commands one {side} ship",
                            side,
                            (card.name,),
                        )
                    )
                elif card.faction != side:
                    out.append(
                        self.violation(
                            f"{card.name} is a {card.faction or 'colourless'} ship on the "
                            f"{side} side; each player commands a ship of their side's colour",
                            side,
                            (card.name,),
                        )
                    )
        return out


class MapLayout(Rule):
    """When the match names a map (`Deck.options["map"]`): 12 of the 15 map cards in 3 rows
    of 4, the two start cards in opposite corners. Needs the game's card pool
    (`validate(..., cards=...)`) to know the start cards."""

    __slots__ = ()

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        if "map" not in deck.options:
            return []
        pool = dict(ctx.cards) if ctx.cards is not None else None
        return [
            self.violation(message, "", cards)
            for message, cards in layout_problems(deck.options["map"], pool)
        ]


class OrdersSize(Rule):
    """When the match includes the order deck (section `orders` or `Deck.options["orders"]`
    as {name: count}), it holds exactly 30 order cards."""

    __slots__ = ()

    def check(self, deck: Deck, ctx: RuleContext) -> list[Violation]:
        entries = deck.sections.get("orders")
        option = deck.options.get("orders")
        if entries:
            out = [
                self.violation(
                    f"{e.card.name} is {a(ctx.kind_label(e.card.kind))}; the order deck holds "
                    "only order cards",
                    "orders",
                    (e.card.name,),
                )
                for e in entries
                if e.card.kind != "order"
            ]
            n = sum(e.count for e in entries if e.card.kind == "order")
        elif option is not None:
            out = []
            if not isinstance(option, Mapping):
                return [self.violation("the order deck must map order names to counts")]
            n = sum(v for v in option.values() if isinstance(v, int) and not isinstance(v, bool))
        else:
            return []
        if n != ORDER_DECK_SIZE:
            out.append(
                self.violation(
                    f"{plural(n, 'order card')} in the order deck; exactly {ORDER_DECK_SIZE}",
                    "orders",
                )
            )
        return out


MATCH_RULES: tuple[Rule, ...] = (
    MatchSides(code="match.sides", description="two equal sides of 1, 2 or 3 players"),
    SideShips(code="match.ships", description="each player commands one ship of their colour"),
    *(
        UniqueAttribute(
            side,
            "ship_class",
            kinds=("ship",),
            faction=side,
            code="match.unique_class",
            where=f"on the {side} side",
            description=f"the {side} side has at most one ship of each class",
        )
        for side in SIDES
    ),
    MapLayout(
        code="map.layout",
        description="12 of the 15 map cards in 3 rows of 4; the start cards in opposite corners",
    ),
    OrdersSize(code="orders.size", description="the order deck holds 30 cards"),
)

#: One section a side (one line a player's ship), and the optional order deck.
SECTIONS: tuple[SectionSpec, ...] = (
    *(
        SectionSpec(side, f"{side.capitalize()} side", kinds=("ship",), faction=side, laid_out=True)
        for side in SIDES
    ),
    SectionSpec("orders", "Order deck", kinds=("order",), optional=True),
)

FORMATS: dict[str, FormatDef] = {
    f.slug: f
    for f in (
        FormatDef(
            "arena",
            "Arena",
            "The first side to sink every enemy ship wins.",
            sections=SECTIONS,
            checks=MATCH_RULES,
        ),
        FormatDef(
            "war",
            "War",
            "The first side to 5 victory points wins; sunk ships return.",
            sections=SECTIONS,
            checks=MATCH_RULES,
            options={"victory_points": 5},
        ),
    )
}
