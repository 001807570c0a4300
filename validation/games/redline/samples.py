"""Sample card lists for the benchmark and for trying the simulators by hand."""

from __future__ import annotations

from validation.types import CardFacts, Entry


def _efreet(name: str, cls: str, cost: int, slots: list[str], keywords: list[str]) -> CardFacts:
    return CardFacts(
        name=name,
        kind="efreet",
        faction="une",
        cost=cost,
        attributes={
            "efreet_class": cls,
            "damage": 3,
            "armor": 5,
            "speed": 5,
            "slots": slots,
            "keywords": keywords,
            "heroic": False,
        },
    )


def _equipment(name: str, etype: str, cost: int) -> CardFacts:
    return CardFacts(
        name=name,
        kind="equipment",
        faction="neutral",
        cost=cost,
        attributes={"equipment_type": etype, "equip_cost": 1, "keywords": [], "heroic": False},
    )


def _tactic(name: str, cost: int) -> CardFacts:
    return CardFacts(
        name=name, kind="tactic", faction="neutral", cost=cost, attributes={"keywords": []}
    )


def redline_arsenal() -> list[Entry]:
    """A typical 60-card REDLINE arsenal: 24 resources, 16 efreets, 10 equipment, 10 tactics."""
    supply = CardFacts(
        name="Supply Drop", kind="resource", attributes={"provides": 1, "basic": True}
    )
    return [
        Entry(supply, 24),
        Entry(_efreet("Jackal", "light", 2, ["laser", "open"], ["Scouting"]), 4),
        Entry(_efreet("Tigercat", "medium", 3, ["missile", "cannon"], []), 4),
        Entry(_efreet("Warden", "medium", 4, ["laser", "system", "pilot"], ["Salvo"]), 4),
        Entry(_efreet("Bastion", "heavy", 5, ["cannon", "cannon", "pilot"], []), 4),
        Entry(_equipment("Pulse Laser", "laser", 1), 3),
        Entry(_equipment("Hydra Rack", "missile", 2), 3),
        Entry(_equipment("Rail Cannon", "cannon", 2), 2),
        Entry(_equipment("Ace Pilot", "pilot", 1), 2),
        Entry(_tactic("Hidden Ambush", 1), 5),
        Entry(_tactic("Orbital Strike", 2), 5),
    ]


def hex_army() -> list[Entry]:
    """A Hex Skirmish army: 3 units (20 points) and 30 command cards (30 points)."""

    def unit(name: str, cls: str, cost: int, col: int) -> Entry:
        facts = CardFacts(
            name=name,
            kind="unit",
            cost=cost,
            attributes={
                "unit_class": cls,
                "edges": [3, 2, 1, 1, 1, 2],
                "health": 5,
                "movement": 2,
                "armor": 0,
                "range": 2 if cls == "ranged" else 0,
            },
        )
        return Entry(facts, 1, placement=(col, 0))

    def command(name: str, cost: int) -> CardFacts:
        return CardFacts(name=name, kind="command", cost=cost, attributes={"actions": ["Move"]})

    return [
        unit("Spearmen", "infantry", 6, 2),
        unit("Lancers", "cavalry", 8, 3),
        unit("Archers", "ranged", 6, 4),
        Entry(command("March", 0), 8),
        Entry(command("Charge", 1), 10),
        Entry(command("Volley", 2), 8),
        Entry(command("Rally", 3), 2),
    ]
