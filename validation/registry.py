"""The games the site knows, and their formats.

A `GameDef` describes one game: its factions, card kinds (with attribute schemas), the
sections of its deck lists and its formats. A `FormatDef` is one way of playing a game
(REDLINE `standard`, Tactical Assault `custom`) with the construction rules a deck must
follow. Every game lives in its own package under `validation/games/` and is registered in
`registry`: importing the rules core (`validation/__init__.py`) registers all of them; this
module imports no game.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from validation.capabilities import CampaignRules, CardFaceFn, DrawRules, Goldfish, Tool
from validation.placement import PlacementGrid
from validation.rulebook import Rulebook
from validation.schema import KindSchema
from validation.sections import SectionSpec

if TYPE_CHECKING:
    from validation.rules import Rule, RuleContext
    from validation.types import Deck, Violation


class UnknownFormat(ValueError):
    """A format slug the game does not have."""


@dataclass(frozen=True, slots=True)
class SectionTally:
    """How the runner counts one section of a format for the totals: the copies of the
    cards that belong in it, of `kinds` (any kind when None) and not of `exclude`, as its
    size rule counts them; `side` is the spec of a side's section, whose cards' faction
    decides too (None for any other section)."""

    name: str
    kinds: frozenset[str] | None
    exclude: frozenset[str]
    side: SectionSpec | None


@dataclass(frozen=True, slots=True)
class FormatPlan:
    """What the runner reads of a format for every deck it checks, worked out once per
    format (`FormatDef.plan`) instead of once per deck.

    `sections` are the section names a list may hold; `choice_keys` the adjustable options
    that take a choice, in the order of `FormatDef.choices`; `rules` every rule as
    (its `check`, the section whose absence skips it or None, whether it reads costs), in
    rule order; `tallies` how each section is counted for the totals, in display order."""

    sections: frozenset[str]
    choice_keys: tuple[str, ...]
    rules: tuple[tuple[Callable[[Deck, RuleContext], list[Violation]], str | None, bool], ...]
    tallies: tuple[SectionTally, ...]


@dataclass(frozen=True)
class FormatDef:
    """One format of a game: a name, its parameters, its sections and its construction rules.

    `sections` are the format's `SectionSpec`s in display order (those marked `optional` may
    be left out of a list). `rules` are every rule a deck of the format must follow: the
    size, kind and placement rules its sections generate, then `checks`, the format's own
    rules (copy limits, the leader's faction, points). `options` are the format's
    parameters with their defaults ({"points": 36}); a deck may override only the keys in
    `adjustable` through `Deck.options` (Tactical Assault `custom` takes {"points": 50}).
    `choices` lists the values an adjustable option may take when it is a choice rather than
    a number (REDLINE `scenario` takes {"red_line_style": "on_the_spot"}); the first is the
    default. `option_labels` are the words shown for an option and its values.
    """

    slug: str
    name: str
    description: str
    sections: tuple[SectionSpec, ...] = ()
    checks: tuple[Rule, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    adjustable: frozenset[str] = frozenset()
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    option_labels: Mapping[str, str] = field(default_factory=dict)
    rules: tuple[Rule, ...] = field(init=False, repr=False, compare=False)
    #: Every section a list of this format may hold, in display order (computed once: the
    #: runner reads it for every deck it checks).
    section_names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [s.name for s in self.sections]
        if len(set(names)) != len(names):
            raise ValueError(f"format {self.slug!r} names a section twice: {names}")
        generated = tuple(rule for spec in self.sections for rule in spec.rules())
        object.__setattr__(self, "rules", generated + tuple(self.checks))
        object.__setattr__(self, "section_names", tuple(names))

    @property
    def required_sections(self) -> tuple[str, ...]:
        """The sections every list of the format holds."""
        return tuple(s.name for s in self.sections if not s.optional)

    @property
    def optional_sections(self) -> tuple[str, ...]:
        """The sections a list may leave out (their rules run only when present)."""
        return tuple(s.name for s in self.sections if s.optional)

    def option_label(self, key: str) -> str:
        """The words for an option or one of its values: 'Red line style', 'On the spot'."""
        return self.option_labels.get(key) or key.replace("_", " ").capitalize()

    def option_problem(self, key: str, value: Any) -> str | None:
        """Why `value` is not a valid value of the adjustable option `key` (None when it is):
        a choice must be one of `choices[key]`, any other option a whole number ≥ 1."""
        allowed = self.choices.get(key)
        if allowed is not None:
            if value in allowed:
                return None
            return f"{key} {value!r} is not one of {', '.join(allowed)}"
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"{key} must be a whole number ≥ 1, not {value!r}"
        return None

    def section(self, name: str) -> SectionSpec | None:
        """The spec of section `name`, or None when the format has no such section."""
        return next((s for s in self.sections if s.name == name), None)

    @property
    def main_section(self) -> str | None:
        """The section a deck is mostly made of: the required section with the largest
        lower size bound (REDLINE's arsenal, not its single general), else the first
        required one (else the first section)."""
        candidates = [s for s in self.sections if not s.optional] or list(self.sections)
        if not candidates:
            return None
        return max(enumerate(candidates), key=lambda pair: (pair[1].size[0] or 0, -pair[0]))[1].name

    @cached_property
    def plan(self) -> FormatPlan:
        """What the runner reads of the format for every deck, worked out on first use and
        kept (the format's sections and rules never change)."""
        return FormatPlan(
            sections=frozenset(self.section_names),
            choice_keys=tuple(k for k in self.choices if k in self.adjustable),
            rules=tuple((r.check, r.when_present, r.reads_cost) for r in self.rules),
            tallies=tuple(
                SectionTally(
                    s.name,
                    frozenset(s.kinds) if s.kinds else None,
                    frozenset(s.exclude),
                    s if s.faction else None,
                )
                for s in self.sections
            ),
        )

    def codes(self) -> tuple[str, ...]:
        """The rule codes this format checks, in rule order, without repeats."""
        return tuple(dict.fromkeys(r.code for r in self.rules))

    def as_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "description": self.description,
            "options": dict(self.options),
            "adjustable": sorted(self.adjustable),
            "choices": {k: list(v) for k, v in self.choices.items()},
            "required_sections": list(self.required_sections),
            "optional_sections": list(self.optional_sections),
            "sections": [s.as_dict() for s in self.sections],
            "rules": [
                {"code": r.code, "severity": r.severity, "description": r.describe()}
                for r in self.rules
            ],
        }


TotalsFn = Callable[["Deck", "RuleContext"], dict[str, Any]]


@dataclass(frozen=True)
class MapLayout:
    """A game whose match deals a map from its cards (Red Code): the deck option the layout
    is stored under (read by its rules), the card kind of the map cards, the dealer
    `generate(map_cards, seed) -> layout`, reproducible from its seed, and its drawing
    `draw(layout, map_cards_by_name) -> dict`, plain geometry for the game's own partial."""

    option: str
    kind: str
    generate: Callable[..., dict[str, Any]]
    draw: Callable[[Any, Mapping[str, Any]], dict[str, Any]] = field(
        default=lambda layout, cards: {"layout": layout, "rows": []}
    )


def _no_totals(deck: Deck, ctx: RuleContext) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class GameDef:
    """One game the site catalogues and builds decks for.

    `factions` maps faction slug to label (empty, the default, when the game has none); `kinds` maps card
    kind to its attribute schema; `formats` are its formats, whose `SectionSpec`s make the
    game's `sections` (every section any format has, in the order they first appear);
    `totals` computes the game's totals shown beside a deck (beyond section counts).
    The optional capabilities (validation/capabilities.py): `goldfish`, the background
    playtest of its decks; `tools`, its calculators; `campaign`, its campaign rules;
    `card_faces`, kind -> how a card of that kind is drawn; `draws`, how the sections that
    are shuffled and drawn in play make a hand (the sample hand of the deck page);
    `map_layout`, the map its matches deal from its cards; `placement`, the grid its units
    stand on in the sections with a placement area (validation/placement.py: hex or square
    cells, their geometry and outline), required when a section has one; `trace`, its rulebook's
    traceability table (validation/trace.py): every sentence that bears on building a list
    or on a tool's mathematics, and the rule code, tool or decision it traces to.
    At the table: `card_size_mm`, (width, height) of its cards in millimetres, as printed
    proxies and card images draw them (63 × 88, the common card size, where the rulebook
    gives none); `unit_sheet`, the sections whose cards a unit sheet lists with their
    figures (a force's unit types, an army's units), empty when the game prints none.
    """

    slug: str
    name: str
    description: str
    kinds: dict[str, KindSchema]
    formats: dict[str, FormatDef]
    factions: dict[str, str] = field(default_factory=dict)
    totals: TotalsFn = _no_totals
    python_name: str = ""
    map_layout: MapLayout | None = None
    placement: PlacementGrid | None = None
    goldfish: Goldfish[Any] | None = None
    tools: tuple[Tool, ...] = ()
    campaign: CampaignRules | None = None
    card_faces: Mapping[str, CardFaceFn] = field(default_factory=dict)
    draws: tuple[DrawRules, ...] = ()
    trace: Rulebook | None = None
    card_size_mm: tuple[float, float] = (63.0, 88.0)
    unit_sheet: tuple[str, ...] = ()
    sections: tuple[SectionSpec, ...] = field(init=False, repr=False, compare=False)
    #: section name -> its label, read by every message that names a section.
    _labels: dict[str, str] = field(init=False, repr=False, compare=False)
    #: section name -> where it is in messages ('in the arsenal').
    _places: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        specs: dict[str, SectionSpec] = {}
        for fmt in self.formats.values():
            for spec in fmt.sections:
                specs.setdefault(spec.name, spec)
        object.__setattr__(self, "sections", tuple(specs.values()))
        object.__setattr__(self, "_labels", {s.name: s.label for s in self.sections})
        places = {s.name: f"in the {s.label.lower()}" for s in self.sections}
        object.__setattr__(self, "_places", places)
        placed = [s.name for s in self.sections if s.placement is not None]
        if placed and self.placement is None:
            raise ValueError(
                f"{self.name}: the sections {', '.join(placed)} have a placement area, so the "
                "game needs a placement grid (GameDef.placement: HexGrid(), SquareGrid())"
            )
        if self.campaign is not None:
            self._check_campaign(self.campaign)

    def _check_campaign(self, campaign: CampaignRules) -> None:
        """The campaign's list is kept in one of the game's formats, in a section of it, and
        its kinds are kinds that section holds."""
        fmt = self.formats.get(campaign.format)
        if fmt is None:
            raise ValueError(f"{self.name}: the campaign's format {campaign.format!r} is unknown")
        section = fmt.section(campaign.section)
        if section is None:
            raise ValueError(
                f"{self.name}: the campaign's section {campaign.section!r} is not a section "
                f"of the {fmt.name} format ({', '.join(fmt.section_names)})"
            )
        held = section.kinds
        stray = [k for k in campaign.kinds if held and k not in held]
        if stray:
            raise ValueError(
                f"{self.name}: the campaign's kinds {', '.join(stray)} are not held by "
                f"the {campaign.section!r} section ({', '.join(held)})"
            )

    @property
    def short_name(self) -> str:
        """The game's name without its subtitle ("REDLINE" for "REDLINE: Tactical Card
        Combat"), as messages that name the game beside other names spell it."""
        return self.name.split(":")[0]

    @property
    def section_names(self) -> tuple[str, ...]:
        """Every section name of the game, in display order."""
        return tuple(s.name for s in self.sections)

    @property
    def section_labels(self) -> dict[str, str]:
        return {s.name: s.label for s in self.sections}

    @property
    def placement_sections(self) -> tuple[str, ...]:
        """The sections whose lines may carry a placement (`@c,r`)."""
        return tuple(s.name for s in self.sections if s.placement is not None)

    def tool(self, slug: str) -> Tool:
        """The tool `slug`; KeyError naming the game's tools if none."""
        for t in self.tools:
            if t.slug == slug:
                return t
        names = ", ".join(t.slug for t in self.tools) or "none"
        raise KeyError(f"{self.name} has no tool {slug!r}; tools: {names}")

    def format(self, slug: str) -> FormatDef:
        """The format `slug`; `UnknownFormat` (a ValueError) naming the valid ones if none."""
        try:
            return self.formats[slug]
        except (KeyError, TypeError):
            valid = ", ".join(self.formats)
            raise UnknownFormat(
                f"{self.name} has no format {slug!r}; valid formats: {valid}"
            ) from None

    def kind(self, kind: str) -> KindSchema:
        """The schema of card kind `kind`; KeyError naming the valid kinds if none."""
        try:
            return self.kinds[kind]
        except KeyError:
            raise KeyError(
                f"{self.name} has no card kind {kind!r}; valid kinds: {', '.join(self.kinds)}"
            ) from None

    def has_cost(self, kind: str) -> bool:
        """Whether cards of `kind` have a cost (an unknown kind: yes, shown as stored)."""
        schema = self.kinds.get(kind)
        return schema.has_cost if schema is not None else True

    def section_label(self, section: str) -> str:
        label = self._labels.get(section)
        return label if label is not None else section.replace("_", " ").capitalize()

    def section_place(self, section: str) -> str:
        """Where a section is, in messages: 'in the arsenal', 'in the mission deck'."""
        place = self._places.get(section)
        return place if place is not None else f"in the {self.section_label(section).lower()}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "description": self.description,
            "factions": dict(self.factions),
            "kinds": {k: s.as_dict() for k, s in self.kinds.items()},
            "formats": {k: f.as_dict() for k, f in self.formats.items()},
            "sections": list(self.section_names),
            "section_labels": self.section_labels,
        }


class GameRegistry:
    """The registered games, in registration order."""

    def __init__(self) -> None:
        self._games: dict[str, GameDef] = {}
        self._packages: dict[str, str] = {}

    def register(self, game: GameDef, package: str = "") -> GameDef:
        """Add a game; ValueError when its slug is taken. `package` is the module that
        defines it (found among the imported modules when not given): its folder holds the
        game's templates and sample data (validation/packages.py)."""
        if game.slug in self._games:
            raise ValueError(f"a game with slug {game.slug!r} is already registered")
        self._games[game.slug] = game
        self._packages[game.slug] = package or _defining_module(game)
        return game

    def package(self, slug: str) -> str:
        """The module name of the package defining game `slug` ("" when unknown)."""
        self.get(slug)
        return self._packages.get(slug, "")

    def load(self, module_name: str) -> GameDef:
        """Register the game of package `module_name` (a module defining `GAME`), unless a
        game of that slug is registered already; returns the registered game. ImportError
        or ValueError, naming the module, when it cannot be loaded."""
        module = importlib.import_module(module_name)
        game = getattr(module, "GAME", None)
        if not isinstance(game, GameDef):
            raise ValueError(f"{module_name} defines no GAME (a GameDef)")
        if game.slug in self._games:
            return self._games[game.slug]
        return self.register(game, package=module_name)

    def get(self, slug: str) -> GameDef:
        """The game `slug`; KeyError naming the registered slugs if none."""
        try:
            return self._games[slug]
        except (KeyError, TypeError):
            raise KeyError(
                f"no game {slug!r} is registered; registered games: {', '.join(self._games)}"
            ) from None

    def __contains__(self, slug: object) -> bool:
        return slug in self._games

    def __iter__(self) -> Iterator[GameDef]:
        return iter(list(self._games.values()))

    def __len__(self) -> int:
        return len(self._games)

    def all(self) -> list[GameDef]:
        """Every game, in registration order."""
        return list(self._games.values())

    def slugs(self) -> list[str]:
        return list(self._games)

    def choices(self) -> list[tuple[str, str]]:
        """(slug, name) pairs, e.g. for a Django `choices=`."""
        return [(g.slug, g.name) for g in self._games.values()]

    @contextmanager
    def temporarily(self, game: GameDef, package: str = "") -> Iterator[GameDef]:
        """Register `game` only inside the `with` block (for tests); a game already registered
        under the same slug is hidden meanwhile and restored afterwards."""
        with self.restored():
            self._games[game.slug] = game
            self._packages[game.slug] = package or _defining_module(game)
            yield game

    @contextmanager
    def restored(self) -> Iterator[GameRegistry]:
        """Whatever is registered inside the `with` block is forgotten at its end (for
        tests): the games registered before it are restored as they were."""
        games, packages = dict(self._games), dict(self._packages)
        try:
            yield self
        finally:
            self._games.clear()
            self._games.update(games)
            self._packages.clear()
            self._packages.update(packages)


def _defining_module(game: GameDef) -> str:
    """The name of the imported module whose `GAME` is `game` ("" when none is)."""
    for name, module in list(sys.modules.items()):
        if getattr(module, "GAME", None) is game:
            return name
    return ""


registry = GameRegistry()
