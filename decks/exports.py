"""The ways a saved version of a deck leaves the site, registered: a format is one class (its
slug, label, media type, file name and the body it makes), as games and job kinds are.

The tabletop app registers every format in its `ready()` (the text list and its JSON twin,
Markdown, BBCode, Tabletop Simulator, proxies, the tournament and unit sheets); the deck
pages (`decks:export`, `decks:shared-export`) and the API's export operations
(`/api/decks/<id>/export/<format>/`, one operation a format) look a format up here and name
none. The DRF renderers of the bodies are here too, one a media type, for the API's
operations and for the other files the API answers (the collection's text and CSV).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import BaseRenderer, JSONRenderer

from validation.types import CardFacts

#: Text a sheet's header takes (player, event, date), at most this long: the printable
#: sheet page of the decks app and the tournament sheet's PDF alike.
SHEET_FIELD_MAX = 100

#: What a format makes: text, bytes (a PDF), or a dict for the JSON formats.
Body = str | bytes | dict[str, Any]
#: Makes a site path absolute (`request.build_absolute_uri`).
Absolute = Callable[[str], str]


class ExportRefused(ValueError):
    """An export that cannot be made as asked; `field` names the parameter at fault."""

    def __init__(self, message: str, field: str = "format"):
        super().__init__(message)
        self.message = message
        self.field = field


# --- Renderers (DRF): one a media type -------------------------------------------------------


class PlainTextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "text"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode(self.charset)
        return json.dumps(data, ensure_ascii=False).encode(self.charset)


class MarkdownRenderer(PlainTextRenderer):
    media_type = "text/markdown"
    format = "markdown"


class CSVRenderer(PlainTextRenderer):
    media_type = "text/csv"
    format = "csv"


class PDFRenderer(BaseRenderer):
    """Declares that the export answers PDF (its body is made by the format)."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, bytes) else json.dumps(data).encode()


# --- Formats -----------------------------------------------------------------------------------


class ExportFormat:
    """One way out of the site. A subclass names its slug (the address's last part), label,
    media type, file extension and DRF renderer, and makes the body (`render`); the rest has
    defaults. An `inline` format (the plain list and its JSON) is shown by a browser rather
    than downloaded, and the API answers it through its renderer; a `copyable` one is
    offered on the deck page as text to copy (`copy_text`)."""

    slug: ClassVar[str]
    label: ClassVar[str]
    media_type: ClassVar[str]
    extension: ClassVar[str]
    renderer: ClassVar[type[BaseRenderer]]
    #: The API operation's summary and description (the description: its docstring).
    summary: ClassVar[str]
    description: ClassVar[str] = ""
    #: The query parameters the API operation declares besides the version.
    parameters: ClassVar[tuple[OpenApiParameter, ...]] = ()
    #: Whether the API operation is throttled as an export and may answer 400.
    throttled: ClassVar[bool] = True
    inline: ClassVar[bool] = False
    copyable: ClassVar[bool] = False

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        """The body for a version of a deck; ExportRefused for a parameter out of bounds."""
        raise NotImplementedError

    def copy_text(self, deck, version, *, facts: Mapping[str, CardFacts] | None = None) -> str:
        """The list as text to copy (a `copyable` format), `facts` the cards' facts read."""
        raise NotImplementedError(f"{self.slug} is not a text to copy")

    def filename(self, deck, version) -> str:
        return f"{deck.game.slug}-{deck.pk}-v{version.number}.{self.extension}"

    def content_type(self, content: str | bytes) -> str:
        return (
            self.media_type if isinstance(content, bytes) else f"{self.media_type}; charset=utf-8"
        )

    def response(self, deck, version, body: Body) -> HttpResponse:
        """The body as a file named after the game, deck and version: to download, or to
        show (an `inline` format)."""
        if isinstance(body, dict):
            content: bytes | str = json.dumps(body, indent=2, ensure_ascii=False)
        else:
            content = body
        response = HttpResponse(content, content_type=self.content_type(content))
        disposition = "inline" if self.inline else "attachment"
        response["Content-Disposition"] = (
            f'{disposition}; filename="{self.filename(deck, version)}"'
        )
        return response

    def __repr__(self) -> str:
        return f"<export format {self.slug}>"


_registry: dict[str, ExportFormat] = {}


def register(cls: type[ExportFormat]) -> type[ExportFormat]:
    """Register a format (a class decorator); a slug registered twice is an error."""
    if cls.slug in _registry:
        raise ImproperlyConfigured(f"export format {cls.slug!r} is registered twice")
    _registry[cls.slug] = cls()
    return cls


class _Formats(Mapping[str, ExportFormat]):
    """The registered formats by slug, in the order they were registered. Read once every
    app is ready (the formats register in their app's `ready()`): read before, a format
    would be missing without a word."""

    def _all(self) -> dict[str, ExportFormat]:
        if not apps.ready:
            raise ImproperlyConfigured("the export formats are read before the apps are ready")
        return _registry

    def __getitem__(self, slug: str) -> ExportFormat:
        return self._all()[slug]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


FORMATS: Mapping[str, ExportFormat] = _Formats()


def unknown_format_message(kind: str) -> str:
    return f"unknown export format {kind!r}; use one of {', '.join(FORMATS)}"


def get(kind: str) -> ExportFormat:
    """The format of slug `kind`; ExportRefused (naming the formats) for an unknown one."""
    if kind not in FORMATS:
        raise ExportRefused(unknown_format_message(kind))
    return FORMATS[kind]


def api_renderers(fmt: ExportFormat) -> list[type[BaseRenderer]]:
    """The renderers of a format's API operation: its own, and JSON for its errors."""
    return [fmt.renderer] if fmt.renderer is JSONRenderer else [fmt.renderer, JSONRenderer]
