"""Typed hooks, so that one app can add to another's pages, or hear of its changes, without
the other importing it (in the spirit of Wagtail's hooks, typed).

A hook is declared, as a `Hook` of a `Protocol` (the signature every listener has), by the
app that calls it, with its own types: this module declares the project pages' hooks
below; `catalogue.hooks` the catalogue's (its changes, a rule set file's preview, a card's
page); `decks.hooks` a deck page's buttons. An app above registers a listener in its
`ready()` (`HOOK.register(fn)`: mypy checks `fn` against the protocol). A hook is called by
a function of the declaring module that calls every listener and combines all their
answers (a list joined, a mapping merged, with a key given twice an error, a verdict summed),
so that no listener's answer overwrites another's.

A hook runs in the caller's transaction only when it says so (`within`, its words in the
docs and checked when it is called: `catalogue.hooks.RULE_SET_DELETING`); the others are
called outside any transaction of the caller's, or defer their work until it commits.

The project's hooks:
- `GAME_TOOLS`: `fn(game_slug) -> [ToolLink]`, buttons on a game's page (the play app's).
- `CARD_COUNTS`: `fn() -> {game_slug: cards}`, the home page's counts (the catalogue's).
- `PROFILE_CONTEXT`: `fn(user) -> {name: value}`, added to the profile page's context (the
  decks app's list of the user's decks, the notices app's settings).
- `HOME_PANELS`: `fn(request) -> [Panel]`, panels of the home page (the decklists app's
  strip of this week's popular decklists).

The project package imports no app (an import-linter contract).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, NotRequired, Protocol, TypedDict, TypeVar

from django.db import connection
from django.http import HttpRequest

F = TypeVar("F", bound=Callable[..., object])
V = TypeVar("V")


class Hook(Generic[F]):
    """One hook: its name, its listeners (of the protocol `F`), in the order registered, and,
    when its listeners run inside the caller's transaction, which one (`within`)."""

    def __init__(self, name: str, *, within: str = "") -> None:
        self.name = name
        self.within = within
        self._listeners: list[F] = []

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {len(self._listeners)} listeners>"

    def register(self, fn: F) -> F:
        """Add a listener (once)."""
        if fn not in self._listeners:
            self._listeners.append(fn)
        return fn

    @property
    def listeners(self) -> tuple[F, ...]:
        """The listeners, in the order registered. A hook that says it runs in the caller's
        transaction is only called inside one."""
        if self.within and not connection.in_atomic_block:
            raise RuntimeError(f"the {self.name} hook runs inside {self.within}")
        return tuple(self._listeners)


def merged(name: str, answers: Iterable[Mapping[str, V]]) -> dict[str, V]:
    """The listeners' mappings as one; a key two listeners give is an error (neither may
    overwrite the other)."""
    out: dict[str, V] = {}
    for answer in answers:
        for key, value in answer.items():
            if key in out:
                raise ValueError(f"two listeners of the {name} hook give {key!r}")
            out[key] = value
    return out


@dataclass(frozen=True)
class Panel:
    """A panel an app adds to a page: its template, drawn with `context` as `panel`."""

    template: str
    context: Mapping[str, Any] = field(default_factory=dict)


class ToolLink(TypedDict):
    """A button on a game's page."""

    label: str
    url: str
    description: str


class PageLink(TypedDict):
    """A button an app adds to another's page: its label and address, an element id and a
    line of help when it has them."""

    label: str
    url: str
    id: NotRequired[str]
    help: NotRequired[str]


# --- The project's pages ---------------------------------------------------------------------


class GameTools(Protocol):
    def __call__(self, game_slug: str, /) -> list[ToolLink]: ...


class CardCounts(Protocol):
    def __call__(self) -> Mapping[str, int]: ...


class ProfileContext(Protocol):
    def __call__(self, user: Any) -> Mapping[str, Any]: ...


class HomePanels(Protocol):
    def __call__(self, request: HttpRequest) -> list[Panel]: ...


GAME_TOOLS: Hook[GameTools] = Hook("game_tools")
CARD_COUNTS: Hook[CardCounts] = Hook("card_counts")
PROFILE_CONTEXT: Hook[ProfileContext] = Hook("profile_context")
HOME_PANELS: Hook[HomePanels] = Hook("home_panels")


def game_tools(game_slug: str) -> list[ToolLink]:
    """Every tool any app offers for a game."""
    return [tool for fn in GAME_TOOLS.listeners for tool in fn(game_slug)]


def card_counts() -> dict[str, int]:
    """Cards per game, from every app that counts them."""
    return merged(CARD_COUNTS.name, (fn() for fn in CARD_COUNTS.listeners))


def profile_context(user: Any) -> dict[str, Any]:
    """What the apps add to `user`'s profile page."""
    return merged(PROFILE_CONTEXT.name, (fn(user) for fn in PROFILE_CONTEXT.listeners))


def home_panels(request: HttpRequest) -> list[Panel]:
    """The panels every app adds to the home page."""
    return [panel for fn in HOME_PANELS.listeners for panel in fn(request)]
