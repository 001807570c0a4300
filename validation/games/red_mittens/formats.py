"""Red Mittens formats and construction rules (the game spec §4): three core decks of 20."""

from __future__ import annotations

from validation.registry import FormatDef
from validation.sections import SectionSpec

CORE_DECK_SIZE = 20
#: The three core decks: section, label, the kind it holds and the code of its size rule.
CORE_DECKS: tuple[SectionSpec, ...] = tuple(
    SectionSpec(
        section,
        label,
        kinds=(kind,),
        size=(CORE_DECK_SIZE, CORE_DECK_SIZE),
        size_code=code,
        kind_code="deck.kind",
        description=f"the {kind.upper()} core deck holds exactly 20 cards",
    )
    for section, label, kind, code in (
        ("units", "Unit deck", "unit", "units.size"),
        ("items", "Item deck", "item", "items.size"),
        ("fields", "Field deck", "field", "fields.size"),
    )
)

FORMATS: dict[str, FormatDef] = {
    "core": FormatDef(
        "core",
        "Core",
        "The introductory game: a UNIT, an ITEM and a FIELD core deck of 20 cards each.",
        sections=CORE_DECKS,
        options={"life_points": 20},
    )
}
