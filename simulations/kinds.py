"""The simulation kinds: what the site can run in the background, read from the games.

A *simulation kind* is a `validation.capabilities.Goldfish` of one registered game: the
game's `goldfish` (a playtest of its decks) or the `background` run of one of its tools (a
long run that needs no deck). The kinds are read from the game registry when they are asked
for, so a game registered later (even inside a test) has its kinds at once, and pages, API,
tasks and admin never ask which game they are dealing with.

`get(slug)` finds one kind, `for_game(game_slug)` lists a game's, `all_kinds()` every
game's; a `SimulationKind` pairs the goldfish with the slug of its game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from validation.capabilities import Goldfish
from validation.params import ParamSpec
from validation.registry import GameDef, registry


class UnknownKind(LookupError):
    """No simulation kind has this slug."""


@dataclass(frozen=True)
class SimulationKind:
    """One kind of background simulation: a goldfish and the game it belongs to."""

    game_slug: str
    goldfish: Goldfish
    #: A tool's background run (not the game's goldfish of a deck).
    tool: bool = False

    @property
    def slug(self) -> str:
        return self.goldfish.slug

    @property
    def label(self) -> str:
        return self.goldfish.label

    @property
    def description(self) -> str:
        return self.goldfish.description

    @property
    def needs_deck(self) -> bool:
        return self.goldfish.needs_deck

    @property
    def params(self) -> tuple[ParamSpec, ...]:
        return self.goldfish.params

    def defaults(self) -> dict[str, Any]:
        return self.goldfish.defaults()

    @property
    def pairs(self) -> bool:
        """Whether two decks can be compared on paired games of this kind."""
        return self.goldfish.play_pair is not None and self.needs_deck

    def card_kinds(self) -> list[str]:
        """The card kinds whose names some parameter offers as its choices."""
        return list(dict.fromkeys(p.cards_of_kind for p in self.params if p.cards_of_kind))

    def as_dict(self, card_choices: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
        """What the API says of the kind; `card_choices` maps a card kind to the names the
        catalogue holds (the choices of a parameter of catalogue cards)."""
        names = card_choices or {}
        return {
            "slug": self.slug,
            "label": self.label,
            "game": self.game_slug,
            "needs_deck": self.needs_deck,
            "default_params": self.defaults(),
            "params": [s.as_dict(names.get(s.cards_of_kind, ())) for s in self.params],
            "metrics": [m.as_dict() for m in self.goldfish.metrics],
            "pairs": self.pairs,
        }


def _of(game: GameDef) -> Iterator[SimulationKind]:
    if game.goldfish is not None:
        yield SimulationKind(game.slug, game.goldfish)
    for tool in game.tools:
        if tool.background is not None:
            yield SimulationKind(game.slug, tool.background, tool=True)


def for_game(game_slug: str) -> list[SimulationKind]:
    """The kinds of one game: its goldfish, then the background runs of its tools."""
    if game_slug not in registry:
        return []
    return list(_of(registry.get(game_slug)))


def all_kinds() -> list[SimulationKind]:
    """Every kind of every registered game, in the registry's order."""
    return [kind for game in registry for kind in _of(game)]


def get(slug: str) -> SimulationKind:
    """The kind `slug`, among the registered games; UnknownKind if none has it."""
    for kind in all_kinds():
        if kind.slug == slug:
            return kind
    raise UnknownKind(f"no simulation kind {slug!r}")


def choices() -> list[tuple[str, str]]:
    """(slug, label) pairs, e.g. for a Django `choices=`."""
    return [(k.slug, k.label) for k in all_kinds()]
