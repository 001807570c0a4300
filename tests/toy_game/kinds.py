"""Pond's card kinds: frogs (how far they hop) and lily pads (how big they are)."""

from __future__ import annotations

from validation.schema import Attr, KindSchema

FROG = KindSchema(
    "frog",
    "Frog",
    (
        Attr(
            "hop", "Hop", "int", required=True, minimum=1, maximum=6, help="pads per hop, at most"
        ),
        Attr("colour", "Colour", "choice", choices=("green", "brown"), default="green"),
    ),
)
PAD = KindSchema("pad", "Lily pad", (Attr("size", "Size", "int", minimum=1, default=1),))

KINDS: dict[str, KindSchema] = {s.kind: s for s in (FROG, PAD)}
