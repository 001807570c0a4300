"""What a play request is read from: the game, tool or goldfish it names (found in the
registry), its raw values and seeds, and the errors a bad one raises (play.services)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.http import QueryDict

from validation.capabilities import Goldfish, Tool
from validation.params import (
    MAX_RAW,
    ParamSpec,
    unset_value,
)
from validation.registry import GameDef, registry

#: Seeds a page or a request draws at random lie below this.
SEED_MAX = 2**31 - 1
#: Decks a goldfish page offers at most.
MAX_DECKS = 200
#: Keys of a form that are not parameters.
FORM_KEYS = ("csrfmiddlewaretoken",)


class NotFound(LookupError):
    """No such game, tool or goldfish."""


class PlayInputError(ValueError):
    """Input that cannot be used: `errors` maps each bad field ("" for the whole request)
    to its message."""

    status = 400

    def __init__(self, errors: Mapping[str, str] | str, field: str = ""):
        self.errors = {field: errors} if isinstance(errors, str) else dict(errors)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return "; ".join(self.errors.values())

    @property
    def field(self) -> str:
        return next(iter(self.errors), "")


class SignInRequired(PlayInputError):
    """A run on a worker needs a signed-in user."""

    status = 403


# --- finding things --------------------------------------------------------------------------


def game(slug: str) -> GameDef:
    if slug not in registry:
        raise NotFound(f"no game {slug!r}")
    return registry.get(slug)


def game_tool(game_slug: str, tool_slug: str) -> tuple[GameDef, Tool]:
    """The game and its tool `tool_slug`; NotFound if either is unknown."""
    definition = game(game_slug)
    for tool in definition.tools:
        if tool.slug == tool_slug:
            return definition, tool
    raise NotFound(f"{definition.name} has no tool {tool_slug!r}")


def tool_by_alias(game_slug: str, slug: str) -> Tool | None:
    """The tool of the game that was once called `slug`, if any."""
    if game_slug not in registry:
        return None
    return next((t for t in registry.get(game_slug).tools if slug in t.aliases), None)


def game_goldfish(game_slug: str) -> tuple[GameDef, Goldfish[Any]]:
    """The game and its goldfish; NotFound if the game has none."""
    definition = game(game_slug)
    if definition.goldfish is None:
        raise NotFound(f"{definition.name} has no goldfish")
    return definition, definition.goldfish


def games_that_play() -> list[GameDef]:
    """Every game with a tool, a goldfish or campaign rules, in the registry's order."""
    return [g for g in registry if g.tools or g.goldfish is not None or g.campaign is not None]


# --- raw values ------------------------------------------------------------------------------


def request_values(data: QueryDict, *, skip: Sequence[str] = FORM_KEYS) -> dict[str, Any]:
    """A query string's or form's values by key: a key given once is its text, a key given
    more than once the list of its values (which no parameter takes)."""
    out: dict[str, Any] = {}
    for key, values in data.lists():
        if key in skip:
            continue
        out[key] = values[0] if len(values) == 1 else list(values)
    return out


def random_seed() -> int:
    return secrets.randbelow(SEED_MAX + 1)


def seed_specs(specs: Sequence[ParamSpec]) -> list[ParamSpec]:
    """The seed parameters without a default: drawn at random when left out."""
    return [s for s in specs if s.name == "seed" and s.type == "int" and s.default is None]


def missing_seed(specs: Sequence[ParamSpec], raw: Mapping[str, Any]) -> bool:
    """Whether a seed parameter without a default is left out of `raw`."""
    return any(raw.get(s.name) in (None, "") for s in seed_specs(specs))


def with_seed(specs: Sequence[ParamSpec], raw: Mapping[str, Any]) -> dict[str, Any]:
    """`raw` with a random seed for a seed parameter without a default left out."""
    out = dict(raw)
    for spec in seed_specs(specs):
        if out.get(spec.name) in (None, ""):
            out[spec.name] = str(random_seed())
    return out


def query_values(specs: Sequence[ParamSpec], clean: Mapping[str, Any]) -> dict[str, str]:
    """The cleaned values as a query string writes them, leaving out those at their
    default (a bool as 1 or 0)."""
    out: dict[str, str] = {}
    for spec in specs:
        value = clean.get(spec.name)
        if spec.name not in clean or value == unset_value(spec) or value == "":
            continue
        out[spec.name] = ("1" if value else "0") if spec.type == "bool" else str(value)
    return out


def _form_values(specs: Sequence[ParamSpec], raw: Mapping[str, Any]) -> dict[str, Any]:
    """What a form shows of values that could not be cleaned: each parameter's own text
    (bounded), else its default."""
    values = {s.name: unset_value(s) for s in specs}
    for spec in specs:
        value = raw.get(spec.name)
        if isinstance(value, str) and "\x00" not in value:
            values[spec.name] = value[:MAX_RAW]
    return values
