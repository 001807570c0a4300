"""Small card pools per game, as plain CardFacts, and legal decks built from them.

Every legal deck here follows every rule of its format without a warning, so a test can
break exactly one rule and expect exactly that rule's code.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from validation.types import CardFacts, Deck, Entry

Pool = dict[str, CardFacts]
# A section's content: (name, count) or (name, count, (column, row)).
Lines = Iterable[tuple[Any, ...]]


def pool(*cards: CardFacts) -> Pool:
    """Lower-cased name -> card, as `decklist.resolve` and `validate(cards=...)` take it."""
    return {c.name.lower(): c for c in cards}


def build(cards: Pool, sections: Mapping[str, Lines], options: dict | None = None) -> Deck:
    """A Deck from names: {"arsenal": [("Tigercat", 4), ...]}."""
    out: dict[str, list[Entry]] = {}
    for section, lines in sections.items():
        entries = []
        for line in lines:
            name, count, *rest = line
            entries.append(Entry(cards[name.lower()], count, rest[0] if rest else None))
        out[section] = entries
    return Deck(sections=out, options=copy.deepcopy(options or {}))


def as_lines(deck: Deck) -> dict[str, list[tuple[Any, ...]]]:
    """The inverse of `build`, to mutate a deck in a test."""
    return {
        s: [
            (e.card.name, e.count, e.placement) if e.placement else (e.card.name, e.count)
            for e in entries
        ]
        for s, entries in deck.sections.items()
    }


# --------------------------------------------------------------------------- REDLINE


def _rl(name: str, kind: str, faction: str = "neutral", cost: int = 1, **attrs: Any) -> CardFacts:
    return CardFacts(name, kind, faction, cost, attributes=attrs)


def _efreet(name: str, faction: str = "une", cls: str = "medium") -> CardFacts:
    return _rl(
        name,
        "efreet",
        faction,
        3,
        efreet_class=cls,
        damage=2,
        armor=5,
        speed=6,
        slots=["laser"],
        keywords=[],
        heroic=False,
    )


REDLINE_CARDS: Pool = pool(
    _rl("General Jeffrey Moore", "general", "une", 0, armor=12, abilities=["Siegecraft"]),
    _rl("General Mara Voss", "general", "cpm", 0, armor=11, abilities=["Prepared Ground"]),
    _efreet("Tigercat"),
    _efreet("Warhound"),
    _efreet("Sparrowhawk", cls="light"),
    _efreet("Bulwark", cls="heavy"),
    _efreet("Lancer", faction="neutral"),
    _efreet("Jackal", faction="neutral"),
    _efreet("Red Fang", faction="cpm"),
    _rl("Laser Lance", "equipment", equipment_type="laser", equip_cost=1),
    _rl("Missile Pod", "equipment", equipment_type="missile", equip_cost=2),
    _rl("Targeting System", "equipment", "une", equipment_type="system", equip_cost=1),
    _rl("Ambush", "tactic", keywords=["Ambush 2"]),
    _rl("Smoke Screen", "tactic"),
    _rl("Rally", "tactic", "une"),
    _rl("Blood Oath", "tactic", "cpm"),
    _rl("Forward Base", "strategy", armor=4),
    _rl("Supply Drop", "resource", cost=0, provides=1, basic=True),
    _rl("Fuel Depot", "resource", cost=0, provides=1, basic=False),
    *(
        _rl(n, "mission", cost=0, capture_cost=c, control_bonus={}, scorched_earth=False)
        for n, c in (
            ("Hardened Bunker", 3),
            ("Radar Station", 2),
            ("Bridge", 2),
            ("Fuel Refinery", 3),
            ("Command Post", 4),
            ("Crater Field", 1),
            ("Spaceport", 5),
        )
    ),
    *(
        _rl(n, "critical_hit", cost=0, permanent=p)
        for n, p in (
            ("Reactor Breach", True),
            ("Sensor Damage", False),
            ("Leg Actuator", True),
            ("Pilot Injured", False),
        )
    ),
)

MISSIONS = (
    "Hardened Bunker",
    "Radar Station",
    "Bridge",
    "Fuel Refinery",
    "Command Post",
    "Crater Field",
    "Spaceport",
)
CRITICAL_HITS = ("Reactor Breach", "Sensor Damage", "Leg Actuator", "Pilot Injured")


def redline_sections() -> dict[str, list[tuple[Any, ...]]]:
    """A legal REDLINE standard list: 24 resources, 16 efreets, 10 equipment, 10 tactics,
    21 missions and 16 critical hits."""
    return {
        "general": [("General Jeffrey Moore", 1)],
        "arsenal": [
            ("Supply Drop", 24),
            ("Tigercat", 4),
            ("Warhound", 4),
            ("Sparrowhawk", 4),
            ("Bulwark", 4),
            ("Laser Lance", 4),
            ("Missile Pod", 4),
            ("Targeting System", 2),
            ("Ambush", 4),
            ("Smoke Screen", 4),
            ("Rally", 2),
        ],
        "missions": [(m, 3) for m in MISSIONS],
        "critical_hits": [(c, 4) for c in CRITICAL_HITS],
    }


def redline_deck(**changes: list[tuple[Any, ...]] | None) -> Deck:
    """The legal REDLINE list with whole sections replaced (None removes a section)."""
    sections = redline_sections()
    for k, v in changes.items():
        if v is None:
            sections.pop(k, None)
        else:
            sections[k] = v
    return build(REDLINE_CARDS, sections)


def replace(lines: list[tuple[Any, ...]], name: str, *new: tuple[Any, ...]) -> list:
    """`lines` with the line for `name` replaced by `new` lines (none: removed)."""
    out = []
    for line in lines:
        if line[0] == name:
            out.extend(new)
        else:
            out.append(line)
    return out


# --------------------------------------------------------------------------- Tactical Assault


def _unit(name: str, cost: int, off: bool = False, immobile: bool = False) -> CardFacts:
    return CardFacts(
        name,
        "unit_type",
        "",
        cost,
        attributes={
            "firepower": "moderate",
            "protection": "light",
            "close_combat": "light",
            "range_distance": "medium",
            "off_battlefield": off,
            "immobile": immobile,
        },
    )


def combat_card_name(n: int) -> str:
    return f"Combat Card {n:02d}"


TA_CARDS: Pool = pool(
    _unit("Armored", 5),
    _unit("Mechanized", 4),
    _unit("Infantry", 2),
    _unit("Recon", 3),
    _unit("Behemoth", 6),
    _unit("Artillery", 3, off=True),
    _unit("Aerial", 2, off=True),
    _unit("Infiltrator", 3, off=True),
    _unit("Bunker", 2, immobile=True),
    _unit("Obstacle", 2, immobile=True),
    *(
        CardFacts(
            combat_card_name(n),
            "combat_card",
            "",
            0,
            attributes={
                "number": n,
                "action": "Advance",
                "situation": "",
                "combat_result": "no_effect",
                "drift_direction": "dead_on",
                "drift_distance": "short",
            },
        )
        for n in range(1, 73)
    ),
)

TA_FORCE = [("Armored", 2), ("Mechanized", 2), ("Infantry", 3), ("Artillery", 2), ("Recon", 2)]
TA_DECK = [(combat_card_name(n), 1) for n in range(1, 73)]


def ta_deck(force: list | None = None, deck: list | None = TA_DECK, **options: Any) -> Deck:
    """A Tactical Assault list: the 36-point force and the 72-card deck unless replaced."""
    sections: dict[str, Any] = {"force": TA_FORCE if force is None else force}
    if deck is not None:
        sections["deck"] = deck
    return build(TA_CARDS, sections, options)


# --------------------------------------------------------------------------- Red Code


def _ship(name: str, side: str, cls: str) -> CardFacts:
    return CardFacts(
        name,
        "ship",
        side,
        0,
        attributes={
            "ship_class": cls,
            "repairs": 6,
            "breakdowns": 2,
            "crew": 6,
            "manoeuvres": [{"name": "Fire", "crew_cost": 2}],
        },
    )


def _map(name: str, start: bool = False) -> CardFacts:
    return CardFacts(name, "map_card", "", 0, attributes={"boxes": ["sea"] * 4, "start": start})


RC_MAP_CARDS = [_map("Blue Harbour", True), _map("Red Harbour", True)] + [
    _map(f"Open Sea {i:02d}") for i in range(1, 14)
]

RC_CARDS: Pool = pool(
    *(
        _ship(f"{side.capitalize()} {cls.capitalize()}", side, cls)
        for side in ("blue", "red")
        for cls in ("submarine", "destroyer", "carrier")
    ),
    _ship("Blue Destroyer II", "blue", "destroyer"),
    CardFacts("Captain", "order", "", 0, attributes={"copies": 10, "effect": {}}),
    CardFacts("Mechanic", "order", "", 0, attributes={"copies": 10, "effect": {}}),
    CardFacts("Kamikaze", "order", "", 0, attributes={"copies": 10, "effect": {}}),
    CardFacts("Torpedo", "manoeuvre", "", 0, attributes={"distance": 3, "repair_damage": 2}),
    *RC_MAP_CARDS,
)

RC_SIDES = {
    "blue": [("Blue Submarine", 1), ("Blue Destroyer", 1)],
    "red": [("Red Submarine", 1), ("Red Carrier", 1)],
}


def rc_deck(**sections: Any) -> Deck:
    options = sections.pop("options", None)
    merged = {**RC_SIDES, **sections}
    return build(RC_CARDS, {k: v for k, v in merged.items() if v is not None}, options)


# --------------------------------------------------------------------------- Red Mittens

RM_CARDS: Pool = pool(
    *(
        CardFacts(f"Mitten Knight {i}", "unit", "", 0, attributes={"atk": 3, "def": 2})
        for i in range(1, 6)
    ),
    *(
        CardFacts(f"Woollen Blade {i}", "item", "", 0, attributes={"item_class": "weapon"})
        for i in range(1, 6)
    ),
    *(CardFacts(f"Snowfield {i}", "field", "", 0, attributes={"time": "day"}) for i in range(1, 6)),
)


def rm_sections() -> dict[str, list[tuple[Any, ...]]]:
    return {
        "units": [(f"Mitten Knight {i}", 4) for i in range(1, 6)],
        "items": [(f"Woollen Blade {i}", 4) for i in range(1, 6)],
        "fields": [(f"Snowfield {i}", 4) for i in range(1, 6)],
    }


# --------------------------------------------------------------------------- Hex Skirmish


def _hex_unit(name: str, cls: str, cost: int) -> CardFacts:
    return CardFacts(
        name,
        "unit",
        "",
        cost,
        attributes={
            "unit_class": cls,
            "edges": [3, 2, 1, 1, 1, 2],
            "health": 4,
            "movement": 2,
            "armor": 0,
            "range": 3 if cls == "ranged" else 0,
        },
    )


HS_CARDS: Pool = pool(
    _hex_unit("Spearman", "infantry", 5),
    _hex_unit("Rider", "cavalry", 6),
    _hex_unit("Archer", "ranged", 5),
    CardFacts("Advance", "command", "", 1, attributes={"actions": ["Move 2"]}),
    CardFacts("Hold", "command", "", 0, attributes={"actions": ["Brace"]}),
    CardFacts("Rally Cry", "command", "", 1, attributes={"actions": ["Heal 1"]}),
    CardFacts("Strike", "command", "", 3, attributes={"actions": ["Attack"]}),
)

HS_UNITS = [("Spearman", 1, (1, 1)), ("Spearman", 1, (2, 1)), ("Archer", 1, (3, 0))]
HS_CARDS_SECTION = [("Advance", 10), ("Hold", 10), ("Rally Cry", 10)]


def hs_deck(units: list | None = None, cards: list | None = None, **options: Any) -> Deck:
    """A legal army: 3 placed units (15 points) and 30 command cards (20 points)."""
    return build(
        HS_CARDS,
        {
            "units": HS_UNITS if units is None else units,
            "cards": HS_CARDS_SECTION if cards is None else cards,
        },
        options,
    )
