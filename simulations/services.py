"""Simulation services: start a run, play one chunk of it, reap runs whose worker was lost,
and the exact odds calculator.

A run is a chunked job of the site's one job system (cardsite/jobs.py; its kinds in
simulations/jobs.py). How it moves (see docs/architecture.md, "Background jobs"):

1. ``simulation_start`` checks what every start checks first (``run_start``: signed in,
   the kind, its parameters against the kind's specs, the seed), reads the deck's
   plain facts once (``build_inputs``), checks them with a dry run of zero games, refuses
   a fourth active run of the same user, creates the run (status ``queued``) and, once the
   transaction commits, sends one Celery task per chunk.
2. ``simulation_run_chunk`` (the one chunk task's body for a run) plays chunk ``i`` under a
   lease, ``chunk_started[i]``, that a heartbeat thread renews every
   ``SIMULATIONS_HEARTBEAT_SECONDS`` (5), and writes its statistics into
   ``chunk_results[i]`` under a row lock. The call that fills the last slot merges the
   chunks, summarises them and marks the run ``done``. A chunk whose slot is filled, or of a
   run that is no longer active, or whose lease a live worker holds, is a no-op, so a
   redelivered message (``acks_late``) does no harm.
3. The one reaper (Celery beat's ``jobs.reap``, every ``JOBS_REAP_SECONDS``, 10) sends again
   the chunks whose lease was not renewed for ``SIMULATIONS_LEASE_SECONDS`` (20: their worker
   died) — at most ``SIMULATIONS_MAX_REAPS`` times, then the run fails with the reason
   "worker lost…" — and, when the run made no progress for ``SIMULATIONS_STALL_SECONDS``
   (40), the chunks that never started (their message may be held by a dead worker). Every
   game is counted once. Reading a run (pages, API) never changes it; ``manage.py
   simulations_reap`` sweeps by hand.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404

from cardsite import jobs as job_system
from cardsite import workers
from cardsite.accounts import Viewer, signed_in
from catalogue.services import card_facts_by_names, card_names_by_kind
from decks.lists import entries_from_json
from decks.models import Deck, DeckVersion, Visibility
from validation import params as validation_params
from validation.capabilities import DrawRules
from validation.params import ParamSpec
from validation.registry import registry
from validation.sim import odds
from validation.sim.metrics import Metric, find
from validation.sim.metrics import rows as metric_rows

from . import experiments, jobs, kinds, pipeline
from .models import RunKind, SimulationRun

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

logger = logging.getLogger(__name__)

MAX_SEED = 2**63 - 1


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def chunk_games() -> int:
    """Games per chunk (one Celery task each)."""
    return jobs.chunk_games()


def max_active_runs() -> int:
    return int(_setting("SIMULATIONS_MAX_ACTIVE", 3))


# --- errors ------------------------------------------------------------------------------


class SimulationError(ValueError):
    """A run cannot start; ``errors`` maps a field (or ``__all__``) to a message."""

    code = "invalid"

    def __init__(self, errors: Mapping[str, str] | str):
        self.errors = {"__all__": errors} if isinstance(errors, str) else dict(errors)
        super().__init__(
            "; ".join(f"{k}: {v}" if k != "__all__" else v for k, v in self.errors.items())
        )


class ParamsInvalid(SimulationError):
    code = "params"


class TooManyActiveRuns(SimulationError):
    """The owner's limit of runs queued or running at once is reached (not a rate: a run
    frees its place when it ends). `active` the runs' ids, oldest first; `limit` the most."""

    code = "too_many_active"

    def __init__(self, errors: Mapping[str, str] | str, *, active: list[int], limit: int):
        super().__init__(errors)
        self.active = active
        self.limit = limit


class OddsInvalid(SimulationError):
    code = "odds"


# --- parameters ----------------------------------------------------------------------------


def card_choices(kind: kinds.SimulationKind) -> dict[str, list[str]]:
    """Card kind -> the catalogue's names of that kind, for the parameters of `kind` whose
    choices are the catalogue's cards (one query; none when no parameter is)."""
    wanted = kind.card_kinds()
    if not wanted:
        return {}
    return card_names_by_kind(game_slug=kind.game_slug, kinds=wanted)


def params_validate(
    kind: kinds.SimulationKind, raw: Mapping[str, Any] | None, *, allow_unknown: bool = False
) -> dict[str, Any]:
    """Clean parameters: every spec's value parsed and bounded, defaults filled in, then the
    goldfish's own checks across fields (`pipeline.clean_goldfish_params`).

    Raises ParamsInvalid with one message per bad field (every error at once)."""
    try:
        return pipeline.clean_goldfish_params(
            kind.goldfish, raw, card_choices=card_choices(kind), allow_unknown=allow_unknown
        )
    except validation_params.ParamsInvalid as exc:
        raise ParamsInvalid(exc.errors) from None


def _seed(seed: Any) -> int:
    if seed is None or seed == "":
        return secrets.randbelow(MAX_SEED)
    try:
        value = int(str(seed).strip())
    except ValueError:
        raise ParamsInvalid({"seed": f"the seed must be a whole number, not {seed!r}"}) from None
    if not 0 <= value <= MAX_SEED:
        raise ParamsInvalid({"seed": f"the seed must be between 0 and {MAX_SEED}; got {value}"})
    return value


# --- starting a run ------------------------------------------------------------------------


def _kind(kind: kinds.SimulationKind | str) -> kinds.SimulationKind:
    if isinstance(kind, kinds.SimulationKind):
        return kind
    try:
        return kinds.get(kind)
    except kinds.UnknownKind:
        raise SimulationError({"kind": f"there is no simulation kind {kind!r}"}) from None


def build_inputs(
    kind: kinds.SimulationKind,
    *,
    params: Mapping[str, Any],
    deck_version: DeckVersion | None = None,
) -> dict[str, Any]:
    """The plain inputs of a run (`pipeline.build_inputs`), read from the catalogue once.
    InputsError (a ValueError) when they cannot be played."""
    try:
        return pipeline.build_inputs(
            kind.goldfish, game_slug=kind.game_slug, params=params, deck_version=deck_version
        )
    except pipeline.InputsMissing as exc:
        raise SimulationError({"inputs": str(exc)}) from None


def deck_to_simulate(
    *, user: User | AnonymousUser, deck_pk: int, share_token: str | None = None
) -> Deck:
    """The deck `user` may start a simulation of, for the start form and the API alike: one
    they could read as a player (their own, a public one, an unlisted one with its share
    token). Http404 when they may not read it at all; PermissionDenied for staff, who read
    every deck (moderation) but do not run another player's private or unlisted deck as
    their own (a run copies the list into a run they own)."""
    deck = (
        Deck.objects.visible_to(user, share_token=share_token or None)
        .select_related("game")
        .filter(pk=deck_pk)
        .first()
    )
    if deck is None:
        raise Http404("no such deck")
    if getattr(user, "is_staff", False) and deck.owner_id != user.pk:
        as_player = deck.visibility == Visibility.PUBLIC or (
            deck.visibility == Visibility.UNLISTED
            and bool(share_token)
            and share_token == deck.share_token
        )
        if not as_player:
            raise PermissionDenied(
                "Staff may read this deck but not start a simulation of another player's "
                f"{deck.visibility} deck."
            )
    return deck


@dataclass(frozen=True)
class RunStart:
    """What every way of starting a run checks first (`run_start`): the owner, signed in;
    the kind it plays; its parameters, cleaned; the metric that decides a comparison or a
    tuning run (None for the others); the seed."""

    owner: User
    kind: kinds.SimulationKind
    params: dict[str, Any]
    seed: int
    metric: Metric | None = None

    def create_run(
        self, *, kind: RunKind, deck_version: DeckVersion | None, label: str, inputs: dict[str, Any]
    ) -> SimulationRun:
        """The run, saved and sent with these checked values (`create_run`)."""
        return create_run(
            owner=self.owner,
            kind=kind,
            simulation=self.kind.slug,
            deck_version=deck_version,
            label=label,
            params=self.params,
            inputs=inputs,
            seed=self.seed,
        )


def run_start(
    *,
    owner: Viewer,
    doing: str,
    kind: kinds.SimulationKind | str | Callable[[], kinds.SimulationKind],
    params: Mapping[str, Any] | None,
    seed: Any,
    decided: bool = False,
    metric: str | None = None,
) -> RunStart:
    """The prologue of every way of starting a run (a goldfish or a tool's run, a
    comparison, a tuning run), each problem a SimulationError, in this order: the owner must
    be signed in ("sign in to <doing>"); the kind (a slug, or a function that makes the
    start's own first checks and returns it); its parameters (`params_validate`); for a run
    a metric decides (`decided`), that metric (`deciding_metric`); the seed."""
    if not signed_in(owner):
        raise SimulationError(f"sign in to {doing}")
    k = kind() if callable(kind) else _kind(kind)
    clean = params_validate(k, params)
    chosen = deciding_metric(k, metric, clean) if decided else None
    return RunStart(owner=owner, kind=k, params=clean, seed=_seed(seed), metric=chosen)


def deciding_metric(
    kind: kinds.SimulationKind, metric: str | None, clean: Mapping[str, Any]
) -> Metric:
    """The metric that decides a comparison or a tuning run: the one named, else the
    goldfish's headline; SimulationError on `metric` when the goldfish has no such metric or
    the run's parameters (``clean``) cannot measure it."""
    goldfish = kind.goldfish
    chosen = find(goldfish.metrics, metric) if metric else goldfish.headline
    if chosen is None:
        keys = ", ".join(m.key for m in goldfish.metrics)
        raise SimulationError(
            {"metric": f"{kind.label} has no metric {metric!r}; its metrics are {keys}"}
        )
    if not chosen.applies(clean):
        raise SimulationError({"metric": f"{chosen.label} needs at least {chosen.min_turns} turns"})
    return chosen


def simulation_start(
    *,
    owner: Viewer,
    kind: kinds.SimulationKind | str,
    params: Mapping[str, Any] | None,
    deck_version: DeckVersion | None = None,
    inputs: Mapping[str, Any] | None = None,
    seed: int | str | None = None,
) -> SimulationRun:
    """Create a run and enqueue its chunks once the transaction commits.

    Kinds that need a deck read their inputs from ``deck_version`` (unless ``inputs`` is
    given); the others take ``inputs`` or build them from their parameters
    (``build_inputs``).
    Raises SimulationError (ParamsInvalid, TooManyActiveRuns) with a clear message.
    """
    start = run_start(owner=owner, doing="start a simulation", kind=kind, params=params, seed=seed)
    k, clean = start.kind, start.params
    label = k.label
    if k.needs_deck:
        if deck_version is None:
            raise SimulationError({"deck": f"{k.label} needs a deck version"})
        deck = deck_version.deck
        if deck.game.slug != k.game_slug:
            raise SimulationError(
                {"kind": f"{k.label} simulates {k.game_slug} decks; this deck is {deck.game.slug}"}
            )
        label = f"{deck.name} v{deck_version.number}"
    if inputs is None:
        try:
            inputs = build_inputs(k, params=clean, deck_version=deck_version)
        except SimulationError:
            raise
        except (ValueError, LookupError) as exc:
            raise SimulationError({getattr(exc, "field", "") or "deck": str(exc)}) from exc
    inputs = dict(inputs)
    try:  # the deck is checked now (zero games) rather than failing on a worker
        k.goldfish.run_chunk(inputs, {**clean, "games": 0}, start.seed, 0, 1)
    except (ValueError, LookupError, TypeError) as exc:
        raise SimulationError({"deck": f"this deck cannot be simulated: {exc}"}) from exc
    return start.create_run(
        kind=RunKind.TOOL if k.tool else RunKind.GOLDFISH,
        deck_version=deck_version,
        label=label,
        inputs=inputs,
    )


def create_run(
    *,
    owner: User,
    kind: RunKind,
    simulation: str,
    deck_version: DeckVersion | None,
    label: str,
    params: dict[str, Any],
    inputs: dict[str, Any],
    seed: int,
) -> SimulationRun:
    """Save a run whose parameters and inputs are already checked, within the owner's limit
    of active runs (TooManyActiveRuns): its kind of job plans its chunks (simulations/jobs.py)
    and its first chunks are sent once the transaction commits. Every way of starting a run
    (a goldfish, a tool's background run, a comparison, a tuning run) ends here."""
    with transaction.atomic():
        # One start at a time per user, so that two requests cannot both pass the limit.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        active_ids = list(
            SimulationRun.objects.owned_by(owner)
            .active()
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        active = len(active_ids)
        if active >= max_active_runs():
            raise TooManyActiveRuns(
                f"you have {active} simulations queued or running; at most "
                f"{max_active_runs()} at a time — wait for one to finish",
                active=active_ids,
                limit=max_active_runs(),
            )
        run = SimulationRun(
            owner=owner,
            kind=kind,
            simulation=simulation,
            deck_version=deck_version,
            label=label[:250],
            params=params,
            inputs=inputs,
            seed=seed,
        )
        job_system.job_start(run)
    return run


# --- playing a chunk, failing, reaping: the one job system -------------------------------------


def simulation_run_chunk(*, run_id: int, chunk_index: int, worker: str = "") -> str:
    """Play chunk ``chunk_index`` of a run and store it; finalise the run when it is the
    last one (cardsite.jobs.job_run_chunk). Idempotent. Returns what happened ("stored",
    "finished", "round", "busy", "skipped")."""
    return job_system.job_run_chunk(
        kind=jobs.GOLDFISH.name, job_id=run_id, index=chunk_index, worker=worker
    )


def simulation_fail(*, run_id: int, reason: str) -> bool:
    """Mark an active run failed with ``reason``; a finished run is left alone."""
    return job_system.job_fail(kind=jobs.GOLDFISH.name, job_id=run_id, reason=reason)


def simulation_check(run: SimulationRun, *, now: datetime | None = None) -> str | None:
    """The reaper's check of one active run: send again the chunks whose worker was lost
    (or fail the run after too many lost workers). Returns "requeued", "failed" or None."""
    return job_system.job_check(run, now=now)


def simulation_reap(*, now: datetime | None = None) -> dict[str, list[int]]:
    """Check every active run; returns the ids of runs re-queued and failed."""
    return job_system.reap(now=now, models=[SimulationRun]).ids()


# --- reading ------------------------------------------------------------------------------


def param_rows(kind: kinds.SimulationKind | None, params: dict[str, Any]) -> list[tuple[str, str]]:
    """A run's parameters as the player reads them: each parameter's label and its value
    ("On the play: yes", a choice by its label), the number of games left out (shown apart);
    a parameter the kind no longer has keeps its key."""
    specs = {spec.name: spec for spec in (kind.params if kind else ())}
    rows = []
    for key, value in params.items():
        if key == "games":
            continue
        spec = specs.get(key)
        label = spec.label if spec else key.replace("_", " ").capitalize()
        if isinstance(value, bool):
            shown = "yes" if value else "no"
        elif spec is not None and spec.type == "choice":
            try:
                shown = dict(spec.choice_list()).get(str(value), str(value))
            except Exception:  # noqa: BLE001 - a label is a nicety; the value is the fact
                shown = str(value)
        elif value is None or value == "":
            shown = "—"
        else:
            shown = str(value)
        rows.append((label, shown))
    return rows


def worker_note(run: SimulationRun) -> str:
    """What the page of an active run says when no worker has answered for a while (and how
    long the oldest queued run has waited); "" otherwise, at the cost of one cache read."""
    if not run.is_active:
        return ""
    state = workers.worker_state(oldest_queued_seconds=None)
    if not state.silent:
        return ""
    waited = job_system.oldest_queued_seconds()
    return workers.worker_state(oldest_queued_seconds=waited).message()


def run_view(run: SimulationRun) -> dict[str, Any]:
    """What the pages show of a run: its kind, key figures and rendered charts."""
    try:
        kind = kinds.get(run.simulation)
    except kinds.UnknownKind:
        kind = None
    summary = (run.results or {}).get("summary")
    page = (
        pipeline.shown(kind.goldfish, summary, prefix=f"run{run.pk}-")
        if kind
        else {"figures": [], "charts": []}
    )
    return {
        "progress": job_system.progress(run),
        "worker_note": worker_note(run),
        "experiment": experiments.view(run, kind),
        "metrics": metric_rows(kind.goldfish.metrics, summary) if kind and summary else [],
        "run": run,
        "kind": kind,
        "param_rows": param_rows(kind, run.params or {}),
        "summary": summary,
        **page,
    }


# --- exact odds ---------------------------------------------------------------------------


#: The exact odds' parameters, named as the API and the deck panel's form name them, read by
#: the rules core's parameter machinery (validation.params); the API's schema states them.
ODDS_PARAMS = (
    ParamSpec("deck_size", "deck_size", min=1, max=1000),
    ParamSpec("group", "group", min=0, max=1000, help="cards in the group"),
    ParamSpec("k", "k", min=0, max=1000, default=1, help="at least this many (default 1)"),
    ParamSpec("turns", "turns", min=0, max=100, default=5, help="turns 1..turns (default 5)"),
    ParamSpec(
        "opening", "opening", min=0, max=1000, default=7, help="opening hand size (default 7)"
    ),
    ParamSpec(
        "on_the_play", "on_the_play", "bool", default=True, help="1 on the play, 0 on the draw"
    ),
    ParamSpec("draws_per_turn", "draws_per_turn", min=0, max=20, default=1, help="default 1"),
    ParamSpec(
        "first_player_draws",
        "first_player_draws",
        "bool",
        default=True,
        help="1 if the first player draws on turn 1",
    ),
)
#: The arguments of `odds_at_least`, as the API and the deck panel's form name them.
ODDS_ARGS = tuple(spec.name for spec in ODDS_PARAMS)


def odds_at_least(*, strict: bool = False, **raw: Any) -> dict[str, Any]:
    """Exact P(at least ``k`` of a group of ``group`` cards in hand) in the opening hand
    and by the end of each turn's draw 1..``turns`` (hypergeometric; no simulation).
    The arguments (`ODDS_PARAMS`, by name) are read by `validation.params.clean_params`:
    they may be strings (query parameters), `strict` reading them as the API's schema
    states them; one missing (None) takes its default. Raises OddsInvalid naming every bad
    argument at once."""
    try:
        args = validation_params.clean_params(
            ODDS_PARAMS, raw, label="the exact odds", strict=strict
        )
        errors: dict[str, str] = {}
    except validation_params.ParamsInvalid as exc:
        args, errors = exc.clean, dict(exc.errors)
    n, g, o = args.get("deck_size"), args.get("group"), args.get("opening")
    if n is not None:
        if g is not None and g > n:
            errors["group"] = f"the group ({g}) cannot be larger than the deck ({n})"
        if o is not None and o > n:
            errors["opening"] = f"the opening hand ({o}) cannot be larger than the deck ({n})"
    if errors:
        raise OddsInvalid(errors)
    assert n is not None and g is not None and o is not None  # every argument has a default
    kk, t, d = args["k"], args["turns"], args["draws_per_turn"]
    play, fpd = args["on_the_play"], args["first_player_draws"]
    rows = []
    for turn in range(1, t + 1):
        seen = odds.cards_seen_by_turn(turn, n, o, d, play, fpd)
        rows.append({"turn": turn, "cards_seen": seen, "p": odds.p_at_least(kk, g, n, seen)})
    return {
        "deck_size": n,
        "group": g,
        "k": kk,
        "turns": t,
        "opening": o,
        "on_the_play": play,
        "draws_per_turn": d,
        "first_player_draws": fpd,
        "opening_hand": {"cards_seen": o, "p": odds.p_at_least(kk, g, n, o)},
        "by_turn": rows,
    }


def odds_from_query(
    query: Mapping[str, Any], *, strict: bool = False, **given: Any
) -> dict[str, Any]:
    """`odds_at_least` with its arguments read from a query (`given` ones instead, where
    named; the query's other keys ignored). Raises OddsInvalid."""
    args = {name: query.get(name) for name in ODDS_ARGS}
    return odds_at_least(strict=strict, **{**args, **given})


def odds_rules(game_slug: str) -> DrawRules | None:
    """The draw rules the exact odds use: the game's first section drawn turn by turn, or
    None when no section is (a list that stands on the table from the start, decks drawn
    only by dice)."""
    if game_slug not in registry:
        return None
    return next((r for r in registry.get(game_slug).draws if r.turn_by_turn), None)


class OddsGroup(TypedDict):
    """A group of cards the odds calculator offers: its label and its cards."""

    label: str
    count: int


class OddsDeck(TypedDict):
    """A version's draw deck for the odds calculator: its size, groups and draw rules."""

    deck_size: int
    groups: list[OddsGroup]
    opening: int
    draws_per_turn: int
    first_player_draws: bool


def odds_groups(*, deck_version: DeckVersion, rules: DrawRules) -> OddsDeck:
    """The draw deck of a version for the odds calculator: its size and the groups a player
    may pick (every card kind and every card name in the drawn section, with counts)."""
    entries = [e for e in entries_from_json(deck_version.entries) if e.section == rules.section]
    facts = card_facts_by_names(
        game_slug=deck_version.deck.game.slug, names=[e.card for e in entries]
    )
    by_kind: dict[str, int] = {}
    by_name: dict[str, int] = {}
    for e in entries:
        card = facts.get(e.card.lower())
        kind_name = card.kind if card else "unknown"
        by_kind[kind_name] = by_kind.get(kind_name, 0) + e.count
        by_name[e.card] = by_name.get(e.card, 0) + e.count
    groups = [(f"every {name.replace('_', ' ')}", n) for name, n in sorted(by_kind.items())]
    groups += sorted(by_name.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "deck_size": sum(by_name.values()),
        "groups": [{"label": label, "count": n} for label, n in groups],
        "opening": rules.opening,
        "draws_per_turn": rules.draws_per_turn,
        "first_player_draws": rules.first_player_draws,
    }
