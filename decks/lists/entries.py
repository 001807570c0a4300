"""A line of a deck version's list as the builder and the services handle it: `ListEntry`.

A version stores its lines as JSON (`DeckVersion.entries`: `{"section", "card", "count"}`,
with `"placement": [column, row]` for a unit placed on a cell). The builder reads them once
into `ListEntry`s (`entries_from_json`), changes them (`edits.apply_change`) and writes them
back as the sections a save takes (`as_sections`), never handling the JSON keys itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from validation import decklist

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ListEntry:
    """`count` copies of `card` in `section`, placed on the cell `placement` (column, row)
    or unplaced (None)."""

    section: str
    card: str
    count: int
    placement: Cell | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ListEntry:
        cell = data.get(decklist.PLACEMENT)
        return cls(
            section=str(data["section"]),
            card=str(data["card"]),
            count=int(data["count"]),
            placement=None if not cell else (int(cell[0]), int(cell[1])),
        )

    def as_dict(self) -> dict[str, Any]:
        """The line as a version stores it."""
        out: dict[str, Any] = {"section": self.section, "card": self.card, "count": self.count}
        if self.placement is not None:
            out[decklist.PLACEMENT] = list(self.placement)
        return out

    @property
    def placement_text(self) -> str:
        """The cell as a change names it ("3,1"), "" when unplaced."""
        return f"{self.placement[0]},{self.placement[1]}" if self.placement else ""

    def is_line(self, section: str, card: str, cell: Cell | None) -> bool:
        """Whether this is the line of `card` (any case) in `section` on `cell`."""
        return (
            self.section == section and self.card.lower() == card.lower() and self.placement == cell
        )


def entries_from_json(rows: Iterable[Mapping[str, Any]]) -> list[ListEntry]:
    """A version's stored lines read as `ListEntry`s."""
    return [ListEntry.from_dict(r) for r in rows]


def as_sections(entries: Iterable[ListEntry]) -> dict[str, list[dict[str, Any]]]:
    """The lines in the sections form a save takes: {"section": [{"card", "count",
    "placement"?}]}, in the order of the lines."""
    out: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        item: dict[str, Any] = {"card": e.card, "count": e.count}
        if e.placement is not None:
            item[decklist.PLACEMENT] = list(e.placement)
        out.setdefault(e.section, []).append(item)
    return out
