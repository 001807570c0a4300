"""The Red Code map: 12 of the 15 map cards laid out in 3 rows of 4, the two start cards in
opposite corners (rulebook 4.1, 4.2).

A layout is stored in a deck's options as {"seed": int, "rows": [[name × 4] × 3]}, names
being map card names; `generate_layout` deals one reproducibly from a seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from validation.types import CardFacts

ROWS = 3
COLUMNS = 4
CORNER_PAIRS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 0), (ROWS - 1, COLUMNS - 1)),
    ((0, COLUMNS - 1), (ROWS - 1, 0)),
)


def is_start(card: CardFacts) -> bool:
    return card.kind == "map_card" and card.attributes.get("start") is True


def generate_layout(map_cards: Sequence[CardFacts], seed: int) -> dict[str, Any]:
    """Deal a map: the 2 start cards in opposite corners (which pair of corners and which
    card where chosen at random), 10 of the other map cards on the remaining boxes, the rest
    unused. The same cards and seed always give the same layout, whatever their order.

    Raises ValueError unless there are exactly 2 start cards and at least 10 others.
    """
    cards = sorted({c.name: c for c in map_cards}.values(), key=lambda c: c.name)
    starts = [c.name for c in cards if is_start(c)]
    others = [c.name for c in cards if not is_start(c)]
    needed = ROWS * COLUMNS - 2
    if len(starts) != 2:
        raise ValueError(f"{len(starts)} start map cards; exactly 2")
    if len(others) < needed:
        raise ValueError(f"{len(others)} other map cards; at least {needed}")
    rng = random.Random(seed)
    corners = rng.choice(CORNER_PAIRS)
    rng.shuffle(starts)
    chosen = rng.sample(others, needed)
    rows: list[list[str]] = [[""] * COLUMNS for _ in range(ROWS)]
    for (r, c), name in zip(corners, starts, strict=True):
        rows[r][c] = name
    fill = iter(chosen)
    for r in range(ROWS):
        for c in range(COLUMNS):
            if not rows[r][c]:
                rows[r][c] = next(fill)
    unused = sorted(set(others) - set(chosen))
    return {"seed": seed, "rows": rows, "unused": unused}


def layout_problems(
    layout: Any, pool: dict[str, CardFacts] | None
) -> list[tuple[str, tuple[str, ...]]]:
    """Every problem of a stored layout, as (message, card names) pairs. `pool` maps
    lower-cased names to the game's cards; without it the start corners cannot be checked,
    which is itself reported."""
    if not isinstance(layout, dict) or not isinstance(layout.get("rows"), list | tuple):
        return [('the map must be {"seed": n, "rows": [[4 names] × 3]}', ())]
    rows = layout["rows"]
    shape_ok = len(rows) == ROWS and all(
        isinstance(row, list | tuple) and len(row) == COLUMNS for row in rows
    )
    if not shape_ok:
        sizes = [len(r) if isinstance(r, list | tuple) else 0 for r in rows]
        return [(f"the map has {len(rows)} rows of {sizes}; exactly {ROWS} rows of {COLUMNS}", ())]
    names = [n for row in rows for n in row]
    if not all(isinstance(n, str) for n in names):
        return [("every map box names a map card", ())]
    problems: list[tuple[str, tuple[str, ...]]] = []
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        problems.append(
            (f"{len(set(names))} different map cards; exactly {ROWS * COLUMNS}", tuple(repeated))
        )
    if pool is None:
        problems.append(("the start corners cannot be checked without the game's map cards", ()))
        return problems
    starts: list[tuple[int, int]] = []
    start_names: list[str] = []
    for r, row in enumerate(rows):
        for c, name in enumerate(row):
            card = pool.get(name.lower())
            if card is None or card.kind != "map_card":
                problems.append((f"{name!r} is not a map card", (name,)))
            elif is_start(card):
                starts.append((r, c))
                start_names.append(card.name)
    if len(starts) != 2:
        problems.append((f"{len(starts)} start cards on the map; exactly 2", tuple(start_names)))
    elif tuple(starts) not in CORNER_PAIRS and tuple(reversed(starts)) not in CORNER_PAIRS:
        where = " and ".join(f"row {r + 1}, column {c + 1}" for r, c in starts)
        problems.append(
            (f"start cards at {where}; they belong in opposite corners", tuple(start_names))
        )
    return problems


#: The drawing of a map card: four boxes in two rows, each a box of the card's `boxes`.
BOX_W, BOX_H, GAP = 34, 30, 8


def draw_layout(layout: Any, cards: Mapping[str, CardFacts]) -> dict[str, Any]:
    """The stored map as rows of cards with their boxes, for the builder's drawing (the
    game's own partial): `cards` maps a map card's name to its facts. A layout that is not
    one (none dealt yet) draws no rows."""
    view: dict[str, Any] = {"layout": layout, "rows": []}
    if not isinstance(layout, dict) or not isinstance(layout.get("rows"), list):
        return view
    for r, row in enumerate(layout["rows"]):
        out_row = []
        for c, name in enumerate(row if isinstance(row, list) else []):
            card = cards.get(name)
            attrs = card.attributes if card else {}
            x, y = c * (2 * BOX_W + GAP), r * (2 * BOX_H + GAP)
            boxes = [
                {"kind": kind, "x": x + (i % 2) * BOX_W, "y": y + (i // 2) * BOX_H}
                for i, kind in enumerate((attrs.get("boxes") or [])[:4])
            ]
            out_row.append(
                {"name": name, "start": bool(attrs.get("start")), "x": x, "y": y, "boxes": boxes}
            )
        view["rows"].append(out_row)
    view["box_w"], view["box_h"] = BOX_W, BOX_H
    view["width"] = COLUMNS * (2 * BOX_W + GAP)
    view["height"] = len(layout["rows"]) * (2 * BOX_H + GAP)
    view["card_w"], view["card_h"] = 2 * BOX_W, 2 * BOX_H
    return view
