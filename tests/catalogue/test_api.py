"""The read-only catalogue API: games, expansions, cards, printings, bulk download."""

import pytest

from catalogue.models import Card
from validation.registry import registry

pytestmark = pytest.mark.django_db


def test_games_list_the_five_games_with_kinds_formats_and_counts(client, sample_catalogue):
    data = client.get("/api/games/").json()
    assert [g["slug"] for g in data] == registry.slugs()
    redline = data[0]
    assert redline["card_count"] == Card.objects.filter(game__slug="redline").count()
    assert set(redline["formats"]) == {"standard", "scramble", "scenario"}
    speed = next(a for a in redline["kinds"]["efreet"]["attributes"] if a["key"] == "speed")
    assert speed["type"] == "int"
    assert client.get("/api/games/chess/").status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/api/games/redline.json/",
        "/api/games/expansions.json/",
        "/api/cards/1.json/",
        "/api/decks/shared/abc.json/",
        "/api/decks/1.json/",
    ],
)
def test_a_format_suffix_is_not_a_route(client, sample_catalogue, url):
    # Such URLs once reached views that take no `format` argument: a server error.
    assert client.get(url).status_code == 404


def test_cards_filter_by_game_kind_faction_and_cost(client, sample_catalogue):
    data = client.get(
        "/api/cards/", {"game": "redline", "kind": "efreet", "faction": "une", "cost__lte": 3}
    ).json()
    assert data["count"] > 0
    for card in data["results"]:
        assert card["game"] == "redline" and card["kind"] == "efreet" and card["faction"] == "une"
        assert card["cost"] <= 3
        assert set(card) == {
            "id",
            "game",
            "name",
            "kind",
            "faction",
            "cost",
            "text",
            "attributes",
            "printings",
            "url",
        }


def test_cards_are_paginated(client, sample_catalogue):
    first = client.get("/api/cards/", {"game": "tactical-assault"}).json()
    assert first["count"] == 91 and len(first["results"]) == 50 and first["next"]
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 41
    assert {c["id"] for c in first["results"]}.isdisjoint({c["id"] for c in second["results"]})


def test_cards_search_with_q(client, sample_catalogue):
    data = client.get("/api/cards/", {"game": "redline", "q": "tigercat"}).json()
    assert "Tigercat" in [c["name"] for c in data["results"]]
    assert "problems" in data and "read_as" in data


def test_expansions_and_printings(client, sample_catalogue):
    exps = client.get("/api/expansions/", {"game": "red-code"}).json()["results"]
    assert [e["code"] for e in exps] == ["RC1"] and exps[0]["sample"] is True
    tiger = Card.objects.get(name="Tigercat")
    printings = client.get("/api/printings/", {"card": tiger.pk}).json()["results"]
    assert printings[0]["expansion"] == "RL1" and printings[0]["card_name"] == "Tigercat"


def test_bulk_download_has_every_card_of_the_game(client, sample_catalogue):
    response = client.get("/api/games/hex-skirmish/bulk/")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = response.json()
    assert len(data["cards"]) == Card.objects.filter(game__slug="hex-skirmish").count()
    assert all(c["printings"] for c in data["cards"])


def test_catalogue_api_is_read_only(client, staff_user, sample_catalogue):
    client.force_login(staff_user)
    assert client.post("/api/cards/", {"name": "x"}).status_code == 405
    tiger = Card.objects.get(name="Tigercat")
    assert client.delete(f"/api/cards/{tiger.pk}/").status_code == 405


def test_schema_and_docs_pages(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/cards/" in schema.content and b"/api/validate/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_card_representation_equals_drf_generic_one_with_and_without_images(
    client, sample_catalogue, settings, tmp_path
):
    """The hand-written CardSerializer.to_representation says exactly what the declared
    fields say, for every sample card, including a printing with an image (absolute URL)."""
    from django.core.files.base import ContentFile
    from django.db.models import Prefetch
    from rest_framework.test import APIRequestFactory

    from catalogue.models import Printing
    from catalogue.serializers import CardSerializer

    settings.MEDIA_ROOT = str(tmp_path)
    printing = Printing.objects.select_related("card").first()
    printing.image.save("face.png", ContentFile(b"not checked here"), save=True)
    request = APIRequestFactory().get("/api/cards/")
    serializer = CardSerializer(context={"request": request})
    cards = Card.objects.select_related("game").prefetch_related(
        Prefetch("printings", queryset=Printing.objects.select_related("expansion"))
    )
    checked = 0
    for card in cards:
        assert serializer.to_representation(card) == serializer.generic_representation(card)
        checked += 1
    assert checked == Card.objects.count() > 100
    shown = serializer.to_representation(printing.card)
    image = next(p["image"] for p in shown["printings"] if p["number"] == printing.number)
    assert image.startswith("http://testserver/") and image.endswith(".png")
