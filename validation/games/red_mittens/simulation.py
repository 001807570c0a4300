"""The Red Mittens goldfish as the site runs it: the deck's units, items and fields against a
passive opponent on 20 LP (`goldfish.py` plays it), its parameters, the summary, charts and
key figures of a run."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from validation.capabilities import Goldfish, InputsError
from validation.charts import xy
from validation.games.red_mittens import goldfish as rm
from validation.games.red_mittens.paired import PLAY
from validation.params import ParamSpec
from validation.sim.inputs import card_from_json, card_json
from validation.sim.kernel import chunk_range, games_param
from validation.sim.metrics import HIGHER, LOWER, Metric
from validation.types import Entry

SECTIONS = ("units", "items", "fields")
#: Games the goldfish page plays at once in the request; more run on a worker.
INLINE_MAX = 2_000
MAX_GAMES = 200_000
DEFAULT_MAX_TURNS = 40


def _hist(data: Mapping[str, Any] | None) -> dict[str, int]:
    return {str(k): int(v) for k, v in (data or {}).items()}


@dataclass(frozen=True, slots=True)
class RedMittensStats:
    """A Red Mittens run's statistics: counts over its games (`games`, `not_dead`: still
    alive after `max_turns`, turns played, cards played from the hand and flipped, dice
    rolls, games with a roll) and histograms keyed by turn (as text, as in JSON) or by die
    face. `as_dict` adds the rates derived from them (`goldfish.with_rates`), the JSON a run
    stores; `from_dict` reads the counts back."""

    max_turns: int
    games: int = 0
    not_dead: int = 0
    turns_played: int = 0
    cards_played: int = 0
    cards_from_hand: int = 0
    cards_flipped: int = 0
    dice_rolls: int = 0
    games_with_dice: int = 0
    dead_on_turn: dict[str, int] = field(default_factory=dict)
    cards_played_by_turn: dict[str, int] = field(default_factory=dict)
    games_reaching_turn: dict[str, int] = field(default_factory=dict)
    dice_rolls_by_turn: dict[str, int] = field(default_factory=dict)
    dice_faces: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        counts: dict[str, Any] = {k: int(data[k]) for k in rm.COUNT_KEYS}
        counts.update({k: _hist(data.get(k)) for k in rm.HIST_KEYS})
        return cls(max_turns=int(data["max_turns"]), **counts)

    def counts(self) -> dict[str, Any]:
        """The counts and (copies of) the histograms."""
        return {
            **{k: getattr(self, k) for k in rm.COUNT_KEYS},
            **{k: dict(getattr(self, k)) for k in rm.HIST_KEYS},
        }

    def as_dict(self) -> dict[str, Any]:
        return rm.with_rates(self.counts(), self.max_turns)

    @classmethod
    def merge(cls, parts: Sequence[Self]) -> Self:
        """The chunks' counts added up (same max_turns; at least one chunk)."""
        return cls.from_dict(rm.merge_goldfish_stats(*(p.as_dict() for p in parts)))


def _by_turn_number(hist: Mapping[str, int]) -> dict[int, int]:
    return {int(k): v for k, v in hist.items()}


def prepare(sections: Mapping[str, list[Entry]]) -> dict[str, Any]:
    """The units, items and fields of the deck as card facts, one per copy."""
    out: dict[str, list[dict[str, Any]]] = {
        s: [card_json(e.card) for e in sections.get(s, []) for _ in range(int(e.count))]
        for s in SECTIONS
    }
    if not out["units"]:
        raise InputsError("the deck has no units: there is nothing to attack with")
    return out


def play(
    inputs: Mapping[str, Any],
    *,
    games: int,
    seed: int,
    max_turns: int = DEFAULT_MAX_TURNS,
    first_game: int = 0,
) -> RedMittensStats:
    """Games `first_game` to `first_game + games - 1` of a run on prepared inputs."""
    stats = rm.goldfish_red_mittens(
        [card_from_json(c) for c in inputs["units"]],
        [card_from_json(c) for c in inputs["items"]],
        [card_from_json(c) for c in inputs["fields"]],
        games=games,
        seed=seed,
        max_turns=max_turns,
        first_game=first_game,
    )
    return RedMittensStats.from_dict(stats)


def run_chunk(
    inputs: Mapping[str, Any],
    params: Mapping[str, Any],
    seed: int,
    chunk_index: int,
    n_chunks: int,
) -> RedMittensStats:
    # Game i is seeded by its index in the run, so chunks of any size add up to the
    # unsplit run.
    first, games = chunk_range(int(params["games"]), chunk_index, n_chunks)
    return play(
        inputs,
        games=games,
        seed=int(seed),
        max_turns=int(params.get("max_turns", DEFAULT_MAX_TURNS)),
        first_game=first,
    )


def summarise(stats: RedMittensStats, inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The turn the opponent reaches 0 LP (histogram, cumulative, mean), cards played per
    turn and how often the core dice are rolled."""
    games = stats.games
    rates = stats.as_dict()
    dead = _by_turn_number(stats.dead_on_turn)
    last = max([*dead, 1])
    turns = list(range(1, last + 1))
    cumulative = [float(rates["p_dead_by_turn"].get(str(t), 0.0)) for t in turns]
    by_turn = {int(k): float(v) for k, v in rates["mean_cards_played_by_turn"].items()}
    reaching = _by_turn_number(stats.games_reaching_turn)
    dice_by_turn = _by_turn_number(stats.dice_rolls_by_turn)
    played_turns = sorted(by_turn)
    killed = sum(dead.values())
    median = None
    if killed and games:
        run = 0
        for t in turns:
            run += dead.get(t, 0)
            if run * 2 >= games:
                median = t
                break
    return {
        "games": games,
        "max_turns": stats.max_turns,
        "not_dead": stats.not_dead,
        "p_not_dead": stats.not_dead / games if games else 0.0,
        "mean_dead_turn": rates["mean_dead_turn"],
        "median_dead_turn": median,
        "dead_turns": turns,
        "dead_on_turn": [dead.get(t, 0) for t in turns],
        "p_dead_on_turn": [dead.get(t, 0) / games if games else 0.0 for t in turns],
        "p_dead_by_turn": cumulative,
        "cards_played_turns": played_turns,
        "mean_cards_played_by_turn": [by_turn[t] for t in played_turns],
        "mean_cards_played_per_turn": float(rates["mean_cards_played_per_turn"]),
        "dice_rolls": stats.dice_rolls,
        "dice_rolls_per_turn": float(rates["dice_rolls_per_turn"]),
        "dice_rolls_per_game": float(rates["dice_rolls_per_game"]),
        "p_game_with_dice": float(rates["p_game_with_dice"]),
        "p_dice_by_turn": [
            dice_by_turn.get(t, 0) / reaching[t] if reaching.get(t) else 0.0 for t in played_turns
        ],
        "dice_faces": {f: stats.dice_faces.get(f, 0) for f in rm.DICE_FACES},
    }


def charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    turns = summary.get("dead_turns", [])
    played = summary.get("cards_played_turns", [])
    return [
        xy(
            "rm-dead-turn",
            "Turn the opponent reaches 0 LP",
            turns,
            [
                ("Dead on this turn", summary.get("p_dead_on_turn", []), "bar"),
                ("Dead by this turn", summary.get("p_dead_by_turn", []), "line"),
            ],
            x_label="Turn",
            y_label="Share of games",
            percent=True,
        ),
        xy(
            "rm-cards-played",
            "Cards played per turn",
            played,
            [("Mean cards played", summary.get("mean_cards_played_by_turn", []), "bar")],
            x_label="Turn",
            y_label="Cards",
        ),
        xy(
            "rm-dice",
            "Core dice rolled, by turn",
            played,
            [("Games rolling the dice", summary.get("p_dice_by_turn", []), "bar")],
            x_label="Turn",
            y_label="Share of games",
            percent=True,
        ),
    ]


def _by_turn(summary: Mapping[str, Any], key: str) -> dict[int, float]:
    """A per-turn figure of a run as {turn: value}: the summary lists it beside
    `dead_turns`; the merged statistics map turn -> value."""
    values = summary.get(key) or {}
    if isinstance(values, Mapping):
        return {int(k): float(v) for k, v in values.items()}
    return {int(t): float(v) for t, v in zip(summary.get("dead_turns") or [], values, strict=False)}


def _dead_by(turn: int) -> Callable[[Mapping[str, Any]], float | None]:
    def read(summary: Mapping[str, Any]) -> float | None:
        if not summary.get("games"):
            return None
        cumulative = _by_turn(summary, "p_dead_by_turn")
        reached = [t for t in cumulative if t <= turn]
        return cumulative[max(reached)] if reached else 0.0

    return read


def _dead_turn(summary: Mapping[str, Any]) -> float | None:
    games = summary.get("games") or 0
    if not games:
        return None
    dead = _by_turn(summary, "dead_on_turn")
    killed = sum(t * c for t, c in dead.items())
    alive = games - sum(dead.values())
    return (killed + alive * (int(summary["max_turns"]) + 1)) / games


METRICS = (
    Metric(
        "dead_by_5",
        "Opponent at 0 LP by turn 5",
        "share of games",
        HIGHER,
        True,
        _dead_by(5),
        help="Games where the passive opponent reaches 0 LP by the end of turn 5.",
    ),
    Metric(
        "dead_turn",
        "Turn the opponent reaches 0 LP",
        "turns",
        LOWER,
        False,
        _dead_turn,
        help="Mean over every game; a game where it does not counts as the turn after the last.",
    ),
    Metric(
        "cards_per_turn",
        "Cards played per turn",
        "cards",
        HIGHER,
        False,
        lambda s: s["mean_cards_played_per_turn"],
        help="Cards played per turn (mean).",
    ),
)


def key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The run's figures besides its metrics (METRICS), which are shown as they are: none
    restates a metric (the turn the opponent reaches 0 LP and the cards played per turn
    are the metrics')."""
    return [
        ("Games", str(summary.get("games", 0))),
        (
            "Median turn the opponent reaches 0 LP",
            str(summary.get("median_dead_turn") or "—"),
        ),
        ("Opponent still alive after the last turn", f"{summary.get('p_not_dead', 0):.1%}"),
        ("Core dice rolls per game", f"{summary.get('dice_rolls_per_game', 0):.2f}"),
        ("Games with a dice roll", f"{summary.get('p_game_with_dice', 0):.1%}"),
    ]


GOLDFISH: Goldfish[RedMittensStats] = Goldfish(
    slug="red-mittens-goldfish",
    label="Red Mittens goldfish (passive opponent)",
    description=(
        "Plays the deck against an opponent with no units on 20 LP (an undefended attack "
        "costs LP equal to the attack): the turn the opponent reaches 0 LP, cards played "
        "per turn and how often the core dice are rolled."
    ),
    params=(
        games_param(1000, maximum=MAX_GAMES, help=""),
        ParamSpec("max_turns", "Turns at most", "int", min=1, max=100, default=DEFAULT_MAX_TURNS),
    ),
    sections=SECTIONS,
    prepare=prepare,
    stats=RedMittensStats,
    run_chunk=run_chunk,
    summarise=summarise,
    charts=charts,
    key_figures=key_figures,
    metrics=METRICS,
    paired=PLAY,
    inline_max=INLINE_MAX,
)
