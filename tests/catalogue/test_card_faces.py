"""Card faces drawn per game from the rules core: the fragment the card page and the hover
or tap preview show, for every kind of every game, in one query."""

from __future__ import annotations

import pytest

from catalogue.models import Card
from validation.registry import registry

pytestmark = pytest.mark.django_db


def test_every_kind_of_every_game_has_a_face(client, sample_catalogue, django_assert_num_queries):
    for game in registry.all():
        for kind in game.kinds:
            card = Card.objects.filter(game__slug=game.slug, kind=kind).first()
            if card is None:
                continue
            with django_assert_num_queries(1):
                response = client.get(f"/cards/{game.slug}/card/{card.pk}/face/")
            html = response.content.decode()
            assert response.status_code == 200, (game.slug, kind)
            assert 'class="card-face' in html and card.name.replace("'", "&#x27;") in html
            assert game.kinds[kind].label in html  # the schema's label, not the slug
            assert "max-age=300" in response["Cache-Control"]


@pytest.mark.parametrize(
    "game,kind,figure",
    [
        ("hex-skirmish", "unit", 'class="fig-polygon"'),
        ("red-code", "ship", 'class="fig-table"'),
        ("redline", "efreet", 'class="fig-icons"'),
    ],
)
def test_each_game_draws_its_own_figure(client, sample_catalogue, game, kind, figure):
    card = Card.objects.filter(game__slug=game, kind=kind).first()
    html = client.get(f"/cards/{game}/card/{card.pk}/face/").content.decode()
    assert figure in html
    if kind == "unit":
        # the six edge values around the hex, the front marked
        edges = card.attributes["edges"]
        assert html.count("<text ") == 7 and f">{edges[0]}</text>" in html and "front" in html
    if kind == "ship":
        for m in card.attributes["manoeuvres"]:
            assert m["name"] in html


def test_faces_by_name_and_the_card_page_by_name(
    client, sample_catalogue, django_assert_num_queries
):
    tiger = Card.objects.get(game__slug="redline", name="Tigercat")
    with django_assert_num_queries(1):
        response = client.get("/cards/redline/face/", {"name": "  tigercat "})
    assert response.status_code == 200 and "Tigercat" in response.content.decode()
    page = client.get("/cards/redline/named/", {"name": "TIGERCAT"})
    assert page.status_code == 302 and page["Location"] == f"/cards/redline/card/{tiger.pk}/"
    assert client.get("/cards/redline/face/", {"name": "Nope"}).status_code == 404
    assert client.get("/cards/redline/face/").status_code == 404
    assert client.get("/cards/chess/face/", {"name": "x"}).status_code == 404
    assert client.get(f"/cards/red-code/card/{tiger.pk}/face/").status_code == 404
    assert client.get("/cards/redline/named/", {"name": "x" * 5000}).status_code == 404


def test_the_card_page_shows_the_face(client, sample_catalogue):
    card = Card.objects.filter(game__slug="hex-skirmish", kind="unit").first()
    html = client.get(f"/cards/hex-skirmish/card/{card.pk}/").content.decode()
    assert 'class="card-face' in html and 'class="fig-polygon"' in html


def test_names_where_decks_are_read_and_built_preview_their_face(client, sample_catalogue, user):
    from decks.services import deck_create
    from tests.decks.conftest import sample_list

    deck = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="D",
        text=sample_list("redline", "standard"),
    )
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert 'data-face-url="/cards/redline/face/?name=Tigercat"' in page
    assert 'href="/cards/redline/named/?name=Tigercat"' in page
    builder = client.get(f"/decks/{deck.pk}/build/").content.decode()
    assert 'data-face-url="/cards/redline/face/?name=Tigercat"' in builder  # the deck
    assert builder.count('data-face-url="/cards/redline/card/') >= 10  # the search results
    hand = client.get(f"/decks/{deck.pk}/hand/?seed=4").content.decode()
    assert hand.count("data-face-url=") == 7
    listing = client.get("/cards/redline/", {"view": "list"}).content.decode()
    assert "data-face-url=" in listing
