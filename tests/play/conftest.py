"""Fixtures of the play-tool tests: forces and decks built through the deck services, and
the catalogue game page wired to list the play tools."""

from __future__ import annotations

import pytest

from validation.packages import sample_list

# The sample campaign force (validation/games/tactical_assault/sample_data/decks/campaign.txt):
# 36 unit points.
CAMPAIGN_FORCE = """Force:
1 Armored
2 Infantry
1 Infiltrator
1 Heavy Weapon
1 Fire Support
1 Aerial Defense
1 Recon
1 Command
1 Anti-Armor
2 Civilian
2 Creature
2 Swarm
"""


def make_force(owner, name: str, text: str = CAMPAIGN_FORCE):
    from decks.services import deck_create

    return deck_create(
        owner=owner, game_slug="tactical-assault", format="campaign", name=name, text=text
    )


@pytest.fixture
def force_factory(sample_catalogue):
    return make_force


def giant_units_deck(owner, *, atk: int = 20):
    """A Red Mittens deck whose 20 units all have `atk` (created in the catalogue here),
    with the sample deck's items and fields."""
    from catalogue.models import Card, Game
    from decks.services import deck_create

    game = Game.objects.get(slug="red-mittens")
    for i in range(1, 21):
        Card.objects.update_or_create(
            game=game,
            name=f"Test Giant {i}",
            defaults={"kind": "unit", "attributes": {"atk": atk, "def": 1}},
        )
    sample = sample_list("red-mittens", "core").text()
    rest = sample[sample.index("Items:") :]
    units = "Units:\n" + "".join(f"1 Test Giant {i}\n" for i in range(1, 21))
    return deck_create(
        owner=owner, game_slug="red-mittens", format="core", name="Giants", text=units + rest
    )
