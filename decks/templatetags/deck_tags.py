"""Filters and tags of the deck pages."""

from __future__ import annotations

import functools
from pathlib import Path

from django import template
from django.contrib.staticfiles import finders
from django.utils.safestring import mark_safe

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


@functools.cache
def _static_text(path: str) -> str:
    found = finders.find(path)
    return Path(found).read_text(encoding="utf-8") if found else ""


@register.simple_tag
def inline_static(path: str) -> str:
    """The text of one of the site's own static files (read once), to inline in the page:
    the builder carries the site's stylesheet in its head, so that a phone paints it
    without waiting for one more round trip (bench/pages.py measures it)."""
    return mark_safe(_static_text(path))  # the site's own file, not user input
