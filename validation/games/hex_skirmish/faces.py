"""How Hex Skirmish cards are drawn: a unit is a hexagon with a strength on each edge."""

from __future__ import annotations

from validation.capabilities import CardFaceFn, FaceSpec
from validation.faces import edge_figure, humanise
from validation.types import CardFacts


def unit_face(card: CardFacts) -> FaceSpec:
    """The six edge strengths on a hex (index 0 the front, then clockwise), and the
    unit's health, movement, armor, range and class."""
    a = card.attributes
    edges = [int(v) for v in a.get("edges") or ()]
    return FaceSpec(
        stats=(
            ("Health", humanise(a.get("health", 0))),
            ("Movement", humanise(a.get("movement", 0))),
            ("Armor", humanise(a.get("armor", 0))),
            ("Range", humanise(a.get("range", 0))),
            ("Class", humanise(a.get("unit_class", ""))),
        ),
        figure=(
            edge_figure(edges, label="edge strengths, front first, clockwise")
            if len(edges) == 6
            else None
        ),
    )


CARD_FACES: dict[str, CardFaceFn] = {"unit": unit_face}
