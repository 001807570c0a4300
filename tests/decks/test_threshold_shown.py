"""The elimination threshold shown in the builder and on the check page comes from one
function: the Standard Game's 18 (Part VI), half the force's points elsewhere (Part II)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks import services

pytestmark = pytest.mark.django_db

FORCE_30 = "Force:\n2 Armored\n2 Mechanized\n3 Infantry\n2 Recon\n"


def _threshold(html: str) -> str:
    return re.search(r'<b id="threshold">([^<]*)</b>', html).group(1)


@pytest.mark.parametrize(
    ("fmt", "shown"), [("standard", "18"), ("custom", "15"), ("campaign", "15")]
)
def test_builder_shows_the_formats_threshold(client, sample_catalogue, user, fmt, shown):
    client.force_login(user)
    options = {"points": 30} if fmt == "campaign" else None
    deck = services.deck_create(
        owner=user,
        game_slug="tactical-assault",
        format=fmt,
        name=fmt,
        text=FORCE_30,
        options=options,
    )
    html = client.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    assert _threshold(html) == shown
    assert ("Part VI" in html) == (fmt == "standard")


def test_check_page_totals_show_the_standard_games_18(client, sample_catalogue):
    html = client.post(
        reverse("decks:check"), {"game_format": "tactical-assault/standard", "list": FORCE_30}
    ).content.decode()
    assert re.search(r'data-total="elimination_threshold">18<', html), html
