"""The layout of an xy chart: its scale, its wrapped title and legend, and where its
categories go (under their columns, or down the side when they do not fit)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.html import escape

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
