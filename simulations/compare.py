"""Start a paired comparison of two decks (or two versions of one deck) of one game.

`compare_start` checks everything before anything is queued, each problem a
`SimulationError` naming its field: A and B are two versions (a version is never compared
with itself), the kind pairs games, both decks are of its game and
readable by the user as a player, the parameters are the goldfish's, the metric is one the
goldfish has (default: its headline metric) and measures with these parameters, both decks
can be played (a zero-game pair). Then the run is created under the per-user limit and its
first round is sent (simulations/experiments.py plays the rounds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from cardsite import jobs
from decks.models import DeckVersion

from . import experiments, kinds, services
from .models import RunKind, SimulationRun


def version_of(*, user, side: str, ref: Mapping[str, Any]) -> DeckVersion:
    """The version ``ref`` names ({"deck", "version"?, "token"?}) of a deck `user` may run;
    SimulationError on ``<side>.deck`` / ``<side>.version`` otherwise."""
    try:
        deck = services.deck_to_simulate(
            user=user, deck_pk=int(ref["deck"]), share_token=ref.get("token")
        )
    except (Http404, PermissionDenied):
        raise services.SimulationError(
            {f"{side}.deck": f"there is no deck {ref['deck']} you can read"}
        ) from None
    versions = DeckVersion.objects.filter(deck=deck)
    number = ref.get("version")
    version = (
        versions.filter(number=number).first()
        if number is not None
        else versions.order_by("-number").first()
    )
    if version is None:
        raise services.SimulationError({f"{side}.version": f"{deck.name} has no version {number}"})
    version.deck = deck
    return version


def pairing_kind(game_slug: str, slug: str | None) -> kinds.SimulationKind:
    """The kind a comparison of decks of `game_slug` plays: `slug`, or the game's first
    kind that pairs games."""
    if slug:
        try:
            kind = kinds.get(slug)
        except kinds.UnknownKind:
            raise services.SimulationError(
                {"kind": f"there is no simulation kind {slug!r}"}
            ) from None
    else:
        paired = next(
            (k for k in kinds.for_game(game_slug) if k.goldfish.play_pair is not None), None
        )
        if paired is None:
            raise services.SimulationError(
                {"kind": "no goldfish of this game can compare two decks"}
            )
        kind = paired
    if kind.goldfish.play_pair is None or not kind.needs_deck:
        raise services.SimulationError({"kind": f"{kind.label} cannot compare two decks"})
    return kind


def comparison_kind(a: DeckVersion, b: DeckVersion, kind_slug: str | None) -> kinds.SimulationKind:
    """The kind a comparison of A with B plays (`pairing_kind`: `kind_slug`, else the
    game's first that pairs games), once A and B are two versions of decks of one game;
    SimulationError on `b.deck`, `b.version` or `kind` otherwise."""
    game_a, game_b = a.deck.game.slug, b.deck.game.slug
    if game_a != game_b:
        raise services.SimulationError(
            {
                "b.deck": f"the decks are of different games ({a.deck.game.name} and "
                f"{b.deck.game.name}); compare two decks of one game"
            }
        )
    if a.pk == b.pk:
        raise services.SimulationError(
            {
                "b.version": f"A and B are the same version ({a.deck.name} v{a.number}): "
                "a version played against itself can only be not distinguishable; choose "
                "another version of the deck, or another deck, for B"
            }
        )
    kind = pairing_kind(game_a, kind_slug)
    if kind.game_slug != game_a:
        raise services.SimulationError(
            {"kind": f"{kind.label} plays {kind.game_slug} decks; these are {game_a}"}
        )
    return kind


def compare_start(
    *,
    owner,
    a: DeckVersion,
    b: DeckVersion,
    kind_slug: str | None = None,
    params: Mapping[str, Any] | None = None,
    metric: str | None = None,
    seed: Any = None,
) -> SimulationRun:
    start = services.run_start(
        owner=owner,
        doing="start a comparison",
        kind=lambda: comparison_kind(a, b, kind_slug),
        params=params,
        seed=seed,
        decided=True,
        metric=metric,
    )
    kind, clean, chosen = start.kind, start.params, start.metric
    assert chosen is not None  # a run a metric decides
    inputs: dict[str, Any] = {}
    for side, version in (("a", a), ("b", b)):
        try:
            inputs[side] = services.build_inputs(kind, params=clean, deck_version=version)
        except (ValueError, LookupError) as exc:
            raise services.SimulationError({f"{side}.deck": str(exc)}) from exc
    play_pair = kind.goldfish.play_pair
    assert play_pair is not None  # a kind that pairs games (pairing_kind)
    try:
        measured, _ = play_pair(inputs["a"], inputs["b"], clean, start.seed, 0, 0)
    except (ValueError, LookupError, TypeError) as exc:
        raise services.SimulationError(
            {"__all__": f"these decks cannot be compared: {exc}"}
        ) from exc
    if chosen.key not in measured:
        paired_keys = ", ".join(k for k in measured)
        raise services.SimulationError(
            {
                "metric": f"{chosen.label} cannot be compared game by game; choose one of "
                f"{paired_keys}"
            }
        )
    label_a = f"{a.deck.name} v{a.number}"
    label_b = f"{b.deck.name} v{b.number}"
    plan = experiments.new_inputs(
        inputs_a=inputs["a"],
        inputs_b=inputs["b"],
        label_a=label_a,
        label_b=label_b,
        metric=chosen,
        max_games=int(clean["games"]),
        per_chunk=services.chunk_games(),
    )
    return start.create_run(
        kind=RunKind.COMPARISON, deck_version=b, label=f"{label_a} vs {label_b}", inputs=plan
    )


def experiment_stop(*, run_id: int, user) -> str:
    """The owner stops an active comparison or tuning run: it finishes with the rounds
    complete so far (simulations/experiments.py `stop`). Returns what happened."""
    with transaction.atomic():
        run = jobs.lock(SimulationRun, run_id)
        if run is None or run.owner_id != getattr(user, "pk", None):
            raise services.SimulationError("no such run of yours")
        if not experiments.is_experiment(run):
            raise services.SimulationError("only a comparison or a tuning run can be stopped")
        if not run.is_active:
            return "already finished"
        outcome = experiments.stop(run, kinds.get(run.simulation), timezone.now())
        run.save()
    return outcome
