"""Filters of the deck pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def unnamed_cards(violation) -> list[str]:
    """The cards of a violation that its message does not already name (shown beside it,
    so that no card's name is read twice)."""
    cards = getattr(violation, "cards", None)
    message = getattr(violation, "message", "")
    if cards is None and isinstance(violation, dict):
        cards, message = violation.get("cards", []), violation.get("message", "")
    return [c for c in cards or () if c not in message]
