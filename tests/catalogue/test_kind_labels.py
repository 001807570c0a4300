"""Kinds are shown with the schema's labels ("Critical hit", "Unit type", "Map card"), never
as the slug with its underscore cut out (CRITICALHIT, UNITTYPE, MAPCARD)."""

from __future__ import annotations

import pytest

from validation.registry import registry

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", [g.slug for g in registry.all()])
def test_catalogue_pages_use_the_kind_labels_of_the_schema(game, client, sample_catalogue):
    definition = registry.get(game)
    for view in ("grid", "list"):
        html = client.get(f"/cards/{game}/", {"view": view, "per": 100}).content.decode()
        for kind in definition.kinds:
            if "_" in kind:
                assert kind.replace("_", "") not in html, (view, kind)
                assert kind.replace("_", "").upper() not in html, (view, kind)
        shown = [s.label for s in definition.kinds.values()]
        assert any(label in html for label in shown), view


def test_the_close_combat_attack_reads_as_words(client, sample_catalogue):
    html = client.get(
        "/play/tactical-assault/combat-odds/",
        {"attacker": "Infantry", "target": "Armored", "attack": "close_combat"},
    ).content.decode()
    assert "close combat rating" in html and "closecombat" not in html
