"""Placement: how a game's units stand on the area of a section (a hex map, a board of
squares), as a capability of its package.

A section's `SectionSpec.placement` gives the size of its area (columns × rows) and the rule
that one unit stands on each cell; the game's `GameDef.placement`, a `PlacementGrid`, says
what a cell is: its shape and where it is drawn. The web layer draws any grid the same way
(one polygon a cell, from `draw`) and never knows the shape.

Coordinates are (column, row) from 0, the form a list writes as `@column,row`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of an area as drawn: its coordinates, its outline (SVG polygon points) and
    its centre."""

    c: int
    r: int
    points: str
    cx: float
    cy: float


@dataclass(frozen=True)
class PlacementGrid:
    """The cells of a placement area: `type` names the grid ("hex", "square"), `noun` is the
    word for a cell (singular, plural) in the pages' sentences ("Click a unit, then a free
    hex"), `size` the cell's size in drawing units."""

    type: str = ""
    noun: tuple[str, str] = ("cell", "cells")
    size: float = 24.0

    def cells(self, columns: int, rows: int) -> list[Cell]:  # pragma: no cover - abstract
        raise NotImplementedError

    def extent(self, columns: int, rows: int) -> tuple[float, float]:  # pragma: no cover
        raise NotImplementedError

    def draw(self, columns: int, rows: int) -> dict[str, Any]:
        """The area as plain data for a drawing: {"type", "noun", "nouns", "columns",
        "rows", "width", "height", "cells": [{"c", "r", "points", "cx", "cy"}]}, cells row by
        row."""
        width, height = self.extent(columns, rows)
        return {
            "type": self.type,
            "noun": self.noun[0],
            "nouns": self.noun[1],
            "columns": columns,
            "rows": rows,
            "width": width,
            "height": height,
            "cells": [
                {"c": x.c, "r": x.r, "points": x.points, "cx": x.cx, "cy": x.cy}
                for x in self.cells(columns, rows)
            ],
        }


def _points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


@dataclass(frozen=True)
class HexGrid(PlacementGrid):
    """Pointy-top hexagons in offset rows, odd rows shifted half a hex right."""

    type: str = "hex"
    noun: tuple[str, str] = ("hex", "hexes")

    @property
    def _w(self) -> float:
        return math.sqrt(3) * self.size

    def cells(self, columns: int, rows: int) -> list[Cell]:
        size, w = self.size, self._w
        out = []
        for r in range(rows):
            for c in range(columns):
                cx = w * (c + 0.5 * (r % 2)) + w / 2 + 2
                cy = size * 1.5 * r + size + 2
                corners = [
                    (
                        cx + size * math.cos(math.radians(60 * k - 30)),
                        cy + size * math.sin(math.radians(60 * k - 30)),
                    )
                    for k in range(6)
                ]
                out.append(Cell(c, r, _points(corners), round(cx, 1), round(cy, 1)))
        return out

    def extent(self, columns: int, rows: int) -> tuple[float, float]:
        return (
            round(self._w * (columns + 0.5) + 4, 1),
            round(self.size * 1.5 * (rows - 1) + 2 * self.size + 4, 1),
        )


@dataclass(frozen=True)
class SquareGrid(PlacementGrid):
    """Squares in rows and columns."""

    type: str = "square"
    noun: tuple[str, str] = ("square", "squares")
    size: float = 40.0

    def cells(self, columns: int, rows: int) -> list[Cell]:
        s = self.size
        out = []
        for r in range(rows):
            for c in range(columns):
                x, y = c * s + 2, r * s + 2
                corners = [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]
                out.append(Cell(c, r, _points(corners), round(x + s / 2, 1), round(y + s / 2, 1)))
        return out

    def extent(self, columns: int, rows: int) -> tuple[float, float]:
        return (round(columns * self.size + 4, 1), round(rows * self.size + 4, 1))
