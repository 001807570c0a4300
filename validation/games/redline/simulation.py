"""The REDLINE goldfish as the site runs it: its parameters, the deck sections it reads, the
summary, charts and key figures of a run. The policy itself is in `goldfish.py`; a run's
chunks are played by its compiled kernel (`compiled.py`), paired games by `paired.py`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from validation import charts
from validation.capabilities import Goldfish
from validation.games.redline.compiled import simulate_redline_compiled
from validation.games.redline.goldfish import KIND, OPENING, MulliganBand
from validation.games.redline.paired import METRICS, PLAY
from validation.params import ParamSpec
from validation.sim import kernel, odds
from validation.sim.inputs import entries_from_json, entries_json
from validation.sim.stats import CountStats
from validation.types import Entry


class RedlineStats(CountStats):
    """A REDLINE run's statistics: the kernel's counts of the opening hand, the mulligan,
    resources deployed, the first efreet, the win and what was stuck or discarded by turn."""

    __slots__ = ()
    KIND = KIND


def prepare(sections: Mapping[str, list[Entry]]) -> dict[str, Any]:
    """The arsenal, and the missions: the red line when the list sets one (Scenario Play,
    pre-determined: the game is fought over it), else the mission deck the red line is
    drawn from; none: the simulator's default missions."""
    missions = sections.get("red_line") or sections.get("missions") or None
    return {
        "arsenal": entries_json(sections.get("arsenal", [])),
        "missions": entries_json(missions) if missions else None,
    }


def run_chunk(
    inputs: Mapping[str, Any],
    params: Mapping[str, Any],
    seed: int,
    chunk_index: int,
    n_chunks: int,
) -> RedlineStats:
    stats = simulate_redline_compiled(
        entries_from_json(inputs["arsenal"]) or [],
        entries_from_json(inputs.get("missions")),
        kernel.SimParams.read(params, seed),
        chunk_index,
        n_chunks,
        band=MulliganBand(int(params.get("mulligan_lo", 2)), int(params.get("mulligan_hi", 4))),
    )
    return RedlineStats.of(stats)


def check_params(params: Mapping[str, Any]) -> dict[str, str]:
    if params["mulligan_lo"] > params["mulligan_hi"]:
        return {
            "mulligan_hi": f"the mulligan band {params['mulligan_lo']}–{params['mulligan_hi']} "
            "is empty; the high end must be at least the low end"
        }
    return {}


def summarise(stats: RedlineStats, inputs: Mapping[str, Any]) -> dict[str, Any]:
    summary = stats.summary()
    arsenal = inputs.get("arsenal") or []
    size = sum(r["count"] for r in arsenal)
    resources = sum(r["count"] for r in arsenal if r["card"]["kind"] == "resource")
    summary["deck"] = {"arsenal": size, "resources": resources}
    if size >= OPENING:
        summary["expected_open_resources"] = odds.distribution(resources, size, OPENING)
    return summary


def _opening_chart(summary: Mapping[str, Any]) -> dict[str, Any]:
    """Resources in the opening hand before and after the mulligan, with the exact odds."""
    f = summary["figures"]
    spec = charts.grouped_bars(
        "opening-resources",
        "Resources in the opening hand",
        list(range(OPENING + 1)),
        {
            "Before the mulligan": f["open_resources_hist"]["p"],
            "After the mulligan": f["kept_resources_hist"]["p"],
        },
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
    return spec


def _deploy_charts(f: Mapping[str, Any], turns: list[int]) -> list[dict[str, Any]]:
    """A resource deployed each turn, and the turn of the first efreet."""
    efreet = f["first_efreet_turn_hist"]
    return [
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
    ]


def _win_charts(f: Mapping[str, Any], turns: list[int]) -> list[dict[str, Any]]:
    """The winning turn by how the game was won (stacked), and its cumulative curve."""
    by_turn = charts.grouped_bars(
        "win-turn",
        "Winning turn and how the game was won",
        turns,
        {"Tactical victory": f["win_tactical_by_turn"], "Arsenal razed": f["win_razed_by_turn"]},
        desc="Share of games won on each turn, by tactical victory (all 5 missions "
        "controlled) or by razing the opponent's arsenal.",
        x_label="Turn",
        y_label="Share of games",
    )
    by_turn["series"] = [
        {"name": "Tactical victory", "values": f["win_tactical_by_turn"], "style": "stacked"},
        {"name": "Arsenal razed", "values": f["win_razed_by_turn"], "style": "stacked"},
    ]
    return [
        by_turn,
        charts.cumulative_curve(
            "win-cumulative",
            "Games won by turn (cumulative)",
            turns,
            f["win_turn_hist"]["cumulative"],
            name="P(won by turn)",
            desc="Probability that the game is won by the end of each turn.",
            x_label="Turn",
            y_label="P(won)",
        ),
    ]


def _board_charts(f: Mapping[str, Any], turns: list[int]) -> list[dict[str, Any]]:
    """Cards stuck in hand, and the efreets in play and missions controlled, by turn."""
    return [
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


def run_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The run page's charts: the opening hand, deploying, winning, the board."""
    f = summary["figures"]
    turns = list(range(1, summary["turns"] + 1))
    return [
        _opening_chart(summary),
        *_deploy_charts(f, turns),
        *_win_charts(f, turns),
        *_board_charts(f, turns),
    ]


def key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The run's figures besides its metrics (paired.METRICS), which are shown as they are:
    none restates a metric (the mean winning turn is the metric's)."""
    f = summary["figures"]
    win = f["win_turn_hist"]
    tactical = sum(f["win_tactical_by_turn"])
    razed = sum(f["win_razed_by_turn"])
    return [
        ("Games", f"{summary['games']:,}"),
        ("Partial mulligans", charts.pct(f["mulligans"])),
        ("Mean resources kept in the opening hand", charts.num(f["kept_resources_hist"]["mean"])),
        ("Mean turn of the first efreet", charts.num(f["first_efreet_turn_hist"]["mean_turn"])),
        (f"Won within {summary['turns']} turns", charts.pct(1 - win["p_never"])),
        ("Won by tactical victory", charts.pct(tactical)),
        ("Won by razing the arsenal", charts.pct(razed)),
    ]


GOLDFISH: Goldfish[RedlineStats] = Goldfish(
    slug="redline-goldfish",
    label="REDLINE goldfish",
    description="Solo games against an opponent that never acts.",
    params=(
        kernel.games_param(20_000),
        kernel.turns_param(12, maximum=30),
        ParamSpec(
            "mulligan_lo",
            "Mulligan band: fewest resources kept",
            "int",
            0,
            OPENING,
            "Fewer resources than this: the non-resource cards go to the bottom.",
            default=2,
        ),
        ParamSpec(
            "mulligan_hi",
            "Mulligan band: most resources kept",
            "int",
            0,
            OPENING,
            "More resources than this: the extra resources go to the bottom.",
            default=4,
        ),
        kernel.on_the_play_param("Go first (no effect in REDLINE)."),
    ),
    sections=("arsenal", "missions", "red_line"),
    prepare=prepare,
    stats=RedlineStats,
    run_chunk=run_chunk,
    summarise=summarise,
    check_params=check_params,
    charts=run_charts,
    key_figures=key_figures,
    metrics=METRICS,
    paired=PLAY,
)
