"""`manage.py warm_goldfish` plays every goldfish once before the site serves, so that a
kernel compiled on first use is compiled at start, not in a player's request."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from validation import packages
from validation.registry import registry

pytestmark = pytest.mark.django_db


def test_every_goldfish_is_warmed_with_a_saved_deck(sample_catalogue, user, make_deck):
    for game in registry.all():
        found = packages.main_sample_list(game.slug)
        if game.goldfish is not None and found is not None:
            make_deck(user, game=game.slug, fmt=found.format)
    out = StringIO()
    call_command("warm_goldfish", stdout=out)
    lines = out.getvalue().splitlines()
    with_goldfish = [g for g in registry.all() if g.goldfish is not None]
    assert len(lines) == len(with_goldfish)
    for game in with_goldfish:
        assert any(line.startswith(f"{game.name}: goldfish ready") for line in lines), lines


def test_a_game_without_a_saved_deck_is_named_not_failed(sample_catalogue):
    out = StringIO()
    call_command("warm_goldfish", stdout=out)
    deck_goldfish = [g for g in registry.all() if g.goldfish and g.goldfish.prepare]
    assert deck_goldfish
    for game in deck_goldfish:
        assert f"{game.name}: no saved deck to warm the goldfish with" in out.getvalue()
