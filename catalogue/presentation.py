"""How cards are shown: labelled attributes and the stat line of a drawn card face."""

from __future__ import annotations

from typing import Any

from validation.registry import registry


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if value and isinstance(value[0], dict):
            return "; ".join(", ".join(f"{k} {v}" for k, v in item.items()) for item in value)
        return ", ".join(str(v).replace("_", " ") for v in value) if value else "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) if value else "—"
    if value in (None, ""):
        return "—"
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


def labelled_attributes(card) -> list[tuple[str, str]]:
    """Every attribute of the card's kind with its label, in schema order."""
    schema = registry.get(card.game.slug).kinds.get(card.kind)
    if schema is None:
        return [(k, format_value(v)) for k, v in sorted(card.attributes.items())]
    return [(a.label, format_value(card.attributes.get(a.key))) for a in schema.attrs]


def stat_line(card, game_slug: str, limit: int = 4) -> str:
    """The few numbers worth printing on a drawn face (the kind's int attributes)."""
    schema = registry.get(game_slug).kinds.get(card.kind)
    if schema is None:
        return ""
    parts = []
    for a in schema.attrs:
        if a.type in ("int", "choice") and a.key in card.attributes:
            parts.append(f"{a.label} {format_value(card.attributes[a.key])}")
        if len(parts) >= limit:
            break
    return " · ".join(parts)
