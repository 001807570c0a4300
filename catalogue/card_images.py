"""Card images drawn from the card's data: the same face the card pages show (the game's
`FaceSpec`, validation/faces.py), laid out once at the game's card size and written two
ways: as SVG, rendered to PNG with resvg (the catalogue's images, Tabletop Simulator's
faces), here, and straight onto a ReportLab canvas (the printed proxies, vector and sharp),
by the tabletop app (tabletop/exports/pdf.py, `draw_layout`). Text is measured with the
fonts' own metrics (ReportLab's), the same files resvg draws with.

Knows no game: what a card shows comes from the game's face function or the kind's schema,
the card's size from `GameDef.card_size_mm`. A field the face shows that the card lacks is
drawn blank; a face function that cannot read the card's data falls back to the face built
from the kind's schema, so a card always draws.

A card's image is named by a hash of everything drawn on it (`image_hash`): a changed card
gets a new name, so an image is rendered once and kept in the default storage under
`card-images/<game>/<hash>.png`.
"""

from __future__ import annotations

import colorsys
import hashlib
import json
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import reportlab
import resvg_py
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from validation.capabilities import FaceSpec
from validation.faces import default_face, face_of
from validation.registry import GameDef
from validation.types import CardFacts

#: Bumped whenever the drawing changes, so that every card gets a new image name.
RENDER_VERSION = "2"
#: Pixels per millimetre of a PNG card image (152 dpi: 378 × 528 px for a 63 × 88 mm card).
PX_PER_MM = 6
INK = "#1b1b1f"
MUTED = "#4a4a55"
PAPER = "#ffffff"

# --- Fonts -----------------------------------------------------------------------------------

#: DejaVu Sans where the system has it (Debian's fonts-dejavu-core, whose symbols cover
#: the faces' icons); else Bitstream Vera, which comes with ReportLab (Latin only).
_SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")


@dataclass(frozen=True)
class Fonts:
    family: str
    regular: str
    bold: str


@cache
def fonts() -> Fonts:
    """The card font's files, registered with ReportLab as CardSans and CardSans-Bold (the
    same files measure the text, draw the PDF and are handed to resvg)."""

    regular = _SYSTEM_FONTS / "DejaVuSans.ttf"
    bold = _SYSTEM_FONTS / "DejaVuSans-Bold.ttf"
    family = "DejaVu Sans"
    if not (regular.is_file() and bold.is_file()):
        base = Path(reportlab.__file__).parent / "fonts"
        regular, bold, family = base / "Vera.ttf", base / "VeraBd.ttf", "Bitstream Vera Sans"
    pdfmetrics.registerFont(TTFont("CardSans", str(regular)))
    pdfmetrics.registerFont(TTFont("CardSans-Bold", str(bold)))
    return Fonts(family, str(regular), str(bold))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` at `size` (both in the same unit, here millimetres)."""

    fonts()
    return pdfmetrics.stringWidth(text, "CardSans-Bold" if bold else "CardSans", size)


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """`text` in lines no wider than `width` (a word wider than the line is cut)."""
    lines: list[str] = []
    for paragraph in str(text).splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if text_width(candidate, size, bold) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while text_width(word, size, bold) > width and len(word) > 1:
                cut = len(word)
                while cut > 1 and text_width(word[:cut], size, bold) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


# --- The layout: shapes in millimetres, y downwards ------------------------------------------


@dataclass
class Layout:
    """A card drawn as plain shapes in millimetres from its top left corner."""

    width: float
    height: float
    shapes: list[dict[str, Any]] = field(default_factory=list)

    def rect(self, x, y, w, h, *, fill=None, stroke=None, radius=0.0, line=0.3) -> None:
        self.shapes.append(
            {"t": "rect", "x": x, "y": y, "w": w, "h": h, "fill": fill, "stroke": stroke}
            | {"r": radius, "line": line}
        )

    def text(self, x, y, text, size, *, bold=False, fill=INK, anchor="start") -> None:
        self.shapes.append(
            {"t": "text", "x": x, "y": y, "text": text, "size": size, "bold": bold}
            | {"fill": fill, "anchor": anchor}
        )

    def polygon(self, points, *, fill=None, stroke=INK, line=0.3) -> None:
        self.shapes.append(
            {"t": "polygon", "points": points, "fill": fill, "stroke": stroke, "line": line}
        )

    def line(self, x1, y1, x2, y2, *, stroke=INK, line=0.3) -> None:
        self.shapes.append(
            {"t": "line", "x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": stroke, "line": line}
        )


def faction_colour(faction: str) -> tuple[str, str]:
    """(strong, light) colours of a faction, from its slug alone (no game named here)."""
    if not faction:
        return "#5b5b66", "#eeeef2"
    hue = zlib.crc32(faction.encode()) % 360
    return f"hsl({hue}, 55%, 32%)", f"hsl({hue}, 60%, 94%)"


def _hsl_to_hex(colour: str) -> str:
    """`hsl(h, s%, l%)` as #rrggbb (ReportLab and every SVG renderer read it alike)."""
    if not colour.startswith("hsl("):
        return colour

    h, s, lum = (float(p.strip().rstrip("%")) for p in colour[4:-1].split(","))
    r, g, b = colorsys.hls_to_rgb(h / 360, lum / 100, s / 100)
    return "#{:02x}{:02x}{:02x}".format(*(round(c * 255) for c in (r, g, b)))


@dataclass(frozen=True)
class CardView:
    """What a card image shows besides the face: the words of the card's game for its kind
    and faction, and whether its kind has a cost."""

    facts: CardFacts
    kind_label: str
    faction_label: str
    has_cost: bool
    game_name: str


def card_view(game: GameDef, facts: CardFacts) -> CardView:
    kind = game.kinds.get(facts.kind)
    return CardView(
        facts=facts,
        kind_label=kind.label if kind else facts.kind.replace("_", " "),
        faction_label=game.factions.get(facts.faction, facts.faction) if facts.faction else "",
        has_cost=game.has_cost(facts.kind),
        game_name=game.name,
    )


def safe_face(game: GameDef, facts: CardFacts) -> FaceSpec:
    """The card's face; when the game's face function cannot read the card's data (a field
    missing or of another type), the face built from the kind's schema, which never fails."""
    try:
        return face_of(game, facts)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return default_face(game.kinds.get(facts.kind), facts)


def key_figures(game: GameDef, facts: CardFacts) -> str:
    """The card's name and key figures in words: an image's alt text."""
    view = card_view(game, facts)
    face = safe_face(game, facts)
    head = ", ".join(p for p in (view.kind_label, view.faction_label) if p)
    if view.has_cost:
        head += f", cost {facts.cost}"
    stats = "; ".join(f"{label} {value}".strip() for label, value in face.stats if value)
    return f"{facts.name}: {head}" + (f"; {stats}" if stats else "")


def layout_card(game: GameDef, facts: CardFacts) -> Layout:
    """The card at its game's size: name and cost, kind and faction, badges, the face's
    figure, its stats, its text (shrunk to fit), and the game's name at the foot."""
    view = card_view(game, facts)
    face = safe_face(game, facts)
    w, h = game.card_size_mm
    strong, light = faction_colour(facts.faction)
    strong, light = _hsl_to_hex(strong), _hsl_to_hex(light)
    lay = Layout(w, h)
    pad = 3.0
    inner = w - 2 * pad
    # The card's edge is its light colour, which a printed proxy's bleed continues.
    lay.rect(0, 0, w, h, fill=light, radius=3.0)
    lay.rect(1.2, 1.2, w - 2.4, h - 2.4, fill=light, stroke=strong, radius=2.4, line=0.6)
    # Name (bold, up to two lines, shrinking) and the cost in a circle.
    cost_room = 9.0 if view.has_cost else 0.0
    size = 4.2
    lines = wrap(facts.name, size, inner - cost_room, bold=True)
    while len(lines) > 2 and size > 2.6:
        size -= 0.2
        lines = wrap(facts.name, size, inner - cost_room, bold=True)
    y = pad + size
    for line in lines[:2]:
        lay.text(pad, y, line, size, bold=True)
        y += size * 1.15
    if view.has_cost:
        cx = w - pad - 3.6
        lay.shapes.append(
            {"t": "circle", "cx": cx, "cy": pad + 3.2, "r": 3.6, "fill": strong, "stroke": None}
        )
        lay.text(cx, pad + 4.6, str(facts.cost), 4.0, bold=True, fill=PAPER, anchor="middle")
    y = max(y, pad + 8.0)
    kind_line = " · ".join(p for p in (view.kind_label, view.faction_label) if p)
    lay.text(pad, y, kind_line, 2.6, fill=MUTED)
    y += 1.6
    lay.line(pad, y, w - pad, y, stroke=strong, line=0.4)
    y += 1.6
    if face.badges:
        for line in wrap(" · ".join(face.badges), 2.4, inner, bold=True)[:2]:
            y += 2.6
            lay.text(pad, y, line, 2.4, bold=True, fill=strong)
        y += 1.2
    y = layout_figure(lay, face.figure, pad, y, inner, strong)
    y = _stats(lay, face.stats, pad, y, inner)
    foot = h - pad - 0.6
    _rules_text(lay, facts.text or "", pad, y + 1.0, inner, foot - 3.2)
    lay.text(pad, foot, game.name, 2.0, fill=MUTED)
    return lay


def layout_figure(lay: Layout, figure, x: float, y: float, width: float, colour: str) -> float:
    """The face's figure (a polygon with a value on each edge, a small table, icons) below
    `y`; returns the y under it."""
    if not figure:
        return y
    kind = figure.get("type")
    if kind == "polygon":
        size = min(22.0, width * 0.5)
        scale = size / 120.0
        left = x + (width - size) / 2
        points = []
        for pair in str(figure.get("points", "")).split():
            px, py = (float(v) for v in pair.split(","))
            points.append((left + px * scale, y + 1 + py * scale))
        if points:
            lay.polygon(points, fill=PAPER, stroke=colour, line=0.5)
        for label in figure.get("labels", ()):
            lay.text(
                left + float(label["x"]) * scale,
                y + 1 + float(label["y"]) * scale,
                str(label.get("value", "")),
                3.2,
                bold=bool(label.get("front")),
                anchor="middle",
            )
        caption = figure.get("caption")
        if caption:
            lay.text(left + size / 2, y + 1 + size + 2.4, str(caption), 2.0, anchor="middle")
        return y + size + 4.0
    if kind == "table":
        columns = [str(c) for c in figure.get("columns", ())]
        rows = [[str(c) for c in r] for r in figure.get("rows", ())]
        y += 3.0
        if columns:
            lay.text(x, y, columns[0], 2.2, bold=True, fill=MUTED)
            if len(columns) > 1:
                lay.text(x + width, y, columns[-1], 2.2, bold=True, fill=MUTED, anchor="end")
        for row in rows[:10]:
            y += 2.8
            if row:
                lay.text(x, y, fit_text(row[0], 2.4, width * 0.78), 2.4)
                if len(row) > 1:
                    lay.text(x + width, y, row[-1], 2.4, anchor="end")
        return y + 2.0
    if kind == "icons":
        items = list(figure.get("items", ()))
        if not items:
            empty = figure.get("empty")
            if empty:
                y += 3.2
                lay.text(x, y, str(empty), 2.4, fill=MUTED)
            return y + 1.0
        y += 1.0
        cx = x
        for item in items:
            if cx + 6 > x + width:
                break
            lay.rect(cx, y, 5.6, 5.6, fill=PAPER, stroke=colour, radius=1.0, line=0.4)
            symbol = str(item.get("symbol") or "◆")
            lay.text(cx + 2.8, y + 4.1, symbol, 3.4, bold=True, anchor="middle")
            cx += 6.6
        return y + 7.4
    return y


def _stats(lay: Layout, stats, x: float, y: float, width: float) -> float:
    """The face's stats, one a line: the label in grey, the value after it on the right, or
    under it, wrapped, when it is too long for the line. A stat the card lacks is drawn as
    its label with a blank."""
    for label, value in [(str(label), str(value)) for label, value in stats][:12]:
        y += 3.3
        lay.text(x, y, fit_text(label, 2.4, width * 0.5), 2.4, fill=MUTED)
        label_room = text_width(label, 2.4) + 2.0
        if text_width(value, 2.8, True) <= width - label_room:
            lay.text(x + width, y, value, 2.8, bold=True, anchor="end")
            continue
        lines = wrap(value, 2.5, width - 2.0)
        for line in lines[:3]:
            y += 2.9
            lay.text(x + 2.0, y, line, 2.5)
        if len(lines) > 3:
            lay.shapes[-1]["text"] = fit_text(lines[2] + " …", 2.5, width - 2.0)
    return y + 1.6 if stats else y


def _rules_text(lay: Layout, text: str, x: float, top: float, width: float, bottom: float):
    """The rules text, shrunk until it fits between `top` and `bottom`, else cut with "…"."""
    text = " ".join(text.split()) if "\n" not in text else text
    if not text.strip() or bottom - top < 3:
        return
    size = 2.8
    while True:
        lines = wrap(text, size, width)
        if len(lines) * size * 1.25 <= bottom - top or size <= 1.9:
            break
        size -= 0.15
    room = max(1, int((bottom - top) // (size * 1.25)))
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = fit_text(lines[-1] + " …", size, width)
    y = top
    for line in lines:
        y += size * 1.25
        lay.text(x, y, line, size)


def fit_text(text: str, size: float, width: float, bold: bool = False) -> str:
    """`text` cut with "…" to fit `width`."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def layout_back(game: GameDef) -> Layout:
    """The back every card of a game shares: the game's name on a plain field."""
    w, h = game.card_size_mm
    lay = Layout(w, h)
    lay.rect(0, 0, w, h, fill="#26263a", radius=3.0)
    lay.rect(3, 3, w - 6, h - 6, stroke="#c9c9de", radius=2.0, line=0.6)
    lines = wrap(game.name, 5.0, w - 12, bold=True)
    y = h / 2 - (len(lines) - 1) * 3.2
    for line in lines:
        lay.text(w / 2, y, line, 5.0, bold=True, fill="#ffffff", anchor="middle")
        y += 6.4
    return lay


# --- Writers -----------------------------------------------------------------------------------


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def to_svg(lay: Layout, px_per_mm: float = PX_PER_MM) -> str:
    """The layout as an SVG document, `px_per_mm` pixels to the millimetre."""
    family = escape(fonts().family)
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{round(lay.width * px_per_mm)}" height="{round(lay.height * px_per_mm)}" '
        f'viewBox="0 0 {_n(lay.width)} {_n(lay.height)}" font-family="{family}">'
    ]
    for s in lay.shapes:
        t = s["t"]
        if t == "rect":
            out.append(
                f'<rect x="{_n(s["x"])}" y="{_n(s["y"])}" width="{_n(s["w"])}" '
                f'height="{_n(s["h"])}" rx="{_n(s["r"])}" fill="{s["fill"] or "none"}" '
                f'stroke="{s["stroke"] or "none"}" stroke-width="{_n(s["line"])}"/>'
            )
        elif t == "circle":
            out.append(
                f'<circle cx="{_n(s["cx"])}" cy="{_n(s["cy"])}" r="{_n(s["r"])}" '
                f'fill="{s["fill"]}"/>'
            )
        elif t == "polygon":
            pts = " ".join(f"{_n(px)},{_n(py)}" for px, py in s["points"])
            out.append(
                f'<polygon points="{pts}" fill="{s["fill"] or "none"}" '
                f'stroke="{s["stroke"] or "none"}" stroke-width="{_n(s["line"])}"/>'
            )
        elif t == "line":
            out.append(
                f'<line x1="{_n(s["x1"])}" y1="{_n(s["y1"])}" x2="{_n(s["x2"])}" '
                f'y2="{_n(s["y2"])}" stroke="{s["stroke"]}" stroke-width="{_n(s["line"])}"/>'
            )
        elif t == "text":
            weight = ' font-weight="bold"' if s["bold"] else ""
            out.append(
                f'<text x="{_n(s["x"])}" y="{_n(s["y"])}" font-size="{_n(s["size"])}" '
                f'fill="{s["fill"]}" text-anchor="{s["anchor"]}"{weight}>'
                f"{escape(s['text'])}</text>"
            )
    out.append("</svg>")
    return "\n".join(out)


def to_png(svg: str) -> bytes:
    """An SVG document rendered to PNG by resvg, with the card font only (no scan of the
    system's fonts: the same image on every machine that has the font)."""

    f = fonts()
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg, skip_system_fonts=True, font_files=[f.regular, f.bold]
        )
    )


# --- Images kept by their hash -------------------------------------------------------------


def image_hash(game: GameDef, facts: CardFacts) -> str:
    """A name for everything the card's image shows: it changes when the card does."""
    view = card_view(game, facts)
    payload = json.dumps(
        [
            RENDER_VERSION,
            game.slug,
            game.name,
            list(game.card_size_mm),
            facts.name,
            facts.kind,
            facts.faction,
            facts.cost,
            facts.text,
            facts.attributes,
            view.kind_label,
            view.faction_label,
            view.has_cost,
        ],
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def back_hash(game: GameDef) -> str:
    payload = json.dumps([RENDER_VERSION, game.slug, game.name, list(game.card_size_mm)])
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def _kept(path: str, draw) -> bytes:
    """The PNG stored at `path`, drawn and stored first when it is not there yet."""
    if default_storage.exists(path):
        with default_storage.open(path, "rb") as f:
            return f.read()
    png = to_png(to_svg(draw()))
    if not default_storage.exists(path):
        default_storage.save(path, ContentFile(png))
    return png


def card_png(game: GameDef, facts: CardFacts, digest: str | None = None) -> bytes:
    digest = digest or image_hash(game, facts)
    return _kept(f"card-images/{game.slug}/{digest}.png", lambda: layout_card(game, facts))


def back_png(game: GameDef) -> bytes:
    return _kept(f"card-images/{game.slug}/back-{back_hash(game)}.png", lambda: layout_back(game))
