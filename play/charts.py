"""Small server-side SVG charts of the play tools, and the Red Code map.

Chart specs are built by the rules core (`validation.charts`; `xy()` builds one of
(name, values, style) series). `render_chart` draws with `simulations.charts.render`, or with
the tiny renderer below when that app is missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from validation.charts import xy

__all__ = ["map_svg", "render_chart", "xy"]

WIDTH, HEIGHT = 560, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 28, 44
COLOURS = ("#1f5fa8", "#b3261e", "#1b7a3a", "#a86400")


def _fmt(value: float, percent: bool) -> str:
    if percent:
        return f"{value * 100:.1f}%"
    return f"{value:.2f}".rstrip("0").rstrip(".") if value % 1 else f"{int(value)}"


def _local_chart(spec: Mapping[str, Any]) -> str:
    title = escape(spec.get("title", ""))
    labels: Sequence[str] = [str(x) for x in spec.get("categories", [])]
    series: Sequence[Mapping[str, Any]] = spec.get("series", [])
    percent = spec.get("y_format") == "percent"
    values = [float(v) for s in series for v in s.get("values", []) if v is not None]
    y_max = float(spec.get("y_max") or 0) or max([*values, 0.0]) or 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" style="max-width:{WIDTH}px" '
        f'aria-label="{title}"><title>{title}</title>',
        f'<text x="{LEFT}" y="16" font-size="13" font-weight="600">{title}</text>',
    ]
    for i in range(5):
        y = TOP + plot_h - plot_h * i / 4
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#d8dce5"/>'
            f'<text x="{LEFT - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end">'
            f"{escape(_fmt(y_max * i / 4, percent))}</text>"
        )
    n = max(len(labels), 1)
    step = plot_w / n
    for i, label in enumerate(labels):
        if i % max(1, n // 20) == 0:
            parts.append(
                f'<text x="{LEFT + step * (i + 0.5):.1f}" y="{TOP + plot_h + 14}" '
                f'font-size="10" text-anchor="middle">{escape(label[:18])}</text>'
            )
    bars = [s for s in series if s.get("style", "bar") != "line"]
    for si, s in enumerate(series):
        colour = COLOURS[si % len(COLOURS)]
        vals = [float(v or 0) for v in s.get("values", [])]
        tips = [
            f"{escape(labels[i] if i < len(labels) else '')}: {escape(_fmt(v, percent))}"
            for i, v in enumerate(vals)
        ]
        if s.get("style") == "line":
            pts = " ".join(
                f"{LEFT + step * (i + 0.5):.1f},{TOP + plot_h - plot_h * v / y_max:.1f}"
                for i, v in enumerate(vals)
            )
            parts.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>'
            )
            continue
        k = max(len(bars), 1)
        bar_w = step * 0.8 / k
        j = bars.index(s)
        for i, v in enumerate(vals):
            h = plot_h * v / y_max
            x = LEFT + step * i + step * 0.1 + bar_w * j
            parts.append(
                f'<rect class="bar" x="{x:.1f}" y="{TOP + plot_h - h:.1f}" width="{bar_w:.1f}" '
                f'height="{h:.1f}" fill="{colour}"><title>{tips[i]}</title></rect>'
            )
    parts.append("</svg>")
    return "".join(parts)


def render_chart(spec: Mapping[str, Any]) -> SafeString:
    """The SVG of one chart spec."""
    try:
        from simulations.charts import render
    except ImportError:
        return mark_safe(_local_chart(spec))  # noqa: S308 - every text part is escaped
    return render(spec)


# --- Red Code map --------------------------------------------------------------------------

BOX = 56
BOX_FILL = {
    "sea": "#cfe3f5",
    "island": "#c9b48a",
    "current_n": "#a9cdef",
    "current_e": "#a9cdef",
    "current_s": "#a9cdef",
    "current_w": "#a9cdef",
}
ARROWS = {"current_n": "↑", "current_e": "→", "current_s": "↓", "current_w": "←"}
DISTANCE_FILL = (
    "#ffe08a",
    "#ffb74d",
    "#ff8a65",
    "#f06292",
    "#ba68c8",
    "#9575cd",
    "#7986cb",
    "#64b5f6",
)


def map_svg(data: Mapping[str, Any], href) -> SafeString:
    """The sea as an SVG grid of boxes. `href(x, y)` is the link of a box (placing the ship
    there). Boxes the ship can target are coloured by distance and labelled with it."""
    grid = data["grid"]
    width, height = data["width"], data["height"]
    distance: dict[tuple[int, int], int] = {}
    field = data.get("field")
    if field:
        for d, boxes in field["boxes_at_distance"].items():
            for x, y in boxes:
                distance[(x, y)] = int(d)
    ships = {tuple(b) for b in data.get("ships", [])}
    origin = tuple(data["origin"]) if data.get("origin") else None
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="sea-map" role="img" '
        f'viewBox="0 0 {width * BOX} {height * BOX}" width="100%" '
        f'style="max-width:{width * BOX}px" aria-label="Red Code map, seed {data["seed"]}">'
    ]
    for y in range(height):
        for x in range(width):
            kind = grid[y][x]
            fill = BOX_FILL.get(kind, "#fff")
            d = distance.get((x, y))
            if d is not None and d > 0:
                fill = DISTANCE_FILL[(d - 1) % len(DISTANCE_FILL)]
            classes = f"box {kind}" + (" target" if d else "")
            title = f"box {x},{y}: {kind.replace('_', ' ')}"
            if d:
                title += f", distance {d}"
            parts.append(
                f'<a href="{escape(href(x, y))}" data-x="{x}" data-y="{y}" class="{classes}">'
                f"<title>{escape(title)}</title>"
                f'<rect x="{x * BOX}" y="{y * BOX}" width="{BOX}" height="{BOX}" '
                f'fill="{fill}" stroke="#5d6577" stroke-width="1"/>'
            )
            if kind in ARROWS:
                parts.append(
                    f'<text x="{x * BOX + 8}" y="{y * BOX + 16}" font-size="13" '
                    f'fill="#1f5fa8">{ARROWS[kind]}</text>'
                )
            if (x, y) == origin:
                parts.append(
                    f'<circle cx="{x * BOX + BOX / 2}" cy="{y * BOX + BOX / 2}" r="{BOX / 3}" '
                    'fill="#1d2330" class="ship origin"/>'
                )
            elif (x, y) in ships:
                parts.append(
                    f'<rect x="{x * BOX + 14}" y="{y * BOX + 14}" width="{BOX - 28}" '
                    f'height="{BOX - 28}" fill="#b3261e" class="ship other"/>'
                )
            if d:
                parts.append(
                    f'<text x="{x * BOX + BOX - 8}" y="{y * BOX + BOX - 8}" font-size="14" '
                    f'text-anchor="end" font-weight="700">{d}</text>'
                )
            parts.append("</a>")
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text part is escaped
