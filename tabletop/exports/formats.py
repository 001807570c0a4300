"""The export formats, registered with the decks app's registry (`decks.exports`): each one
class with its slug, label, media type, file extension, DRF renderer, the API operation's
summary and parameters, and the body it makes. Registered when the app is ready
(`TabletopConfig.ready`), in the order the deck pages and the API list them."""

from __future__ import annotations

from collections.abc import Mapping

from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer

from decks import selectors
from decks.exports import (
    SHEET_FIELD_MAX,
    Absolute,
    Body,
    ExportFormat,
    ExportRefused,
    MarkdownRenderer,
    PDFRenderer,
    PlainTextRenderer,
    register,
)
from validation.types import CardFacts

from .forums import as_bbcode, as_markdown
from .pdf import PAPERS
from .proxies import BLEEDS, PROXIES_MAX_PAGES, as_proxies
from .sheets import as_sheet, as_unit_sheet
from .tts import as_tts

PAPER = OpenApiParameter("paper", str, enum=list(PAPERS), description="the paper size")


def _paper(params: Mapping[str, str]) -> str:
    return params.get("paper", "a4") or "a4"


@register
class Text(ExportFormat):
    slug = "text"
    label = "Text"
    media_type = "text/plain"
    extension = "txt"
    renderer = PlainTextRenderer
    summary = "Export a deck as the text list"
    description = "The deck's list as text (what ?format=text of the export gives)."
    throttled = False
    inline = True
    copyable = True

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        return selectors.deck_export(deck=deck, version=version, as_="text")

    def copy_text(self, deck, version, *, facts: Mapping[str, CardFacts] | None = None) -> str:
        return str(selectors.deck_export(deck=deck, version=version, as_="text", facts=facts))


@register
class Json(ExportFormat):
    slug = "json"
    label = "JSON"
    media_type = "application/json"
    extension = "json"
    renderer = JSONRenderer
    summary = "Export a deck as JSON (its cards by section)"
    inline = True

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        return selectors.deck_export(deck=deck, version=version, as_="json")

    def content_type(self, content: str | bytes) -> str:
        return self.media_type


@register
class Markdown(ExportFormat):
    slug = "markdown"
    label = "Markdown"
    media_type = "text/markdown"
    extension = "md"
    renderer = MarkdownRenderer
    summary = "Export a deck as Markdown (the list for a forum)"
    copyable = True

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        return as_markdown(deck, version)

    def copy_text(self, deck, version, *, facts: Mapping[str, CardFacts] | None = None) -> str:
        return as_markdown(deck, version, facts=facts)


@register
class BBCode(ExportFormat):
    slug = "bbcode"
    label = "BBCode"
    media_type = "text/plain"
    extension = "bbcode.txt"
    renderer = PlainTextRenderer
    summary = "Export a deck as BBCode (the list for a forum)"
    copyable = True

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        return as_bbcode(deck, version)

    def copy_text(self, deck, version, *, facts: Mapping[str, CardFacts] | None = None) -> str:
        return as_bbcode(deck, version, facts=facts)


@register
class TabletopSimulator(ExportFormat):
    slug = "tts"
    label = "Tabletop Simulator"
    media_type = "application/json"
    extension = "tts.json"
    renderer = JSONRenderer
    summary = "Export a deck as a Tabletop Simulator saved object"

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        return as_tts(deck, version, absolute)


@register
class Proxies(ExportFormat):
    slug = "proxies"
    label = "Proxies (PDF)"
    media_type = "application/pdf"
    extension = "proxies.pdf"
    renderer = PDFRenderer
    summary = f"Printable proxies of a deck (PDF, at most {PROXIES_MAX_PAGES} pages)"
    parameters = (
        PAPER,
        OpenApiParameter(
            "bleed",
            str,
            enum=[str(b) for b in BLEEDS],
            description="millimetres of bleed around each card (default 0)",
        ),
    )

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        raw = params.get("bleed", "0") or "0"
        if raw not in ("0", "3"):
            raise ExportRefused(f"bleed {raw!r}: use 0 or 3 (millimetres)", "bleed")
        return as_proxies(deck, version, paper=_paper(params), bleed=int(raw))


@register
class TournamentSheet(ExportFormat):
    slug = "sheet"
    label = "Tournament sheet (PDF)"
    media_type = "application/pdf"
    extension = "sheet.pdf"
    renderer = PDFRenderer
    summary = "A deck's tournament sheet (PDF)"
    parameters = (
        PAPER,
        *(
            OpenApiParameter(
                name,
                {"type": "string", "maxLength": SHEET_FIELD_MAX},
                description=f"the {name} written at the sheet's head",
            )
            for name in ("player", "event", "date")
        ),
    )

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        return as_sheet(
            deck,
            version,
            paper=_paper(params),
            player=params.get("player", ""),
            event=params.get("event", ""),
            date=params.get("date", ""),
        )


@register
class UnitSheet(ExportFormat):
    slug = "units"
    label = "Unit sheet (PDF)"
    media_type = "application/pdf"
    extension = "units.pdf"
    renderer = PDFRenderer
    summary = "A deck's unit sheet (PDF, for a game that prints one)"
    parameters = (PAPER,)

    def render(self, deck, version, params: Mapping[str, str], absolute: Absolute) -> Body:
        return as_unit_sheet(deck, version, paper=_paper(params))
