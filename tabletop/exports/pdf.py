"""What every PDF of a deck shares: the paper sizes, a canvas with the cards' fonts, and the
face of a card no longer in the catalogue."""

from __future__ import annotations

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from catalogue import card_images
from decks.exports import ExportRefused
from validation.registry import GameDef
from validation.types import CardFacts

from .lines import Line

PAPERS = ("a4", "letter")


def page_size(paper: str) -> tuple[float, float]:
    if paper not in PAPERS:
        raise ExportRefused(f"paper {paper!r}: use a4 or letter", "paper")
    return A4 if paper == "a4" else LETTER


def canvas_for(buf, paper: str, title: str) -> Canvas:
    """A canvas of the paper's size with the cards' fonts registered; the same bytes for the
    same drawing (`invariant`)."""
    canvas = Canvas(buf, pagesize=page_size(paper), pageCompression=1, invariant=1)
    canvas.setTitle(title)
    canvas.setCreator("Cardsite")
    card_images.fonts()
    return canvas


def missing_card(line: Line, game: GameDef) -> CardFacts:
    """The face of a card the version names that the catalogue no longer holds."""
    return CardFacts(
        name=line.name, kind="", faction="", cost=0, text="No longer in the catalogue."
    )
