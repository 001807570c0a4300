"""Play-tool services: the catalogue side of the game packages' tools.

Views and API classes parse input, call one service and render. A bad input raises
`PlayInputError` (a message naming the field).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from catalogue.models import Card
from validation.capabilities import Goldfish, Tool, ToolInputError
from validation.games.red_code import crew_economy as ce
from validation.games.red_code.layout import generate_layout
from validation.games.tactical_assault import close_combat as cc
from validation.games.tactical_assault import combat_odds as co
from validation.registry import registry
from validation.types import CardFacts

TACTICAL_ASSAULT = "tactical-assault"
RED_CODE = "red-code"
RED_MITTENS = "red-mittens"

#: Close combat runs up to this many games are computed in the request; larger ones go to a
#: worker as a SimulationRun.
INLINE_GAMES_MAX = cc.INLINE_MAX
#: The largest close combat run a worker takes.
WORKER_GAMES_MAX = cc.MAX_GAMES
MAX_ROUNDS_MAX = cc.MAX_ROUNDS
#: Red Mittens goldfish previews computed in the request.
GOLDFISH_INLINE_MAX = registry.get(RED_MITTENS).goldfish.inline_max
CREW_MAX_DISTANCE = 6
SEED_MAX = 2**31 - 1


class PlayInputError(ValueError):
    """A tool input that cannot be used; `field` names it ("" for the whole request)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field


class SimulationsUnavailable(RuntimeError):
    """The simulations app (SimulationRun, simulation_start) is not installed."""


def random_seed() -> int:
    return int(np.random.SeedSequence().generate_state(1)[0] % SEED_MAX)


# --- Catalogue lookups ---------------------------------------------------------------------


def game_cards(*, game_slug: str, kind: str) -> list[Card]:
    """The cards of one kind of a game, by name (one query)."""
    return list(
        Card.objects.filter(game__slug=game_slug, kind=kind)
        .only("name", "kind", "faction", "cost", "text", "attributes")
        .order_by("name")
    )


def _card_named(*, game_slug: str, kind: str, name: str, field: str) -> CardFacts:
    card = (
        Card.objects.filter(game__slug=game_slug, kind=kind, name__iexact=(name or "").strip())
        .only("name", "kind", "faction", "cost", "text", "attributes")
        .first()
    )
    if card is None:
        label = kind.replace("_", " ")
        names = [c.name for c in game_cards(game_slug=game_slug, kind=kind)]
        hint = f"; use one of {', '.join(names)}" if names else "; the catalogue has none"
        raise PlayInputError(f"{name!r} is not a {label}{hint}", field)
    return card.facts()


def unit_type(name: str, field: str = "unit") -> CardFacts:
    return _card_named(game_slug=TACTICAL_ASSAULT, kind="unit_type", name=name, field=field)


def combat_deck() -> list[CardFacts]:
    cards = [c.facts() for c in game_cards(game_slug=TACTICAL_ASSAULT, kind="combat_card")]
    if not cards:
        raise PlayInputError("the catalogue holds no Tactical Assault combat cards")
    return cards


# --- Tactical Assault: combat odds ----------------------------------------------------------


def modifier_specs(attack: str | None = None) -> list[dict[str, Any]]:
    """The Table 4/5 modifiers a form offers (all, or those of one attack kind)."""
    return list(co.MODIFIERS) if attack is None else co.modifiers_for(attack)


def parse_modifiers(data: Mapping[str, Any], *, strict: bool) -> tuple[dict[str, Any], list[str]]:
    """Read modifiers from query parameters or form data (strings like "1"/"true"/"on").

    Returns (modifiers, ignored): with `strict` a set modifier that the chosen attack's table
    does not list is an error; otherwise it is dropped and named in `ignored`.
    """
    attack = str(data.get("attack") or "firepower")
    if attack not in co.ATTACKS:
        raise PlayInputError(f"attack {attack!r} is not one of {', '.join(co.ATTACKS)}", "attack")
    mods: dict[str, Any] = {"attack": attack}
    ignored: list[str] = []
    for spec in co.MODIFIERS:
        name = spec["name"]
        if name == "attack" or name not in data:
            continue
        raw = data.get(name)
        if spec["type"] == "bool":
            text = str(raw).strip().lower()
            if text in {"1", "true", "on", "yes"}:
                value: Any = True
            elif text in {"0", "false", "off", "no", ""}:
                value = False
            else:
                raise PlayInputError(f"{name}: {raw!r} is not true or false", name)
            is_default = value is False
        else:
            value = str(raw)
            allowed = [c["value"] for c in spec["choices"]]
            if value not in allowed:
                raise PlayInputError(f"{name}: {value!r} is not one of {', '.join(allowed)}", name)
            is_default = value == spec["default"]
        if attack not in spec["attacks"]:
            if is_default:
                continue
            if strict:
                raise PlayInputError(f"{name} does not apply to a {attack} attack", name)
            ignored.append(spec["label"])
            continue
        mods[name] = value
    return mods, ignored


def combat_odds_for(*, attacker: str, target: str, modifiers: Mapping[str, Any]) -> dict:
    """Exact odds of each combat result of one attack of `attacker` on `target`."""
    a = unit_type(attacker, "attacker")
    t = unit_type(target, "target")
    try:
        return co.combat_odds(a, t, combat_deck(), modifiers)
    except ValueError as exc:
        raise PlayInputError(str(exc)) from exc


CLOSE_COMBAT_SIDE_MODIFIERS = tuple(cc.SIDE_MODIFIERS)


def close_combat_tool() -> Tool:
    """The close combat tool of Tactical Assault (and its background run)."""
    return registry.get(TACTICAL_ASSAULT).tool("close-combat")


def tool_cards(*, game_slug: str, tool: Tool) -> dict[str, list[CardFacts]]:
    """The catalogue's cards of the kinds a tool reads (one query)."""
    from catalogue.services import cards_by_kind

    return cards_by_kind(game_slug=game_slug, kinds=tool.reads)


def close_combat_inputs(
    *,
    unit_a: str,
    unit_b: str,
    a_modifiers: Mapping[str, Any] | None = None,
    b_modifiers: Mapping[str, Any] | None = None,
    cards: Mapping[str, list[CardFacts]] | None = None,
) -> dict[str, Any]:
    """The JSON inputs of a close combat run (both unit types and the deck as facts), built
    by the tool's background run from the catalogue's `cards` (read when not given)."""
    tool = close_combat_tool()
    if cards is None:
        cards = tool_cards(game_slug=TACTICAL_ASSAULT, tool=tool)
    params = {
        "unit_a": unit_a,
        "unit_b": unit_b,
        "a_modifiers": a_modifiers,
        "b_modifiers": b_modifiers,
    }
    try:
        return tool.background.inputs_from_params(params, cards)
    except ToolInputError as exc:
        raise PlayInputError(exc.message, exc.field) from exc


def check_run_size(*, games: Any, seed: Any, max_rounds: Any) -> tuple[int, int, int]:
    def whole(value: Any, name: str, low: int, high: int) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError) as exc:
            raise PlayInputError(f"{name}: {value!r} is not a whole number", name) from exc
        if isinstance(value, bool) or not low <= number <= high:
            raise PlayInputError(f"{name}: {number} is not between {low} and {high}", name)
        return number

    games_n = whole(games, "games", 1, WORKER_GAMES_MAX)
    seed_n = random_seed() if seed in (None, "") else whole(seed, "seed", 0, SEED_MAX)
    rounds_n = whole(
        20 if max_rounds in (None, "") else max_rounds, "max_rounds", 1, MAX_ROUNDS_MAX
    )
    return games_n, seed_n, rounds_n


def close_combat_start(
    *,
    unit_a: str,
    unit_b: str,
    games: Any,
    seed: Any = None,
    max_rounds: Any = 20,
    a_modifiers: Mapping[str, Any] | None = None,
    b_modifiers: Mapping[str, Any] | None = None,
    owner=None,
) -> tuple[str, Any]:
    """Repeated close combat of `unit_a` against `unit_b`.

    Up to INLINE_GAMES_MAX games: ("inline", ToolResult), computed now by the close combat
    tool (its `data` is the API's answer). More: ("run", SimulationRun) of the tool's
    background run started on a worker for `owner` (PlayInputError without a signed-in
    owner, SimulationsUnavailable when the simulations app is missing).
    """
    games_n, seed_n, rounds_n = check_run_size(games=games, seed=seed, max_rounds=max_rounds)
    tool = close_combat_tool()
    cards = tool_cards(game_slug=TACTICAL_ASSAULT, tool=tool)
    inputs = close_combat_inputs(
        unit_a=unit_a, unit_b=unit_b, a_modifiers=a_modifiers, b_modifiers=b_modifiers, cards=cards
    )
    if games_n <= tool.inline_max:
        params = {
            "unit_a": inputs["unit_a"]["name"],
            "unit_b": inputs["unit_b"]["name"],
            "games": games_n,
            "seed": seed_n,
            "max_rounds": rounds_n,
            **{f"a_{name}": True for name in inputs["a_modifiers"]},
            **{f"b_{name}": True for name in inputs["b_modifiers"]},
        }
        try:
            result = tool.compute(params, cards)
        except ToolInputError as exc:
            raise PlayInputError(exc.message, exc.field) from exc
        return "inline", result
    if owner is None or not getattr(owner, "is_authenticated", False):
        raise PlayInputError(
            f"runs of more than {INLINE_GAMES_MAX} games run on a worker: sign in to start one",
            "games",
        )
    run = start_simulation(
        owner=owner,
        kind=tool.background.slug,
        params={
            "games": games_n,
            "max_rounds": rounds_n,
            "unit_a": inputs["unit_a"]["name"],
            "unit_b": inputs["unit_b"]["name"],
        },
        inputs=inputs,
        seed=seed_n,
    )
    return "run", run


def start_simulation(*, owner, kind: str, params: dict, inputs=None, deck_version=None, seed=None):
    """simulations.services.simulation_start, or SimulationsUnavailable."""
    try:
        from simulations.services import simulation_start
    except ImportError as exc:
        raise SimulationsUnavailable("simulations are not available on this site") from exc
    try:
        return simulation_start(
            owner=owner,
            kind=kind,
            params=params,
            deck_version=deck_version,
            inputs=inputs,
            seed=seed,
        )
    except ValueError as exc:
        raise PlayInputError(str(exc)) from exc


def run_url(run) -> str:
    """The page of a SimulationRun (its API address while the page is not routed)."""
    from django.urls import NoReverseMatch, reverse

    try:
        return run.get_absolute_url()
    except (AttributeError, NoReverseMatch):
        pass
    try:
        return reverse("api-simulation-detail", args=[run.pk])
    except NoReverseMatch:
        return f"/simulations/{run.pk}/"


# --- Red Code: crew economy and visual field ------------------------------------------------


def red_code_ships() -> list[Card]:
    return game_cards(game_slug=RED_CODE, kind="ship")


def _manoeuvres() -> dict[str, CardFacts]:
    return {c.name: c.facts() for c in game_cards(game_slug=RED_CODE, kind="manoeuvre")}


def enemy_ships(ship: CardFacts, ships: Iterable[CardFacts]) -> list[CardFacts]:
    """The ships of the other side (every other ship when the ship has no side), by class."""
    order = {"submarine": 0, "destroyer": 1, "carrier": 2}
    enemies = [
        s for s in ships if s.name != ship.name and (not ship.faction or s.faction != ship.faction)
    ]
    return sorted(enemies, key=lambda s: (order.get(s.attr("ship_class", ""), 9), s.name))


def crew_economy(
    *, ship: str, distance: Any, target: str | None = None, max_turns: int = 30
) -> dict[str, Any]:
    """The crew table of `ship` at `distance` against each enemy ship, and the best
    schedule against `target` (default: the first enemy)."""
    try:
        d = int(distance)
    except (TypeError, ValueError) as exc:
        raise PlayInputError(f"distance: {distance!r} is not a whole number", "distance") from exc
    if not 1 <= d <= CREW_MAX_DISTANCE:
        raise PlayInputError(f"distance: {d} is not between 1 and {CREW_MAX_DISTANCE}", "distance")
    me = _card_named(game_slug=RED_CODE, kind="ship", name=ship, field="ship")
    ships = [c.facts() for c in red_code_ships()]
    enemies = enemy_ships(me, ships)
    if not enemies:
        raise PlayInputError("there is no enemy ship in the catalogue", "ship")
    manoeuvres = _manoeuvres()
    chosen = enemies[0]
    if target:
        match = [s for s in enemies if s.name.lower() == target.strip().lower()]
        if not match:
            names = ", ".join(s.name for s in enemies)
            raise PlayInputError(
                f"{target!r} is not an enemy ship of {me.name}; use {names}", "target"
            )
        chosen = match[0]
    try:
        table = ce.crew_table(me, manoeuvres, enemies, d, max_turns)
        schedule = ce.crew_schedule(me, manoeuvres, chosen, d, max_turns)
    except ValueError as exc:
        raise PlayInputError(str(exc)) from exc
    return {
        "ship": me.name,
        "ship_class": me.attr("ship_class", ""),
        "faction": me.faction,
        "distance": d,
        "table": table["rows"],
        "matchup": schedule,
    }


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
            raise PlayInputError(f"{field}: {part!r} is not a box x,y", field) from exc
        out.append((x, y))
    return out


def visual_field_for(*, seed: Any, x: Any = None, y: Any = None, ships: Any = "") -> dict:
    """The map dealt from `seed` and, with an origin box, what a ship there can target.

    Other ships (`ships`, "x,y;x,y") block the line of sight. Returns the layout (map card
    names), the box grid, and `field` (None without an origin)."""
    try:
        seed_n = int(seed)
    except (TypeError, ValueError) as exc:
        raise PlayInputError(f"seed: {seed!r} is not a whole number", "seed") from exc
    if not 0 <= seed_n <= SEED_MAX:
        raise PlayInputError(f"seed: {seed_n} is not between 0 and {SEED_MAX}", "seed")
    map_cards = {c.name: c.facts() for c in game_cards(game_slug=RED_CODE, kind="map_card")}
    try:
        layout = generate_layout(list(map_cards.values()), seed_n)
    except ValueError as exc:
        raise PlayInputError(f"the map cannot be dealt: {exc}") from exc
    rows = [[map_cards[name] for name in row] for row in layout["rows"]]
    grid = ce.box_grid(rows)
    others = parse_boxes(ships)
    result: dict[str, Any] = {
        "seed": seed_n,
        "layout": layout["rows"],
        "grid": grid,
        "width": len(grid[0]),
        "height": len(grid),
        "ships": [list(b) for b in others],
        "origin": None,
        "field": None,
    }
    if x in (None, "") and y in (None, ""):
        return result
    try:
        origin = (int(x), int(y))
    except (TypeError, ValueError) as exc:
        raise PlayInputError("x and y: the origin box needs two whole numbers", "x") from exc
    ship_map = {f"ship {i + 1}": box for i, box in enumerate(others) if box != origin}
    try:
        field = ce.visual_field(rows, ship_map, origin)
    except ValueError as exc:
        raise PlayInputError(str(exc), "x") from exc
    field.pop("grid", None)
    result["origin"] = list(origin)
    result["ships"] = [list(b) for b in ship_map.values()]
    result["field"] = field
    return result


# --- Red Mittens: goldfish -------------------------------------------------------------------


def red_mittens_goldfish() -> Goldfish:
    return registry.get(RED_MITTENS).goldfish


def goldfish_inline(
    *, goldfish: Goldfish, deck_version, params: Mapping[str, Any], seed: int
) -> dict[str, Any]:
    """Play a goldfish of a deck version in the request, as one chunk of a run: its
    summary. PlayInputError when the deck cannot be played."""
    from decks.selectors import version_entries

    try:
        inputs = goldfish.prepare(version_entries(version=deck_version, sections=goldfish.sections))
        stats = goldfish.merge([goldfish.run_chunk(inputs, params, seed, 0, 1)])
    except ValueError as exc:  # an InputsError (no units, a card gone) among them
        raise PlayInputError(str(exc)) from exc
    return goldfish.summarise(stats, inputs)
