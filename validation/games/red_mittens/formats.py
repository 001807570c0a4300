"""Red Mittens formats and construction rules (the game spec §4): three core decks of 20."""

from __future__ import annotations

from validation.registry import FormatDef
from validation.rules import ExactSize, KindAllowed, Rule

CORE_DECK_SIZE = 20
#: section -> (kind it holds, code of its size rule)
CORE_DECKS = {
    "units": ("unit", "units.size"),
    "items": ("item", "items.size"),
    "fields": ("field", "fields.size"),
}

CORE_RULES: tuple[Rule, ...] = (
    *(
        ExactSize(
            section,
            CORE_DECK_SIZE,
            code=code,
            description=f"the {kind.upper()} core deck holds exactly 20 cards",
        )
        for section, (kind, code) in CORE_DECKS.items()
    ),
    *(
        KindAllowed(
            section, (kind,), code="deck.kind", description="each core deck holds only its kind"
        )
        for section, (kind, _code) in CORE_DECKS.items()
    ),
)

FORMATS: dict[str, FormatDef] = {
    "core": FormatDef(
        "core",
        "Core",
        "The introductory game: a UNIT, an ITEM and a FIELD core deck of 20 cards each.",
        options={"life_points": 20},
        rules=CORE_RULES,
        required_sections=tuple(CORE_DECKS),
    )
}
