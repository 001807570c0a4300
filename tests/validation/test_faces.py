"""Card faces: the default face built from a kind's schema, and each game's own faces."""

from __future__ import annotations

import pytest

from validation.capabilities import FaceSpec
from validation.faces import default_face, face_of, humanise
from validation.registry import registry
from validation.types import CardFacts

from .test_kind_schema import EXAMPLES, VALID


def facts(game: str, kind: str, attributes: dict, name: str = "Card") -> CardFacts:
    """A card as the catalogue hands it over: attributes cleaned (defaults filled in)."""
    cleaned, errors = registry.get(game).kind(kind).validate(attributes)
    assert errors == []
    return CardFacts(name=name, kind=kind, attributes=cleaned)


@pytest.mark.parametrize(("game", "kind"), list(EXAMPLES))
def test_every_kind_of_every_game_has_a_face_of_plain_text(game, kind):
    face = face_of(registry.get(game), facts(game, kind, EXAMPLES[(game, kind)]))
    assert isinstance(face, FaceSpec)
    assert face.stats or face.badges or face.figure
    for label, text in face.stats:
        assert isinstance(label, str) and label
        assert isinstance(text, str) and text
        assert "_" not in text, (label, text)
    assert all(isinstance(b, str) and b for b in face.badges)


def test_humanise_writes_values_for_people():
    assert humanise("very_light") == "very light"
    assert humanise(["Boost", "Scouting"]) == "Boost, Scouting"
    assert humanise(["current_n", "sea"]) == "current n, sea"
    assert humanise({"recon": 1}) == "recon 1"
    assert humanise([{"name": "Radar", "crew_cost": 1}]) == "Radar, crew cost 1"
    assert humanise(0) == "0"


def test_default_face_labels_values_turns_flags_into_badges_and_skips_empty_values():
    game = registry.get("tactical-assault")
    card = facts(
        "tactical-assault",
        "unit_type",
        {
            "firepower": "very_light",
            "protection": "very_heavy",
            "close_combat": "none",
            "range_distance": "very_long",
            "immobile": True,
        },
    )
    face = face_of(game, card)
    assert face.stats == (
        ("Firepower", "very light"),
        ("Protection", "very heavy"),
        ("Close combat", "none"),
        ("Range distance", "very long"),
    )
    # A true flag is a badge; a false one ("off_battlefield") is not shown at all.
    assert face.badges == ("Immobile",)
    assert face.figure is None


def test_default_face_of_a_redline_mission_writes_its_control_bonus():
    face = face_of(
        registry.get("redline"),
        facts(
            "redline",
            "mission",
            {"capture_cost": 3, "control_bonus": {"recon": 1}, "scorched_earth": False},
        ),
    )
    assert face.stats == (("Capture cost", "3"), ("Control bonus", "recon 1"))
    assert face.badges == ()


def test_default_face_skips_left_out_optional_numbers_and_text_but_keeps_required_zeros():
    face = face_of(
        registry.get("red-mittens"),
        facts("red-mittens", "unit", {"atk": 0, "def": 2, "classes": [], "unit_type": ""}),
    )
    assert face.stats == (("ATK", "0"), ("DEF", "2"))
    item = face_of(
        registry.get("red-mittens"),
        facts("red-mittens", "item", {"item_class": "weapon", "atk_bonus": 1}),
    )
    assert item.stats == (("Class", "weapon"), ("ATK bonus", "1"))


def test_default_face_of_an_unknown_kind_shows_its_raw_attributes():
    face = default_face(None, CardFacts("X", "relic", attributes={"power_level": "high_ish"}))
    assert face.stats == (("Power level", "high ish"),)


def test_hex_skirmish_unit_is_a_hex_with_its_edges_front_first():
    card = facts("hex-skirmish", "unit", VALID[("hex-skirmish", "unit")])
    face = face_of(registry.get("hex-skirmish"), card)
    figure = face.figure
    assert figure["type"] == "polygon" and figure["values"] == [3, 2, 1, 1, 1, 2]
    # a flat-topped hexagon, the front edge (value 3, marked) at the top, then clockwise
    assert figure["points"] == "35.0,16.7 85.0,16.7 110.0,60.0 85.0,103.3 35.0,103.3 10.0,60.0"
    assert [(lab["value"], lab["front"]) for lab in figure["labels"]][:2] == [(3, True), (2, False)]
    assert figure["labels"][0]["x"] == 60.0 and figure["labels"][0]["y"] < 60
    assert face.stats == (
        ("Health", "4"),
        ("Movement", "2"),
        ("Armor", "0"),
        ("Range", "3"),
        ("Class", "ranged"),
    )


def test_hex_skirmish_command_card_uses_the_default_face():
    face = face_of(
        registry.get("hex-skirmish"),
        facts("hex-skirmish", "command", {"actions": ["Move 2", "Attack"]}),
    )
    assert face.stats == (("Actions", "Move 2, Attack"),)
    assert face.figure is None


def test_red_code_ship_lists_its_manoeuvres_with_their_crew_cost():
    card = facts(
        "red-code",
        "ship",
        {
            "ship_class": "submarine",
            "repairs": 3,
            "breakdowns": 2,
            "manoeuvres": [
                {"name": "Torpedo", "crew_cost": 1},
                {"name": "Heavy torpedo", "crew_cost": 3},
            ],
        },
    )
    face = face_of(registry.get("red-code"), card)
    assert face.stats == (
        ("Class", "submarine"),
        ("Repairs", "3"),
        ("Breakdowns", "2"),
        ("Crew", "6"),
    )
    assert face.figure == {
        "type": "table",
        "columns": ["Manoeuvre", "Crew cost"],
        "rows": [["Torpedo", "1"], ["Heavy torpedo", "3"]],
    }


def test_red_code_map_card_shows_its_four_boxes():
    card = facts("red-code", "map_card", VALID[("red-code", "map_card")])
    face = face_of(registry.get("red-code"), card)
    assert face.figure["type"] == "icons"
    assert [i["label"] for i in face.figure["items"]] == [
        "Sea",
        "Island",
        "Current north",
        "Sea",
    ]
    assert face.badges == ("Start card",)


def test_redline_efreet_shows_its_slots_keywords_and_heroic_badge():
    card = facts(
        "redline",
        "efreet",
        {**VALID[("redline", "efreet")], "keywords": ["Ambush 2", "Salvo"], "heroic": True},
    )
    face = face_of(registry.get("redline"), card)
    assert face.stats == (("Class", "medium"), ("Damage", "2"), ("Armor", "5"), ("Speed", "6"))
    assert face.badges == ("Ambush 2", "Salvo", "Heroic")
    assert face.figure["type"] == "icons"
    assert face.figure["items"] == [
        {"label": "Laser", "symbol": "L"},
        {"label": "System", "symbol": "S"},
    ]


def test_a_closed_efreet_has_no_slot_icons_and_says_so():
    card = facts("redline", "efreet", {**VALID[("redline", "efreet")], "slots": []})
    face = face_of(registry.get("redline"), card)
    assert face.figure["items"] == []
    assert face.figure["empty"]


def test_a_game_without_faces_of_its_own_draws_every_kind_by_default():
    for slug in ("tactical-assault", "red-mittens"):
        assert registry.get(slug).card_faces == {}
