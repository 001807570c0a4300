"""Small SVG charts drawn on the server.

A chart is described by a *spec*, a plain JSON-serialisable dict built by the rules core
(``validation.charts``, where the spec format is described), so that a goldfish can say what
to draw without knowing how. ``render(spec)`` turns one into markup: an ``<svg>`` with
``<title>`` and ``<desc>`` for screen readers and a ``<title>`` tooltip on every bar and
point, a ``<table>`` for a table spec, or a board of cells for a grid spec, each cell a link
when the page says where a click leads (``link``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 560
HEIGHT = 300
MARGIN = {"left": 58, "right": 16, "top": 44, "bottom": 52}
#: The x labels at 11 px: a character's width at most (an estimate for sans-serif), the
#: line height, the longest label drawn, and sin(35°) for slanted ones.
CHAR_W = 6.6
LINE_H = 15
LABEL_MAX = 18
SIN_SLANT = 0.574
PALETTE = ("#2f6fdb", "#e0792b", "#2e9e6a", "#c0392b", "#8e44ad", "#7f8c8d")


# --- rendering --------------------------------------------------------------------------


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = span / max(ticks, 1)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _fmt(value: float, y_format: str) -> str:
    if y_format == "percent":
        pct = value * 100
        return f"{pct:.0f}%" if abs(pct - round(pct)) < 1e-9 or pct >= 10 else f"{pct:.1f}%"
    if abs(value - round(value)) < 1e-9:
        return f"{value:.0f}"
    return f"{value:.2f}"


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
    return _render_xy(spec)


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
                f'<text x="{x0 + 8}" y="{y0 + 16}" font-size="13" fill="#1f5fa8">'
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
                f'<text x="{x0 + CELL - 8}" y="{y0 + CELL - 8}" font-size="14" '
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


def _render_table(spec: Mapping[str, Any]) -> SafeString:
    head = "".join(f"<th>{escape(c)}</th>" for c in spec["columns"])
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(_cell(v))}</td>" for v in row) + "</tr>"
        for row in spec["rows"]
    )
    return mark_safe(  # noqa: S308 - every piece is escaped above
        f'<table class="sim-table" id="chart-{escape(spec.get("id", ""))}">'
        f"<caption>{escape(spec['title'])}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


@dataclass(frozen=True)
class _Plot:
    """The geometry of an xy chart: the plot area, one band a category, the y scale."""

    cats: list[str]
    y_format: str
    left: float
    top: float
    pw: float
    ph: float
    n: int
    band: float
    step: float
    y_top: float
    #: The x labels: drawn slanted (long names, many categories), and one every `every`
    #: categories, so that no two overlap.
    rotate: bool = False
    every: int = 1

    def y(self, v: float) -> float:
        return self.top + self.ph - (v / self.y_top) * self.ph

    def tip(self, name: str, i: int, v: float) -> str:
        """A bar's or a point's tooltip: the series, the category and the exact value."""
        cat = self.cats[i] if i < len(self.cats) else i
        return f"{escape(name)}, {escape(cat)}: {escape(_fmt_exact(v, self.y_format))}"


def _plot(spec: Mapping[str, Any], series: list[dict[str, Any]]) -> _Plot:
    """The plot area, and a y scale of nice steps reaching the highest value (or the spec's
    `y_max`; stacked series count by their sums)."""
    cats = [str(c) for c in spec.get("categories", [])]
    left, right, top, bottom = (MARGIN[k] for k in ("left", "right", "top", "bottom"))
    n = max(len(cats), 1)
    pw = WIDTH - left - right
    longest = min(max((len(c) for c in cats), default=0), LABEL_MAX)
    band = pw / n
    rotate = longest * CHAR_W + 6 > band and n > 1
    if rotate:
        # A slanted label reaches down by its length × sin(35°): the plot makes room, so
        # that it ends above the axis title.
        bottom = max(bottom, int(14 + longest * CHAR_W * SIN_SLANT + 26))
        # Slanted labels stand LINE_H apart across their slant: band × sin(35°) each.
        every = max(1, math.ceil(LINE_H / (band * SIN_SLANT)))
    else:
        every = max(1, math.ceil((longest * CHAR_W + 6) / band))
    ph = HEIGHT - top - bottom
    stacked = [s for s in series if s.get("style") == "stacked"]
    plain = [s for s in series if s.get("style", "bar") in ("bar", "line")]
    values = [v for s in plain for v in s["values"] if v is not None]
    if stacked:
        for i in range(n):
            values.append(sum((s["values"][i] or 0) for s in stacked if i < len(s["values"])))
    y_max = float(spec.get("y_max") or max(values, default=0) or 1)
    step = _nice_step(y_max)
    y_top = step * math.ceil(y_max / step - 1e-9)
    if y_top <= 0:
        y_top = 1.0
    return _Plot(
        cats, spec.get("y_format", "number"), left, top, pw, ph, n, band, step, y_top, rotate, every
    )


def _frame(spec: Mapping[str, Any], p: _Plot) -> list[str]:
    """The svg element with its title and description, the grid, the axes and their labels."""
    chart_id = escape(spec.get("id", "chart"))
    title = escape(spec.get("title", ""))
    desc = escape(spec.get("desc", "") or spec.get("title", ""))
    left, top, pw, ph = p.left, p.top, p.pw, p.ph
    out: list[str] = [
        f'<svg class="chart" id="chart-{chart_id}" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'aria-labelledby="chart-{chart_id}-title chart-{chart_id}-desc" '
        f'style="max-width:{WIDTH}px;font:11px sans-serif">',
        f'<title id="chart-{chart_id}-title">{title}</title>',
        f'<desc id="chart-{chart_id}-desc">{desc}</desc>',
        f'<text x="{WIDTH / 2:.0f}" y="16" text-anchor="middle" '
        f'style="font-weight:bold;font-size:13px">{title}</text>',
    ]
    tick = 0.0
    while tick <= p.y_top + 1e-9:
        yy = p.y(tick)
        out.append(
            f'<line x1="{left}" x2="{left + pw}" y1="{yy:.1f}" y2="{yy:.1f}" '
            f'stroke="#e3e6ec" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end" fill="#5d6577">'
            f"{escape(_fmt(tick, p.y_format))}</text>"
        )
        tick += p.step
    out.append(
        f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + ph}" stroke="#5d6577"/>'
        f'<line x1="{left}" x2="{left + pw}" y1="{top + ph}" y2="{top + ph}" stroke="#5d6577"/>'
    )
    out += _x_labels(p)
    if spec.get("x_label"):
        out.append(
            f'<text x="{left + pw / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">'
            f"{escape(spec['x_label'])}</text>"
        )
    if spec.get("y_label"):
        out.append(
            f'<text x="12" y="{top + ph / 2:.0f}" text-anchor="middle" '
            f'transform="rotate(-90 12 {top + ph / 2:.0f})">{escape(spec["y_label"])}</text>'
        )
    return out


def _x_labels(p: _Plot) -> list[str]:
    """The categories under the plot: thinned when crowded, rotated when long."""
    out = []
    for i, cat in enumerate(p.cats):
        if i % p.every:
            continue
        cx = p.left + p.band * (i + 0.5)
        ty = p.top + p.ph + 14
        if p.rotate:
            out.append(
                f'<text x="{cx:.1f}" y="{ty:.0f}" text-anchor="end" fill="#5d6577" '
                f'transform="rotate(-35 {cx:.1f} {ty:.0f})">{escape(cat[:LABEL_MAX])}</text>'
            )
        else:
            out.append(
                f'<text x="{cx:.1f}" y="{ty:.0f}" text-anchor="middle" fill="#5d6577">'
                f"{escape(cat[:LABEL_MAX])}</text>"
            )
    return out


def _grouped_bars(p: _Plot, bars: list[dict[str, Any]], colour: dict[str, str]) -> list[str]:
    """Bars side by side in each category's band, one a series."""
    out = []
    inner = p.band * 0.8
    bw = inner / len(bars)
    for j, s in enumerate(bars):
        for i, v in enumerate(s["values"][: p.n]):
            if v is None:
                continue
            x0 = p.left + p.band * i + p.band * 0.1 + bw * j
            y0 = p.y(v)
            height = max(p.top + p.ph - y0, 0)
            tip = p.tip(s["name"], i, v)
            out.append(_bar(x0, y0, max(bw - 1, 1), height, colour[s["name"]], tip))
    return out


def _bar(x: float, y: float, width: float, height: float, fill: str, tip: str) -> str:
    """One bar, its tooltip inside."""
    return (
        f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" '
        f'fill="{fill}"><title>{tip}</title></rect>'
    )


def _stacked_bars(p: _Plot, stacked: list[dict[str, Any]], colour: dict[str, str]) -> list[str]:
    """The series piled up in each category's band."""
    out = []
    base = [0.0] * p.n
    for s in stacked:
        for i, v in enumerate(s["values"][: p.n]):
            if not v:
                continue
            y1, y0 = p.y(base[i]), p.y(base[i] + v)
            base[i] += v
            x0 = p.left + p.band * i + p.band * 0.1
            tip = p.tip(s["name"], i, v)
            out.append(_bar(x0, y0, p.band * 0.8, max(y1 - y0, 0), colour[s["name"]], tip))
    return out


def _lines(p: _Plot, lines: list[dict[str, Any]], colour: dict[str, str]) -> list[str]:
    """Each series as a line through its points, a tooltip on every point."""
    out = []
    for s in lines:
        pts = [
            (p.left + p.band * (i + 0.5), p.y(v), i, v)
            for i, v in enumerate(s["values"][: p.n])
            if v is not None
        ]
        if not pts:
            continue
        c = colour[s["name"]]
        path = " ".join(f"{x:.1f},{yy:.1f}" for x, yy, _, _ in pts)
        out.append(
            f'<polyline class="line" points="{path}" fill="none" stroke="{c}" stroke-width="2"/>'
        )
        for x, yy, i, v in pts:
            out.append(
                f'<circle cx="{x:.1f}" cy="{yy:.1f}" r="3" fill="{c}"><title>'
                f"{escape(s['name'])}, {escape(p.cats[i])}: {escape(_fmt_exact(v, p.y_format))}"
                "</title></circle>"
            )
    return out


def _legend(p: _Plot, series: list[dict[str, Any]], colour: dict[str, str]) -> list[str]:
    out = []
    lx = p.left + 4
    for s in series:
        out.append(
            f'<rect x="{lx}" y="26" width="10" height="10" fill="{colour[s["name"]]}"/>'
            f'<text x="{lx + 14}" y="35">{escape(s["name"])}</text>'
        )
        lx += 24 + 6.2 * len(s["name"])
    return out


def _render_xy(spec: Mapping[str, Any]) -> SafeString:
    """Grouped bars, stacked bars and lines over the categories, with a legend when more
    than the title's one series is drawn."""
    series = spec.get("series", [])
    p = _plot(spec, series)
    colour = {s["name"]: PALETTE[i % len(PALETTE)] for i, s in enumerate(series)}
    bars = [s for s in series if s.get("style", "bar") == "bar"]
    stacked = [s for s in series if s.get("style") == "stacked"]
    lines = [s for s in series if s.get("style") == "line"]
    out = _frame(spec, p)
    if bars:
        out += _grouped_bars(p, bars, colour)
    if stacked:
        out += _stacked_bars(p, stacked, colour)
    out += _lines(p, lines, colour)
    if len(series) > 1 or (series and series[0]["name"] != spec.get("title")):
        out += _legend(p, series, colour)
    out.append("</svg>")
    return mark_safe("".join(out))  # noqa: S308 - every text piece is escaped above
