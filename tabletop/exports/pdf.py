"""What every PDF of a deck shares: the paper sizes, a canvas with the cards' fonts, a card's
layout (catalogue/card_images.py) drawn on it as vectors, and the face of a card no longer
in the catalogue."""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from catalogue import card_images
from catalogue.card_images import Layout
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


def draw_layout(canvas: Canvas, lay: Layout, left: float, bottom: float) -> None:
    """Draw the layout on a ReportLab canvas with its bottom left corner at (`left`,
    `bottom`) points; ReportLab's y goes up, the layout's down."""

    card_images.fonts()
    top = bottom + lay.height * mm

    def px(x):
        return left + x * mm

    def py(y):
        return top - y * mm

    for s in lay.shapes:
        t = s["t"]
        canvas.saveState()
        if s.get("fill"):
            canvas.setFillColor(HexColor(s["fill"]))
        if s.get("stroke"):
            canvas.setStrokeColor(HexColor(s["stroke"]))
        if "line" in s:
            canvas.setLineWidth(s["line"] * mm)
        if t == "rect":
            canvas.roundRect(
                px(s["x"]),
                py(s["y"] + s["h"]),
                s["w"] * mm,
                s["h"] * mm,
                s["r"] * mm,
                stroke=1 if s["stroke"] else 0,
                fill=1 if s["fill"] else 0,
            )
        elif t == "circle":
            canvas.circle(px(s["cx"]), py(s["cy"]), s["r"] * mm, stroke=0, fill=1)
        elif t == "polygon":
            path = canvas.beginPath()
            (x0, y0), *rest = s["points"]
            path.moveTo(px(x0), py(y0))
            for x1, y1 in rest:
                path.lineTo(px(x1), py(y1))
            path.close()
            canvas.drawPath(path, stroke=1 if s["stroke"] else 0, fill=1 if s["fill"] else 0)
        elif t == "line":
            canvas.line(px(s["x1"]), py(s["y1"]), px(s["x2"]), py(s["y2"]))
        elif t == "text":
            canvas.setFont("CardSans-Bold" if s["bold"] else "CardSans", s["size"] * mm)
            draw = {
                "start": canvas.drawString,
                "middle": canvas.drawCentredString,
                "end": canvas.drawRightString,
            }[s["anchor"]]
            draw(px(s["x"]), py(s["y"]), s["text"])
        canvas.restoreState()
