"""Pond's one format: at least 4 frogs, at most 2 of one, and exactly 6 lily pads."""

from __future__ import annotations

from validation.registry import FormatDef
from validation.rules import CopyLimit
from validation.sections import SectionSpec

FROGS = SectionSpec(
    "frogs",
    "Frogs",
    kinds=("frog",),
    size=(4, None),
    size_code="frogs.size",
    kind_code="section.kind",
    noun=("frog", "frogs"),
)
PADS = SectionSpec(
    "pads",
    "Lily pads",
    kinds=("pad",),
    size=(6, 6),
    size_code="pads.size",
    noun=("pad", "pads"),
)

FORMATS: dict[str, FormatDef] = {
    "pond": FormatDef(
        "pond",
        "Pond",
        "Four frogs or more and six lily pads.",
        sections=(FROGS, PADS),
        checks=(CopyLimit("frogs", 2, code="frogs.copies", description="at most 2 of a frog"),),
    )
}
