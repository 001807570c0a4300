"""Play-tool services: the catalogue side of the game packages, and Tactical Assault
campaigns.

Views and API classes parse input, call one service and render. A bad input raises
`PlayInputError` (a message naming the field); a campaign action that the rules refuse
raises `CampaignRefused` with the reason, and changes nothing. Permission scoping is the
caller's job (`Campaign.objects.owned_by(user)`): a service trusts the objects it is handed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from django.db import transaction

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


# --- Tactical Assault campaigns ------------------------------------------------------------


class CampaignRefused(Exception):
    """A campaign action the rules refuse; nothing was changed. `reasons` lists why."""

    def __init__(self, reasons: str | list[str], field: str = ""):
        self.reasons = [reasons] if isinstance(reasons, str) else list(reasons)
        super().__init__("; ".join(self.reasons))
        self.field = field


def campaign_rules() -> Mapping[str, Any]:
    """win / loss / draw points, promotion_cost and swap_cost_per_point of the campaign
    format of the rules core."""
    return registry.get(TACTICAL_ASSAULT).format("campaign").options


def campaign_create(*, owner, name: str, points_total: int = 36, notes: str = ""):
    from .models import Campaign

    name = (name or "").strip()
    if not name:
        raise CampaignRefused("a campaign needs a name", "name")
    if int(points_total) < 1:
        raise CampaignRefused("the points total must be at least 1", "points_total")
    return Campaign.objects.create(
        owner=owner, name=name, points_total=int(points_total), notes=notes
    )


def force_counts(deck) -> dict[str, int]:
    """Unit type name -> count in the deck's current force."""
    version = deck.current_version
    if version is None:
        return {}
    counts: dict[str, int] = {}
    for e in version.entries:
        if e["section"] == "force":
            counts[e["card"]] = counts.get(e["card"], 0) + int(e["count"])
    return counts


def _force_sections(deck, force: Mapping[str, int]) -> dict[str, list[dict[str, Any]]]:
    sections: dict[str, list[dict[str, Any]]] = {
        "force": [{"card": n, "count": c} for n, c in sorted(force.items()) if c > 0]
    }
    version = deck.current_version
    if version is not None:
        deck_cards = [e for e in version.entries if e["section"] == "deck"]
        if deck_cards:
            sections["deck"] = [{"card": e["card"], "count": e["count"]} for e in deck_cards]
    return sections


def campaign_force_problems(*, campaign, deck, force: Mapping[str, int] | None = None):
    """Why `force` (default: the deck's current force) cannot be a force of `campaign`: the
    rules core's errors in format campaign, and a total other than the campaign's points.
    Returns (problems, totals)."""
    from decks.services import ListInvalid, list_check

    if deck.game.slug != TACTICAL_ASSAULT:
        return [f"{deck.name} is a {deck.game.name} deck, not a Tactical Assault force"], {}
    force = dict(force if force is not None else force_counts(deck))
    if not force:
        return [f"{deck.name} has no force yet"], {}
    try:
        checked = list_check(
            game_slug=TACTICAL_ASSAULT,
            format="campaign",
            sections=_force_sections(deck, force),
            options={"points": campaign.points_total},
        )
    except ListInvalid as exc:
        return [e["message"] for e in exc.errors], {}
    problems = [v.message for v in checked.report.errors]
    totals = checked.report.totals
    points = totals.get("points")
    if points != campaign.points_total:
        problems.append(
            f"the force totals {points} unit points; the campaign's forces total exactly "
            f"{campaign.points_total}"
        )
    return problems, totals


def campaign_player_add(*, campaign, name: str, force, user=None):
    """Add a player with their force (a Tactical Assault deck of the campaign's owner that
    totals exactly the campaign's points and is legal in format campaign)."""
    from .models import CampaignPlayer

    name = (name or "").strip()
    if not name:
        raise CampaignRefused("a player needs a name", "name")
    if force.owner_id != campaign.owner_id:
        raise CampaignRefused("the force must be one of your own decks", "force")
    if campaign.players.filter(name__iexact=name).exists():
        raise CampaignRefused(f"{name} already plays in this campaign", "name")
    problems, _ = campaign_force_problems(campaign=campaign, deck=force)
    if problems:
        raise CampaignRefused(problems, "force")
    return CampaignPlayer.objects.create(campaign=campaign, name=name, force=force, user=user)


def campaign_game_record(
    *, campaign, results: Iterable[tuple[Any, str]], date: dt.date | None = None, notes: str = ""
):
    """Record a game: `results` pairs players of the campaign with win / loss / draw; each
    earns the campaign format's points (win 9, loss 6, draw 3). A draw is a draw for every
    player; otherwise a game has at least one winner and one loser."""
    from django.db.models import F, Max

    from .models import CampaignGame, CampaignGameResult, CampaignPlayer, GameResult

    pairs = list(results)
    if len(pairs) < 2:
        raise CampaignRefused("a game has at least two players", "results")
    ids = [p.pk for p, _ in pairs]
    if len(set(ids)) != len(ids):
        raise CampaignRefused("a player appears twice in the game", "results")
    if any(p.campaign_id != campaign.pk for p, _ in pairs):
        raise CampaignRefused("every player must belong to this campaign", "results")
    outcomes = [r for _, r in pairs]
    bad = [r for r in outcomes if r not in GameResult.values]
    if bad:
        raise CampaignRefused(f"{bad[0]!r} is not a result; use win, loss or draw", "results")
    if "draw" in outcomes and set(outcomes) != {"draw"}:
        raise CampaignRefused("in a draw every player draws", "results")
    if "draw" not in outcomes and not ({"win", "loss"} <= set(outcomes)):
        raise CampaignRefused("a game that is not a draw has a winner and a loser", "results")
    rules = campaign_rules()
    with transaction.atomic():
        number = (campaign.games.aggregate(n=Max("number"))["n"] or 0) + 1
        game = CampaignGame.objects.create(
            campaign=campaign, date=date or dt.date.today(), number=number, notes=notes
        )
        for player, result in pairs:
            points = int(rules[result])
            CampaignGameResult.objects.create(
                game=game, player=player, result=result, points=points
            )
            CampaignPlayer.objects.filter(pk=player.pk).update(
                campaign_points=F("campaign_points") + points
            )
        campaign.save(update_fields=["updated_at"])
    for player, _ in pairs:
        player.refresh_from_db(fields=["campaign_points"])
    return game


def campaign_spend_promotion(*, player, count: int = 1):
    """Spend 3 campaign points per promotion award."""
    from .models import CampaignPlayer, CampaignSpend, SpendKind

    if count < 1:
        raise CampaignRefused("buy at least one promotion award", "count")
    cost = int(campaign_rules()["promotion_cost"]) * count
    with transaction.atomic():
        locked = CampaignPlayer.objects.select_for_update().get(pk=player.pk)
        if cost > locked.campaign_points:
            raise CampaignRefused(
                f"{count} promotion award(s) cost {cost} campaign points; {locked.name} has "
                f"{locked.campaign_points}",
                "count",
            )
        locked.campaign_points -= cost
        locked.promotions += count
        locked.save(update_fields=["campaign_points", "promotions"])
        spend = CampaignSpend.objects.create(
            player=locked, kind=SpendKind.PROMOTION, points=cost, promotions=count
        )
    player.campaign_points, player.promotions = locked.campaign_points, locked.promotions
    return spend


def _clean_units(units: Mapping[str, Any], field: str) -> dict[str, int]:
    """Names -> counts, names made canonical from the catalogue's unit types."""
    from catalogue.services import card_facts_by_names

    if not isinstance(units, Mapping):
        raise CampaignRefused(f"{field}: expected unit names with counts", field)
    facts = card_facts_by_names(game_slug=TACTICAL_ASSAULT, names=list(units))
    out: dict[str, int] = {}
    for name, count in units.items():
        card = facts.get(str(name).strip().lower())
        if card is None or card.kind != "unit_type":
            raise CampaignRefused(f"{field}: {name!r} is not a unit type", field)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise CampaignRefused(f"{field}: {name}: bad count {count!r}", field)
        out[card.name] = out.get(card.name, 0) + count
    return out


def swap_cost(*, remove: Mapping[str, int], add: Mapping[str, int]) -> tuple[int, int, int]:
    """(cost, points out, points in): 1 campaign point per unit point swapped. The total is
    kept, so the units out and in are worth the same; should they differ, the larger."""
    from catalogue.services import card_facts_by_names

    facts = card_facts_by_names(game_slug=TACTICAL_ASSAULT, names=[*remove, *add])
    out_pts = sum(facts[n.lower()].cost * c for n, c in remove.items())
    in_pts = sum(facts[n.lower()].cost * c for n, c in add.items())
    per_point = int(campaign_rules()["swap_cost_per_point"])
    return max(out_pts, in_pts) * per_point, out_pts, in_pts


def campaign_spend_swap(*, player, remove: Mapping[str, Any], add: Mapping[str, Any], author=None):
    """Swap units of the player's force: take `remove` out and put `add` in ({name: count}),
    paying 1 campaign point per unit point swapped. The new force must total exactly the
    campaign's points and be legal in format campaign; it is saved as a new version of the
    force deck. A swap that breaks a rule or that the player cannot afford raises
    CampaignRefused and changes nothing."""
    from decks.models import Deck
    from decks.services import VersionConflict, deck_save_version

    from .models import CampaignPlayer, CampaignSpend, SpendKind

    remove_c = _clean_units(remove, "remove")
    add_c = _clean_units(add, "add")
    if not remove_c or not add_c:
        raise CampaignRefused("a swap takes units out of the force and puts others in")
    campaign = player.campaign
    with transaction.atomic():
        locked = CampaignPlayer.objects.select_for_update().get(pk=player.pk)
        deck = Deck.objects.select_related("game", "current_version").get(pk=locked.force_id)
        current = force_counts(deck)
        force = dict(current)
        missing = []
        for name, count in remove_c.items():
            have = force.get(name, 0)
            if have < count:
                missing.append(f"the force has {have} {name}; cannot take out {count}")
            force[name] = have - count
        if missing:
            raise CampaignRefused(missing, "remove")
        for name, count in add_c.items():
            force[name] = force.get(name, 0) + count
        force = {n: c for n, c in force.items() if c > 0}
        if force == current:
            raise CampaignRefused("the swap leaves the force unchanged")
        cost, out_pts, in_pts = swap_cost(remove=remove_c, add=add_c)
        problems, _ = campaign_force_problems(campaign=campaign, deck=deck, force=force)
        if problems:
            raise CampaignRefused(problems, "add")
        if cost > locked.campaign_points:
            raise CampaignRefused(
                f"swapping {max(out_pts, in_pts)} unit points costs {cost} campaign points; "
                f"{locked.name} has {locked.campaign_points}",
                "remove",
            )
        try:
            version = deck_save_version(
                deck=deck,
                author=author or campaign.owner,
                sections=_force_sections(deck, force),
                options=dict(deck.current_version.options) if deck.current_version else {},
                based_on=deck.current_version.number if deck.current_version else None,
            )
        except VersionConflict as exc:
            raise CampaignRefused("the force was saved elsewhere meanwhile; try again") from exc
        locked.campaign_points -= cost
        locked.save(update_fields=["campaign_points"])
        spend = CampaignSpend.objects.create(
            player=locked,
            kind=SpendKind.SWAP,
            points=cost,
            removed=remove_c,
            added=add_c,
            force_version=version.number,
        )
        campaign.save(update_fields=["updated_at"])
    player.campaign_points = locked.campaign_points
    return spend


def campaign_standings(*, campaign) -> list[dict[str, Any]]:
    """Players in the order that decides the campaign: the rulebook's winner is the player
    with the most Promotion Awards (Part VII), then campaign points, then wins, then name;
    with their record. Two queries."""
    from django.db.models import Count, Q

    players = campaign.players.annotate(
        wins=Count("results", filter=Q(results__result="win")),
        losses=Count("results", filter=Q(results__result="loss")),
        draws=Count("results", filter=Q(results__result="draw")),
        played=Count("results"),
    ).select_related("force")
    rows = [
        {
            "player": p,
            "id": p.pk,
            "name": p.name,
            "force": p.force.name,
            "force_id": p.force_id,
            "campaign_points": p.campaign_points,
            "promotions": p.promotions,
            "played": p.played,
            "wins": p.wins,
            "losses": p.losses,
            "draws": p.draws,
        }
        for p in players
    ]
    rows.sort(key=lambda r: (-r["promotions"], -r["campaign_points"], -r["wins"], r["name"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows
