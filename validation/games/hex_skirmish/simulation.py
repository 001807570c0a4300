"""The Hex Skirmish command deck goldfish as the site runs it: its parameters, the deck
section it reads, the summary, charts and key figures of a run. The policy itself is in
`goldfish.py`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from validation import charts
from validation.capabilities import Goldfish
from validation.games.hex_skirmish.goldfish import KIND, simulate_hexskirmish
from validation.games.hex_skirmish.paired import PLAY
from validation.params import ParamSpec
from validation.sim import kernel
from validation.sim.inputs import entries_from_json, entries_json
from validation.sim.metrics import HIGHER, LOWER, Metric
from validation.sim.stats import CountStats
from validation.types import Entry


class HexSkirmishStats(CountStats):
    """A Hex Skirmish run's statistics: the kernel's counts of cards played, the two
    actions of each turn and the turn the command deck runs out."""

    __slots__ = ()
    KIND = KIND


def prepare(sections: Mapping[str, list[Entry]]) -> dict[str, Any]:
    """The command cards of the army."""
    return {"cards": entries_json(sections.get("cards", []))}


def run_chunk(
    inputs: Mapping[str, Any],
    params: Mapping[str, Any],
    seed: int,
    chunk_index: int,
    n_chunks: int,
) -> HexSkirmishStats:
    stats = simulate_hexskirmish(
        entries_from_json(inputs["cards"]) or [],
        kernel.SimParams.read(params, seed),
        chunk_index,
        n_chunks,
        play_order=params.get("play_order", "expensive"),
    )
    return HexSkirmishStats.of(stats)


def summarise(stats: HexSkirmishStats, inputs: Mapping[str, Any]) -> dict[str, Any]:
    summary = stats.summary()
    summary["deck"] = {
        "command_cards": sum(
            r["count"] for r in inputs.get("cards", []) if r["card"]["kind"] == "command"
        )
    }
    return summary


def _action_charts(f: Mapping[str, Any], turns: list[int]) -> list[dict[str, Any]]:
    """Cards played per turn, and what the two actions of a turn did."""
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
    ]


def _deck_out_charts(f: Mapping[str, Any], turns: list[int]) -> list[dict[str, Any]]:
    """The turn the command deck runs out, and its cumulative curve."""
    out = f["deck_out_turn_hist"]
    return [
        charts.bar_chart(
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
        charts.cumulative_curve(
            "deck-out-cumulative",
            "Deck run out by turn (cumulative)",
            turns,
            out["cumulative"],
            name="P(deck out by turn)",
            x_label="Turn",
            y_label="P(deck out)",
        ),
    ]


def _playable_charts(f: Mapping[str, Any], T: int) -> list[dict[str, Any]]:
    """The first turn each command card is playable: a chart and a table, soonest first."""
    playable = f["first_playable_turn_hist"]
    names = sorted(playable, key=lambda n: (playable[n]["mean_turn"] or T + 1, n))
    return [
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
                    charts.pct(1 - playable[n]["p_never"]),
                    charts.pct(playable[n]["cumulative"][0] if T >= 1 else None),
                    charts.pct(playable[n]["cumulative"][2] if T >= 3 else None),
                ]
                for n in names
            ],
        ),
    ]


def run_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The run page's charts: the actions, the deck running out, the cards' first turns."""
    f = summary["figures"]
    turns = list(range(1, summary["turns"] + 1))
    return [
        *_action_charts(f, turns),
        *_deck_out_charts(f, turns),
        *_playable_charts(f, summary["turns"]),
    ]


def key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The run's figures besides its metrics (METRICS), which are shown as they are: none
    restates a metric (cards played on turn 1 is the metric's)."""
    f = summary["figures"]
    out = f["deck_out_turn_hist"]
    return [
        ("Games", f"{summary['games']:,}"),
        ("Cards played per game", charts.num(sum(x or 0 for x in f["played_mean_by_turn"]))),
        (f"Deck runs out within {summary['turns']} turns", charts.pct(1 - out["p_never"])),
        ("Mean turn the deck runs out", charts.num(out["mean_turn"])),
    ]


METRICS = (
    Metric(
        "played_by_5",
        "Cards played by turn 5",
        "cards",
        HIGHER,
        False,
        lambda s: sum(x or 0 for x in s["figures"]["played_mean_by_turn"][:5]),
        help="Command cards played in the first five turns (mean).",
        min_turns=5,
    ),
    Metric(
        "played_on_1",
        "Cards played on turn 1",
        "cards",
        HIGHER,
        False,
        lambda s: s["figures"]["played_mean_by_turn"][0],
        help="Command cards played on the first turn (mean).",
    ),
    Metric(
        "idle_actions",
        "Idle actions per game",
        "actions",
        LOWER,
        False,
        lambda s: sum(x or 0 for x in s["figures"]["idle_actions_mean_by_turn"]),
        help="Actions with nothing to do (the deck is empty), per game (mean).",
    ),
)


GOLDFISH: Goldfish[HexSkirmishStats] = Goldfish(
    slug="hex-skirmish-goldfish",
    label="Hex Skirmish command deck goldfish",
    description="How the command deck flows: two actions a turn.",
    params=(
        kernel.games_param(20_000),
        kernel.turns_param(15, maximum=60),
        kernel.on_the_play_param("Go first (5-card opening hand); going second opens with 6."),
        ParamSpec(
            "play_order",
            "Play first",
            "choice",
            help="Which playable card an action plays.",
            choices=(("expensive", "the most expensive card"), ("cheap", "the cheapest card")),
            default="expensive",
        ),
    ),
    sections=("cards",),
    prepare=prepare,
    stats=HexSkirmishStats,
    run_chunk=run_chunk,
    summarise=summarise,
    charts=run_charts,
    key_figures=key_figures,
    metrics=METRICS,
    paired=PLAY,
)
