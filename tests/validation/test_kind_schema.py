"""The attribute schema of every card kind: cleaning, defaults and error messages."""

from __future__ import annotations

import pytest

from validation.packages import kind_examples
from validation.registry import registry
from validation.schema import Attr, KindSchema

EFREET = registry.get("redline").kind("efreet")

#: An example of every kind of every registered game, from the game's sample data.
EXAMPLES: dict[tuple[str, str], dict] = {
    (game.slug, kind): attributes
    for game in registry.all()
    for kind, attributes in kind_examples(game.slug).items()
}

#: Valid attribute sets whose values the tests of one game's kinds assert on.
VALID: dict[tuple[str, str], dict] = {
    ("redline", "efreet"): {
        "efreet_class": "medium",
        "damage": 2,
        "armor": 5,
        "speed": 6,
        "slots": ["laser", "system"],
        "keywords": ["Boost"],
        "heroic": False,
    },
    ("tactical-assault", "combat_card"): {
        "number": 72,
        "combat_result": "shaken",
        "drift_direction": "12",
        "drift_distance": "short",
    },
    ("red-code", "ship"): {
        "ship_class": "carrier",
        "repairs": 6,
        "breakdowns": 2,
        "manoeuvres": [{"name": "Radar", "crew_cost": 1}],
    },
    ("red-code", "map_card"): {"boxes": ["sea", "island", "current_n", "sea"], "start": True},
    ("hex-skirmish", "unit"): {
        "unit_class": "ranged",
        "edges": [3, 2, 1, 1, 1, 2],
        "health": 4,
        "movement": 2,
        "range": 3,
    },
}


def test_every_kind_of_every_game_has_an_example_in_its_sample_data():
    kinds = {(g.slug, k) for g in registry.all() for k in g.kinds}
    assert kinds == set(EXAMPLES)
    assert set(VALID) <= kinds


@pytest.mark.parametrize(
    ("game", "kind", "example"),
    [(*key, attributes) for examples in (EXAMPLES, VALID) for key, attributes in examples.items()],
)
def test_valid_attributes_clean_without_errors_and_fill_every_key(game, kind, example):
    schema = registry.get(game).kind(kind)
    cleaned, errors = schema.validate(example)
    assert errors == []
    assert set(cleaned) == set(schema.keys())
    for key, value in example.items():
        assert cleaned[key] == value


@pytest.mark.parametrize(("game", "kind"), list(EXAMPLES))
def test_an_unknown_key_is_reported_for_every_kind(game, kind):
    schema = registry.get(game).kind(kind)
    _cleaned, errors = schema.validate({**EXAMPLES[(game, kind)], "colour": "red"})
    assert [e.field for e in errors] == ["colour"]
    assert "unknown attribute" in errors[0].message


def test_wrong_type_message_names_the_key_and_the_value():
    _cleaned, errors = EFREET.validate({**VALID[("redline", "efreet")], "speed": "fast"})
    assert [(e.field, e.message) for e in errors] == [
        ("speed", "speed: expected an integer, got 'fast'")
    ]


def test_bool_is_not_an_int():
    _cleaned, errors = EFREET.validate({**VALID[("redline", "efreet")], "damage": True})
    assert [e.field for e in errors] == ["damage"]


def test_int_is_not_a_bool():
    _cleaned, errors = EFREET.validate({**VALID[("redline", "efreet")], "heroic": 1})
    assert [e.field for e in errors] == ["heroic"]


def test_choice_outside_the_choices():
    _cleaned, errors = EFREET.validate({**VALID[("redline", "efreet")], "efreet_class": "huge"})
    assert errors[0].message == "efreet_class: 'huge' is not one of light, medium, heavy"


def test_choice_list_constrains_every_item():
    _cleaned, errors = EFREET.validate({**VALID[("redline", "efreet")], "slots": ["laser", "hat"]})
    assert errors[0].field == "slots" and "'hat' is not one of" in errors[0].message


def test_missing_required_keys_are_all_reported():
    _cleaned, errors = EFREET.validate({})
    assert {e.field for e in errors} == {"efreet_class", "damage", "armor", "speed"}


def test_defaults_fill_missing_optional_keys():
    resource = registry.get("redline").kind("resource")
    cleaned, errors = resource.validate({})
    assert errors == [] and cleaned == {"provides": 1, "basic": False}
    ship = registry.get("red-code").kind("ship")
    cleaned, _ = ship.validate({"ship_class": "submarine", "repairs": 4, "breakdowns": 1})
    assert cleaned["crew"] == 6 and cleaned["manoeuvres"] == []


def test_defaults_are_not_shared_between_cards():
    schema = registry.get("redline").kind("general")
    first, _ = schema.validate({"armor": 1})
    first["abilities"].append("Siegecraft")
    second, _ = schema.validate({"armor": 1})
    assert second["abilities"] == []


def test_int_bounds_and_list_lengths():
    card = registry.get("tactical-assault").kind("combat_card")
    _c, errors = card.validate({**VALID[("tactical-assault", "combat_card")], "number": 73})
    assert errors[0].message == "number: 73 is above the maximum 72"
    unit = registry.get("hex-skirmish").kind("unit")
    _c, errors = unit.validate({**VALID[("hex-skirmish", "unit")], "edges": [1, 2, 3]})
    assert errors[0].message == "edges: 3 items; exactly 6"
    _c, errors = unit.validate({**VALID[("hex-skirmish", "unit")], "edges": [1, 2, 3, 4, 5, "6"]})
    assert errors[0].field == "edges"


def test_dict_and_dict_list_keys():
    mission = registry.get("redline").kind("mission")
    _c, errors = mission.validate({"capture_cost": 2, "control_bonus": {"gold": 1}})
    assert errors[0].field == "control_bonus"
    ship = registry.get("red-code").kind("ship")
    base = VALID[("red-code", "ship")]
    _c, errors = ship.validate({**base, "manoeuvres": ["Radar"]})
    assert errors[0].field == "manoeuvres"
    _c, errors = ship.validate({**base, "manoeuvres": [{"name": "Radar", "speed": 1}]})
    assert errors[0].field == "manoeuvres"


def test_cross_check_a_ranged_unit_needs_a_range():
    unit = registry.get("hex-skirmish").kind("unit")
    _c, errors = unit.validate({**VALID[("hex-skirmish", "unit")], "range": 0})
    assert [e.field for e in errors] == ["range"]


def test_attr_lookup_and_numeric_keys():
    assert EFREET.attr("speed").type == "int"
    with pytest.raises(KeyError, match="efreet has no attribute 'wings'"):
        EFREET.attr("wings")
    assert EFREET.numeric_keys() == ("damage", "armor", "speed")


def test_a_schema_refuses_unknown_types_and_choices_without_options():
    with pytest.raises(ValueError):
        Attr("x", "X", "float")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Attr("x", "X", "choice")
    with pytest.raises(ValueError):
        KindSchema("k", "K", (Attr("a", "A", "int"), Attr("a", "A", "int")))


def test_non_mapping_attributes_are_an_error_not_a_crash():
    _c, errors = EFREET.validate(["speed"])  # type: ignore[arg-type]
    assert errors and errors[0].field == ""
