"""The simulation kinds this app ships: REDLINE and Hex Skirmish goldfish (the game spec sections
1 and 5), both played by the pure kernel in ``validation/sim``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from validation import charts
from validation.games.hex_skirmish.goldfish import simulate_hexskirmish
from validation.games.redline.goldfish import OPENING as REDLINE_OPENING
from validation.games.redline.goldfish import MulliganBand, simulate_redline
from validation.sim import kernel, odds
from validation.types import CardFacts, Entry

from .kinds import ParamSpec, SimulationKind, register

MAX_GAMES = 2_000_000


class InputsError(ValueError):
    """The deck cannot be simulated (e.g. a card is no longer in the catalogue)."""


# --- plain facts in, plain facts out ---------------------------------------------------------


def facts_as_dict(card: CardFacts) -> dict[str, Any]:
    return {
        "name": card.name,
        "kind": card.kind,
        "faction": card.faction,
        "cost": int(card.cost or 0),
        "attributes": dict(card.attributes),
    }


def entries_from_inputs(rows: list[Mapping[str, Any]] | None) -> list[Entry] | None:
    if rows is None:
        return None
    return [
        Entry(
            CardFacts(
                name=r["card"]["name"],
                kind=r["card"]["kind"],
                faction=r["card"].get("faction", ""),
                cost=int(r["card"].get("cost", 0)),
                attributes=r["card"].get("attributes", {}),
            ),
            int(r["count"]),
        )
        for r in rows
    ]


def section_facts(deck_version, sections: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    """{section: [{"card": facts dict, "count": n}]} for the named sections of a version."""
    from catalogue.services import card_facts_by_names

    entries = [e for e in deck_version.entries if e["section"] in sections]
    facts = card_facts_by_names(
        game_slug=deck_version.deck.game.slug, names=[e["card"] for e in entries]
    )
    out: dict[str, list[dict[str, Any]]] = {s: [] for s in sections}
    for e in entries:
        card = facts.get(e["card"].lower())
        if card is None:
            raise InputsError(f"{e['card']} is no longer in the catalogue")
        out[e["section"]].append({"card": facts_as_dict(card), "count": int(e["count"])})
    return out


def _games_spec() -> ParamSpec:
    return ParamSpec(
        "games", "Games", "int", 1, MAX_GAMES, "How many games to play (split into chunks)."
    )


def _sim_params(params: Mapping[str, Any], seed: int) -> kernel.SimParams:
    return kernel.SimParams(
        games=int(params["games"]),
        turns=int(params["turns"]),
        on_the_play=bool(params.get("on_the_play", True)),
        seed=int(seed),
    )


def _pct(p: float | None) -> str:
    return "—" if p is None else f"{p * 100:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


# --- REDLINE -------------------------------------------------------------------------------


def redline_inputs(deck_version) -> dict[str, Any]:
    sections = section_facts(deck_version, ("arsenal", "missions", "red_line"))
    missions = sections["missions"] or sections["red_line"] or None
    return {"arsenal": sections["arsenal"], "missions": missions}


def redline_run_chunk(inputs, params, seed, chunk_index, n_chunks) -> dict[str, Any]:
    return simulate_redline(
        entries_from_inputs(inputs["arsenal"]),
        entries_from_inputs(inputs.get("missions")),
        _sim_params(params, seed),
        chunk_index,
        n_chunks,
        band=MulliganBand(int(params.get("mulligan_lo", 2)), int(params.get("mulligan_hi", 4))),
    )


def redline_check(params: Mapping[str, Any]) -> dict[str, str]:
    if params["mulligan_lo"] > params["mulligan_hi"]:
        return {
            "mulligan_hi": f"the mulligan band {params['mulligan_lo']}–{params['mulligan_hi']} "
            "is empty; the high end must be at least the low end"
        }
    return {}


def redline_summarise(stats: dict[str, Any], inputs: Mapping[str, Any]) -> dict[str, Any]:
    summary = kernel.summarise(stats)
    arsenal = inputs.get("arsenal") or []
    size = sum(r["count"] for r in arsenal)
    resources = sum(r["count"] for r in arsenal if r["card"]["kind"] == "resource")
    summary["deck"] = {"arsenal": size, "resources": resources}
    if size >= REDLINE_OPENING:
        summary["expected_open_resources"] = odds.distribution(resources, size, REDLINE_OPENING)
    return summary


def redline_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    f = summary["figures"]
    T = summary["turns"]
    turns = list(range(1, T + 1))
    hands = list(range(REDLINE_OPENING + 1))
    opening = {
        "Before the mulligan": f["open_resources_hist"]["p"],
        "After the mulligan": f["kept_resources_hist"]["p"],
    }
    spec = charts.grouped_bars(
        "opening-resources",
        "Resources in the opening hand",
        hands,
        opening,
        desc="Share of games by the number of resources in the opening 7, before and after "
        "the partial mulligan, with the exact hypergeometric distribution.",
        x_label="Resources in the opening 7",
        y_label="Share of games",
    )
    if summary.get("expected_open_resources"):
        spec["series"].append(
            {
                "name": "Exact (before)",
                "values": summary["expected_open_resources"],
                "style": "line",
            }
        )
    win = f["win_turn_hist"]
    efreet = f["first_efreet_turn_hist"]
    return [
        spec,
        charts.bar_chart(
            "resource-deployed",
            "A resource deployed on each turn",
            turns,
            f["resource_deployed_by_turn"],
            desc="Probability that a resource is deployed on each turn.",
            x_label="Turn",
            y_label="P(resource deployed)",
        ),
        charts.bar_chart(
            "first-efreet",
            "Turn of the first efreet",
            [*turns, "never"],
            [*efreet["p_by_turn"], efreet["p_never"]],
            desc="Share of games by the turn the first efreet is deployed.",
            x_label="Turn",
            y_label="Share of games",
        ),
        {
            **charts.grouped_bars(
                "win-turn",
                "Winning turn and how the game was won",
                turns,
                {
                    "Tactical victory": f["win_tactical_by_turn"],
                    "Arsenal razed": f["win_razed_by_turn"],
                },
                desc="Share of games won on each turn, by tactical victory (all 5 missions "
                "controlled) or by razing the opponent's arsenal.",
                x_label="Turn",
                y_label="Share of games",
            ),
            "series": [
                {
                    "name": "Tactical victory",
                    "values": f["win_tactical_by_turn"],
                    "style": "stacked",
                },
                {"name": "Arsenal razed", "values": f["win_razed_by_turn"], "style": "stacked"},
            ],
        },
        charts.cumulative_curve(
            "win-cumulative",
            "Games won by turn (cumulative)",
            turns,
            win["cumulative"],
            name="P(won by turn)",
            desc="Probability that the game is won by the end of each turn.",
            x_label="Turn",
            y_label="P(won)",
        ),
        charts.line_chart(
            "stuck",
            "Cards stuck in hand",
            turns,
            {
                "All cards": f["stuck_mean_by_turn"],
                "Non-resource cards": f["stuck_nonresource_mean_by_turn"],
            },
            desc="Mean number of cards left in hand after deploying, by turn.",
            x_label="Turn",
            y_label="Cards (mean)",
            y_format="number",
        ),
        charts.line_chart(
            "board",
            "Efreets in play and missions controlled",
            turns,
            {
                "Efreets in play": f["efreets_in_play_mean_by_turn"],
                "Missions controlled": f["missions_controlled_mean_by_turn"],
            },
            desc="Mean number of efreets in play and missions controlled at the end of each turn.",
            x_label="Turn",
            y_label="Mean",
            y_format="number",
        ),
    ]


def redline_key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    f = summary["figures"]
    win = f["win_turn_hist"]
    tactical = sum(f["win_tactical_by_turn"])
    razed = sum(f["win_razed_by_turn"])
    return [
        ("Games", f"{summary['games']:,}"),
        ("Partial mulligans", _pct(f["mulligans"])),
        ("Mean resources kept in the opening hand", _num(f["kept_resources_hist"]["mean"])),
        ("Mean turn of the first efreet", _num(f["first_efreet_turn_hist"]["mean_turn"])),
        (f"Won within {summary['turns']} turns", _pct(1 - win["p_never"])),
        ("Mean winning turn", _num(win["mean_turn"])),
        ("Won by tactical victory", _pct(tactical)),
        ("Won by razing the arsenal", _pct(razed)),
    ]


REDLINE_GOLDFISH = SimulationKind(
    slug="redline-goldfish",
    label="REDLINE goldfish",
    game_slug="redline",
    needs_deck=True,
    description="Solo games against an opponent that never acts.",
    default_params={
        "games": 20_000,
        "turns": 12,
        "mulligan_lo": 2,
        "mulligan_hi": 4,
        "on_the_play": True,
    },
    param_specs=(
        _games_spec(),
        ParamSpec("turns", "Turns", "int", 1, 30, "Turns played in every game."),
        ParamSpec(
            "mulligan_lo",
            "Mulligan band: fewest resources kept",
            "int",
            0,
            7,
            "Fewer resources than this: the non-resource cards go to the bottom.",
        ),
        ParamSpec(
            "mulligan_hi",
            "Mulligan band: most resources kept",
            "int",
            0,
            7,
            "More resources than this: the extra resources go to the bottom.",
        ),
        ParamSpec("on_the_play", "On the play", "bool", help="Go first (no effect in REDLINE)."),
    ),
    build_inputs=redline_inputs,
    run_chunk=redline_run_chunk,
    merge=kernel.merge_all,
    summarise=redline_summarise,
    charts=redline_charts,
    key_figures=redline_key_figures,
    check_params=redline_check,
)


# --- Hex Skirmish --------------------------------------------------------------------------


def hex_inputs(deck_version) -> dict[str, Any]:
    return {"cards": section_facts(deck_version, ("cards",))["cards"]}


def hex_run_chunk(inputs, params, seed, chunk_index, n_chunks) -> dict[str, Any]:
    return simulate_hexskirmish(
        entries_from_inputs(inputs["cards"]),
        _sim_params(params, seed),
        chunk_index,
        n_chunks,
        play_order=params.get("play_order", "expensive"),
    )


def hex_summarise(stats: dict[str, Any], inputs: Mapping[str, Any]) -> dict[str, Any]:
    summary = kernel.summarise(stats)
    summary["deck"] = {
        "command_cards": sum(
            r["count"] for r in inputs.get("cards", []) if r["card"]["kind"] == "command"
        )
    }
    return summary


def hex_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    f = summary["figures"]
    T = summary["turns"]
    turns = list(range(1, T + 1))
    out = f["deck_out_turn_hist"]
    playable = f["first_playable_turn_hist"]
    names = sorted(playable, key=lambda n: (playable[n]["mean_turn"] or T + 1, n))
    return [
        charts.line_chart(
            "played",
            "Cards played per turn",
            turns,
            {
                "Cards played (mean)": f["played_mean_by_turn"],
                "P(both actions play a card)": f["played_two_by_turn"],
            },
            desc="Mean number of command cards played on each turn, and the probability "
            "that both actions of the turn play a card.",
            x_label="Turn",
            y_label="Mean / probability",
            y_format="number",
        ),
        charts.grouped_bars(
            "actions",
            "What the two actions did",
            turns,
            {
                "Play a card": f["played_mean_by_turn"],
                "Draw 5": f["draw_actions_mean_by_turn"],
                "Idle (deck empty)": f["idle_actions_mean_by_turn"],
            },
            desc="Mean number of actions per turn spent playing a card, drawing or idle.",
            x_label="Turn",
            y_label="Actions (mean)",
            y_format="number",
        ),
        {
            **charts.bar_chart(
                "deck-out",
                "Turn the deck runs out",
                [*turns, "never"],
                [*out["p_by_turn"], out["p_never"]],
                name="Share of games",
                desc="Share of games by the turn the last card of the command deck is drawn, "
                "with the cumulative curve.",
                x_label="Turn",
                y_label="Share of games",
            ),
        },
        charts.cumulative_curve(
            "deck-out-cumulative",
            "Deck run out by turn (cumulative)",
            turns,
            out["cumulative"],
            name="P(deck out by turn)",
            x_label="Turn",
            y_label="P(deck out)",
        ),
        charts.bar_chart(
            "first-playable",
            "Mean first turn each card is playable",
            names,
            [playable[n]["mean_turn"] for n in names],
            name="Mean turn",
            desc="For each command card, the mean turn it is first playable (games where "
            "it became playable).",
            x_label="Card",
            y_label="Turn",
            y_format="number",
        ),
        charts.table(
            "first-playable-table",
            "Turn each card is first playable",
            ["Card", "Mean turn", f"Playable within {T} turns", "By turn 1", "By turn 3"],
            [
                [
                    n,
                    playable[n]["mean_turn"],
                    _pct(1 - playable[n]["p_never"]),
                    _pct(playable[n]["cumulative"][0] if T >= 1 else None),
                    _pct(playable[n]["cumulative"][2] if T >= 3 else None),
                ]
                for n in names
            ],
        ),
    ]


def hex_key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    f = summary["figures"]
    out = f["deck_out_turn_hist"]
    return [
        ("Games", f"{summary['games']:,}"),
        ("Cards played per game", _num(sum(x or 0 for x in f["played_mean_by_turn"]))),
        ("Cards played on turn 1 (mean)", _num(f["played_mean_by_turn"][0])),
        (f"Deck runs out within {summary['turns']} turns", _pct(1 - out["p_never"])),
        ("Mean turn the deck runs out", _num(out["mean_turn"])),
    ]


HEX_GOLDFISH = SimulationKind(
    slug="hex-skirmish-goldfish",
    label="Hex Skirmish command deck goldfish",
    game_slug="hex-skirmish",
    needs_deck=True,
    description="How the command deck flows: two actions a turn.",
    default_params={"games": 20_000, "turns": 15, "on_the_play": True, "play_order": "expensive"},
    param_specs=(
        _games_spec(),
        ParamSpec("turns", "Turns", "int", 1, 60, "Turns played in every game."),
        ParamSpec(
            "on_the_play",
            "On the play",
            "bool",
            help="Go first (5-card opening hand); going second opens with 6.",
        ),
        ParamSpec(
            "play_order",
            "Play first",
            "choice",
            help="Which playable card an action plays.",
            choices=(("expensive", "the most expensive card"), ("cheap", "the cheapest card")),
        ),
    ),
    build_inputs=hex_inputs,
    run_chunk=hex_run_chunk,
    merge=kernel.merge_all,
    summarise=hex_summarise,
    charts=hex_charts,
    key_figures=hex_key_figures,
)


def register_builtin_kinds() -> None:
    register(REDLINE_GOLDFISH)
    register(HEX_GOLDFISH)
