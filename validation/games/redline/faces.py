"""How REDLINE cards are drawn: an efreet shows its equipment slots as icons."""

from __future__ import annotations

from validation.capabilities import CardFaceFn, FaceSpec
from validation.faces import humanise
from validation.types import CardFacts

# One short symbol per slot type; the icon's label names the slot in words.
SLOT_SYMBOLS = {
    "laser": "L",
    "missile": "M",
    "cannon": "C",
    "system": "S",
    "pilot": "P",
    "open": "○",
}


def efreet_face(card: CardFacts) -> FaceSpec:
    """Class, damage, armor and speed; the slots as icons (none: closed); the keywords and
    "Heroic" as badges."""
    a = card.attributes
    slots = a.get("slots") or ()
    badges = [str(k) for k in a.get("keywords") or ()]
    if a.get("heroic"):
        badges.append("Heroic")
    return FaceSpec(
        stats=(
            ("Class", humanise(a.get("efreet_class", ""))),
            ("Damage", humanise(a.get("damage", 0))),
            ("Armor", humanise(a.get("armor", 0))),
            ("Speed", humanise(a.get("speed", 0))),
        ),
        badges=tuple(badges),
        figure={
            "type": "icons",
            "items": [
                {"label": humanise(s).capitalize(), "symbol": SLOT_SYMBOLS.get(s, "?")}
                for s in slots
            ],
            "empty": "Closed: no slots",
        },
    )


CARD_FACES: dict[str, CardFaceFn] = {"efreet": efreet_face}
