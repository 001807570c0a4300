"""Card images drawn from the cards' data: one per card kind of every game, at stable
addresses that change when the card does, never a 500 for a card missing a field."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from catalogue import card_images
from catalogue.models import Card
from validation.registry import registry

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)


def _png(response) -> Image.Image:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    image.load()
    return image


def test_an_image_of_every_card_kind_of_every_game_renders(client, sample_catalogue):
    seen = 0
    for game in registry.all():
        width, height = game.card_size_mm
        for kind in game.kinds:
            card = Card.objects.filter(game__slug=game.slug, kind=kind).first()
            assert card is not None, f"the sample catalogue has no {game.slug} {kind}"
            image = _png(client.get(f"/cards/{game.slug}/card/{card.pk}/image.png"))
            assert image.size == (
                round(width * card_images.PX_PER_MM),
                round(height * card_images.PX_PER_MM),
            )
            # Drawn, not blank: the name's ink among the paper.
            colours = image.convert("L").getcolors(maxcolors=1 << 16)
            assert colours is not None and len(colours) > 20, f"{game.slug} {kind} is blank"
            seen += 1
    assert seen == sum(len(g.kinds) for g in registry.all())


def test_the_card_page_shows_the_image_with_the_name_and_key_figures_as_alt_text(
    client, sample_catalogue
):
    card = Card.objects.get(game__slug="redline", name="Tigercat")
    page = client.get(card.get_absolute_url()).content.decode()
    match = re.search(r'<img src="([^"]+image\.png\?v=[0-9a-f]+)" alt="([^"]+)"', page)
    assert match, "no card image on the card page"
    assert match.group(2).startswith("Tigercat: Efreet")
    for figure in ("cost 3", "Damage 2", "Armor 5", "Speed 6"):
        assert figure in match.group(2)
    _png(client.get(match.group(1).replace("&amp;", "&")))


def test_a_versioned_address_is_kept_for_a_year_and_a_changed_card_gets_a_new_one(
    client, sample_catalogue
):
    card = Card.objects.get(game__slug="redline", name="Tigercat")
    first = re.search(
        r'src="([^"]+\?v=[0-9a-f]+)"', client.get(card.get_absolute_url()).content.decode()
    )
    assert first
    old_url = first.group(1)
    response = client.get(old_url)
    _png(response)
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    before = response.content

    card.cost = 5
    card.save()
    second = re.search(
        r'src="([^"]+\?v=[0-9a-f]+)"', client.get(card.get_absolute_url()).content.decode()
    )
    assert second and second.group(1) != old_url
    moved = client.get(old_url)
    assert moved.status_code == 302 and moved["Location"] == second.group(1)
    after = client.get(second.group(1))
    assert _png(after) and after.content != before


def test_the_stable_address_revalidates_with_an_etag_in_one_query(
    client, sample_catalogue, django_assert_num_queries
):
    card = Card.objects.get(game__slug="hex-skirmish", name="Militia Spearmen")
    url = f"/cards/hex-skirmish/card/{card.pk}/image.png"
    with django_assert_num_queries(1):
        response = client.get(url)
    _png(response)
    assert response["Cache-Control"] == "public, no-cache"
    etag = response["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    card.attributes = {**card.attributes, "health": card.attributes["health"] + 1}
    card.save()
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_card_without_the_data_its_face_shows_is_drawn_with_blanks(client, sample_catalogue):
    """Data written around the checks (a bulk update) that lacks what the face reads, or
    holds a value of another type, still draws."""
    spearmen = Card.objects.get(game__slug="hex-skirmish", name="Militia Spearmen")
    Card.objects.filter(pk=spearmen.pk).update(attributes={})
    _png(client.get(f"/cards/hex-skirmish/card/{spearmen.pk}/image.png"))
    Card.objects.filter(pk=spearmen.pk).update(attributes={"edges": ["x", None], "health": None})
    _png(client.get(f"/cards/hex-skirmish/card/{spearmen.pk}/image.png"))
    tigercat = Card.objects.get(game__slug="redline", name="Tigercat")
    Card.objects.filter(pk=tigercat.pk).update(attributes={"slots": 7}, text="")
    _png(client.get(f"/cards/redline/card/{tigercat.pk}/image.png"))


def test_the_card_back_of_every_game_is_an_image(client):
    for game in registry.all():
        _png(client.get(f"/cards/{game.slug}/back.png"))


def test_an_unknown_card_or_game_is_not_found(client, sample_catalogue):
    card = Card.objects.get(game__slug="redline", name="Tigercat")
    assert client.get(f"/cards/redline/card/{card.pk}/image.png").status_code == 200
    assert client.get(f"/cards/hex-skirmish/card/{card.pk}/image.png").status_code == 404
    assert client.get("/cards/no-such-game/card/1/image.png").status_code == 404
    assert client.get("/cards/no-such-game/back.png").status_code == 404
