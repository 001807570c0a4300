"""Printable proxies: every copy of every card of a version at its game's card size, nine a
page, with cut marks."""

from __future__ import annotations

import io
import math

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from catalogue import card_images
from decks.exports import ExportRefused
from validation.registry import registry

from .lines import Line, version_lines
from .pdf import canvas_for, draw_layout, missing_card, page_size

#: The most pages a proxies PDF may have (9 cards a page): a larger list is refused.
PROXIES_MAX_PAGES = 30
BLEEDS = (0, 3)


def proxies_pages(card_count: int) -> int:
    return math.ceil(card_count / 9)


def as_proxies(deck, version, *, paper: str = "a4", bleed: int = 0) -> bytes:
    """Every copy of every card of the version at its game's card size, 3 × 3 a page of A4
    or Letter, with `bleed` mm (0 or 3) of the card's edge colour around each card, cut
    marks along every cut line outside the cards, and "PROXY" on each card. Each card is
    drawn once, as a form (a PDF XObject whose box is the card and its bleed), and placed on
    the page for each copy. More than PROXIES_MAX_PAGES pages is refused."""

    if bleed not in BLEEDS:
        raise ExportRefused(f"bleed {bleed!r}: use 0 or 3 (millimetres)", "bleed")
    lines = version_lines(deck, version)
    copies = [line for line in lines for _ in range(line.count)]
    pages = proxies_pages(len(copies))
    if pages > PROXIES_MAX_PAGES:
        raise ExportRefused(
            f"{len(copies)} cards make {pages} pages of proxies; at most {PROXIES_MAX_PAGES} "
            f"pages ({PROXIES_MAX_PAGES * 9} cards) are made at once"
        )
    if not copies:
        raise ExportRefused("this version holds no cards to print")
    game = registry.get(deck.game.slug)
    w, h = game.card_size_mm
    cell_w, cell_h = (w + 2 * bleed) * mm, (h + 2 * bleed) * mm
    buf = io.BytesIO()
    canvas = canvas_for(buf, paper, f"{deck.name}: proxies")
    page_w, page_h = page_size(paper)
    grid_w, grid_h = 3 * cell_w, 3 * cell_h
    left0 = (page_w - grid_w) / 2
    bottom0 = (page_h - grid_h) / 2
    forms: dict[str, str] = {}

    def form_of(line: Line) -> str:
        key = line.name.lower()
        if key not in forms:
            name = f"card{len(forms) + 1}"
            facts = line.card.facts() if line.card else missing_card(line, game)
            lay = card_images.layout_card(game, facts)
            canvas.beginForm(name, lowerx=0, lowery=0, upperx=cell_w, uppery=cell_h)
            if bleed:
                canvas.setFillColor(HexColor(lay.shapes[0]["fill"]))
                canvas.rect(0, 0, cell_w, cell_h, stroke=0, fill=1)
            draw_layout(canvas, lay, bleed * mm, bleed * mm)
            _proxy_mark(canvas, bleed * mm + w * mm, bleed * mm, lay)
            canvas.endForm()
            forms[key] = name
        return forms[key]

    for page in range(pages):
        on_page = copies[page * 9 : page * 9 + 9]
        for i, line in enumerate(on_page):
            col, row = i % 3, i // 3
            x = left0 + col * cell_w
            y = bottom0 + (2 - row) * cell_h
            name = form_of(line)
            canvas.saveState()
            canvas.translate(x, y)
            canvas.doForm(name)
            canvas.restoreState()
        _cut_marks(canvas, page_w, page_h, left0, bottom0, cell_w, cell_h, bleed * mm)
        canvas.setFont("CardSans", 7)
        canvas.setFillGray(0.35)
        canvas.drawString(
            12, 8, f"{deck.name} · proxies · page {page + 1} of {pages} · not for sale"
        )
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _proxy_mark(canvas, right: float, bottom: float, lay) -> None:
    """ "PROXY" in the card's bottom right corner, over its foot line."""

    canvas.saveState()
    canvas.setFont("CardSans-Bold", 2.6 * mm)
    canvas.setFillColorRGB(0.62, 0.1, 0.1)
    canvas.drawRightString(right - 3 * mm, bottom + 2.4 * mm, "PROXY")
    canvas.restoreState()


def _cut_marks(canvas, page_w, page_h, left0, bottom0, cell_w, cell_h, bleed) -> None:
    """Hairlines along every cut line, drawn only outside the cards' faces: in the margins,
    and in the gutters between cards when there is bleed."""
    canvas.saveState()
    canvas.setLineWidth(0.25)
    canvas.setStrokeGray(0)
    xs = sorted({left0 + c * cell_w + d for c in range(3) for d in (bleed, cell_w - bleed)})
    ys = sorted({bottom0 + r * cell_h + d for r in range(3) for d in (bleed, cell_h - bleed)})
    # The stretches of each line that no card face covers.
    free_y = [(0, bottom0 + bleed)] + [
        (bottom0 + r * cell_h - bleed, bottom0 + r * cell_h + bleed) for r in (1, 2)
    ]
    free_y.append((bottom0 + 3 * cell_h - bleed, page_h))
    free_x = [(0, left0 + bleed)] + [
        (left0 + c * cell_w - bleed, left0 + c * cell_w + bleed) for c in (1, 2)
    ]
    free_x.append((left0 + 3 * cell_w - bleed, page_w))
    for x in xs:
        for a, b in free_y:
            if b - a > 0.5:
                canvas.line(x, max(0, a), x, min(page_h, b))
    for y in ys:
        for a, b in free_x:
            if b - a > 0.5:
                canvas.line(max(0, a), y, min(page_w, b), y)
    canvas.restoreState()
