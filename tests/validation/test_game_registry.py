"""The registry of games and the shape of every GameDef."""

from __future__ import annotations

import dataclasses

import pytest

from validation.games import BUILT_IN
from validation.registry import FormatDef, GameDef, UnknownFormat, registry
from validation.runner import validate
from validation.sections import SectionSpec
from validation.types import Deck

SLUGS = registry.slugs()


def test_the_built_in_games_are_registered_in_the_order_of_their_lines():
    packages = [f"validation.games.{name}" for name in BUILT_IN]
    assert [registry.package(slug) for slug in SLUGS[: len(BUILT_IN)]] == packages
    assert [g.slug for g in registry.all()] == SLUGS
    assert len(SLUGS) >= 5


def test_unknown_game_is_a_clear_key_error():
    with pytest.raises(KeyError, match="no game 'chess' is registered; registered games: redline"):
        registry.get("chess")


def test_registering_a_slug_twice_is_refused():
    with pytest.raises(ValueError):
        registry.register(registry.get("redline"))


@pytest.mark.parametrize("slug", SLUGS)
def test_game_definition_is_complete(slug):
    game = registry.get(slug)
    assert game.name and game.description.endswith(".")
    assert game.kinds and game.formats and game.sections
    assert list(game.section_labels) == list(game.section_names)
    assert game.python_name and game.python_name.replace("_", "-") in (slug, "redline")
    for fmt in game.formats.values():
        assert set(fmt.section_names) <= set(game.section_names)
        assert set(fmt.required_sections) | set(fmt.optional_sections) == set(fmt.section_names)
        assert fmt.rules
        assert fmt.as_dict()["rules"]
    assert game.as_dict()["slug"] == slug


def test_factions():
    assert registry.get("redline").factions.keys() == {"cpm", "une", "neutral"}
    assert registry.get("red-code").factions.keys() == {"blue", "red"}
    assert registry.get("hex-skirmish").factions == {}


def _toy_game() -> GameDef:
    return GameDef(
        slug="toy",
        name="Toy",
        description="A test game.",
        factions={},
        kinds={},
        formats={
            "only": FormatDef(
                "only", "Only", "The only format.", sections=(SectionSpec("cards", "Cards"),)
            )
        },
    )


def test_temporarily_registers_a_game_only_inside_the_block():
    with registry.temporarily(_toy_game()) as game:
        assert registry.get("toy") is game
        assert registry.slugs()[-1] == "toy"
        assert validate("toy", "only", Deck()).legal
    assert "toy" not in registry
    assert registry.slugs() == SLUGS


def test_temporarily_replaces_and_restores_a_registered_game():
    original = registry.get("redline")
    stand_in = dataclasses.replace(original, name="Stand-in")
    with registry.temporarily(stand_in):
        assert registry.get("redline").name == "Stand-in"
    assert registry.get("redline") is original


def test_unknown_format_lists_the_valid_ones():
    with pytest.raises(UnknownFormat, match="valid formats: standard, scramble, scenario"):
        validate("redline", "sealed", Deck())
    assert issubclass(UnknownFormat, ValueError)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "sealed"}, "the campaign's format 'sealed' is unknown"),
        (
            {"section": "reserve"},
            "the campaign's section 'reserve' is not a section of the Campaign",
        ),
        ({"kinds": ("combat_card",)}, "kinds combat_card are not held by the 'force' section"),
    ],
)
def test_a_campaign_must_name_a_format_section_and_kinds_the_game_has(change, message):
    game = registry.get("tactical-assault")
    campaign = dataclasses.replace(game.campaign, **change)
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(game, campaign=campaign)
