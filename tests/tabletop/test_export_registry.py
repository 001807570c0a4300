"""The export formats are registered: each one class, found by its slug in the decks app's
registry, which the deck pages and the API read; a slug is registered once."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from decks import exports

EXPECTED = ["text", "json", "markdown", "bbcode", "tts", "proxies", "sheet", "units"]


def test_every_format_is_registered_in_the_order_the_pages_list_them():
    assert list(exports.FORMATS) == EXPECTED
    for slug, fmt in exports.FORMATS.items():
        assert isinstance(fmt, exports.ExportFormat)
        assert fmt.slug == slug and fmt.label and fmt.media_type and fmt.extension
        assert fmt.renderer.media_type == fmt.media_type, slug


def test_an_unknown_format_is_refused_naming_every_format():
    with pytest.raises(exports.ExportRefused) as refused:
        exports.get("pdf")
    assert refused.value.field == "format"
    assert refused.value.message == (
        "unknown export format 'pdf'; use one of " + ", ".join(EXPECTED)
    )


def test_a_slug_is_registered_once():
    class Again(exports.ExportFormat):
        slug = "markdown"

    with pytest.raises(ImproperlyConfigured, match="registered twice"):
        exports.register(Again)
    assert type(exports.FORMATS["markdown"]).__name__ == "Markdown"


def test_the_lists_to_copy_are_the_text_formats():
    assert [f.slug for f in exports.FORMATS.values() if f.copyable] == [
        "text",
        "markdown",
        "bbcode",
    ]
