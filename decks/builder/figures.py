"""What the builder draws: the cost curve, the counts by kind and faction, the placement
area (drawn by the game's grid) and the dealt map layout (drawn by the game's map layout),
as plain geometry for the templates."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalogue.models import Card
from validation.placement import PlacementGrid
from validation.registry import FormatDef, GameDef, MapLayout
from validation.rules import PointsLimit

#: The highest cost with its own bar in the cost curve; dearer cards share the last bar.
CURVE_MAX = 7
#: The curve's text size in its drawing's units: it is shown as narrow as about 216 px (the
#: builder's side panel), 280 units across, so its text stays 12 px or more.
CURVE_FONT = 16


def _cost_curve(counts: dict[int, int]) -> dict[str, Any]:
    """Bars of a cost curve as SVG geometry (costs 0 … CURVE_MAX+, copies per cost)."""
    width, height, top, bottom = 280, 140, CURVE_FONT + 4, CURVE_FONT + 8
    n_bars = CURVE_MAX + 1
    slot = width / n_bars
    peak = max(counts.values(), default=0) or 1
    bars = []
    for cost in range(n_bars):
        n = counts.get(cost, 0)
        h = (height - top - bottom) * n / peak
        bars.append(
            {
                "label": f"{cost}+" if cost == CURVE_MAX else str(cost),
                "count": n,
                "x": round(cost * slot + 3, 1),
                "w": round(slot - 6, 1),
                "y": round(height - bottom - h, 1),
                "h": round(h, 1),
                "tx": round(cost * slot + slot / 2, 1),
                "ty": round(height - bottom - h - 3, 1),
            }
        )
    return {
        "width": width,
        "height": height,
        "bars": bars,
        "base": height - bottom,
        "label_y": height - 6,
        "font": CURVE_FONT,
    }


def curve_sections(game: GameDef, fmt: FormatDef) -> tuple[str, ...]:
    """The sections a cost curve is drawn over: those the game's draw rules draw turn by
    turn. None for a list that is not drawn (what stands on the table from the start) or
    decks drawn only by dice, where a curve of costs means nothing."""
    return tuple(r.section for r in game.draws if r.turn_by_turn and r.section in fmt.section_names)


def _stats(game: GameDef, fmt: FormatDef, rows: list[dict]) -> dict[str, Any]:
    """Cost curve over the sections drawn turn by turn; copies by kind and by faction."""
    curved = curve_sections(game, fmt)
    curve: dict[int, int] = {}
    kinds: dict[str, int] = {}
    factions: dict[str, int] = {}
    total_cost = 0
    for row in rows:
        facts, n = row["facts"], row["count"]
        if facts is None:
            continue
        kinds[facts.kind] = kinds.get(facts.kind, 0) + n
        if facts.faction:
            factions[facts.faction] = factions.get(facts.faction, 0) + n
        if row["section"] in curved:
            cost = max(0, min(CURVE_MAX, facts.cost))
            curve[cost] = curve.get(cost, 0) + n
            total_cost += facts.cost * n
    return {
        "curve": _cost_curve(curve) if curved else None,
        "kinds": [
            (game.kinds[k].label if k in game.kinds else k, n) for k, n in sorted(kinds.items())
        ],
        "factions": [(game.factions.get(f, f), n) for f, n in sorted(factions.items())],
        "total_cost": total_cost,
    }


def _short(name: str) -> str:
    """A label that fits in a cell: initials of a long name, or its first letters."""
    words = name.split()
    return "".join(w[0] for w in words[:3]) if len(words) > 1 else name[:3]


def placement_map(
    grid: PlacementGrid, section: str, area: tuple[int, int], rows: list[dict]
) -> dict[str, Any]:
    """The placement area of `section` as the game's grid draws it (validation/placement.py),
    with the unit standing on each cell (two units on one cell: a clash)."""
    columns, n_rows = area
    occupants: dict[tuple[int, int], list[str]] = {}
    for row in rows:
        if row["placement"] is not None:
            occupants.setdefault(tuple(row["placement"]), []).append(row["card"])
    drawn = grid.draw(columns, n_rows)
    for cell in drawn["cells"]:
        names = occupants.get((cell["c"], cell["r"]), [])
        cell["occupant"] = " & ".join(names)
        cell["short"] = _short(names[0]) if names else ""
        cell["clash"] = len(names) > 1
    return {"section": section, **drawn}


def layout_view(hook: MapLayout, game_id: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The stored map as the game draws it, from the facts of its map cards (one query)."""
    layout = options.get(hook.option)
    cards = {}
    if isinstance(layout, dict):
        cards = {
            c.name: c.facts()
            for c in Card.objects.filter(game_id=game_id, kind=hook.kind).only(*Card.FACT_FIELDS)
        }
    return {**hook.draw(layout, cards), "option": hook.option}


def points_meters(
    fmt: FormatDef, rows: list[dict], options: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The points limits of the format (its `PointsLimit` rules) against the list: one
    {"total", "limit", "over"} per limit, read from the format's options as the deck sets
    them ("36/36 points"). Empty for a format without a points limit."""
    meters = []
    values = {**fmt.options, **options}
    seen: set[tuple] = set()
    for rule in fmt.rules:
        # One meter per limit (a rule that warns under the limit reads the same one).
        if not isinstance(rule, PointsLimit):
            continue
        key = (rule.sections, rule.option, rule.kinds)
        if key in seen:
            continue
        seen.add(key)
        limit = values.get(rule.option)
        if not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0:
            continue
        total = sum(
            row["facts"].cost * row["count"]
            for row in rows
            if row["facts"] is not None
            and row["section"] in rule.sections
            and (rule.kinds is None or row["facts"].kind in rule.kinds)
        )
        meters.append({"total": total, "limit": limit, "over": total > limit})
    return meters
