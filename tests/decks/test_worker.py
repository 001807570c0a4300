"""A catalogue change reaches saved decks through a real Celery worker."""

from __future__ import annotations

import pytest

from catalogue.importer import expansion_import
from decks import services
from decks.models import Deck
from tests.conftest import wait_for

from .conftest import sample_expansion, sample_list

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_importing_a_changed_expansion_flips_a_saved_decks_legality(
    celery_worker_process, sample_catalogue, user
):
    deck = services.deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="UNE",
        text=sample_list("redline", "standard"),
    )
    assert deck.legal
    changed = sample_expansion("redline", "RL1")
    for card in changed["cards"]:
        if card["name"] == "Tigercat":
            card["faction"] = "cpm"  # now outside the UNE general's faction
    report = expansion_import(data=changed)
    assert report.updated == ["Tigercat"]

    def flipped():
        return not Deck.objects.get(pk=deck.pk).legal

    wait_for(flipped, timeout=60)
    deck.refresh_from_db()
    assert "arsenal.faction" in {e["code"] for e in deck.report["errors"]}
