"""What a game can do besides construction rules: its optional capabilities.

A `GameDef` (validation/registry.py) may carry, each one optional and each a pure object of
the game's own package (no Django):

- `sections` of its formats: a `SectionSpec` per deck-list section (validation/sections.py:
  name, label, the kinds it holds, its size band, placement area, side), from which the size
  and kind rules are generated and which the builder reads;
- `goldfish`: a `Goldfish`, the background playtest of a deck (parameters with their
  checks, chunk runner, merge, summary, chart specs, the draw rules of the deck panel);
- `tools`: `Tool`s, calculators a player opens beside the table (combat odds, crew
  economy), each a pure function of cleaned parameters and the catalogue's cards it names;
- `campaign`: `CampaignRules`, for games whose players keep a list over a series of games;
- `card_faces`: how a card of each kind is drawn (`FaceSpec`).

The web apps read these objects and never a game's name: a sixth game is one package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic

from validation.params import ParamSpec
from validation.sim.paired import LinedUp
from validation.sim.stats import S, stats_from_json
from validation.types import CardFacts, Entry, plain

# --- Goldfish ------------------------------------------------------------------------------


class InputsError(ValueError):
    """A deck that cannot be played by the goldfish (no units to attack with, a card no
    longer in the catalogue); the message says why."""


@dataclass(frozen=True, slots=True)
class DrawRules:
    """How a deck section is drawn in play, for exact odds and the sample hand: the opening
    hand, cards drawn per turn, whether the first player draws on turn 1, and the game's
    mulligan: `mulligan(hand, library, rng) -> (hand, library, note)` applies it to a drawn
    hand (a Python `random.Random`), `note` saying what it did ("" when kept)."""

    section: str
    opening: int
    draws_per_turn: int = 1
    first_player_draws: bool = True
    mulligan: (
        Callable[
            [list[CardFacts], list[CardFacts], Any],
            tuple[list[CardFacts], list[CardFacts], str],
        ]
        | None
    ) = None
    mulligan_rule: str = ""

    @property
    def turn_by_turn(self) -> bool:
        """Cards come from this section every turn: a cost curve and per-turn draw odds say
        something about it (not so for a deck drawn only by dice or card effects)."""
        return self.draws_per_turn > 0

    def as_dict(self) -> dict[str, Any]:
        fields = plain(self, "section", "opening", "draws_per_turn", "first_player_draws")
        return {**fields, "mulligan": self.mulligan_rule}


def _no_check(params: Mapping[str, Any]) -> dict[str, str]:
    return {}


def _no_charts(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    return []


def _no_figures(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    return []


@dataclass(frozen=True)
class Goldfish(Generic[S]):
    """A background playtest of one game's decks, or a long run of one of its tools.

    - `slug` names it across the site ("redline-goldfish"); `label` and `description` say
      what it plays.
    - `params`: its parameters, each with its default (`games` among them), and
      `check_params(clean) -> {field: message}` for checks across fields.
    - A deck goldfish has `sections` (the deck sections it reads) and
      `prepare(sections) -> inputs`, which turns them (section -> [Entry]) into plain JSON
      inputs stored on the run, so that a worker never reads the catalogue (InputsError when
      the deck cannot be played).
    - A goldfish that needs no deck (a tool's long run) has `reads` (the card kinds it takes
      from the catalogue) and `inputs_from_params(params, cards) -> inputs`, `cards` mapping
      each kind of `reads` to the catalogue's cards of that kind.
    - `stats`: the game's statistics class (validation/sim/stats.py: a dataclass that
      converts to and from JSON and merges chunks exactly, sufficient statistics);
      `run_chunk(inputs, params, seed, chunk_index, n_chunks) -> stats`, a pure function;
      `merge([stats]) -> stats`, the statistics class's own; `summarise(stats, inputs)`;
      `charts(summary)` chart specs (validation/charts.py); `key_figures(summary)`.
      `read_stats(json)` reads stored statistics back.
    - `inline_max`: games a request may play at once for a preview (0: always a worker).
    - `metrics`: what the goldfish measures (validation/sim/metrics.py), the headline one
      first; the run pages, the comparisons and the tuner read them.
    - `paired`: how it plays decks on common random numbers (the game's `LinedUp`,
      validation/sim/paired.py), which gives it the two methods below; None: it cannot pair
      games.
    - `play_pair(inputs_a, inputs_b, params, seed, chunk_index, games, independent)` ->
      `(outcomes_a, outcomes_b)`: both decks played on common random numbers (the same
      streams game by game, the decks' cards lined up so that a card both hold sits at the
      same place), each outcome mapping a metric's key to its per-game values (a numpy
      integer array); `independent=True` gives B streams of its own (the baseline that
      common random numbers are measured against). None without `paired`.
    - `play_many(base, others, params, seed, chunk_index, games)` -> `(outcomes_base,
      [outcomes])`: the base deck once and every other deck on the same streams, each lined
      up on the base (the tuner's round). None without `paired`: the tuner is not offered.
    """

    slug: str
    label: str
    description: str
    params: tuple[ParamSpec, ...]
    stats: type[S]
    run_chunk: Callable[[Mapping[str, Any], Mapping[str, Any], int, int, int], S]
    summarise: Callable[[S, Mapping[str, Any]], dict[str, Any]]
    sections: tuple[str, ...] = ()
    prepare: Callable[[Mapping[str, list[Entry]]], dict[str, Any]] | None = None
    reads: tuple[str, ...] = ()
    inputs_from_params: (
        Callable[[Mapping[str, Any], Mapping[str, Sequence[CardFacts]]], dict[str, Any]] | None
    ) = None
    check_params: Callable[[Mapping[str, Any]], dict[str, str]] = _no_check
    charts: Callable[[Mapping[str, Any]], list[dict[str, Any]]] = _no_charts
    key_figures: Callable[[Mapping[str, Any]], list[tuple[str, str]]] = _no_figures
    inline_max: int = 0
    metrics: tuple[Any, ...] = ()
    paired: LinedUp[Any] | None = None

    def merge(self, parts: Sequence[S]) -> S:
        """The chunks' statistics added up exactly (at least one)."""
        return self.stats.merge(parts)

    @property
    def play_pair(self) -> Callable[..., tuple[dict[str, Any], dict[str, Any]]] | None:
        """Two decks on common random numbers (see the class docstring); None when the
        goldfish cannot pair games."""
        return self.paired.play_pair if self.paired is not None else None

    @property
    def play_many(self) -> Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]] | None:
        """A base deck and others on common random numbers; None when the goldfish cannot
        pair games."""
        return self.paired.play_many if self.paired is not None else None

    @property
    def headline(self) -> Any:
        """The goldfish's headline metric (its first), None when it declares none."""
        return self.metrics[0] if self.metrics else None

    @property
    def needs_deck(self) -> bool:
        """Whether a run plays a saved deck (else its inputs come from its parameters)."""
        return self.prepare is not None

    def defaults(self) -> dict[str, Any]:
        """Every parameter's default value."""
        return {p.name: p.default for p in self.params if p.default is not None}

    def read_stats(self, data: Mapping[str, Any]) -> S:
        """Statistics stored as JSON (a chunk's, a run's) read back as `stats`."""
        return stats_from_json(self.stats, data)


# --- Tools ---------------------------------------------------------------------------------


class ToolInputError(ValueError):
    """A tool input that cannot be used; `field` names it ("" for the whole request)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field


def card_named(name: Any, cards: Sequence[CardFacts], field: str, what: str) -> CardFacts:
    """The card of `cards` called `name` (any case, spaces around it ignored); else a
    ToolInputError on `field`: "'X' is not a <what>", naming the cards there are."""
    wanted = str(name or "").strip().lower()
    for card in cards:
        if card.name.lower() == wanted:
            return card
    names = [c.name for c in cards]
    hint = f"; use one of {', '.join(names)}" if names else "; the catalogue has none"
    raise ToolInputError(f"{name!r} is not a {what}{hint}", field)


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a tool answers: `data` for the API (plain JSON), and for the page a `title`,
    `figures` [(label, text)], `charts` (chart specs, validation/charts.py: among them a
    `grid` whose cells a player clicks to set parameters), `tables` ({"id", "title",
    "columns", "rows"}, cells already written as text or numbers) and `notes` (lines of
    text). A game's own partial may draw `data` its own way."""

    data: Mapping[str, Any]
    figures: Sequence[tuple[str, str]] = ()
    charts: Sequence[Mapping[str, Any]] = ()
    tables: Sequence[Mapping[str, Any]] = ()
    notes: Sequence[str] = ()
    title: str = ""


def _same_params(raw: Mapping[str, Any]) -> dict[str, Any]:
    return dict(raw)


@dataclass(frozen=True)
class Tool:
    """A calculator of one game, opened beside the table.

    `compute(params, cards) -> ToolResult` is pure: `params` are cleaned against `params`
    (then `check_params(clean) -> {field: message}` for checks across fields), `cards` maps
    each kind of `reads` to the catalogue's cards of that kind (CardFacts, by name).

    A tool without a `background` is live: it answers at once, whatever its parameters. A
    tool that can also run long names its `background` goldfish (needs_deck False, its
    parameters named as the tool's, `games` among them, its inputs built by
    `inputs_from_params` from the tool's cleaned parameters) and `inline_max`, the games a
    request computes at once; more run on a worker.

    `read_params(raw) -> raw` turns an older shape of a request into the tool's parameters
    (ToolInputError naming a bad field); `aliases` are former slugs of the tool, whose
    addresses lead to it.

    `deck_table(deck_cards, cards) -> ToolResult`, when the tool has one, is its answer for
    a deck taken to the table, computed once by the server and read offline: every card of
    the deck of a kind the tool reads (`deck_cards`, each once) against what the catalogue
    holds (`cards`, as for `compute`), as tables.
    """

    slug: str
    label: str
    description: str
    params: tuple[ParamSpec, ...]
    compute: Callable[[Mapping[str, Any], Mapping[str, Sequence[CardFacts]]], ToolResult]
    reads: tuple[str, ...] = ()
    background: Goldfish[Any] | None = None
    inline_max: int = 0
    check_params: Callable[[Mapping[str, Any]], dict[str, str]] = _no_check
    read_params: Callable[[Mapping[str, Any]], dict[str, Any]] = _same_params
    aliases: tuple[str, ...] = ()
    deck_table: (
        Callable[[Sequence[CardFacts], Mapping[str, Sequence[CardFacts]]], ToolResult] | None
    ) = None

    @property
    def card_kinds(self) -> tuple[str, ...]:
        """Every card kind the tool needs from the catalogue: those it reads and those whose
        names some parameter offers."""
        named = (p.cards_of_kind for p in self.params if p.cards_of_kind)
        return tuple(dict.fromkeys((*self.reads, *named)))


# --- Campaigns -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CampaignRules:
    """A game whose players keep one list over a series of games (Tactical Assault Part
    VII).

    Each player's list is legal in `format` with its `points_option` set to the campaign's
    points (`default_points` unless the campaign says otherwise): whether the `section`'s
    total (cost × count of its cards of `kinds`, every kind when empty) fits the campaign is
    a rule of that format, the same rule the builder applies (Tactical Assault: exactly the
    campaign's points), never a second rule of the tracker. A result earns `points_for` campaign points ({"win", "loss", "draw"});
    campaign points buy awards (`award_cost` each) or swap cards of the section in and out
    (`swap_cost_per_point` per point swapped; swapped cards must be of `kinds`).
    `decided_by` says in a sentence who wins the campaign; standings order by awards, then
    campaign points, then wins.

    The labels are the game's words, singular nouns whose plural adds an "s": the list a
    player keeps (`list_label`, "force"), a card of its section (`card_label`, "unit"), the
    points the section totals (`points_label`, "unit point") and the award (`award_label`,
    "promotion award").
    """

    format: str
    section: str
    points_for: Mapping[str, int]
    award_label: str
    award_cost: int
    swap_cost_per_point: int
    decided_by: str
    default_points: int
    kinds: tuple[str, ...] = ()
    list_label: str = "list"
    card_label: str = "card"
    points_label: str = "point"
    points_option: str = "points"

    RESULTS = ("win", "loss", "draw")

    def __post_init__(self) -> None:
        if set(self.points_for) != set(self.RESULTS):
            raise ValueError(f"points_for names exactly {', '.join(self.RESULTS)}")
        if any(not isinstance(v, int) or v < 0 for v in self.points_for.values()):
            raise ValueError("points_for: campaign points are whole numbers, 0 or more")
        if self.award_cost < 1 or self.swap_cost_per_point < 0 or self.default_points < 1:
            raise ValueError(
                "award_cost and default_points are at least 1, swap_cost_per_point at least 0"
            )

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "section": self.section,
            "kinds": list(self.kinds),
            "points_for": {r: self.points_for[r] for r in self.RESULTS},
            "award_cost": self.award_cost,
            "swap_cost_per_point": self.swap_cost_per_point,
            "default_points": self.default_points,
            "decided_by": self.decided_by,
            "labels": {
                "list": self.list_label,
                "card": self.card_label,
                "points": self.points_label,
                "award": self.award_label,
            },
        }


# --- Card faces ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FaceSpec:
    """How one card is drawn: `stats` [(label, text)] in print order, `badges` short tags,
    and an optional `figure`, a plain dict a shared partial draws by its `type`:
    {"type": "polygon", "points", "labels", "label", "caption"} (a value on each edge,
    front first, clockwise: `validation.faces.edge_figure`),
    {"type": "table", "columns": [...], "rows": [[...]]}, {"type": "icons", "items":
    [{"label", "symbol"}]}."""

    stats: Sequence[tuple[str, str]] = ()
    badges: Sequence[str] = ()
    figure: Mapping[str, Any] | None = field(default=None)


CardFaceFn = Callable[[CardFacts], FaceSpec]
