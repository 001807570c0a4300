"""Card facts as the plain JSON a run stores for its workers.

A goldfish's inputs are read from the catalogue once, when a run starts, and stored on the
run as JSON, so that a worker never reads the catalogue and a run stays reproducible after
the catalogue changes. These helpers write `CardFacts` and `Entry` lists in that form and
read them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from validation.types import CardFacts, Entry


def card_json(card: CardFacts, *, text: bool = True) -> dict[str, Any]:
    """A card's facts as JSON; `text=False` leaves out its rules text (a simulator that
    never reads it keeps its stored inputs small)."""
    out: dict[str, Any] = {
        "name": card.name,
        "kind": card.kind,
        "faction": card.faction,
        "cost": int(card.cost or 0),
    }
    if text:
        out["text"] = card.text
    out["attributes"] = dict(card.attributes)
    return out


def card_from_json(data: Mapping[str, Any]) -> CardFacts:
    """The CardFacts of `card_json` (missing keys take the defaults)."""
    return CardFacts(
        name=data["name"],
        kind=data.get("kind", ""),
        faction=data.get("faction", ""),
        cost=int(data.get("cost", 0) or 0),
        text=data.get("text", ""),
        attributes=dict(data.get("attributes") or {}),
    )


def entries_json(entries: Iterable[Entry], *, text: bool = False) -> list[dict[str, Any]]:
    """[{"card": card facts, "count": n}] of a section's entries, in list order."""
    return [{"card": card_json(e.card, text=text), "count": int(e.count)} for e in entries]


def entries_from_json(rows: Sequence[Mapping[str, Any]] | None) -> list[Entry] | None:
    """The entries of `entries_json` (None stays None: a section the deck does not have)."""
    if rows is None:
        return None
    return [Entry(card_from_json(r["card"]), int(r["count"])) for r in rows]
