"""Red Code — crew economy: the best damage schedule of one ship, and its visual field.

Rules followed (rules/red-code.txt):

- Crew pay for manoeuvres: using a manoeuvre puts as many crew on it as it has boxes (its
  `crew_cost`, from the ship's control card); a manoeuvre with any crew on it cannot be used
  that turn (3.2 "Manoeuvres with a crew member already on the square can not be used"), so
  each manoeuvre is used at most once a turn and only when all its boxes are empty.
- At the start of each turn the ship recovers 2 crew into its reserve, from the manoeuvre
  boxes of the player's choice (5.1), never above its crew (6).
- A manoeuvre reaches a target at most its `distance` boxes away in a straight line; distance
  0 means the ship itself (3.2 Visual field).
- Damage removes repairs; when repairs reach 0 a breakdown is removed and 3 repairs are put
  back, never more than the control card's repair spaces; the ship sinks when both are 0
  (3.2 Control cards). So a ship with R repairs and B breakdowns sinks after
  R + B * min(3, R) repair damage, damage carrying over from one repair to the next.
- Visual field: boxes in a straight line horizontally, vertically or diagonally; islands and
  ships block the line of sight beyond them (3.1, 3.2).

Decisions and simplifications:

- The target is stationary and passive: it never responds, shields, repairs or moves, and the
  attacker does not move either (the distance stays fixed and line of sight is assumed).
  Only `repair_damage` counts; crew damage to the target, order cards (the Orders
  manoeuvre), repairs of one's own ship and movement are ignored, so only manoeuvres that
  deal repair damage and reach `distance` are ever worth crewing. Order cards are left out
  because they are drawn by chance (3.3: one dealt at the start, one per Orders manoeuvre,
  one played a turn at any distance): a schedule with them is an expectation, not an exact
  best one; the tool's page says so (`tools.ORDERS_LEFT_OUT`).
- The search is exact, not greedy: a forward dynamic programme over crew states (the number
  of crew on each useful manoeuvre). Every turn it tries every way of recovering the 2 crew
  and every affordable subset of available manoeuvres, keeping per state the schedule with
  the most cumulative damage (ties: least crew placed, then damage dealt earliest). The first
  turn on which some state's damage reaches the target's hit points is the fewest turns to
  sink it; among the schedules that sink it then, the one placing the least crew is shown.
- `sustained_damage_per_turn` is the best long-run average damage per turn, the maximum mean
  cycle of the same state graph (Karp's algorithm), as an exact fraction.
- Map cards: a map card's 4 `boxes` are a 2 x 2 square read like text: index 0 top-left,
  1 top-right, 2 bottom-left, 3 bottom-right. The layout is 3 rows of 4 map cards, so the sea
  is 8 boxes wide (x = 0..7, left to right) and 6 high (y = 0..5, top to bottom); the card in
  `layout[row][col]` holds boxes x = 2*col..2*col+1, y = 2*row..2*row+1.
- Line of sight runs box to box along the 8 directions; a diagonal passes between the two
  boxes beside it without touching them. A ship's own box is at distance 0. Only enemy ships
  block ("the enemy ships have the same effect as islands in blocking your line of sight"):
  friendly ships go in `non_blocking` and are seen through; a box holding a ship can be
  targeted, the boxes behind an enemy ship cannot. Island
  boxes cannot be targeted and block; currents are sea.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from validation.types import CardFacts

RECOVERY_PER_TURN = 2
#: The manoeuvre that draws an order card (3.2 "Orders: Draw one order card"): left out with
#: the order cards, whose draw is chance (see the tool's note).
ORDERS_MANOEUVRE = "Orders"
REPAIRS_PER_BREAKDOWN = 3
KARP_STATE_LIMIT = 2000
BOX_KINDS = ("sea", "island", "current_n", "current_e", "current_s", "current_w")
DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}

State = tuple[int, ...]


def hit_points(ship: CardFacts) -> int:
    """Repair damage that sinks `ship`: repairs + breakdowns * min(3, repairs)."""
    repairs = int(ship.attr("repairs", 0))
    breakdowns = int(ship.attr("breakdowns", 0))
    return repairs + breakdowns * min(REPAIRS_PER_BREAKDOWN, repairs)


def remaining_track(ship: CardFacts, damage: int) -> dict[str, Any]:
    """The repairs and breakdowns left on `ship`'s control card after `damage`."""
    repairs_max = int(ship.attr("repairs", 0))
    repairs, breakdowns = repairs_max, int(ship.attr("breakdowns", 0))
    sunk = repairs == 0 and breakdowns == 0
    for _ in range(damage):
        if sunk:
            break
        repairs -= 1
        if repairs <= 0:
            if breakdowns > 0:
                breakdowns -= 1
                repairs = min(REPAIRS_PER_BREAKDOWN, repairs_max)
            else:
                repairs, sunk = 0, True
    return {"repairs": repairs, "breakdowns": breakdowns, "sunk": sunk}


def _ship_manoeuvres(
    ship: CardFacts, manoeuvres: Mapping[str, CardFacts], distance: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split the ship's manoeuvres into useful ones (repair damage reaching `distance`) and
    the rest, each with the reason it is left out."""
    crew = int(ship.attr("crew", 6))
    useful, unused = [], []
    for entry in ship.attr("manoeuvres", []) or []:
        name = entry["name"]
        if name not in manoeuvres:
            raise ValueError(f"{ship.name}: no manoeuvre card named {name!r}")
        card = manoeuvres[name]
        cost = int(entry.get("crew_cost", 1))
        reach = int(card.attr("distance", 0))
        damage = int(card.attr("repair_damage", 0))
        reason = ""
        if name.lower() == ORDERS_MANOEUVRE.lower():
            reason = "draws an order card: order cards are left out, see the note"
        elif damage <= 0:
            reason = "deals no repair damage"
        elif reach == 0:
            reason = "targets only the ship itself"
        elif reach < distance:
            reason = f"reaches {reach}; the target is {distance} away"
        elif cost > crew:
            reason = f"costs {cost} crew; the ship has {crew}"
        row = {"name": name, "crew_cost": cost, "distance": reach, "repair_damage": damage}
        if reason:
            unused.append({**row, "reason": reason})
        else:
            useful.append(row)
    return useful, unused


def _recoveries(state: State, amount: int) -> list[tuple[int, ...]]:
    """Every way to take `amount` crew (or all there are, if fewer) off the manoeuvres."""
    take = min(amount, sum(state))
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i == len(state):
            if left == 0:
                out.append(tuple(acc))
            return
        for k in range(min(state[i], left) + 1):
            acc.append(k)
            rec(i + 1, left - k, acc)
            acc.pop()

    rec(0, take, [])
    return out


class _Graph:
    """Turn transitions between crew states (crew on each useful manoeuvre after acting)."""

    def __init__(self, useful: list[dict[str, Any]], crew: int) -> None:
        self.costs = [m["crew_cost"] for m in useful]
        self.damage = [m["repair_damage"] for m in useful]
        self.crew = crew
        self._edges: dict[State, list[tuple[State, int, int, tuple[int, ...], tuple[int, ...]]]]
        self._edges = {}

    def edges(self, state: State) -> list[tuple[State, int, int, tuple[int, ...], tuple[int, ...]]]:
        """(next state, damage, crew placed, manoeuvres used, crew recovered per manoeuvre)."""
        if state in self._edges:
            return self._edges[state]
        best: dict[
            tuple[State, tuple[int, ...]],
            tuple[State, int, int, tuple[Any, ...], tuple[Any, ...]],
        ] = {}
        for rec in _recoveries(state, RECOVERY_PER_TURN):
            after = tuple(s - r for s, r in zip(state, rec, strict=True))
            reserve = self.crew - sum(after)
            free = [i for i, s in enumerate(after) if s == 0]
            for size in range(len(free) + 1):
                for used in itertools.combinations(free, size):
                    cost = sum(self.costs[i] for i in used)
                    if cost > reserve:
                        continue
                    nxt = list(after)
                    for i in used:
                        nxt[i] = self.costs[i]
                    key = (tuple(nxt), used)
                    if key not in best:
                        dmg = sum(self.damage[i] for i in used)
                        best[key] = (tuple(nxt), dmg, cost, used, rec)
        self._edges[state] = list(best.values())
        return self._edges[state]

    def reachable(self, start: State) -> list[State]:
        seen, todo = {start}, [start]
        while todo:
            for nxt, *_ in self.edges(todo.pop()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return sorted(seen)

    def max_mean_cycle(self, start: State) -> Fraction | None:
        """Karp's maximum mean cycle over the states reachable from `start` (exact).

        D_k(v), the most damage of a walk of exactly k turns from `start` to v, is computed
        with numpy for k = 0..n; the answer is max over v of min over k of
        (D_n(v) - D_k(v)) / (n - k). Damage sums are small integers, exact in float64."""
        nodes = self.reachable(start)
        n = len(nodes)
        if n > KARP_STATE_LIMIT:
            return None
        index = {s: i for i, s in enumerate(nodes)}
        src, dst, weight = [], [], []
        for s in nodes:
            for e in self.edges(s):
                src.append(index[s])
                dst.append(index[e[0]])
                weight.append(e[1])
        u, v, w = np.array(src), np.array(dst), np.array(weight, dtype=float)
        table = np.full((n + 1, n), -np.inf)
        table[0, index[start]] = 0.0
        for k in range(1, n + 1):
            np.maximum.at(table[k], v, table[k - 1, u] + w)
        best: Fraction | None = None
        finite_n = np.isfinite(table[n])
        ks = np.arange(n)
        for node in np.flatnonzero(finite_n):
            col = table[:n, node]
            ok = np.isfinite(col)
            means = (table[n, node] - col[ok]) / (n - ks[ok])
            k = int(ks[ok][np.argmin(means)])
            value = Fraction(int(table[n, node] - table[k, node]), n - k)
            if best is None or value > best:
                best = value
        return best


# A state's best schedule so far: (damage, crew placed, sum of cumulative damage, previous
# state, edge of `_Graph.edges` that led here).
_Node = tuple[int, int, int, State | None, Any]


def _next_layer(graph: _Graph, layer: dict[State, _Node]) -> dict[State, _Node]:
    """One more turn of the dynamic programme: the best schedule ending in each state.

    Per state keep the most damage, then the least crew, then the earliest damage (the
    largest sum of cumulative damage): a lexicographic order that the future respects,
    since what follows depends only on the state (and, for the third key, on the damage,
    which is equal whenever the third key decides)."""
    best: dict[State, _Node] = {}
    for state, (dmg, used_crew, early, _, _) in layer.items():
        for edge in graph.edges(state):
            nxt, edmg, ecrew = edge[0], edge[1], edge[2]
            cum = dmg + edmg
            cand = (cum, used_crew + ecrew, early + cum, state, edge)
            old = best.get(nxt)
            if old is None or (cand[0], -cand[1], cand[2]) > (old[0], -old[1], old[2]):
                best[nxt] = cand
    return best


def _search(
    graph: _Graph, start: State, hp: int, max_turns: int
) -> tuple[list[dict[State, _Node]], int | None]:
    """The layers of the dynamic programme, turn 0 (`start`) on, and the first turn on which
    some schedule's damage reaches `hp` (None if none does within `max_turns`; the search
    stops at that turn)."""
    layers: list[dict[State, _Node]] = [{start: (0, 0, 0, None, None)}]
    for turn in range(1, max_turns + 1):
        layer = _next_layer(graph, layers[-1])
        layers.append(layer)
        if hp > 0 and max(v[0] for v in layer.values()) >= hp:
            return layers, turn
    return layers, None


def _final_state(last: dict[State, _Node], hp: int, sinks: bool) -> State:
    """The state the shown schedule ends in: when the target sinks, the sinking schedule
    placing the least crew (then the earliest damage); otherwise the most damage (then the
    least crew, the earliest damage). Remaining ties go to the smallest (largest) state."""
    if sinks:
        return min(
            (s for s in last if last[s][0] >= hp), key=lambda s: (last[s][1], -last[s][2], s)
        )
    return max(last, key=lambda s: (last[s][0], -last[s][1], last[s][2], s))


def _trace_back(layers: list[dict[State, _Node]], final: State) -> list[tuple[State, Any]]:
    """The (state before the turn, edge taken) of each turn of the schedule ending in `final`."""
    path: list[tuple[State, Any]] = []
    state = final
    for t in range(len(layers) - 1, 0, -1):
        _, _, _, prev, edge = layers[t][state]
        assert prev is not None  # only the first layer's state has no predecessor
        path.append((prev, edge))
        state = prev
    path.reverse()
    return path


def _schedule_rows(
    path: list[tuple[State, Any]], names: list[str], crew: int, target: CardFacts
) -> tuple[list[dict[str, Any]], int, int, dict[str, int]]:
    """The schedule turn by turn, with the total damage, the crew placed and the uses of
    each manoeuvre (`names` are the useful manoeuvres, in state order)."""
    turns, total, placed_total = [], 0, 0
    uses = {name: 0 for name in names}
    for t, (prev, edge) in enumerate(path, start=1):
        _, dmg, cost, used, rec = edge
        after = [s - r for s, r in zip(prev, rec, strict=True)]
        available = crew - sum(after)
        total += dmg
        placed_total += cost
        for i in used:
            uses[names[i]] += 1
        turns.append(
            {
                "turn": t,
                "recovered_from": {names[i]: k for i, k in enumerate(rec) if k},
                "crew_available": available,
                "manoeuvres": [names[i] for i in used],
                "crew_used": cost,
                "crew_left_in_reserve": available - cost,
                "damage": dmg,
                "cumulative_damage": total,
                "target": remaining_track(target, total),
            }
        )
    return turns, total, placed_total, uses


def crew_schedule(
    ship: CardFacts,
    manoeuvres: Mapping[str, CardFacts],
    target: CardFacts,
    distance: int,
    max_turns: int = 30,
) -> dict[str, Any]:
    """The fewest turns for `ship` alone to sink a stationary `target` `distance` boxes away.

    `manoeuvres` maps manoeuvre names (as in the ship's `manoeuvres` list) to `manoeuvre`
    cards. Returns the best schedule turn by turn (crew recovered and from where, crew
    available, manoeuvres used, crew placed, damage, the target's track), `turns_to_sink`
    (None when it cannot sink within `max_turns`; the schedule is then the most damage in
    `max_turns`), mean and sustained damage per turn, and crew use.
    """
    if distance < 1:
        raise ValueError("the target must be at least 1 box away")
    if max_turns < 1:
        raise ValueError("max_turns must be at least 1")
    crew = int(ship.attr("crew", 6))
    useful, unused = _ship_manoeuvres(ship, manoeuvres, distance)
    graph = _Graph(useful, crew)
    hp = hit_points(target)
    start: State = tuple(0 for _ in useful)

    layers, sink_turn = _search(graph, start, hp, max_turns)
    path = _trace_back(layers, _final_state(layers[-1], hp, sink_turn is not None))
    turns, total, placed_total, uses = _schedule_rows(
        path, [m["name"] for m in useful], crew, target
    )
    sustained = graph.max_mean_cycle(start)
    n_turns = len(turns)
    return {
        "ship": ship.name,
        "target": target.name,
        "target_class": target.attr("ship_class", ""),
        "distance": distance,
        "crew": crew,
        "target_hit_points": hp,
        "search": "exact dynamic programme over crew states",
        "useful_manoeuvres": useful,
        "unused_manoeuvres": unused,
        "turns_to_sink": sink_turn,
        "schedule": turns,
        "damage_per_turn": [t["damage"] for t in turns],
        "mean_damage_per_turn": total / n_turns if n_turns else 0.0,
        "sustained_damage_per_turn": float(sustained) if sustained is not None else None,
        "sustained_damage_fraction": str(sustained) if sustained is not None else None,
        "crew_use": {
            "crew_placed": placed_total,
            "mean_crew_placed_per_turn": placed_total / n_turns if n_turns else 0.0,
            "uses_per_manoeuvre": uses,
        },
    }


def crew_table(
    ship: CardFacts,
    manoeuvres: Mapping[str, CardFacts],
    enemy_ships: Iterable[CardFacts] | Mapping[str, CardFacts],
    distance: int,
    max_turns: int = 30,
) -> dict[str, Any]:
    """`crew_schedule` of `ship` against each enemy ship (one row per ship, with its class)."""
    enemies = list(enemy_ships.values()) if isinstance(enemy_ships, Mapping) else list(enemy_ships)
    rows = []
    for enemy in enemies:
        result = crew_schedule(ship, manoeuvres, enemy, distance, max_turns)
        rows.append(
            {
                "target": enemy.name,
                "ship_class": enemy.attr("ship_class", ""),
                "hit_points": result["target_hit_points"],
                "turns_to_sink": result["turns_to_sink"],
                "mean_damage_per_turn": result["mean_damage_per_turn"],
                "sustained_damage_per_turn": result["sustained_damage_per_turn"],
                "crew_placed": result["crew_use"]["crew_placed"],
                "damage_per_turn": result["damage_per_turn"],
            }
        )
    return {"ship": ship.name, "distance": distance, "rows": rows}


SHIP_CLASS_ORDER = {"submarine": 0, "destroyer": 1, "carrier": 2}


def enemy_ships(ship: CardFacts, ships: Iterable[CardFacts]) -> list[CardFacts]:
    """The ships of the other side (every other ship when `ship` has no side), by class
    (submarines, destroyers, carriers), then by name."""
    enemies = [
        s for s in ships if s.name != ship.name and (not ship.faction or s.faction != ship.faction)
    ]
    return sorted(
        enemies, key=lambda s: (SHIP_CLASS_ORDER.get(s.attr("ship_class", ""), 9), s.name)
    )


def box_grid(layout: Sequence[Sequence[CardFacts]]) -> list[list[str]]:
    """The sea as grid[y][x] box kinds from 3 rows of 4 map cards (2 x 2 boxes each)."""
    if len(layout) != 3 or any(len(row) != 4 for row in layout):
        raise ValueError("the layout is 3 rows of 4 map cards")
    grid = [["sea"] * 8 for _ in range(6)]
    for r, row in enumerate(layout):
        for c, card in enumerate(row):
            boxes = list(card.attr("boxes", []) or [])
            if len(boxes) != 4 or any(b not in BOX_KINDS for b in boxes):
                raise ValueError(f"map card {card.name}: boxes must be 4 of {', '.join(BOX_KINDS)}")
            for i, kind in enumerate(boxes):
                grid[2 * r + i // 2][2 * c + i % 2] = kind
    return grid


def visual_field(
    layout: Sequence[Sequence[CardFacts]],
    ships: Mapping[str, tuple[int, int]],
    origin: tuple[int, int],
    non_blocking: Iterable[str] = (),
) -> dict[str, Any]:
    """The boxes a ship at `origin` can target, by distance.

    `ships` maps ship names to their (x, y) box. Returns `boxes_at_distance` (the visible,
    targetable boxes exactly d away), `targetable_within` (what a manoeuvre of distance d can
    target: every visible box at most d away, the own box included), `ships_in_view`
    (name -> distance) and `blocked` (where each line of sight stops and why).
    """
    grid = box_grid(layout)
    height, width = len(grid), len(grid[0])

    def inside(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height

    ox, oy = origin
    if not inside(ox, oy):
        raise ValueError(f"origin {origin} is off the map ({width} x {height} boxes)")
    if grid[oy][ox] == "island":
        raise ValueError(f"origin {origin} is an island")
    occupant: dict[tuple[int, int], str] = {}
    for name, (x, y) in ships.items():
        if not inside(x, y):
            raise ValueError(f"ship {name} at {(x, y)} is off the map")
        if grid[y][x] == "island":
            raise ValueError(f"ship {name} at {(x, y)} is on an island")
        if (x, y) in occupant:
            raise ValueError(f"ships {occupant[(x, y)]} and {name} share the box {(x, y)}")
        occupant[(x, y)] = name
    see_through = set(non_blocking)

    at: dict[int, list[list[int]]] = {0: [[ox, oy]]}
    in_view: dict[str, int] = {}
    blocked: list[dict[str, Any]] = []
    for direction, (dx, dy) in DIRECTIONS.items():
        d, x, y = 0, ox, oy
        while True:
            d, x, y = d + 1, x + dx, y + dy
            if not inside(x, y):
                break
            if grid[y][x] == "island":
                blocked.append({"direction": direction, "box": [x, y], "by": "island"})
                break
            at.setdefault(d, []).append([x, y])
            seen = occupant.get((x, y))
            if seen is not None:
                in_view[seen] = d
                if seen not in see_through:
                    blocked.append({"direction": direction, "box": [x, y], "by": seen})
                    break
    for boxes in at.values():
        boxes.sort()
    max_d = max(at)
    within: dict[str, list[list[int]]] = {}
    acc: list[list[int]] = []
    for d in range(max_d + 1):
        acc = sorted(acc + at.get(d, []))
        within[str(d)] = list(acc)
    for name, pos in ships.items():
        if tuple(pos) == (ox, oy):
            in_view[name] = 0
    return {
        "width": width,
        "height": height,
        "origin": [ox, oy],
        "boxes_at_distance": {str(d): at[d] for d in sorted(at)},
        "targetable_within": within,
        "ships_in_view": dict(sorted(in_view.items(), key=lambda kv: (kv[1], kv[0]))),
        "blocked": blocked,
        "grid": grid,
    }
