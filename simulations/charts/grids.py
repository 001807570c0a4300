"""A grid spec drawn as a board of cells, each a link when the page says where a click leads."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .layout import (
    FONT,
    NARROW,
)

LinkFn = Callable[[Mapping[str, int]], str]


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
