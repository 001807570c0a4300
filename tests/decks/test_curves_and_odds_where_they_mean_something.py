"""A cost curve and exact draw odds only where a deck is drawn turn by turn (REDLINE's
arsenal, Hex Skirmish's command cards), never for a Tactical Assault force, a Red Code match
or Red Mittens' three core decks (drawn by dice)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks import services
from tests.decks.conftest import sample_list

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
CASES = [
    ("redline", "standard", "arsenal", 60),
    ("hex-skirmish", "standard", "command cards", 31),
    ("tactical-assault", "standard", None, None),
    ("red-code", "arena", None, None),
    ("red-mittens", "core", None, None),
]


@pytest.mark.parametrize("game,fmt,curve_of,deck_size", CASES)
def test_curve_and_odds_only_for_sections_drawn_turn_by_turn(
    game, fmt, curve_of, deck_size, client, user, sample_catalogue
):
    deck = services.deck_create(
        owner=user, game_slug=game, format=fmt, name="D", text=sample_list(game, fmt)
    )
    client.force_login(user)
    builder = client.get(reverse("builder:deck", args=[deck.pk])).content.decode()
    panel = client.get(
        reverse("simulations:deck-panel", args=[deck.pk]), {"v": 1}, **HTMX
    ).content.decode()
    if curve_of is None:
        assert "Cost curve" not in builder and 'class="b-curve"' not in builder
        assert 'id="odds-form"' not in panel
        return
    assert f'Cost curve <small class="muted">{curve_of}</small>' in builder
    assert 'id="odds-form"' in panel
    assert f'name="deck_size" value="{deck_size}"' in panel
