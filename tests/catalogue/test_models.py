"""Cards are checked against their kind's schema on every write."""

import pytest
from django.core.exceptions import ValidationError

from catalogue.models import Card, Game
from validation.registry import registry

pytestmark = pytest.mark.django_db


@pytest.fixture
def redline():
    return Game.objects.create(slug="redline", name="REDLINE")


def test_a_card_with_good_attributes_is_saved_with_defaults_filled(redline):
    card = Card(
        game=redline,
        name="Test Efreet",
        kind="efreet",
        faction="une",
        cost=3,
        attributes={
            "efreet_class": "light",
            "damage": 1,
            "armor": 2,
            "speed": 5,
            "slots": ["laser"],
            "keywords": [],
            "heroic": False,
        },
    )
    card.save()
    assert Card.objects.get(name="Test Efreet").attributes["speed"] == 5


@pytest.mark.parametrize(
    ("attributes", "field"),
    [
        (
            {
                "efreet_class": "huge",
                "damage": 1,
                "armor": 2,
                "speed": 5,
                "slots": [],
                "keywords": [],
                "heroic": False,
            },
            "attributes.efreet_class",
        ),
        (
            {
                "efreet_class": "light",
                "damage": "one",
                "armor": 2,
                "speed": 5,
                "slots": [],
                "keywords": [],
                "heroic": False,
            },
            "attributes.damage",
        ),
        (
            {
                "efreet_class": "light",
                "damage": 1,
                "armor": 2,
                "speed": True,
                "slots": [],
                "keywords": [],
                "heroic": False,
            },
            "attributes.speed",
        ),
        (
            {
                "efreet_class": "light",
                "damage": 1,
                "armor": 2,
                "speed": 5,
                "slots": ["sword"],
                "keywords": [],
                "heroic": False,
            },
            "attributes.slots",
        ),
        (
            {
                "efreet_class": "light",
                "damage": 1,
                "armor": 2,
                "speed": 5,
                "slots": [],
                "keywords": [],
                "heroic": False,
                "colour": "red",
            },
            "attributes.colour",
        ),
    ],
)
def test_bad_attributes_are_refused_on_save(redline, attributes, field):
    card = Card(game=redline, name="Bad", kind="efreet", faction="une", attributes=attributes)
    with pytest.raises(ValidationError) as exc:
        card.save()
    assert field in exc.value.message_dict
    assert not Card.objects.filter(name="Bad").exists()


def test_unknown_kind_and_faction_are_refused(redline):
    with pytest.raises(ValidationError) as exc:
        Card(game=redline, name="X", kind="dragon", faction="elves").save()
    assert {"kind", "faction"} <= set(exc.value.message_dict)


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_sample_card_passes_its_schema(sample_catalogue, slug):
    cards = list(Card.objects.filter(game__slug=slug).select_related("game"))
    assert cards
    for card in cards:
        assert card.schema_errors() == {}, card.name
