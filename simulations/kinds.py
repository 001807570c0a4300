"""The registry of simulation kinds.

A *simulation kind* is one thing the site can simulate in the background: a goldfish of one
game's deck, a close-combat duel between two units… It is described by plain functions, so
that pages, the API, the tasks and the admin never ask which game they are dealing with
(no ``if game == ...`` outside a kind):

* ``build_inputs(deck_version) -> dict``: the plain, JSON-serialisable facts the kernel needs
  (e.g. the arsenal as card facts), read from the catalogue once when the run starts and
  stored on the run, so that a worker never touches the catalogue and a run stays
  reproducible after the catalogue changes. Kinds with ``needs_deck=False`` take their
  inputs from the caller (``simulation_start(..., inputs=...)``) or from
  ``inputs_from_params(params)``.
* ``run_chunk(inputs, params, seed, chunk_index, n_chunks) -> stats``: play chunk
  ``chunk_index`` of ``n_chunks`` of a run of ``params["games"]`` games; a pure function of
  its arguments (same arguments, same statistics) so that a re-delivered chunk is harmless.
* ``merge(list_of_stats) -> stats``: combine chunks exactly (sufficient statistics).
* ``summarise(stats, inputs) -> dict``: derived figures (a one-argument ``summarise(stats)``
  is accepted too).
* ``charts(summary) -> list of chart specs`` (see ``simulations.charts``) and
  ``key_figures(summary) -> [(label, text)]`` for the run and comparison pages.

Register a kind with ``register(kind)`` (idempotent for the same slug and object; a
different object under a taken slug is refused unless ``replace=True``), read one with
``get(slug)`` and a game's kinds with ``for_game(game_slug)``; ``temporarily(kind)`` is for
tests.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

ParamType = Literal["int", "bool", "choice", "str"]


class UnknownKind(LookupError):
    """No simulation kind has this slug."""


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One parameter of a kind: its name, label, type and bounds.

    ``choices`` (for ``type="choice"``) is a sequence of (value, label) pairs or a callable
    returning one (e.g. unit names read from the catalogue).
    """

    name: str
    label: str
    type: ParamType = "int"
    min: int | None = None
    max: int | None = None
    help: str = ""
    choices: Sequence[tuple[str, str]] | Callable[[], Sequence[tuple[str, str]]] = ()

    def choice_list(self) -> list[tuple[str, str]]:
        raw = self.choices() if callable(self.choices) else self.choices
        return [(str(v), str(label)) for v, label in raw]

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "type": self.type,
            "min": self.min,
            "max": self.max,
            "help": self.help,
        }
        if self.type == "choice":
            out["choices"] = self.choice_list()
        return out


def _no_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    return []


def _no_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    return []


def _no_check(params: Mapping[str, Any]) -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class SimulationKind:
    """One kind of background simulation; see the module docstring for the functions."""

    slug: str
    label: str
    game_slug: str
    needs_deck: bool
    default_params: Mapping[str, Any]
    param_specs: Sequence[ParamSpec]
    run_chunk: Callable[[Mapping[str, Any], Mapping[str, Any], int, int, int], dict[str, Any]]
    merge: Callable[[list[dict[str, Any]]], dict[str, Any]]
    summarise: Callable[..., dict[str, Any]]
    build_inputs: Callable[[Any], dict[str, Any]] | None = None
    charts: Callable[[Mapping[str, Any]], list[dict[str, Any]]] = _no_charts
    key_figures: Callable[[Mapping[str, Any]], list[tuple[str, str]]] = _no_figures
    check_params: Callable[[Mapping[str, Any]], dict[str, str]] = _no_check
    inputs_from_params: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    description: str = ""

    def spec(self, name: str) -> ParamSpec:
        for spec in self.param_specs:
            if spec.name == name:
                return spec
        raise KeyError(name)

    def summarise_with(self, stats: dict[str, Any], inputs: Mapping[str, Any]) -> dict[str, Any]:
        """Call ``summarise`` with the inputs when it takes them."""
        try:
            n = len(inspect.signature(self.summarise).parameters)
        except (TypeError, ValueError):  # builtins without a signature
            n = 1
        return self.summarise(stats, inputs) if n >= 2 else self.summarise(stats)

    def as_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "label": self.label,
            "game": self.game_slug,
            "needs_deck": self.needs_deck,
            "default_params": dict(self.default_params),
            "params": [s.as_dict() for s in self.param_specs],
        }


_kinds: dict[str, SimulationKind] = {}


def register(kind: SimulationKind, *, replace: bool = False) -> SimulationKind:
    """Add a kind. Registering the same object twice is harmless (ready() may run twice)."""
    current = _kinds.get(kind.slug)
    if current is not None and current is not kind and current != kind and not replace:
        raise ValueError(f"a simulation kind {kind.slug!r} is already registered")
    _kinds[kind.slug] = kind
    return kind


def unregister(slug: str) -> None:
    _kinds.pop(slug, None)


def get(slug: str) -> SimulationKind:
    try:
        return _kinds[slug]
    except KeyError:
        raise UnknownKind(f"no simulation kind {slug!r}") from None


def all_kinds() -> list[SimulationKind]:
    return list(_kinds.values())


def for_game(game_slug: str) -> list[SimulationKind]:
    """The kinds of one game, in registration order."""
    return [k for k in _kinds.values() if k.game_slug == game_slug]


def choices() -> list[tuple[str, str]]:
    return [(k.slug, k.label) for k in _kinds.values()]


@contextmanager
def temporarily(kind: SimulationKind) -> Iterator[SimulationKind]:
    """Register ``kind`` for the duration of a ``with`` block (tests)."""
    previous = _kinds.get(kind.slug)
    _kinds[kind.slug] = kind
    try:
        yield kind
    finally:
        if previous is None:
            _kinds.pop(kind.slug, None)
        else:
            _kinds[kind.slug] = previous
