"""Goldfish statistics as types: what a chunk of a run answers, what chunks merge into and
what a summary is read from.

Every goldfish declares its statistics class (`Goldfish.stats`), a dataclass of its game that
satisfies `Statistics`: `games` (how many games it counts), `as_dict()` (plain JSON, what a
run stores for each chunk and for the merged run), `from_dict(data)` (the same object read
back; `from_dict(s.as_dict()) == s`) and `merge(parts)` (the chunks added up exactly). A
worker turns a chunk's statistics into JSON once, and the last chunk reads every chunk's
JSON back once; between the two, the goldfish's `merge` and `summarise` take the game's own
type, never a dict.

`CountStats` is the statistics of the kernel's layout (validation/sim/kernel.py: a kind, the
turns, the games and the named counts), which a game subclasses with its `KIND`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, TypeVar

from validation.sim import kernel


class Statistics(Protocol):
    """The sufficient statistics of some games of one goldfish, as a type that round-trips
    through JSON."""

    @property
    def games(self) -> int: ...

    def as_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self: ...

    @classmethod
    def merge(cls, parts: Sequence[Self]) -> Self:
        """The statistics of the games of all `parts` (at least one), added up exactly."""
        ...


S = TypeVar("S", bound=Statistics)


def stats_from_json(stats: type[S], data: Mapping[str, Any]) -> S:
    """`data` read as `stats`; a ValueError that says what is wrong when it cannot be."""
    try:
        return stats.from_dict(data)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not the statistics of {stats.__name__}: {exc!r}") from exc


@dataclass(frozen=True, slots=True)
class CountStats:
    """Statistics in the kernel's layout: `turns` played per game, `games`, and `counts`
    (ints, lists of ints and dicts of those, named by the kernel's conventions). A game
    subclasses it with its `KIND`, which `from_dict` checks."""

    KIND: ClassVar[str] = ""

    turns: int
    games: int
    counts: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        kind = data.get("kind", cls.KIND)
        if cls.KIND and kind != cls.KIND:
            raise ValueError(f"statistics of {kind!r} are not {cls.KIND!r} statistics")
        return cls(turns=int(data["turns"]), games=int(data["games"]), counts=data["counts"])

    @classmethod
    def of(cls, stats: kernel.Stats) -> Self:
        """The kernel's statistics dict (`kernel.new_stats`) as this type."""
        return cls.from_dict(stats)

    def as_dict(self) -> kernel.Stats:
        return kernel.new_stats(self.KIND, self.turns, self.games, self.counts)

    @classmethod
    def merge(cls, parts: Iterable[Self]) -> Self:
        """The chunks added up exactly (at least one); turns must agree."""
        return cls.from_dict(kernel.merge_all(p.as_dict() for p in parts))

    def summary(self) -> dict[str, Any]:
        """The kernel's derived figures (`kernel.summarise`)."""
        return kernel.summarise(self.as_dict())


def read_all(stats: type[S], parts: Sequence[Mapping[str, Any]]) -> list[S]:
    """Each chunk's stored JSON read back as `stats`."""
    return [stats_from_json(stats, p) for p in parts]
