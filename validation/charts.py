"""Chart specs: what a goldfish or a tool says to draw, without knowing how.

A chart is a plain JSON-serialisable dict, so that the rules core can describe its charts
and a web app draws them (``simulations.charts.render``)::

    {"type": "xy", "id": "win-turn", "title": "…", "desc": "…",
     "x_label": "Turn", "y_label": "Share of games", "y_format": "percent",
     "categories": [1, 2, 3, "never"],
     "series": [{"name": "Won", "values": [0.0, 0.1, …], "style": "bar"},
                {"name": "Exact", "values": […], "style": "line"}]}

``style`` is ``bar`` (series drawn as grouped bars), ``stacked`` (bars stacked on each other)
or ``line`` (points joined by a line, over the bars). ``None`` values are left out; an
optional ``y_max`` fixes the top of the value axis.
``{"type": "table", "id", "title", "columns": [...], "rows": [[...], ...]}`` is a small table.

``{"type": "grid", "id", "title", "desc", "width", "height", "cells": [...], "link": {...},
"legend": [...]}`` is a board of ``width`` × ``height`` square cells (x left to right, y top
to bottom). Each cell is ``{"x", "y", "fill", "symbol", "label", "title", "marker", "class",
"link"}``: ``fill`` a colour ``#rrggbb``, ``symbol`` a short text at its top left (an arrow),
``label`` a short text at its bottom right (a number), ``title`` its tooltip, ``marker``
``"circle"``, ``"square"`` or ``""``, ``class`` words naming what it is (for styles and
tests), all optional. ``link`` maps parameters of the tool to ``"x"`` or ``"y"``: a click
on a cell opens the tool again with those parameters set to the cell's coordinates (a cell
with ``"link": false`` is not a link). ``legend`` is ``[{"fill", "label"}]``.

``bar_chart``, ``histogram``, ``grouped_bars``, ``line_chart``, ``cumulative_curve`` and
``table`` build specs from named series; ``xy`` builds one from (name, values, style) triples;
``grid`` a board of cells. ``pct`` and ``num`` write a figure for a table cell or a key
figure, with "—" where there is none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def pct(p: float | None) -> str:
    """A share as a percentage with one decimal ("12.5%"), "—" for none."""
    return "—" if p is None else f"{p * 100:.1f}%"


def num(x: float | None, digits: int = 2) -> str:
    """A number with ``digits`` decimals, "—" for none."""
    return "—" if x is None else f"{x:.{digits}f}"


def _series(name: str, values: Sequence[float | None], style: str = "bar") -> dict[str, Any]:
    return {"name": name, "values": list(values), "style": style}


def _chart(
    chart_id: str,
    title: str,
    categories: Sequence[Any],
    series: list[dict[str, Any]],
    *,
    desc: str = "",
    x_label: str = "",
    y_label: str = "",
    y_format: str = "percent",
) -> dict[str, Any]:
    return {
        "type": "xy",
        "id": chart_id,
        "title": title,
        "desc": desc,
        "x_label": x_label,
        "y_label": y_label,
        "y_format": y_format,
        "categories": [str(c) for c in categories],
        "series": series,
    }


def bar_chart(
    chart_id: str,
    title: str,
    categories: Sequence[Any],
    values: Sequence[float | None],
    *,
    name: str = "",
    **kw: Any,
) -> dict[str, Any]:
    """One series of bars over categories."""
    return _chart(chart_id, title, categories, [_series(name or title, values)], **kw)


def histogram(
    chart_id: str, title: str, probabilities: Sequence[float | None], *, start: int = 0, **kw: Any
) -> dict[str, Any]:
    """Bars over the values ``start``, ``start+1``, … (probabilities or counts)."""
    cats = list(range(start, start + len(probabilities)))
    return bar_chart(chart_id, title, cats, probabilities, **kw)


def grouped_bars(
    chart_id: str,
    title: str,
    categories: Sequence[Any],
    named_values: Mapping[str, Sequence[float | None]],
    **kw: Any,
) -> dict[str, Any]:
    """Several series of bars side by side over the same categories."""
    series = [_series(n, v) for n, v in named_values.items()]
    return _chart(chart_id, title, categories, series, **kw)


def line_chart(
    chart_id: str,
    title: str,
    categories: Sequence[Any],
    named_values: Mapping[str, Sequence[float | None]],
    **kw: Any,
) -> dict[str, Any]:
    """One line per series over the categories."""
    series = [_series(n, v, "line") for n, v in named_values.items()]
    return _chart(chart_id, title, categories, series, **kw)


def cumulative_curve(
    chart_id: str,
    title: str,
    categories: Sequence[Any],
    cumulative: Sequence[float | None],
    *,
    name: str = "",
    **kw: Any,
) -> dict[str, Any]:
    """A cumulative probability curve (P(event by x))."""
    return _chart(
        chart_id, title, categories, [_series(name or "Cumulative", cumulative, "line")], **kw
    )


def table(
    chart_id: str, title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> dict[str, Any]:
    """A small table of values."""
    return {
        "type": "table",
        "id": chart_id,
        "title": title,
        "columns": list(columns),
        "rows": [list(r) for r in rows],
    }


def xy(
    chart_id: str,
    title: str,
    categories: Sequence[Any],
    series: Sequence[tuple[str, Sequence[float], str]],
    *,
    x_label: str = "",
    y_label: str = "",
    percent: bool = False,
    y_max: float | None = None,
) -> dict[str, Any]:
    """A chart spec whose `series` are (name, values, style) with style bar or line; its
    description is its title."""
    spec: dict[str, Any] = {
        "type": "xy",
        "id": chart_id,
        "title": title,
        "desc": title,
        "x_label": x_label,
        "y_label": y_label,
        "y_format": "percent" if percent else "number",
        "categories": [str(c) for c in categories],
        "series": [
            {"name": name, "values": [float(v) for v in values], "style": style}
            for name, values, style in series
        ],
    }
    if y_max is not None:
        spec["y_max"] = y_max
    return spec


def grid(
    chart_id: str,
    title: str,
    width: int,
    height: int,
    cells: Sequence[Mapping[str, Any]],
    *,
    link: Mapping[str, str] | None = None,
    legend: Sequence[Mapping[str, str]] = (),
    desc: str = "",
) -> dict[str, Any]:
    """A board of `width` × `height` cells; `link` maps the tool's parameters a click on a
    cell sets to "x" or "y"."""
    if link and any(axis not in ("x", "y") for axis in link.values()):
        raise ValueError('a grid link maps a parameter to "x" or "y"')
    return {
        "type": "grid",
        "id": chart_id,
        "title": title,
        "desc": desc or title,
        "width": int(width),
        "height": int(height),
        "cells": [dict(c) for c in cells],
        "link": dict(link or {}),
        "legend": [dict(item) for item in legend],
    }
