"""`expansion_export`: an expansion as the document the import reads back unchanged."""

from __future__ import annotations

from typing import Any

from ..models import Expansion, Printing


def expansion_export(*, game_slug: str, code: str) -> dict[str, Any]:
    """The expansion as a document that `expansion_import` reads back unchanged."""
    expansion = Expansion.objects.select_related("game").get(game__slug=game_slug, code=code)
    printings = Printing.objects.filter(expansion=expansion).select_related("card").order_by("pk")
    cards = []
    for p in printings:
        c = p.card
        cards.append(
            {
                "name": c.name,
                "kind": c.kind,
                "faction": c.faction,
                "cost": c.cost,
                "number": p.number,
                "rarity": p.rarity,
                "text": c.text,
                "flavour": p.flavour,
                "artist": p.artist,
                "attributes": c.attributes,
            }
        )
    doc: dict[str, Any] = {
        "game": expansion.game.slug,
        "code": expansion.code,
        "name": expansion.name,
        "released": expansion.released.isoformat() if expansion.released else None,
    }
    if expansion.sample:
        doc["sample"] = True
    if expansion.notice:
        doc["notice"] = expansion.notice
    doc["cards"] = cards
    return doc
