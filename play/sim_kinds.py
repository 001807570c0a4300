"""The simulation kinds of the play tools, registered with `simulations.kinds` from
`PlayConfig.ready()`:

- `red-mittens-goldfish` (needs a Red Mittens deck): the goldfish of
  `validation.games.red_mittens.goldfish` against a passive opponent on 20 LP.
- `tactical-assault-close-combat` (no deck; two unit types): repeated close combat of
  `validation.games.tactical_assault.combat_odds` until one side is eliminated or out of contact.

Each is a handful of plain functions over JSON: `run_chunk` is a pure function of its
arguments, `merge` sums counts exactly, `summarise` derives the figures and `charts` the
chart specs of the run page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from validation.games.red_mittens import goldfish as rm
from validation.sim.kernel import chunk_seed_sequence

GOLDFISH = "red-mittens-goldfish"
CLOSE_COMBAT = "tactical-assault-close-combat"
GOLDFISH_DEFAULTS = {"games": 1000, "max_turns": 40}
CLOSE_COMBAT_DEFAULTS = {
    "games": 100_000,
    "max_rounds": 20,
    "unit_a": "Infantry",
    "unit_b": "Armored",
}
OUTCOMES = ("a_eliminated", "b_eliminated", "both_eliminated", "out_of_contact", "unresolved")


def chunk_range(games: int, chunk_index: int, n_chunks: int) -> tuple[int, int]:
    """(first game, number of games) of chunk `chunk_index` of `n_chunks` (even split)."""
    base, extra = divmod(int(games), int(n_chunks))
    first = chunk_index * base + min(chunk_index, extra)
    return first, base + (1 if chunk_index < extra else 0)


# --- Red Mittens goldfish ------------------------------------------------------------------


def goldfish_build_inputs(deck_version) -> dict[str, Any]:
    from .services import red_mittens_inputs

    return red_mittens_inputs(deck_version)


def goldfish_run_chunk(
    inputs: Mapping[str, Any],
    params: Mapping[str, Any],
    seed: int,
    chunk_index: int,
    n_chunks: int,
) -> dict[str, Any]:
    from .services import goldfish_compute

    first, games = chunk_range(int(params["games"]), chunk_index, n_chunks)
    return goldfish_compute(
        inputs,
        games=games,
        seed=int(seed),
        max_turns=int(params.get("max_turns", GOLDFISH_DEFAULTS["max_turns"])),
        first_game=first,
    )


def goldfish_merge(stats: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return rm.merge_goldfish_stats(*stats)


def goldfish_summarise(stats: Mapping[str, Any]) -> dict[str, Any]:
    """The turn the opponent reaches 0 LP (histogram, cumulative, mean), cards played per
    turn and how often the core dice are rolled."""
    games = int(stats.get("games", 0))
    max_turns = int(stats.get("max_turns", GOLDFISH_DEFAULTS["max_turns"]))
    dead = {int(k): int(v) for k, v in (stats.get("dead_on_turn") or {}).items()}
    last = max([*dead, 1])
    turns = list(range(1, last + 1))
    cumulative = [float((stats.get("p_dead_by_turn") or {}).get(str(t), 0.0)) for t in turns]
    by_turn = {int(k): float(v) for k, v in (stats.get("mean_cards_played_by_turn") or {}).items()}
    reaching = {int(k): int(v) for k, v in (stats.get("games_reaching_turn") or {}).items()}
    dice_by_turn = {int(k): int(v) for k, v in (stats.get("dice_rolls_by_turn") or {}).items()}
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
        "max_turns": max_turns,
        "not_dead": int(stats.get("not_dead", 0)),
        "p_not_dead": (int(stats.get("not_dead", 0)) / games) if games else 0.0,
        "mean_dead_turn": stats.get("mean_dead_turn"),
        "median_dead_turn": median,
        "dead_turns": turns,
        "dead_on_turn": [dead.get(t, 0) for t in turns],
        "p_dead_on_turn": [dead.get(t, 0) / games if games else 0.0 for t in turns],
        "p_dead_by_turn": cumulative,
        "cards_played_turns": played_turns,
        "mean_cards_played_by_turn": [by_turn[t] for t in played_turns],
        "mean_cards_played_per_turn": float(stats.get("mean_cards_played_per_turn", 0.0)),
        "dice_rolls": int(stats.get("dice_rolls", 0)),
        "dice_rolls_per_turn": float(stats.get("dice_rolls_per_turn", 0.0)),
        "dice_rolls_per_game": float(stats.get("dice_rolls_per_game", 0.0)),
        "p_game_with_dice": float(stats.get("p_game_with_dice", 0.0)),
        "p_dice_by_turn": [
            dice_by_turn.get(t, 0) / reaching[t] if reaching.get(t) else 0.0 for t in played_turns
        ],
        "dice_faces": {f: int((stats.get("dice_faces") or {}).get(f, 0)) for f in rm.DICE_FACES},
    }


def goldfish_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    from .charts import xy

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


def goldfish_key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    mean = summary.get("mean_dead_turn")
    return [
        ("Games", str(summary.get("games", 0))),
        ("Mean turn the opponent reaches 0 LP", f"{mean:.2f}" if mean is not None else "—"),
        ("Median turn", str(summary.get("median_dead_turn") or "—")),
        ("Opponent still alive after the last turn", f"{summary.get('p_not_dead', 0):.1%}"),
        ("Cards played per turn", f"{summary.get('mean_cards_played_per_turn', 0):.2f}"),
        ("Core dice rolls per game", f"{summary.get('dice_rolls_per_game', 0):.2f}"),
        ("Games with a dice roll", f"{summary.get('p_game_with_dice', 0):.1%}"),
    ]


def goldfish_check_params(params: Mapping[str, Any]) -> dict[str, str]:
    return {}


# --- Tactical Assault close combat ---------------------------------------------------------


def _unit_choices() -> list[tuple[str, str]]:
    from .services import TACTICAL_ASSAULT, game_cards

    try:
        return [(c.name, c.name) for c in game_cards(game_slug=TACTICAL_ASSAULT, kind="unit_type")]
    except Exception:  # noqa: BLE001 - no database yet (schema generation, checks)
        return []


def close_combat_inputs_from_params(params: Mapping[str, Any]) -> dict[str, Any]:
    from .services import close_combat_inputs

    return close_combat_inputs(
        unit_a=str(params.get("unit_a", "")),
        unit_b=str(params.get("unit_b", "")),
        a_modifiers=params.get("a_modifiers") or {},
        b_modifiers=params.get("b_modifiers") or {},
    )


def _chunk_seed(seed: int, chunk_index: int) -> int:
    state = chunk_seed_sequence(int(seed), int(chunk_index)).generate_state(1)
    return int(state[0])


def close_combat_run_chunk(
    inputs: Mapping[str, Any],
    params: Mapping[str, Any],
    seed: int,
    chunk_index: int,
    n_chunks: int,
) -> dict[str, Any]:
    from .services import close_combat_compute

    _, games = chunk_range(int(params["games"]), chunk_index, n_chunks)
    max_rounds = int(params.get("max_rounds", CLOSE_COMBAT_DEFAULTS["max_rounds"]))
    if games == 0:
        return close_combat_merge([])
    result = close_combat_compute(
        inputs, games=games, seed=_chunk_seed(seed, chunk_index), max_rounds=max_rounds
    )
    return {
        "unit_a": result["unit_a"],
        "unit_b": result["unit_b"],
        "games": result["games"],
        "max_rounds": result["max_rounds"],
        "shift_a_on_b": result["shift_a_on_b"],
        "shift_b_on_a": result["shift_b_on_a"],
        "a_can_attack": result["a_can_attack"],
        "b_can_attack": result["b_can_attack"],
        "outcomes": result["outcomes"],
        "fell_back": result["fell_back"],
        "statuses_at_end": result["statuses_at_end"],
        "rounds_histogram": result["rounds"]["histogram"],
    }


def close_combat_merge(stats: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Sum the counts of chunks (exact)."""
    out: dict[str, Any] = {
        "games": 0,
        "outcomes": dict.fromkeys(OUTCOMES, 0),
        "fell_back": {},
        "statuses_at_end": {},
        "rounds_histogram": {},
    }
    for s in stats:
        if not s.get("games"):
            continue
        for key in (
            "unit_a",
            "unit_b",
            "max_rounds",
            "shift_a_on_b",
            "shift_b_on_a",
            "a_can_attack",
            "b_can_attack",
        ):
            if key in s:
                out[key] = s[key]
        out["games"] += int(s["games"])
        for group in ("outcomes", "fell_back", "statuses_at_end", "rounds_histogram"):
            for k, v in (s.get(group) or {}).items():
                out[group][k] = out[group].get(k, 0) + int(v)
    return out


def close_combat_summarise(stats: Mapping[str, Any]) -> dict[str, Any]:
    games = int(stats.get("games", 0))
    outcomes = {k: int((stats.get("outcomes") or {}).get(k, 0)) for k in OUTCOMES}
    hist = {int(k): int(v) for k, v in (stats.get("rounds_histogram") or {}).items()}
    resolved = sum(hist.values())
    rounds = sorted(hist)
    return {
        **{k: v for k, v in stats.items() if k != "rounds_histogram"},
        "games": games,
        "outcomes": outcomes,
        "frequencies": {k: (v / games if games else 0.0) for k, v in outcomes.items()},
        "rounds": {
            "labels": [str(r) for r in rounds],
            "counts": [hist[r] for r in rounds],
            "mean_resolved": (sum(r * c for r, c in hist.items()) / resolved) if resolved else None,
        },
    }


OUTCOME_LABELS = {
    "a_eliminated": "{a} eliminated",
    "b_eliminated": "{b} eliminated",
    "both_eliminated": "both eliminated",
    "out_of_contact": "out of contact",
    "unresolved": "unresolved",
}


def outcome_label(key: str, summary: Mapping[str, Any]) -> str:
    return OUTCOME_LABELS[key].format(a=summary.get("unit_a", "A"), b=summary.get("unit_b", "B"))


def close_combat_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    from .charts import xy

    freq = summary.get("frequencies") or {}
    games = summary.get("games") or 0
    rounds = summary.get("rounds") or {}
    return [
        xy(
            "ta-close-combat-outcome",
            "How the close combat ends",
            [outcome_label(k, summary) for k in OUTCOMES],
            [("Share of games", [freq.get(k, 0.0) for k in OUTCOMES], "bar")],
            x_label="Outcome",
            y_label="Share of games",
            percent=True,
        ),
        xy(
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


def close_combat_key_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    freq = summary.get("frequencies") or {}
    mean = (summary.get("rounds") or {}).get("mean_resolved")
    figures = [("Games", str(summary.get("games", 0)))]
    figures += [(outcome_label(k, summary), f"{freq.get(k, 0.0):.1%}") for k in OUTCOMES]
    figures.append(("Mean rounds (resolved)", f"{mean:.2f}" if mean is not None else "—"))
    return figures


def close_combat_check_params(params: Mapping[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    names = {v.lower() for v, _ in _unit_choices()}
    for key in ("unit_a", "unit_b"):
        value = str(params.get(key, "") or "")
        if names and value.lower() not in names:
            errors[key] = f"{value!r} is not a unit type"
    return errors


# --- Registration --------------------------------------------------------------------------


def build_kinds() -> list[Any]:
    from simulations.kinds import ParamSpec, SimulationKind

    from .services import INLINE_GAMES_MAX, MAX_ROUNDS_MAX, WORKER_GAMES_MAX

    goldfish = SimulationKind(
        slug=GOLDFISH,
        label="Red Mittens goldfish (passive opponent)",
        game_slug="red-mittens",
        needs_deck=True,
        default_params=dict(GOLDFISH_DEFAULTS),
        param_specs=(
            ParamSpec("games", "Games", "int", min=1, max=200_000),
            ParamSpec("max_turns", "Turns at most", "int", min=1, max=100),
        ),
        build_inputs=goldfish_build_inputs,
        run_chunk=goldfish_run_chunk,
        merge=goldfish_merge,
        summarise=goldfish_summarise,
        charts=goldfish_charts,
        key_figures=goldfish_key_figures,
        check_params=goldfish_check_params,
        description=(
            "Plays the deck against an opponent with no units on 20 LP (an undefended attack "
            "costs LP equal to the attack): the turn the opponent reaches 0 LP, cards played "
            "per turn and how often the core dice are rolled."
        ),
    )
    close_combat = SimulationKind(
        slug=CLOSE_COMBAT,
        label="Tactical Assault close combat",
        game_slug="tactical-assault",
        needs_deck=False,
        default_params=dict(CLOSE_COMBAT_DEFAULTS),
        param_specs=(
            ParamSpec("unit_a", "Unit A", "choice", choices=_unit_choices),
            ParamSpec("unit_b", "Unit B", "choice", choices=_unit_choices),
            ParamSpec(
                "games",
                "Games",
                "int",
                min=1,
                max=WORKER_GAMES_MAX,
                help=f"up to {INLINE_GAMES_MAX} are computed at once on the odds page",
            ),
            ParamSpec("max_rounds", "Rounds at most", "int", min=1, max=MAX_ROUNDS_MAX),
        ),
        inputs_from_params=close_combat_inputs_from_params,
        run_chunk=close_combat_run_chunk,
        merge=close_combat_merge,
        summarise=close_combat_summarise,
        charts=close_combat_charts,
        key_figures=close_combat_key_figures,
        check_params=close_combat_check_params,
        description=(
            "Two units fight close combat, both attacking every round with their own combat "
            "card deck, until one or both are eliminated or a Fall Back breaks contact."
        ),
    )
    return [goldfish, close_combat]


_registered: list[Any] = []


def register_kinds() -> bool:
    """Register both kinds with the simulations registry; False when it is not installed."""
    try:
        from simulations import kinds
    except ImportError:
        return False
    if not _registered:
        _registered.extend(build_kinds())
    for kind in _registered:
        kinds.register(kind)
    return True
