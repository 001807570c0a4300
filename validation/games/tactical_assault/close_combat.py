"""Tactical Assault close combat, repeated: the tool a player opens beside the table and its
long run in the background.

Two unit types fight close combat, both attacking every round with their own combat card
deck, until one or both are eliminated or a Fall Back breaks contact
(`combat_odds.close_combat_montecarlo` plays it). `TOOL` computes up to `INLINE_MAX` games
at once; `RUN`, its background goldfish, plays more in chunks on a worker. Both read the
catalogue's unit types and combat cards, and take the Table 5 modifiers of each side's
attacks (`SIDE_MODIFIERS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Self

from validation import charts
from validation.capabilities import Goldfish, Tool, ToolInputError, ToolResult, card_named
from validation.games.tactical_assault import combat_odds as co
from validation.params import ParamSpec
from validation.sim.inputs import card_from_json, card_json
from validation.sim.kernel import chunk_range, chunk_seed_sequence, games_param
from validation.types import CardFacts

#: Games computed in the request; more run on a worker.
INLINE_MAX = 20_000
MAX_ROUNDS = 200
DEFAULT_ROUNDS = 20
SEED_MAX = 2**31 - 1
UNIT_KIND = "unit_type"
CARD_KIND = "combat_card"

#: The Table 5 modifiers of one side's attacks, and how a form words them.
SIDE_MODIFIERS: dict[str, str] = {
    "outside_arc": "contact outside the target's LOS arc",
    "in_cover": "target In Cover",
    "target_in_bunker": "target in a Bunker",
    "target_shaken": "target starts Shaken",
    "target_out_of_action": "target starts Out Of Action",
}
OUTCOMES = ("a_eliminated", "b_eliminated", "both_eliminated", "out_of_contact", "unresolved")
OUTCOME_LABELS = {
    "a_eliminated": "{a} eliminated",
    "b_eliminated": "{b} eliminated",
    "both_eliminated": "both eliminated",
    "out_of_contact": "out of contact",
    "unresolved": "unresolved",
}

Cards = Mapping[str, Sequence[CardFacts]]


# --- inputs ------------------------------------------------------------------------------


def clean_side_modifiers(raw: Any, field: str) -> dict[str, bool]:
    """Table 5 modifiers of one side's attacks: a mapping of `SIDE_MODIFIERS` names to
    booleans (only those set are kept)."""
    if raw in (None, ""):
        return {}
    if not isinstance(raw, Mapping):
        raise ToolInputError(f"{field}: expected an object of modifiers", field)
    out: dict[str, bool] = {}
    for name, value in raw.items():
        if name not in SIDE_MODIFIERS:
            raise ToolInputError(
                f"{field}: {name!r} is not a close combat modifier; use "
                f"{', '.join(SIDE_MODIFIERS)}",
                field,
            )
        if not isinstance(value, bool):
            raise ToolInputError(f"{field}.{name}: expected true or false", field)
        if value:
            out[name] = True
    return out


def close_combat_inputs(
    unit_a: Any,
    unit_b: Any,
    cards: Cards,
    a_modifiers: Any = None,
    b_modifiers: Any = None,
) -> dict[str, Any]:
    """The JSON inputs of a run: both unit types and the combat card deck as facts, and the
    modifiers of each side's attacks. ToolInputError names a bad field."""
    units = cards.get(UNIT_KIND, ())
    a = card_named(unit_a, units, "unit_a", "unit type")
    b = card_named(unit_b, units, "unit_b", "unit type")
    # In close combat each unit attacks the other: neither may be a Bunker or an Obstacle.
    for unit, field in ((a, "unit_a"), (b, "unit_b")):
        refused = co.attack_refused(unit)
        if refused:
            raise ToolInputError(refused, field)
    deck = co.catalogue_deck(cards, CARD_KIND)
    return {
        "unit_a": card_json(a),
        "unit_b": card_json(b),
        "combat_cards": [card_json(c) for c in deck],
        "a_modifiers": clean_side_modifiers(a_modifiers, "a_modifiers"),
        "b_modifiers": clean_side_modifiers(b_modifiers, "b_modifiers"),
    }


def inputs_from_params(params: Mapping[str, Any], cards: Cards) -> dict[str, Any]:
    """The inputs of a background run from its parameters (`unit_a`, `unit_b`, and the
    modifiers of each side's attacks: the objects `a_modifiers`, `b_modifiers`, or else the
    tool's `<side>_<modifier>` booleans)."""
    return close_combat_inputs(
        params.get("unit_a", ""),
        params.get("unit_b", ""),
        cards,
        params["a_modifiers"] if "a_modifiers" in params else side_modifiers(params, "a"),
        params["b_modifiers"] if "b_modifiers" in params else side_modifiers(params, "b"),
    )


def read_params(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A request's parameters with the modifier objects `a_modifiers`, `b_modifiers`
    ({"in_cover": true}) written as the tool's `a_in_cover` booleans."""
    out = dict(raw)
    for side in ("a", "b"):
        key = f"{side}_modifiers"
        if key in out:
            for name in clean_side_modifiers(out.pop(key), key):
                out[f"{side}_{name}"] = True
    return out


# --- playing -----------------------------------------------------------------------------


def play(inputs: Mapping[str, Any], *, games: int, seed: int, max_rounds: int) -> dict[str, Any]:
    """`games` close combats on prepared inputs, seeded by `seed` itself."""
    try:
        return co.close_combat_montecarlo(
            card_from_json(inputs["unit_a"]),
            card_from_json(inputs["unit_b"]),
            [card_from_json(c) for c in inputs["combat_cards"]],
            games=games,
            seed=seed,
            max_rounds=max_rounds,
            a_modifiers=inputs.get("a_modifiers") or {},
            b_modifiers=inputs.get("b_modifiers") or {},
        )
    except ValueError as exc:
        raise ToolInputError(str(exc)) from exc


_FACTS = (
    "unit_a",
    "unit_b",
    "max_rounds",
    "shift_a_on_b",
    "shift_b_on_a",
    "a_can_attack",
    "b_can_attack",
)
_TALLIES = ("outcomes", "fell_back", "statuses_at_end", "rounds_histogram")


def _tally(data: Mapping[str, Any] | None) -> dict[str, int]:
    return {str(k): int(v) for k, v in (data or {}).items()}


@dataclass(frozen=True, slots=True)
class CloseCombatStats:
    """A close combat run's statistics: the combat fought (the units, the rounds at most,
    each side's shift and whether it can attack; None in a chunk of no games) and its tallies
    over `games` (the outcomes, who fell back, the statuses at the end, games by the rounds
    fought, keyed by the round as text as in JSON)."""

    games: int = 0
    unit_a: str | None = None
    unit_b: str | None = None
    max_rounds: int | None = None
    shift_a_on_b: int | None = None
    shift_b_on_a: int | None = None
    a_can_attack: bool | None = None
    b_can_attack: bool | None = None
    outcomes: dict[str, int] = dataclass_field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    fell_back: dict[str, int] = dataclass_field(default_factory=dict)
    statuses_at_end: dict[str, int] = dataclass_field(default_factory=dict)
    rounds_histogram: dict[str, int] = dataclass_field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        facts: dict[str, Any] = {k: data.get(k) for k in _FACTS}
        return cls(
            games=int(data.get("games") or 0),
            **facts,
            outcomes={k: 0 for k in OUTCOMES} | _tally(data.get("outcomes")),
            fell_back=_tally(data.get("fell_back")),
            statuses_at_end=_tally(data.get("statuses_at_end")),
            rounds_histogram=_tally(data.get("rounds_histogram")),
        )

    @classmethod
    def of(cls, result: Mapping[str, Any]) -> Self:
        """The statistics of one played batch, from `play`'s answer."""
        return cls.from_dict({**result, "rounds_histogram": result["rounds"]["histogram"]})

    def as_dict(self) -> dict[str, Any]:
        facts = {k: getattr(self, k) for k in _FACTS if getattr(self, k) is not None}
        return {
            "games": self.games,
            **facts,
            **{k: dict(getattr(self, k)) for k in _TALLIES},
        }

    @classmethod
    def merge(cls, stats: Sequence[Self]) -> Self:
        """Sum the counts of chunks (exact); the combat's facts are the chunks' (a chunk of
        no games has none)."""
        facts: dict[str, Any] = {}
        games = 0
        tallies: dict[str, Any] = {k: {} for k in _TALLIES}
        tallies["outcomes"] = dict.fromkeys(OUTCOMES, 0)
        for s in stats:
            if not s.games:
                continue
            facts.update({k: getattr(s, k) for k in _FACTS if getattr(s, k) is not None})
            games += s.games
            for group, tally in tallies.items():
                for k, v in getattr(s, group).items():
                    tally[k] = tally.get(k, 0) + v
        return cls(games=games, **facts, **tallies)


def _chunk_seed(seed: int, chunk_index: int) -> int:
    state = chunk_seed_sequence(int(seed), int(chunk_index)).generate_state(1)
    return int(state[0])


def run_chunk(
    inputs: Mapping[str, Any],
    params: Mapping[str, Any],
    seed: int,
    chunk_index: int,
    n_chunks: int,
) -> CloseCombatStats:
    _, games = chunk_range(int(params["games"]), chunk_index, n_chunks)
    if games == 0:
        return CloseCombatStats()
    result = play(
        inputs,
        games=games,
        seed=_chunk_seed(seed, chunk_index),
        max_rounds=int(params.get("max_rounds", DEFAULT_ROUNDS)),
    )
    return CloseCombatStats.of(result)


def summarise(stats: CloseCombatStats, inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Outcome frequencies and the rounds fought by the resolved combats."""
    games = stats.games
    outcomes = {k: stats.outcomes.get(k, 0) for k in OUTCOMES}
    hist = {int(k): v for k, v in stats.rounds_histogram.items()}
    resolved = sum(hist.values())
    rounds = sorted(hist)
    return {
        **{k: v for k, v in stats.as_dict().items() if k != "rounds_histogram"},
        "games": games,
        "outcomes": outcomes,
        "frequencies": {k: (v / games if games else 0.0) for k, v in outcomes.items()},
        "rounds": {
            "labels": [str(r) for r in rounds],
            "counts": [hist[r] for r in rounds],
            "mean_resolved": (sum(r * c for r, c in hist.items()) / resolved) if resolved else None,
        },
    }


# --- what a run shows --------------------------------------------------------------------


def outcome_label(key: str, summary: Mapping[str, Any]) -> str:
    return OUTCOME_LABELS[key].format(a=summary.get("unit_a", "A"), b=summary.get("unit_b", "B"))


def run_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    freq = summary.get("frequencies") or {}
    games = summary.get("games") or 0
    rounds = summary.get("rounds") or {}
    return [
        charts.xy(
            "ta-close-combat-outcome",
            "How the close combat ends",
            [outcome_label(k, summary) for k in OUTCOMES],
            [("Share of games", [freq.get(k, 0.0) for k in OUTCOMES], "bar")],
            x_label="Outcome",
            y_label="Share of games",
            percent=True,
        ),
        charts.xy(
            "ta-close-combat-rounds",
            "Rounds fought (resolved combats)",
            rounds.get("labels", []),
            [
                (
                    "Share of games",
                    [c / games if games else 0.0 for c in rounds.get("counts", [])],
                    "bar",
                )
            ],
            x_label="Rounds",
            y_label="Share of games",
            percent=True,
        ),
    ]


def key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    freq = summary.get("frequencies") or {}
    mean = (summary.get("rounds") or {}).get("mean_resolved")
    figures = [("Games", str(summary.get("games", 0)))]
    figures += [(outcome_label(k, summary), f"{freq.get(k, 0.0):.1%}") for k in OUTCOMES]
    figures.append(("Mean rounds (resolved)", f"{mean:.2f}" if mean is not None else "—"))
    return figures


def outcome_table(summary: Mapping[str, Any]) -> dict[str, Any]:
    """Games and share of each outcome."""
    return charts.table(
        "close-combat-table",
        "How the close combat ends",
        ["Outcome", "Games", "Share"],
        [
            [outcome_label(k, summary), summary["outcomes"][k], summary["frequencies"][k]]
            for k in OUTCOMES
        ],
    )


# --- the tool ------------------------------------------------------------------------------


def side_modifiers(params: Mapping[str, Any], side: str) -> dict[str, bool]:
    """The modifiers of one side's attacks from the tool's `<side>_<modifier>` booleans."""
    return {name: True for name in SIDE_MODIFIERS if params.get(f"{side}_{name}")}


def compute(params: Mapping[str, Any], cards: Cards) -> ToolResult:
    """Up to `INLINE_MAX` close combats at once, seeded by the `seed` parameter itself: the
    answer's `data` has every count and frequency, `tables`, `charts` and `figures` what the
    page shows."""
    games = int(params["games"])
    if games > INLINE_MAX:
        raise ToolInputError(
            f"at most {INLINE_MAX:,} games are computed at once; more run on a worker", "games"
        )
    inputs = close_combat_inputs(
        params["unit_a"],
        params["unit_b"],
        cards,
        side_modifiers(params, "a"),
        side_modifiers(params, "b"),
    )
    result = play(
        inputs,
        games=games,
        seed=int(params["seed"]),
        max_rounds=int(params.get("max_rounds", DEFAULT_ROUNDS)),
    )
    summary = summarise(CloseCombatStats.of(result))
    title = f"{result['unit_a']} against {result['unit_b']}: {games} games (seed {result['seed']})"
    notes = [
        f"Shift of A's attacks on B: {result['shift_a_on_b']}; of B's on A: "
        f"{result['shift_b_on_a']}."
    ]
    notes += [
        f"{result[unit]} has no close combat attack."
        for unit, can in (("unit_a", "a_can_attack"), ("unit_b", "b_can_attack"))
        if not result[can]
    ]
    return ToolResult(
        data=result,
        figures=key_figures(summary),
        charts=run_charts(summary),
        tables=[outcome_table(summary)],
        notes=notes,
        title=title,
    )


def _unit_param(name: str, label: str, default: str) -> ParamSpec:
    """A unit of the close combat: each is the other's target, so Bunkers and Obstacles are
    not offered (and refused)."""
    return ParamSpec(
        name,
        label,
        "choice",
        cards_of_kind=UNIT_KIND,
        default=default,
        card_offered=lambda card, chosen: co.attack_refused(card) is None,
    )


def _rounds_param() -> ParamSpec:
    return ParamSpec(
        "max_rounds", "Rounds at most", "int", min=1, max=MAX_ROUNDS, default=DEFAULT_ROUNDS
    )


RUN: Goldfish[CloseCombatStats] = Goldfish(
    slug="tactical-assault-close-combat",
    label="Tactical Assault close combat",
    description=(
        "Two units fight close combat, both attacking every round with their own combat "
        "card deck, until one or both are eliminated or a Fall Back breaks contact. Each "
        "deck is one card of each number 1 to 72; Bunkers and Obstacles may not be attacked "
        "(Part III), so neither fights a close combat."
    ),
    params=(
        _unit_param("unit_a", "Unit A", "Infantry"),
        _unit_param("unit_b", "Unit B", "Armored"),
        games_param(100_000, help=f"up to {INLINE_MAX:,} are computed at once on the tool's page"),
        _rounds_param(),
    ),
    reads=(UNIT_KIND, CARD_KIND),
    inputs_from_params=inputs_from_params,
    stats=CloseCombatStats,
    run_chunk=run_chunk,
    summarise=summarise,
    charts=run_charts,
    key_figures=key_figures,
    inline_max=INLINE_MAX,
)

TOOL = Tool(
    slug="close-combat",
    label="Close combat",
    description=RUN.description,
    params=(
        _unit_param("unit_a", "Unit A", "Infantry"),
        _unit_param("unit_b", "Unit B", "Armored"),
        games_param(5000, help=f"up to {INLINE_MAX:,} are computed at once; more run on a worker"),
        ParamSpec("seed", "Seed", "int", min=0, max=SEED_MAX, help="empty: a random seed"),
        _rounds_param(),
        *(
            ParamSpec(f"{side}_{name}", f"{side.upper()}'s attacks: {text}", "bool", default=False)
            for side in ("a", "b")
            for name, text in SIDE_MODIFIERS.items()
        ),
    ),
    compute=compute,
    reads=(UNIT_KIND, CARD_KIND),
    background=RUN,
    inline_max=INLINE_MAX,
    read_params=read_params,
)
