"""Fixtures for the goldfish simulators: plain CardFacts, no database."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # `pytest` run without the repository root on the path
    sys.path.insert(0, str(ROOT))

from validation.types import CardFacts, Entry  # noqa: E402


def efreet(name: str, cls: str, cost: int, slots: list[str], keywords: list[str] | None = None):
    return CardFacts(
        name=name,
        kind="efreet",
        faction="cpm",
        cost=cost,
        attributes={
            "efreet_class": cls,
            "damage": 3,
            "armor": 6,
            "speed": 4,
            "slots": slots,
            "keywords": keywords or [],
            "heroic": False,
        },
    )


def equipment(name: str, etype: str, cost: int) -> CardFacts:
    return CardFacts(
        name=name,
        kind="equipment",
        faction="neutral",
        cost=cost,
        attributes={"equipment_type": etype, "equip_cost": 1, "keywords": [], "heroic": False},
    )


def tactic(name: str, cost: int) -> CardFacts:
    return CardFacts(name=name, kind="tactic", faction="neutral", cost=cost)


SUPPLY_DROP = CardFacts(
    name="Supply Drop", kind="resource", attributes={"provides": 1, "basic": True}
)


def mission(name: str, capture_cost: int, bonus: dict[str, int] | None = None) -> CardFacts:
    return CardFacts(
        name=name,
        kind="mission",
        attributes={"capture_cost": capture_cost, "control_bonus": bonus or {}},
    )


@pytest.fixture
def arsenal() -> list[Entry]:
    """60 cards: 24 Supply Drops, 16 efreets, 10 equipment, 10 tactics."""
    return [
        Entry(SUPPLY_DROP, 24),
        Entry(efreet("Scout Hound", "light", 2, ["laser", "open"], ["Scouting"]), 4),
        Entry(efreet("Ironside", "medium", 3, ["missile", "cannon"]), 4),
        Entry(efreet("Red Lancer", "medium", 4, ["laser", "system", "pilot"], ["Salvo"]), 4),
        Entry(efreet("Siegebreaker", "heavy", 5, ["cannon", "cannon", "pilot"]), 4),
        Entry(equipment("Pulse Laser", "laser", 1), 3),
        Entry(equipment("Hydra Rack", "missile", 2), 3),
        Entry(equipment("Rail Cannon", "cannon", 2), 2),
        Entry(equipment("Ace Pilot", "pilot", 1), 2),
        Entry(tactic("Hidden Ambush", 1), 5),
        Entry(tactic("Orbital Strike", 2), 5),
    ]


@pytest.fixture
def missions() -> list[Entry]:
    """A 20-card mission deck with mixed capture costs and control bonuses."""
    return [
        Entry(mission("Hardened Bunker", 2), 3),
        Entry(mission("Relay Station", 3, {"recon": 1}), 3),
        Entry(mission("Fuel Depot", 3, {"resources": 1}), 3),
        Entry(mission("Crater Ridge", 4), 3),
        Entry(mission("Hidden Supply Depot", 4, {"resources": 1}), 3),
        Entry(mission("Comms Array", 5, {"recon": 2}), 3),
        Entry(mission("Orbital Lift", 6), 2),
    ]


@pytest.fixture
def make() -> SimpleNamespace:
    """Card factories for tests that build their own lists."""
    return SimpleNamespace(
        efreet=efreet,
        equipment=equipment,
        tactic=tactic,
        mission=mission,
        supply=SUPPLY_DROP,
        command=lambda name, cost: CardFacts(name=name, kind="command", cost=cost),
        unit=lambda name, cost: CardFacts(
            name=name, kind="unit", cost=cost, attributes={"unit_class": "infantry"}
        ),
    )
