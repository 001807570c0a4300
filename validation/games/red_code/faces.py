"""How Red Code cards are drawn: a ship's control card lists its manoeuvres with their crew
cost; a map card shows its four boxes."""

from __future__ import annotations

from validation.capabilities import CardFaceFn, FaceSpec
from validation.faces import humanise
from validation.types import CardFacts

# A short symbol for each box of a map card (the label says it in words).
BOX_SYMBOLS = {
    "sea": "~",
    "island": "▲",
    "current_n": "↑",
    "current_e": "→",
    "current_s": "↓",
    "current_w": "←",
}
BOX_LABELS = {
    "sea": "Sea",
    "island": "Island",
    "current_n": "Current north",
    "current_e": "Current east",
    "current_s": "Current south",
    "current_w": "Current west",
}


def ship_face(card: CardFacts) -> FaceSpec:
    """Class, repairs, breakdowns and crew; the manoeuvres as a table with their crew cost."""
    a = card.attributes
    rows = [
        [humanise(m.get("name", "")), humanise(m.get("crew_cost", ""))]
        for m in a.get("manoeuvres") or ()
    ]
    return FaceSpec(
        stats=(
            ("Class", humanise(a.get("ship_class", ""))),
            ("Repairs", humanise(a.get("repairs", 0))),
            ("Breakdowns", humanise(a.get("breakdowns", 0))),
            ("Crew", humanise(a.get("crew", 6))),
        ),
        figure={"type": "table", "columns": ["Manoeuvre", "Crew cost"], "rows": rows}
        if rows
        else None,
    )


def map_card_face(card: CardFacts) -> FaceSpec:
    """The card's four boxes as icons, in printed order; a start card says so."""
    boxes = card.attributes.get("boxes") or ()
    items = [
        {"label": BOX_LABELS.get(b, humanise(b)), "symbol": BOX_SYMBOLS.get(b, "?")} for b in boxes
    ]
    return FaceSpec(
        badges=("Start card",) if card.attributes.get("start") else (),
        figure={"type": "icons", "items": items} if items else None,
    )


CARD_FACES: dict[str, CardFaceFn] = {"ship": ship_face, "map_card": map_card_face}
