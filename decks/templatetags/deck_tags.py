"""Filters and tags of the deck pages."""

from __future__ import annotations

import functools
import re
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


def minified_css(text: str) -> str:
    """A style sheet without its comments and the white space around its punctuation (the
    site's own sheets: no string in them holds a brace, a semicolon or a comma's spacing
    that matters); what it says is unchanged."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s*([{};,>])\s*", r"\1", text)
    text = re.sub(r":\s+", ":", text)
    return text.replace(";}", "}").strip()


@functools.cache
def _static_text(path: str) -> str:
    found = finders.find(path)
    text = Path(found).read_text(encoding="utf-8") if found else ""
    return minified_css(text) if path.endswith(".css") else text


@register.simple_tag
def inline_static(path: str) -> str:
    """The text of one of the site's own static files (read once; a style sheet minified),
    to inline in the page: the builder carries the site's and its own style sheets in its
    head, so that a phone paints it without waiting for one more round trip
    (bench/pages.py measures it)."""
    return mark_safe(_static_text(path))  # the site's own file, not user input
