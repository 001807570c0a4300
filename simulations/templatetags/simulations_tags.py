from django import template
from django.urls import reverse

from simulations import kinds

register = template.Library()


@register.filter
def pct(value, digits: int = 1) -> str:
    """0.1234 -> "12.3%"; None -> "—"."""
    if value is None or value == "":
        return "—"
    return f"{float(value) * 100:.{int(digits)}f}%"


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.simple_tag
def compare_url(deck) -> str:
    """The "Compare with…" page of `deck`, or "" when no goldfish of its game pairs games."""
    if not any(k.pairs for k in kinds.for_game(deck.game.slug)):
        return ""
    return reverse("simulations:deck-compare", args=[deck.pk])
