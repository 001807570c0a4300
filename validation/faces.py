"""How a card is drawn: its `FaceSpec` (stats, badges, an optional figure).

`face_of(game, card)` answers with the game's own function for the card's kind when the
game has one (`GameDef.card_faces`), else with a face built from the kind's schema: each
attribute as (label, value written for people), true flags as badges, empty values left
out. Pure: no Django.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from validation.capabilities import FaceSpec
from validation.schema import Attr, KindSchema
from validation.types import CardFacts

if TYPE_CHECKING:
    # The game packages import this module while the registry registers them.
    from validation.registry import GameDef


def humanise(value: Any) -> str:
    """One attribute value for people: "very_light" -> "very light", lists joined with
    ", ", an object {"recon": 1} -> "recon 1" (its "name" by the value alone), a list of
    objects joined with "; "."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(
            humanise(v) if k == "name" else f"{humanise(k)} {humanise(v)}".strip()
            for k, v in value.items()
        )
    if isinstance(value, list | tuple):
        return ("; " if any(isinstance(v, Mapping) for v in value) else ", ").join(
            humanise(v) for v in value
        )
    if value is None:
        return ""
    if isinstance(value, str):
        return value.replace("_", " ")
    return str(value)


def is_empty(attr: Attr, value: Any) -> bool:
    """Whether a value says nothing worth printing: missing, "", [], {}, and the 0 of an
    optional number that has no default of its own (0 is what "left out" becomes)."""
    if value is None or value == "" or value == [] or value == {} or value == ():
        return True
    if attr.type == "int" and not attr.required and attr.default is None and value == 0:
        return True
    return False


def default_face(schema: KindSchema | None, card: CardFacts) -> FaceSpec:
    """A face from the kind's schema, in schema order: true flags become badges (by their
    label), every other non-empty attribute a stat."""
    stats: list[tuple[str, str]]
    badges: list[str]
    if schema is None:
        stats = [
            (key.replace("_", " ").capitalize(), humanise(value))
            for key, value in sorted(card.attributes.items())
            if not isinstance(value, bool) and value not in (None, "", [], {})
        ]
        badges = [
            key.replace("_", " ").capitalize()
            for key, value in sorted(card.attributes.items())
            if value is True
        ]
        return FaceSpec(stats=tuple(stats), badges=tuple(badges))
    stats = []
    badges = []
    for attr in schema.attrs:
        value = card.attributes.get(attr.key)
        if attr.type == "bool":
            if value is True:
                badges.append(attr.label)
            continue
        if is_empty(attr, value):
            continue
        stats.append((attr.label, humanise(value)))
    return FaceSpec(stats=tuple(stats), badges=tuple(badges))


def face_of(game: GameDef, card: CardFacts) -> FaceSpec:
    """How `card` of `game` is drawn: the game's own face for its kind, else the default."""
    own = game.card_faces.get(card.kind)
    if own is not None:
        return own(card)
    return default_face(game.kinds.get(card.kind), card)


def edge_figure(values: list[int], *, label: str, front: str = "front") -> dict[str, Any]:
    """A card drawn as a regular polygon with a value on each edge (a hex unit's six edge
    strengths), flat-topped in a 120 × 120 box: edge 0 (the front, marked) at the top, then
    clockwise. A plain figure of type "polygon" for the card face's shared partial: its
    outline `points`, `labels` [{"value", "x", "y", "front"}], the words `label` for
    readers of the page and `caption` written over the front edge."""
    n = len(values)
    if n < 3:
        raise ValueError(f"an edge figure needs at least 3 edges, not {n}")
    cx = cy = 60.0
    r = 50.0
    step = 360 / n
    corners = [
        (
            cx + r * math.cos(math.radians(-90 - step / 2 + k * step)),
            cy + r * math.sin(math.radians(-90 - step / 2 + k * step)),
        )
        for k in range(n)
    ]
    d = r * 0.66
    labels = [
        {
            "value": value,
            "x": round(cx + d * math.cos(math.radians(-90 + i * step)), 1),
            "y": round(cy + d * math.sin(math.radians(-90 + i * step)) + 4, 1),
            "front": i == 0,
        }
        for i, value in enumerate(values)
    ]
    return {
        "type": "polygon",
        "values": list(values),
        "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in corners),
        "labels": labels,
        "label": label,
        "caption": front,
    }
