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

One module per drawing: `grids`, `tables`, and an xy chart's `layout` and `drawing`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from .drawing import _render_xy
from .grids import LinkFn, _render_grid
from .layout import NARROW, WIDE
from .tables import _render_table

__all__ = ["NARROW", "WIDE", "LinkFn", "render"]


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
