"""Red Code's tools: the crew economy of a ship (`CREW`) and the visual field of a ship on
a map dealt from a seed (`VISUAL_FIELD`), on `crew_economy` and `layout`.

The map is answered as a `grid` chart (validation/charts.py): the boxes coloured by what
they are and, once a ship is placed, by how far it can target them; a click on a box places
the ship there (it sets the parameters `x` and `y`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from validation import charts
from validation.capabilities import Tool, ToolInputError, ToolResult, card_named
from validation.games.red_code import crew_economy as ce
from validation.games.red_code.layout import generate_layout
from validation.params import ParamSpec
from validation.types import CardFacts

SHIP_KIND = "ship"
MANOEUVRE_KIND = "manoeuvre"
MAP_KIND = "map_card"
MAX_DISTANCE = 6
MAX_TURNS = 30
SEED_MAX = 2**31 - 1
WIDTH, HEIGHT = 8, 6

Cards = Mapping[str, Sequence[CardFacts]]


# --- crew economy --------------------------------------------------------------------------


def crew_economy(
    ship: CardFacts,
    ships: Sequence[CardFacts],
    manoeuvres: Mapping[str, CardFacts],
    distance: int,
    target: str = "",
    max_turns: int = MAX_TURNS,
) -> dict[str, Any]:
    """The crew table of `ship` at `distance` against each enemy ship, and the best schedule
    against `target` (default: the first enemy)."""
    enemies = ce.enemy_ships(ship, ships)
    if not enemies:
        raise ToolInputError("there is no enemy ship in the catalogue", "ship")
    chosen = enemies[0]
    if target:
        match = [s for s in enemies if s.name.lower() == target.strip().lower()]
        if not match:
            names = ", ".join(s.name for s in enemies)
            raise ToolInputError(
                f"{target!r} is not an enemy ship of {ship.name}; use {names}", "target"
            )
        chosen = match[0]
    try:
        table = ce.crew_table(ship, manoeuvres, enemies, distance, max_turns)
        schedule = ce.crew_schedule(ship, manoeuvres, chosen, distance, max_turns)
    except ValueError as exc:
        raise ToolInputError(str(exc)) from exc
    return {
        "ship": ship.name,
        "ship_class": ship.attr("ship_class", ""),
        "faction": ship.faction,
        "distance": distance,
        "table": table["rows"],
        "matchup": schedule,
    }


def _crew_tables(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    m = data["matchup"]
    table = charts.table(
        "crew-table",
        f"{data['ship']} against each enemy ship at distance {data['distance']}",
        [
            "Enemy ship",
            "Class",
            "Hit points",
            "Turns to sink",
            "Mean damage / turn",
            "Sustained damage / turn",
            "Crew placed",
        ],
        [
            [
                r["target"],
                r["ship_class"],
                r["hit_points"],
                r["turns_to_sink"] or "cannot sink",
                charts.num(r["mean_damage_per_turn"]),
                charts.num(r["sustained_damage_per_turn"]),
                r["crew_placed"],
            ]
            for r in data["table"]
        ],
    )
    schedule = charts.table(
        "schedule-table",
        f"Best schedule against {m['target']} ({m['target_class']}, "
        f"{m['target_hit_points']} hit points)",
        [
            "Turn",
            "Crew recovered from",
            "Crew available",
            "Manoeuvres",
            "Crew used",
            "Damage",
            "Total",
            "Target repairs / breakdowns",
        ],
        [
            [
                t["turn"],
                ", ".join(f"{k} from {n}" for n, k in t["recovered_from"].items()) or "—",
                t["crew_available"],
                ", ".join(t["manoeuvres"]) or "—",
                t["crew_used"],
                t["damage"],
                t["cumulative_damage"],
                "sunk"
                if t["target"]["sunk"]
                else f"{t['target']['repairs']} / {t['target']['breakdowns']}",
            ]
            for t in m["schedule"]
        ],
    )
    return [table, schedule]


def crew_compute(params: Mapping[str, Any], cards: Cards) -> ToolResult:
    ships = list(cards.get(SHIP_KIND, ()))
    me = card_named(params["ship"], ships, "ship", "ship")
    manoeuvres = {c.name: c for c in cards.get(MANOEUVRE_KIND, ())}
    data = crew_economy(
        me, ships, manoeuvres, int(params["distance"]), str(params.get("target") or "")
    )
    m = data["matchup"]
    turns = m["turns_to_sink"]
    chart = charts.xy(
        "rc-crew-damage",
        f"{data['ship']} against {m['target']} at distance {data['distance']}",
        [str(t["turn"]) for t in m["schedule"]],
        [
            ("Damage this turn", m["damage_per_turn"], "bar"),
            ("Cumulative damage", [t["cumulative_damage"] for t in m["schedule"]], "line"),
        ],
        x_label="Turn",
        y_label=f"Repair damage (sinks at {m['target_hit_points']})",
    )
    notes = [
        "Your ship alone against a stationary enemy ship at a fixed distance, in line of "
        "sight. Each turn 2 crew come back; a manoeuvre with crew on it cannot be used that "
        "turn. The schedule is the exact best one (fewest turns to sink, then least crew).",
        ORDERS_LEFT_OUT,
    ]
    if m["unused_manoeuvres"]:
        unused = "; ".join(f"{u['name']} ({u['reason']})" for u in m["unused_manoeuvres"])
        notes.append(f"Not used: {unused}.")
    return ToolResult(
        data=data,
        title=f"{data['ship']} ({data['ship_class']}) at distance {data['distance']}",
        figures=[
            (f"Turns to sink {m['target']}", str(turns) if turns else "cannot sink"),
            ("Sustained damage per turn", m["sustained_damage_fraction"] or "—"),
            ("Crew placed", str(m["crew_use"]["crew_placed"])),
        ],
        tables=_crew_tables(data),
        charts=[chart],
        notes=notes,
    )


#: What the crew economy leaves out of the order cards, and why (shown on its page).
ORDERS_LEFT_OUT = (
    "Left out: the Orders manoeuvre and the order cards (rulebook 3.3). Each player is dealt "
    "one order card at the start, the Orders manoeuvre draws another, and one may be played "
    "a turn, at any target regardless of distance or line of sight and without response; "
    "some deal damage: Ambush 2 repair damage, Captain 1 (and draws another), Intercept 1, "
    "Kamikaze 1 breakdown (3 repairs), Atomic bomb 2 to every ship in a 2 × 2 square. Which "
    "card is drawn is chance, so a schedule with them would be an expectation, not the "
    "exact best schedule this tool computes. The turns to sink shown are what the "
    "manoeuvres alone achieve: with order cards a ship may sink its target sooner."
)

CREW = Tool(
    slug="crew",
    label="Crew economy",
    description=(
        "How fast one ship, spending its crew on its manoeuvres, sinks each enemy ship at a "
        "fixed distance, and the best schedule of one matchup. The Orders manoeuvre and the "
        "order cards are left out (their damage, at any distance, depends on the cards "
        "drawn): see the note under each answer."
    ),
    params=(
        ParamSpec("ship", "Ship", "choice", cards_of_kind=SHIP_KIND),
        ParamSpec(
            "distance",
            "Distance",
            "int",
            min=1,
            max=MAX_DISTANCE,
            help="boxes between the two ships",
            default=2,
        ),
        ParamSpec(
            "target",
            "Matchup (enemy ship)",
            "choice",
            help="the schedule shown below the table (empty: the first enemy ship)",
            cards_of_kind=SHIP_KIND,
            default="",
            card_offered=lambda card, chosen: (
                "ship" not in chosen or card in ce.enemy_ships(chosen["ship"], [card])
            ),
        ),
    ),
    compute=crew_compute,
    reads=(SHIP_KIND, MANOEUVRE_KIND),
)


# --- visual field --------------------------------------------------------------------------

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


#: Boxes as a `ships`/`friends` parameter takes them: "x,y" pairs of whole numbers in digits,
#: separated by ";" or spaces (the API schema's pattern; the tools check it as written).
BOXES_PATTERN = r"^(?:[0-9]+,[0-9]+)?(?:[ ;]+[0-9]+,[0-9]+)*[ ;]*$"
BOXES_HELP = 'a box x,y or boxes "x,y" separated by ";" (e.g. 3,2;5,4)'


def parse_boxes(text: Any, field: str = "ships") -> list[tuple[int, int]]:
    """ "x,y;x,y" (or space separated) into box coordinates."""
    if text in (None, ""):
        return []
    out: list[tuple[int, int]] = []
    for part in str(text).replace(" ", ";").split(";"):
        part = part.strip()
        if not part:
            continue
        try:
            x, y = (int(v) for v in part.split(","))
        except ValueError as exc:
            raise ToolInputError(f"{field}: {part!r} is not a box x,y", field) from exc
        out.append((x, y))
    return out


def visual_field_for(
    map_cards: Sequence[CardFacts],
    seed: int,
    x: Any = "",
    y: Any = "",
    ships: Any = "",
    friends: Any = "",
) -> dict[str, Any]:
    """The map dealt from `seed` and, with an origin box, what a ship there can target.

    Enemy ships (`ships`, "x,y;x,y") block the line of sight like islands; friendly ships
    (`friends`) do not: "Note that the enemy ships have the same effect as islands in
    blocking your line of sight" (3.2). Both can be targeted where they are in view.
    Returns the layout (map card names), the box grid, and `field` (None without an
    origin)."""
    by_name = {c.name: c for c in map_cards}
    try:
        layout = generate_layout(list(by_name.values()), seed)
        rows = [[by_name[name] for name in row] for row in layout["rows"]]
        grid = ce.box_grid(rows)
    except ValueError as exc:
        raise ToolInputError(f"the map cannot be dealt: {exc}") from exc
    others = parse_boxes(ships)
    allies = parse_boxes(friends, "friends")
    for field_name, boxes in (("ships", others), ("friends", allies)):
        for bx, by in boxes:
            if not (0 <= bx < len(grid[0]) and 0 <= by < len(grid)):
                raise ToolInputError(
                    f"{field_name}: {bx},{by} is off the map ({len(grid[0])} × {len(grid)} boxes)",
                    field_name,
                )
    shared = sorted(set(others) & set(allies))
    if shared:
        listed = "; ".join(f"{bx},{by}" for bx, by in shared)
        raise ToolInputError(
            f"friends: {listed} also holds an enemy ship; only one ship can occupy a box",
            "friends",
        )
    result: dict[str, Any] = {
        "seed": seed,
        "layout": layout["rows"],
        "grid": grid,
        "width": len(grid[0]),
        "height": len(grid),
        "ships": [list(b) for b in others],
        "friends": [list(b) for b in allies],
        "origin": None,
        "field": None,
    }
    if x in (None, "") and y in (None, ""):
        return result
    if x in (None, "") or y in (None, ""):
        raise ToolInputError(
            "x and y: the origin box needs two whole numbers", "y" if y in (None, "") else "x"
        )
    origin = (int(x), int(y))
    enemy_map = {f"enemy ship {i + 1}": box for i, box in enumerate(others) if box != origin}
    friend_map = {f"friendly ship {i + 1}": box for i, box in enumerate(allies) if box != origin}
    try:
        field = ce.visual_field(rows, {**friend_map, **enemy_map}, origin, non_blocking=friend_map)
    except ValueError as exc:
        raise ToolInputError(str(exc), "x") from exc
    field.pop("grid", None)
    result["origin"] = list(origin)
    result["ships"] = [list(b) for b in enemy_map.values()]
    result["friends"] = [list(b) for b in friend_map.values()]
    result["field"] = field
    return result


def sea_map(data: Mapping[str, Any]) -> dict[str, Any]:
    """The sea as a grid chart: a click on a box that is not an island places the ship."""
    distance: dict[tuple[int, int], int] = {}
    field = data.get("field")
    if field:
        for d, boxes in field["boxes_at_distance"].items():
            for bx, by in boxes:
                distance[(bx, by)] = int(d)
    ships = {tuple(b) for b in data.get("ships", [])}
    friends = {tuple(b) for b in data.get("friends", [])}
    origin = tuple(data["origin"]) if data.get("origin") else None
    cells = []
    for y, row in enumerate(data["grid"]):
        for x, kind in enumerate(row):
            d = distance.get((x, y))
            title = f"box {x},{y}: {kind.replace('_', ' ')}"
            if d:
                title += f", distance {d}"
            marker = "circle" if (x, y) == origin else "square" if (x, y) in ships | friends else ""
            if (x, y) in ships:
                title += ", enemy ship (blocks the line of sight)"
            elif (x, y) in friends:
                title += ", friendly ship (does not block)"
            cells.append(
                {
                    "x": x,
                    "y": y,
                    "fill": DISTANCE_FILL[(d - 1) % len(DISTANCE_FILL)]
                    if d
                    else BOX_FILL.get(kind, "#ffffff"),
                    "symbol": ARROWS.get(kind, ""),
                    "label": str(d) if d else "",
                    "title": title,
                    "marker": marker,
                    "class": f"box {kind}"
                    + (" target" if d else "")
                    + (f" {marker}" if marker else "")
                    + (" enemy" if (x, y) in ships else " friend" if (x, y) in friends else ""),
                    "link": kind != "island",
                }
            )
    legend = [
        {"fill": BOX_FILL["sea"], "label": "sea"},
        {"fill": BOX_FILL["island"], "label": "island"},
        {"fill": BOX_FILL["current_n"], "label": "current (the arrow shows where it flows)"},
    ]
    if field:
        legend.append({"fill": DISTANCE_FILL[0], "label": "can be targeted (the number: distance)"})
    return charts.grid(
        "sea-map",
        f"Map dealt from seed {data['seed']}",
        data["width"],
        data["height"],
        cells,
        link={"x": "x", "y": "y"},
        legend=legend,
        desc="The sea, box by box: choose a box to place the ship there.",
    )


def _box(b: Sequence[int]) -> str:
    return f"{b[0]},{b[1]}"


def visual_field_compute(params: Mapping[str, Any], cards: Cards) -> ToolResult:
    data = visual_field_for(
        list(cards.get(MAP_KIND, ())),
        int(params["seed"]),
        params.get("x", ""),
        params.get("y", ""),
        params.get("ships", ""),
        params.get("friends", ""),
    )
    rows = " / ".join(" · ".join(row) for row in data["layout"])
    notes = [f"Map cards: {rows}."]
    figures = [("Seed", str(data["seed"]))]
    tables = []
    field = data["field"]
    if field is None:
        notes.append("Click a sea box to place your ship.")
    else:
        figures.append(("Ship's box", _box(data["origin"])))
        figures.append(("Ships in view", str(len(field["ships_in_view"]))))
        tables.append(
            charts.table(
                "vf-table",
                f"From box {_box(data['origin'])}",
                ["Distance", "Boxes exactly this far", "A manoeuvre of this distance can target"],
                [
                    [
                        int(d),
                        "; ".join(_box(b) for b in boxes),
                        f"{len(field['targetable_within'][d])} boxes",
                    ]
                    for d, boxes in field["boxes_at_distance"].items()
                    if int(d) > 0
                ],
            )
        )
        if field["ships_in_view"]:
            seen = ", ".join(f"{n} at {d}" for n, d in field["ships_in_view"].items())
            notes.append(f"Ships in view: {seen}.")
        if field["blocked"]:
            blocked = "; ".join(
                f"{b['direction']} at {_box(b['box'])} by {b['by']}" for b in field["blocked"]
            )
            notes.append(f"Blocked: {blocked}.")
    return ToolResult(
        data=data,
        title=f"Seed {data['seed']}"
        + (f": a ship at {_box(data['origin'])}" if data["origin"] else ""),
        figures=figures,
        charts=[sea_map(data)],
        tables=tables,
        notes=notes,
    )


VISUAL_FIELD = Tool(
    slug="visual-field",
    label="Visual field",
    description=(
        "A map dealt from a seed (the address keeps it). Click a box to place your ship "
        "there: the boxes it can target are coloured and numbered by distance. Islands and "
        "enemy ships block the line of sight (straight lines: across, down and diagonal). "
        'Only enemy ships block: a friendly ship is seen through (rulebook 3.2, "the enemy '
        'ships have the same effect as islands in blocking your line of sight").'
    ),
    params=(
        ParamSpec(
            "seed",
            "Seed",
            "int",
            min=0,
            max=SEED_MAX,
            help="the same seed deals the same map; empty: a new one",
        ),
        ParamSpec("x", f"Ship box x (0-{WIDTH - 1})", "int", min=0, max=WIDTH - 1, default=""),
        ParamSpec("y", f"Ship box y (0-{HEIGHT - 1})", "int", min=0, max=HEIGHT - 1, default=""),
        ParamSpec(
            "ships",
            "Enemy ships",
            "str",
            help='they block the line of sight; boxes "x,y" separated by ";", e.g. 3,2;5,4',
            default="",
            pattern=BOXES_PATTERN,
            pattern_help=BOXES_HELP,
        ),
        ParamSpec(
            "friends",
            "Friendly ships",
            "str",
            help='your side\'s other ships: seen through, not blocking; boxes "x,y" as above',
            default="",
            pattern=BOXES_PATTERN,
            pattern_help=BOXES_HELP,
        ),
    ),
    compute=visual_field_compute,
    reads=(MAP_KIND,),
)
