"""An xy chart drawn as SVG from its layout: the frame, the axes and their titles, the bars
and lines, each with its tooltip."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .layout import (
    FONT,
    LINE_H,
    PALETTE,
    TITLE_FONT,
    TITLE_LINE_H,
    WIDE,
    _columns,
    _Drawing,
    _head,
    _rows,
)


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
