"""Small SVG charts drawn on the server.

A chart is described by a *spec*, a plain JSON-serialisable dict built by the rules core
(``validation.charts``, where the spec format is described), so that a goldfish can say what
to draw without knowing how. ``render(spec)`` turns one into markup: an ``<svg>`` with
``<title>`` and ``<desc>`` for screen readers and a ``<title>`` tooltip on every bar and
point, a ``<table>`` for a table spec, or a board of cells for a grid spec, each cell a link
when the page says where a click leads (``link``).

An xy chart is drawn twice, for a wide and for a narrow space (``WIDE`` and ``NARROW``
units across), and the page shows the one that fits its box (site.css, a container query on
``.chart-frame``): a drawing is scaled to its box, so one drawing cannot keep its text at
12 px both at 560 px and on a phone. Every text is at least ``FONT`` units, and a drawing is
shown at least as wide as it is drawn (down to ``NARROW`` px), so no text is smaller than
12 px. No label is cut: a category's name wraps onto lines under its column; names that do
not fit under their columns are drawn down the side instead (one row a category, the bars
across). Every category has its tick; numbered categories are labelled at a regular step
(every one, every 2nd, 5th, 10th… value, as room allows), names all of them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

#: The two drawings' widths, and the height of one with its categories along the bottom.
WIDE = 560
NARROW = 320
HEIGHT = 300
#: Every text's size, the title's, in the drawing's units; a character's width at most at
#: those sizes (an estimate for sans-serif, bold for the title), and a line's height.
FONT = 12
TITLE_FONT = 14
CHAR_W = 7.2
TITLE_CHAR_W = 8.8
LINE_H = 15
TITLE_LINE_H = 18
#: The space kept between two labels, and the most lines a name under its column takes.
GAP = 6
MAX_LINES = 3
#: The label steps of numbered categories (every value, every 2nd, 5th…).
STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
PALETTE = ("#2f6fdb", "#e0792b", "#2e9e6a", "#c0392b", "#8e44ad", "#7f8c8d")


# --- rendering --------------------------------------------------------------------------


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = span / max(ticks, 1)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _decimals(step: float, y_format: str) -> int:
    """The decimals every tick of an axis of steps of `step` is written with (0.5 → 1)."""
    scaled = step * (100 if y_format == "percent" else 1)
    for d in range(4):
        if abs(scaled * 10**d - round(scaled * 10**d)) < 1e-6:
            return d
    return 4


def _fmt(value: float, y_format: str, decimals: int = 0) -> str:
    if y_format == "percent":
        return f"{value * 100:.{decimals}f}%"
    return f"{value:.{decimals}f}"


def _fmt_exact(value: float, y_format: str) -> str:
    return f"{value * 100:.2f}%" if y_format == "percent" else f"{value:.3f}"


LinkFn = Callable[[Mapping[str, int]], str]


def render(spec: Mapping[str, Any], *, prefix: str = "", link: LinkFn | None = None) -> SafeString:
    """The markup of a chart spec; ``prefix`` keeps element ids unique when several runs'
    charts share a page. ``link(params)`` is the address a click on a grid's cell opens,
    given the parameters the cell sets (without it, cells are not links)."""
    if prefix:
        spec = {**spec, "id": f"{prefix}{spec.get('id', 'chart')}"}
    if spec.get("type") == "table":
        return _render_table(spec)
    if spec.get("type") == "grid":
        return _render_grid(spec, link)
    return mark_safe(  # noqa: S308 - every text piece is escaped where it is drawn
        f'<div class="chart-frame">{_render_xy(spec, WIDE)}{_render_xy(spec, NARROW)}</div>'
    )


# --- grids ----------------------------------------------------------------------------------

CELL = 56
MAX_CELLS = 64
_COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")
_WORD = re.compile(r"[A-Za-z0-9_-]+")
MARKERS = {
    "circle": '<circle cx="{cx}" cy="{cy}" r="{r}" fill="#1d2330" class="marker circle"/>',
    "square": '<rect x="{x0}" y="{y0}" width="{w}" height="{w}" fill="#b3261e" '
    'class="marker square"/>',
}


def _colour(value: Any, default: str = "#ffffff") -> str:
    text = str(value or "")
    return text if _COLOUR.fullmatch(text) else default


def _classes(value: Any) -> str:
    return " ".join(_WORD.findall(str(value or "")))


def _whole(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _render_grid(spec: Mapping[str, Any], link: LinkFn | None) -> SafeString:
    chart_id = escape(spec.get("id", "grid"))
    width = min(max(_whole(spec.get("width"), 1), 1), MAX_CELLS)
    height = min(max(_whole(spec.get("height"), 1), 1), MAX_CELLS)
    title = escape(spec.get("title", ""))
    desc = escape(spec.get("desc", "") or spec.get("title", ""))
    sets = {str(k): v for k, v in (spec.get("link") or {}).items() if v in ("x", "y")}
    # A picture is one image to a screen reader; a grid whose cells are links is a group of
    # them (nothing a keyboard reaches may sit inside an image).
    role = "group" if link is not None and sets else "img"
    out = [
        f'<figure class="grid-chart"><svg xmlns="http://www.w3.org/2000/svg" '
        f'id="chart-{chart_id}" role="{role}" viewBox="0 0 {width * CELL} {height * CELL}" '
        f'width="100%" style="max-width:{width * CELL}px" '
        f'aria-labelledby="chart-{chart_id}-title chart-{chart_id}-desc">'
        f'<title id="chart-{chart_id}-title">{title}</title>'
        f'<desc id="chart-{chart_id}-desc">{desc}</desc>'
    ]
    # A board is scaled down to a phone's width with its cells: its texts are drawn large
    # enough to stay 12 px there (a cell's width is their limit).
    size = min(CELL * 0.4, max(13, math.ceil(FONT * width * CELL / NARROW)))
    for cell in spec.get("cells", []):
        x, y = _whole(cell.get("x"), -1), _whole(cell.get("y"), -1)
        if not (0 <= x < width and 0 <= y < height):
            continue
        x0, y0 = x * CELL, y * CELL
        parts = [
            f"<title>{escape(cell.get('title') or f'{x},{y}')}</title>",
            f'<rect x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" '
            f'fill="{_colour(cell.get("fill"))}" stroke="#5d6577" stroke-width="1"/>',
        ]
        if cell.get("symbol"):
            parts.append(
                f'<text x="{x0 + 6}" y="{y0 + size + 2:.0f}" font-size="{size:.0f}" '
                f'fill="#1f5fa8">'
                f"{escape(str(cell['symbol'])[:3])}</text>"
            )
        marker = MARKERS.get(str(cell.get("marker") or ""))
        if marker:
            parts.append(
                marker.format(
                    cx=x0 + CELL / 2,
                    cy=y0 + CELL / 2,
                    r=CELL / 3,
                    x0=x0 + 14,
                    y0=y0 + 14,
                    w=CELL - 28,
                )
            )
        if cell.get("label"):
            parts.append(
                f'<text x="{x0 + CELL - 6}" y="{y0 + CELL - 6}" font-size="{size:.0f}" '
                f'text-anchor="end" font-weight="700">{escape(str(cell["label"])[:6])}</text>'
            )
        classes = escape(" ".join(["cell", _classes(cell.get("class"))]).strip())
        body = "".join(parts)
        if link is not None and sets and cell.get("link", True):
            href = link({param: (x if axis == "x" else y) for param, axis in sets.items()})
            out.append(
                f'<a href="{escape(href)}" data-x="{x}" data-y="{y}" class="{classes}">{body}</a>'
            )
        else:
            out.append(f'<g data-x="{x}" data-y="{y}" class="{classes}">{body}</g>')
    out.append("</svg>")
    legend = [
        f'<li><span class="swatch" style="background:{_colour(item.get("fill"))}"></span> '
        f"{escape(item.get('label', ''))}</li>"
        for item in spec.get("legend", [])
    ]
    if legend:
        out.append(f'<figcaption><ul class="legend">{"".join(legend)}</ul></figcaption>')
    out.append("</figure>")
    return mark_safe("".join(out))  # noqa: S308 - every text piece is escaped above


#: A table with more columns than this is read as stacked rows on a phone: each row a block,
#: each cell on a line after its column's name (site.css `table.stack`).
STACK_AFTER = 3


def _render_table(spec: Mapping[str, Any]) -> SafeString:
    columns = [str(c) for c in spec["columns"]]
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)

    def cell(i: int, value: Any) -> str:
        if i == 0:
            return f'<td class="stack-title">{escape(_cell(value))}</td>'
        label = escape(columns[i]) if i < len(columns) else ""
        return f'<td data-label="{label}">{escape(_cell(value))}</td>'

    body = "".join(
        "<tr>" + "".join(cell(i, v) for i, v in enumerate(row)) + "</tr>" for row in spec["rows"]
    )
    classes = "sim-table stack" if len(columns) > STACK_AFTER else "sim-table"
    return mark_safe(  # noqa: S308 - every piece is escaped above
        f'<table class="{classes}" id="chart-{escape(spec.get("id", ""))}">'
        f"<caption>{escape(spec['title'])}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _wrap(text: str, width: float, char_w: float = CHAR_W) -> list[str]:
    """`text` in lines of at most `width` units, broken between words only (a word longer
    than `width` stands on a line of its own, longer)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and len(candidate) * char_w > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines or [""]


def _wide(lines: list[str], char_w: float = CHAR_W) -> float:
    return max((len(line) for line in lines), default=0) * char_w


def _whole_number(text: str) -> int | None:
    stripped = text.strip()
    digits = stripped[1:] if stripped.startswith("-") else stripped
    return int(stripped) if digits.isdigit() else None


def _numbered(cats: list[str]) -> bool:
    """Whether the categories are numbers (turns, counts), with at most two others after
    them ("never")."""
    numbers = [_whole_number(c) for c in cats]
    leading = next((i for i, v in enumerate(numbers) if v is None), len(cats))
    return leading > 0 and len(cats) - leading <= 2 and all(v is None for v in numbers[leading:])


@dataclass
class _Scale:
    """The value axis: from 0 to `top` in ticks of `step`, each written with `decimals`."""

    top: float
    step: float
    decimals: int
    y_format: str

    def ticks(self) -> list[float]:
        return [k * self.step for k in range(round(self.top / self.step) + 1)]

    def text(self, value: float) -> str:
        return _fmt(value, self.y_format, self.decimals)


def _scale(spec: Mapping[str, Any], series: list[dict[str, Any]], n: int, ticks: int) -> _Scale:
    """Nice steps reaching the highest value (or the spec's `y_max`; stacked series count by
    their sums), about `ticks` of them."""
    stacked = [s for s in series if s.get("style") == "stacked"]
    plain = [s for s in series if s.get("style", "bar") in ("bar", "line")]
    values = [v for s in plain for v in s["values"] if v is not None]
    if stacked:
        for i in range(n):
            values.append(sum((s["values"][i] or 0) for s in stacked if i < len(s["values"])))
    y_max = float(spec.get("y_max") or max(values, default=0) or 1)
    step = _nice_step(y_max, ticks)
    top = step * math.ceil(y_max / step - 1e-9)
    y_format = spec.get("y_format", "number")
    return _Scale(top if top > 0 else step, step, _decimals(step, y_format), y_format)


@dataclass
class _Head:
    """A drawing's title lines and legend items (x, y, series), and the height they take."""

    title: list[str]
    legend: list[tuple[float, float, dict[str, Any]]]
    height: float


def _head(spec: Mapping[str, Any], series: list[dict[str, Any]], width: int) -> _Head:
    title = _wrap(str(spec.get("title", "")), width - 16, TITLE_CHAR_W)
    y = 8 + len(title) * TITLE_LINE_H
    legend: list[tuple[float, float, dict[str, Any]]] = []
    if len(series) > 1 or (series and series[0]["name"] != spec.get("title")):
        x, y = 8.0, y + 6
        for s in series:
            item = 14 + len(s["name"]) * CHAR_W + 14
            if x > 8 and x + item > width - 8:
                x, y = 8.0, y + LINE_H + 2
            legend.append((x, y, s))
            x += item
        y += LINE_H
    return _Head(title, legend, y + 14)


@dataclass
class _Drawing:
    """The geometry of one drawing: its size, the plot area, the category axis (one band a
    category, along the bottom as columns or down the side as rows) and the value scale."""

    spec: Mapping[str, Any]
    series: list[dict[str, Any]]
    cats: list[str]
    width: int
    height: float
    head: _Head
    rows: bool
    left: float
    top: float
    pw: float
    ph: float
    band: float
    scale: _Scale
    #: The categories labelled: index → (the label's lines, where its text is centred).
    labels: dict[int, tuple[list[str], float]]

    @property
    def n(self) -> int:
        return max(len(self.cats), 1)

    def centre(self, i: int) -> float:
        """The middle of category `i`'s band (x for columns, y for rows)."""
        return (self.top if self.rows else self.left) + self.band * (i + 0.5)

    def length(self, v: float) -> float:
        """How far value `v` reaches from the axis."""
        return v / self.scale.top * (self.pw if self.rows else self.ph)

    def point(self, i: int, v: float) -> tuple[float, float]:
        if self.rows:
            return self.left + self.length(v), self.centre(i)
        return self.centre(i), self.top + self.ph - self.length(v)

    def bar(
        self, i: int, start: float, v: float, offset: float, thickness: float
    ) -> tuple[float, float, float, float]:
        """The rectangle (x, y, width, height) of a bar from `start` to `start + v` in band
        `i`, `offset` into the band, `thickness` across it."""
        a, b = self.length(start), self.length(start + v)
        across = (self.top if self.rows else self.left) + self.band * i + offset
        if self.rows:
            return self.left + a, across, max(b - a, 0), thickness
        return across, self.top + self.ph - b, thickness, max(b - a, 0)

    def tip(self, name: str, i: int, v: float) -> str:
        """A bar's or a point's tooltip: the series, the category and the exact value."""
        cat = self.cats[i] if i < len(self.cats) else i
        return f"{escape(name)}, {escape(cat)}: {escape(_fmt_exact(v, self.scale.y_format))}"


def _number_labels(cats: list[str], band: float, left: float, width: int) -> dict:
    """The labels of numbered categories under their columns: every value at a regular step
    (the smallest of STEPS whose labels do not meet), and any category after the numbers
    ("never") always, moved in from the right edge if it must; a number whose label would
    meet that one is left unlabelled (its tick stays)."""
    numbers = [_whole_number(c) for c in cats]
    widest = max((len(c) for c, v in zip(cats, numbers, strict=True) if v is not None)) * CHAR_W
    step = next((s for s in STEPS if s * band >= widest + GAP), STEPS[-1])
    labels: dict[int, tuple[list[str], float]] = {}
    for i, value in enumerate(numbers):
        if value is not None and value % step == 0:
            labels[i] = ([cats[i]], left + band * (i + 0.5))
    for i, value in enumerate(numbers):
        if value is not None:
            continue
        half = len(cats[i]) * CHAR_W / 2
        cx = min(left + band * (i + 0.5), width - 2 - half)
        for j in [j for j in labels if numbers[j] is not None]:
            if labels[j][1] + len(cats[j]) * CHAR_W / 2 + GAP > cx - half:
                del labels[j]
        labels[i] = ([cats[i]], cx)
    return labels


def _columns(spec, series, cats, width, head) -> _Drawing | None:
    """The categories along the bottom, or None when a name does not fit under its column
    (wrapped onto at most MAX_LINES lines)."""
    n = max(len(cats), 1)
    probe = _scale(spec, series, n, 5)
    tick_w = max(len(probe.text(v)) for v in probe.ticks()) * CHAR_W
    left = 8 + (LINE_H + 4 if spec.get("y_label") else 0) + tick_w + 8
    right = 12.0
    pw = width - left - right
    band = pw / n
    if cats and _numbered(cats):
        labels = _number_labels(cats, band, left, width)
    else:
        labels = {}
        for i, cat in enumerate(cats):
            lines = _wrap(cat, band - GAP)
            if len(lines) > MAX_LINES or _wide(lines) > band - GAP:
                return None
            labels[i] = (lines, left + band * (i + 0.5))
    label_lines = max((len(lines) for lines, _ in labels.values()), default=1)
    bottom = 8 + label_lines * LINE_H + (LINE_H + 8 if spec.get("x_label") else 0) + 6
    top = head.height
    ph = max(HEIGHT - top - bottom, 120)
    return _Drawing(
        spec, series, cats, width, top + ph + bottom, head, False,
        left, top, pw, ph, band, probe, labels,
    )  # fmt: skip


def _rows(spec, series, cats, width, head) -> _Drawing:
    """The categories down the side, each name on as many lines as it needs beside its row,
    the bars across. The names' column takes up to 45 % of the drawing, more for a long word,
    up to 60 % (a single word longer than that, some 26 characters in the narrow drawing,
    would still run past the edge: no game's names come near it)."""
    n = max(len(cats), 1)
    full = max((len(c) for c in cats), default=0) * CHAR_W
    longest_word = max((len(w) for c in cats for w in c.split()), default=0) * CHAR_W
    column = min(full, max(width * 0.45, min(longest_word, width * 0.6)))
    wrapped = [_wrap(c, column) for c in cats]
    lines = max((len(w) for w in wrapped), default=1)
    band = max(lines * LINE_H + 8, 22)
    left = 8 + (LINE_H + 4 if spec.get("x_label") else 0) + column + 8
    pw0 = width - left - 12
    scale = _scale(spec, series, n, max(2, int(pw0 // 70)))
    right = 8 + max(len(scale.text(v)) for v in scale.ticks()) * CHAR_W / 2
    pw = width - left - right
    top = head.height
    ph = band * n
    bottom = 8 + LINE_H + (LINE_H + 8 if spec.get("y_label") else 0) + 6
    labels = {i: (w, top + band * (i + 0.5)) for i, w in enumerate(wrapped)}
    return _Drawing(
        spec, series, cats, width, top + ph + bottom, head, True,
        left, top, pw, ph, band, scale, labels,
    )  # fmt: skip


def _frame(d: _Drawing, chart_id: str) -> list[str]:
    """The svg element with its title and description, the legend, the grid, the axes and
    their labels."""
    spec = d.spec
    title = escape(spec.get("title", ""))
    desc = escape(spec.get("desc", "") or spec.get("title", ""))
    kind = "narrow" if d.width < WIDE else "wide"
    out: list[str] = [
        f'<svg class="chart chart-{kind}" id="chart-{chart_id}" '
        f'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {d.width} {d.height:.0f}" '
        f'width="100%" role="img" aria-labelledby="chart-{chart_id}-title chart-{chart_id}-desc" '
        f'data-categories="{len(d.cats)}" data-layout="{"rows" if d.rows else "columns"}" '
        f'style="max-width:{d.width * (1.3 if kind == "narrow" else 1):.0f}px;'
        f'font:{FONT}px sans-serif">',
        f'<title id="chart-{chart_id}-title">{title}</title>',
        f'<desc id="chart-{chart_id}-desc">{desc}</desc>',
    ]
    for k, line in enumerate(d.head.title):
        out.append(
            f'<text x="{d.width / 2:.0f}" y="{8 + (k + 1) * TITLE_LINE_H - 4}" '
            f'text-anchor="middle" style="font-weight:bold;font-size:{TITLE_FONT}px">'
            f"{escape(line)}</text>"
        )
    colour = {s["name"]: PALETTE[i % len(PALETTE)] for i, s in enumerate(d.series)}
    for x, y, s in d.head.legend:
        out.append(
            f'<rect x="{x:.0f}" y="{y:.0f}" width="10" height="10" fill="{colour[s["name"]]}"/>'
            f'<text x="{x + 14:.0f}" y="{y + 10:.0f}">{escape(s["name"])}</text>'
        )
    left, top, pw, ph = d.left, d.top, d.pw, d.ph
    for v in d.scale.ticks():
        text = escape(d.scale.text(v))
        if d.rows:
            xx = left + d.length(v)
            out.append(
                f'<line x1="{xx:.1f}" x2="{xx:.1f}" y1="{top}" y2="{top + ph:.1f}" '
                f'stroke="#e3e6ec" stroke-width="1"/>'
                f'<text class="value-tick" data-value="{v:.6g}" x="{xx:.1f}" '
                f'y="{top + ph + 8 + FONT:.1f}" text-anchor="middle" fill="#5d6577">{text}</text>'
            )
        else:
            yy = top + ph - d.length(v)
            out.append(
                f'<line x1="{left}" x2="{left + pw:.1f}" y1="{yy:.1f}" y2="{yy:.1f}" '
                f'stroke="#e3e6ec" stroke-width="1"/>'
                f'<text class="value-tick" data-value="{v:.6g}" x="{left - 6:.1f}" '
                f'y="{yy + 4:.1f}" text-anchor="end" fill="#5d6577">{text}</text>'
            )
    out.append(
        f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + ph:.1f}" stroke="#5d6577"/>'
        f'<line x1="{left}" x2="{left + pw:.1f}" y1="{top + ph:.1f}" y2="{top + ph:.1f}" '
        f'stroke="#5d6577"/>'
    )
    out += _category_axis(d)
    out += _axis_titles(d)
    return out


def _category_axis(d: _Drawing) -> list[str]:
    """A tick for every category; its label (lines) where one is drawn."""
    out = []
    for i in range(len(d.cats)):
        c = d.centre(i)
        if d.rows:
            out.append(
                f'<line class="cat-tick" data-i="{i}" x1="{d.left - 4:.1f}" x2="{d.left:.1f}" '
                f'y1="{c:.1f}" y2="{c:.1f}" stroke="#5d6577"/>'
            )
        else:
            base = d.top + d.ph
            out.append(
                f'<line class="cat-tick" data-i="{i}" x1="{c:.1f}" x2="{c:.1f}" '
                f'y1="{base:.1f}" y2="{base + 4:.1f}" stroke="#5d6577"/>'
            )
    for i, (lines, at) in sorted(d.labels.items()):
        if d.rows:
            x, anchor = d.left - 8, "end"
            first = at - (len(lines) - 1) * LINE_H / 2 + 4
        else:
            x, anchor = at, "middle"
            first = d.top + d.ph + 8 + FONT
        spans = "".join(
            f'<tspan x="{x:.1f}" y="{first + k * LINE_H:.1f}">{escape(line)}</tspan>'
            for k, line in enumerate(lines)
        )
        out.append(
            f'<text class="cat-label" data-i="{i}" text-anchor="{anchor}" fill="#5d6577">'
            f"{spans}</text>"
        )
    return out


def _axis_titles(d: _Drawing) -> list[str]:
    """The titles of the two axes: the spec's `x_label` names the categories, its `y_label`
    the values. The one along the bottom is written under it, the other upwards on the
    left."""
    categories, values = d.spec.get("x_label"), d.spec.get("y_label")
    side, under = (categories, values) if d.rows else (values, categories)
    out = []
    if under:
        out.append(
            f'<text x="{d.left + d.pw / 2:.0f}" y="{d.height - 8:.0f}" text-anchor="middle">'
            f"{escape(under)}</text>"
        )
    if side:
        out.append(_side_title(side, d))
    return out


def _side_title(text: str, d: _Drawing) -> str:
    """A title written upwards along the left edge, beside the plot."""
    y = d.top + d.ph / 2
    return (
        f'<text x="{8 + FONT}" y="{y:.0f}" text-anchor="middle" '
        f'transform="rotate(-90 {8 + FONT} {y:.0f})">{escape(text)}</text>'
    )


def _grouped_bars(d: _Drawing, bars: list[dict[str, Any]], colour: dict[str, str]) -> list[str]:
    """Bars side by side in each category's band, one a series."""
    out = []
    thickness = d.band * 0.8 / len(bars)
    for j, s in enumerate(bars):
        for i, v in enumerate(s["values"][: d.n]):
            if v is None:
                continue
            rect = d.bar(i, 0, v, d.band * 0.1 + thickness * j, max(thickness - 1, 1))
            out.append(_bar(*rect, colour[s["name"]], d.tip(s["name"], i, v)))
    return out


def _bar(x: float, y: float, width: float, height: float, fill: str, tip: str) -> str:
    """One bar, its tooltip inside."""
    return (
        f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" '
        f'fill="{fill}"><title>{tip}</title></rect>'
    )


def _stacked_bars(d: _Drawing, stacked: list[dict[str, Any]], colour: dict[str, str]) -> list:
    """The series piled up in each category's band."""
    out = []
    base = [0.0] * d.n
    for s in stacked:
        for i, v in enumerate(s["values"][: d.n]):
            if not v:
                continue
            rect = d.bar(i, base[i], v, d.band * 0.1, d.band * 0.8)
            base[i] += v
            out.append(_bar(*rect, colour[s["name"]], d.tip(s["name"], i, v)))
    return out


def _lines(d: _Drawing, lines: list[dict[str, Any]], colour: dict[str, str]) -> list[str]:
    """Each series as a line through its points, a tooltip on every point."""
    out = []
    for s in lines:
        pts = [(*d.point(i, v), i, v) for i, v in enumerate(s["values"][: d.n]) if v is not None]
        if not pts:
            continue
        c = colour[s["name"]]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in pts)
        out.append(
            f'<polyline class="line" points="{path}" fill="none" stroke="{c}" stroke-width="2"/>'
        )
        for x, y, i, v in pts:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{c}"><title>'
                f"{d.tip(s['name'], i, v)}</title></circle>"
            )
    return out


def _render_xy(spec: Mapping[str, Any], width: int = WIDE) -> SafeString:
    """One drawing, `width` units across, of grouped bars, stacked bars and lines over the
    categories, with a legend when more than the title's one series is drawn."""
    series = spec.get("series", [])
    cats = [str(c) for c in spec.get("categories", [])]
    head = _head(spec, series, width)
    d = _columns(spec, series, cats, width, head) or _rows(spec, series, cats, width, head)
    chart_id = escape(spec.get("id", "chart")) + ("-narrow" if width < WIDE else "")
    colour = {s["name"]: PALETTE[i % len(PALETTE)] for i, s in enumerate(series)}
    out = _frame(d, chart_id)
    bars = [s for s in series if s.get("style", "bar") == "bar"]
    stacked = [s for s in series if s.get("style") == "stacked"]
    if bars:
        out += _grouped_bars(d, bars, colour)
    if stacked:
        out += _stacked_bars(d, stacked, colour)
    out += _lines(d, [s for s in series if s.get("style") == "line"], colour)
    out.append("</svg>")
    return mark_safe("".join(out))  # noqa: S308 - every text piece is escaped above
