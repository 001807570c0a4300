"""Play services: the games' tools and goldfish, over the catalogue.

A game's `Tool`s and its `Goldfish` (validation/capabilities.py) are pure objects of its
package; these services find them in the registry, read the catalogue's cards a tool needs
(one query), clean the parameters (`validation.params.clean_params`, then the tool's own
checks), compute, and hand the long runs to a worker (`simulations`). No game is named here:
a new game's tools and goldfish work as soon as its package is registered.

Views and API classes parse the request, call one service and render. Bad input raises
`PlayInputError` (one message per field, every error at once), or is reported on a page's
`ToolPage`/`GoldfishPage`. Finding a game, tool or goldfish, the raw values, the seeds and
those errors are `play.inputs`, read through this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardsite.accounts import Viewer, signed_in
from catalogue.services import card_names_by_kind, cards_by_kind
from decks.models import Deck
from simulations.pipeline import clean_goldfish_params, deck_inputs, play_inline
from simulations.services import SimulationError, simulation_start
from validation.capabilities import Goldfish, Tool, ToolInputError, ToolResult
from validation.params import (
    ParamsInvalid,
    ParamSpec,
    clean_params,
    not_applying,
    unset_value,
)
from validation.registry import GameDef
from validation.types import CardFacts

from .inputs import FORM_KEYS as FORM_KEYS
from .inputs import MAX_DECKS as MAX_DECKS
from .inputs import SEED_MAX as SEED_MAX
from .inputs import NotFound as NotFound
from .inputs import PlayInputError as PlayInputError
from .inputs import SignInRequired as SignInRequired
from .inputs import _form_values as _form_values
from .inputs import game as game
from .inputs import game_goldfish as game_goldfish
from .inputs import game_tool as game_tool
from .inputs import games_that_play as games_that_play
from .inputs import missing_seed as missing_seed
from .inputs import query_values as query_values
from .inputs import random_seed as random_seed
from .inputs import request_values as request_values
from .inputs import seed_specs as seed_specs
from .inputs import tool_by_alias as tool_by_alias
from .inputs import with_seed as with_seed

# --- tools ---------------------------------------------------------------------------------


def tool_cards(*, game_slug: str, tool: Tool) -> dict[str, list[CardFacts]]:
    """The catalogue's cards of every kind the tool reads or offers, by kind and name (one
    query)."""
    return cards_by_kind(game_slug=game_slug, kinds=tool.card_kinds)


def _names(cards: Mapping[str, Sequence[CardFacts]]) -> dict[str, list[str]]:
    return {kind: [c.name for c in facts] for kind, facts in cards.items()}


def _spec_label(specs: Sequence[ParamSpec], name: str) -> str:
    return next((s.label for s in specs if s.name == name), name)


def clean_tool_params(
    tool: Tool,
    raw: Mapping[str, Any],
    *,
    cards: Mapping[str, Sequence[CardFacts]],
    lenient: bool = False,
) -> tuple[dict[str, Any], list[str]]:
    """The tool's cleaned parameters and the labels of those ignored.

    A parameter set where its `applies` says it does not apply is, with `lenient` (a page),
    put back to its default and named among the ignored; otherwise (the API) an error.
    Raises PlayInputError with every problem at once."""
    try:
        raw = tool.read_params(raw)
    except ToolInputError as exc:
        raise PlayInputError(exc.message, exc.field) from exc
    try:
        clean = clean_params(tool.params, raw, card_choices=_names(cards), label=tool.label)
    except ParamsInvalid as exc:
        raise PlayInputError(exc.errors) from None
    ignored: list[str] = []
    for spec in not_applying(tool.params, clean):
        if lenient:
            clean[spec.name] = unset_value(spec)
            ignored.append(spec.label)
            continue
        where = " and ".join(f"{k} is {clean.get(k)}" for k in spec.applies or {})
        raise PlayInputError(f"{spec.name} does not apply when {where}", spec.name)
    errors = tool.check_params(clean)
    if errors:
        raise PlayInputError(errors)
    return clean, ignored


def ignored_note(tool: Tool, ignored: Sequence[str]) -> str:
    """A sentence naming the parameters a page ignored."""
    if not ignored:
        return ""
    controls = {k for s in tool.params if s.label in ignored for k in (s.applies or {})}
    words = " and ".join(_spec_label(tool.params, k).lower() for k in sorted(controls))
    return f"Ignored (they do not apply with this {words}): {', '.join(ignored)}."


@dataclass
class ToolAnswer:
    """What a tool answered: its `result` computed now, or the `run` started on a worker."""

    params: dict[str, Any]
    result: ToolResult | None = None
    run: Any = None
    ignored: list[str] = field(default_factory=list)


def _require_sign_in(owner: Viewer, inline_max: int) -> None:
    if not signed_in(owner):
        raise SignInRequired(
            f"runs of more than {inline_max:,} games run on a worker: sign in to start one",
            "games",
        )


def _on_worker(*, owner: Viewer, inline_max: int, **start: Any) -> Any:
    """Start a run on a worker for a signed-in `owner` (`simulation_start` with `start`);
    SignInRequired without one, PlayInputError when the run cannot start."""
    _require_sign_in(owner, inline_max)
    try:
        return simulation_start(owner=owner, **start)
    except SimulationError as exc:
        raise PlayInputError(
            {("" if k == "__all__" else k): v for k, v in exc.errors.items()}
        ) from exc


def _start_run(
    *,
    game_slug: str,
    tool: Tool,
    clean: Mapping[str, Any],
    cards: Mapping[str, Sequence[CardFacts]],
    owner: Viewer,
) -> Any:
    background = tool.background
    assert background is not None  # a tool that runs in the background (tool_answer)
    _require_sign_in(owner, tool.inline_max)
    try:
        inputs = (
            background.inputs_from_params(clean, cards)
            if background.inputs_from_params is not None
            else None
        )
    except ToolInputError as exc:
        raise PlayInputError(exc.message, exc.field) from exc
    params = {p.name: clean[p.name] for p in background.params if p.name in clean}
    return _on_worker(
        owner=owner,
        inline_max=tool.inline_max,
        kind=background.slug,
        params=params,
        inputs=inputs,
        seed=clean.get("seed"),
    )


def tool_answer(
    *,
    game_slug: str,
    tool: Tool,
    raw: Mapping[str, Any],
    owner: Viewer = None,
    lenient: bool = False,
    cards: Mapping[str, Sequence[CardFacts]] | None = None,
) -> ToolAnswer:
    """Clean `raw` and answer: a live tool computes; a tool with a background computes up
    to its `inline_max` games and starts a run on a worker for `owner` beyond (SignInRequired
    without a signed-in owner). Raises PlayInputError."""
    if cards is None:
        cards = tool_cards(game_slug=game_slug, tool=tool)
    clean, ignored = clean_tool_params(tool, raw, cards=cards, lenient=lenient)
    if tool.background is not None and int(clean.get("games") or 0) > tool.inline_max:
        run = _start_run(game_slug=game_slug, tool=tool, clean=clean, cards=cards, owner=owner)
        return ToolAnswer(params=clean, run=run, ignored=ignored)
    try:
        result = tool.compute(clean, cards)
    except ToolInputError as exc:
        raise PlayInputError(exc.message, exc.field) from exc
    return ToolAnswer(params=clean, result=result, ignored=ignored)


def game_tools(*, game: GameDef) -> list[dict[str, Any]]:
    """What the API says of a game's tools: how each is called and its parameters, the
    catalogue's names filling the choices of card parameters, a picker's own where it offers
    fewer (one query)."""
    specs = [p for t in game.tools for p in t.params if p.cards_of_kind]
    kinds = [p.cards_of_kind for p in specs]
    if any(p.card_offered is not None for p in specs):
        facts = cards_by_kind(game_slug=game.slug, kinds=kinds)
        names = _names(facts)
    else:
        facts = {}
        names = card_names_by_kind(game_slug=game.slug, kinds=kinds) if kinds else {}

    def offered(p: ParamSpec) -> Sequence[str]:
        if p.card_offered is not None:
            return p.offered(facts.get(p.cards_of_kind, ()))
        return names.get(p.cards_of_kind, ())

    out = []
    for tool in game.tools:
        entry: dict[str, Any] = {
            "slug": tool.slug,
            "label": tool.label,
            "description": tool.description,
            "method": "GET" if tool.background is None else "POST",
            "params": [p.as_dict(offered(p)) for p in tool.params],
        }
        if tool.background is not None:
            entry["inline_max"] = tool.inline_max
            entry["simulation_kind"] = tool.background.slug
        out.append(entry)
    return out


@dataclass
class ToolPage:
    """What a tool's page shows: the form's values and card choices, and the answer or the
    errors."""

    game: GameDef
    tool: Tool
    values: dict[str, Any]
    choices: dict[str, list[str]]
    errors: dict[str, str] = field(default_factory=dict)
    answer: ToolAnswer | None = None
    status: int = 200
    #: a card parameter's own picker, where it offers fewer cards than its kind holds
    offered: dict[str, list[str]] = field(default_factory=dict)
    #: the pickers among them whose cards depend on the other parameters' choices (only the
    #: chosen card's enemies): an htmx answer draws these anew
    dependent: frozenset[str] = frozenset()

    @property
    def note(self) -> str:
        return ignored_note(self.tool, self.answer.ignored) if self.answer else ""


def tool_page(
    *,
    game: GameDef,
    tool: Tool,
    raw: Mapping[str, Any] | None = None,
    initial: Mapping[str, Any] | None = None,
    owner: Viewer = None,
) -> ToolPage:
    """A tool's page: the form alone (its defaults, or `initial` values), or, with `raw`
    submitted values, the answer or every error. Reads the catalogue once."""
    cards = tool_cards(game_slug=game.slug, tool=tool)
    choices = _names(cards)
    offered = _offered(tool.params, cards, raw if raw is not None else initial or {})
    dependent = frozenset(
        s.name
        for s in tool.params
        if s.name in offered and s.offered(cards.get(s.cards_of_kind, ()), {}) != offered[s.name]
    )
    if raw is not None:
        raw = _unoffered_reset(tool.params, raw, offered)
    if raw is None:
        values = _form_values(tool.params, initial or {})
        return ToolPage(game, tool, values, choices, offered=offered, dependent=dependent)
    try:
        answer = tool_answer(
            game_slug=game.slug, tool=tool, raw=raw, owner=owner, lenient=True, cards=cards
        )
    except PlayInputError as exc:
        values = _form_values(tool.params, raw)
        return ToolPage(
            game,
            tool,
            values,
            choices,
            errors=exc.errors,
            status=exc.status,
            offered=offered,
            dependent=dependent,
        )
    return ToolPage(
        game,
        tool,
        dict(answer.params),
        choices,
        answer=answer,
        offered=offered,
        dependent=dependent,
    )


def _unoffered_reset(
    specs: Sequence[ParamSpec], raw: Mapping[str, Any], offered: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """A page's optional picker left naming a card it no longer offers (the matchup's
    enemy when the player's own card changed sides) is put back to its default, as the
    picker the page now shows is; the API refuses such a card, naming the reason."""
    out = dict(raw)
    for spec in specs:
        value = out.get(spec.name)
        if spec.name not in offered or spec.default != "" or not isinstance(value, str):
            continue
        if value.strip() and value.strip().lower() not in {n.lower() for n in offered[spec.name]}:
            out[spec.name] = ""
    return out


def _offered(
    specs: Sequence[ParamSpec],
    cards: Mapping[str, Sequence[CardFacts]],
    values: Mapping[str, Any],
) -> dict[str, list[str]]:
    """The pickers that offer fewer cards than their kind holds, by parameter name, given
    the cards `values` already name in the other card parameters."""
    chosen: dict[str, CardFacts] = {}
    for spec in specs:
        value = values.get(spec.name)
        if (
            spec.cards_of_kind
            and spec.card_offered is None
            and spec.default is None
            and not (isinstance(value, str) and value.strip())
            and cards.get(spec.cards_of_kind)
        ):
            # a required picker left unset shows its first card: that card is the choice
            value = cards[spec.cards_of_kind][0].name
        if spec.cards_of_kind and isinstance(value, str) and value.strip():
            wanted = value.strip().lower()
            card = next(
                (c for c in cards.get(spec.cards_of_kind, ()) if c.name.lower() == wanted), None
            )
            if card is not None:
                chosen[spec.name] = card
    return {
        s.name: s.offered(
            cards.get(s.cards_of_kind, ()), {k: v for k, v in chosen.items() if k != s.name}
        )
        for s in specs
        if s.cards_of_kind and s.card_offered is not None
    }


def applies_text(tool: Tool, spec: ParamSpec) -> str:
    """Where a parameter applies, in the words of the parameters it depends on ("Attack:
    Firepower attack (Table 4)"), or ""."""
    parts = []
    for name, values in (spec.applies or {}).items():
        control = next((s for s in tool.params if s.name == name), None)
        if control is None:
            continue
        labels = dict(control.choice_list()) if control.type == "choice" else {}
        parts.append(f"{control.label}: {' or '.join(labels.get(v, v) for v in values)}")
    return "; ".join(parts)


# --- goldfish ------------------------------------------------------------------------------

SEED = ParamSpec(
    "seed", "Seed", "int", min=0, max=SEED_MAX, help="empty: a random seed", default=""
)


def goldfish_specs(goldfish: Goldfish[Any]) -> tuple[ParamSpec, ...]:
    """The goldfish's parameters and the seed of its run."""
    return (*goldfish.params, SEED)


def goldfish_decks(*, user: Viewer, game_slug: str) -> list[Deck]:
    """The decks of the game `user` may read that have a version, by name (one query)."""
    return list(
        Deck.objects.visible_to(user)
        .filter(game__slug=game_slug, current_version__isnull=False)
        .select_related("owner", "current_version", "game")
        .order_by("name", "pk")[:MAX_DECKS]
    )


@dataclass
class GoldfishAnswer:
    deck: Any
    params: dict[str, Any]
    seed: int
    summary: dict[str, Any] | None = None
    run: Any = None


def _deck_of(decks: Sequence[Deck], raw: Any) -> Deck:
    if raw in (None, ""):
        raise PlayInputError("pick a deck", "deck")
    text = str(raw)[:40]
    deck = next((d for d in decks if str(d.pk) == text.strip()), None)
    if deck is None:
        raise PlayInputError(f"{text!r} is not one of the decks of this game you can open", "deck")
    return deck


def goldfish_play(
    *,
    game_slug: str,
    goldfish: Goldfish[Any],
    decks: Sequence[Deck],
    raw: Mapping[str, Any],
    owner: Viewer = None,
) -> GoldfishAnswer:
    """Play the goldfish of one of `decks` (the one `raw["deck"]` names): up to its
    `inline_max` games now, more as a run on a worker for a signed-in `owner`. Raises
    PlayInputError (SignInRequired)."""
    values = dict(raw)
    errors: dict[str, str] = {}
    deck = None
    try:
        deck = _deck_of(decks, values.pop("deck", None))
    except PlayInputError as exc:
        errors.update(exc.errors)
    try:
        clean = clean_goldfish_params(
            goldfish, values, specs=goldfish_specs(goldfish), check=not errors
        )
    except ParamsInvalid as exc:
        errors.update(exc.errors)
    if errors:
        raise PlayInputError(errors)
    seed = clean.pop("seed")
    seed = random_seed() if seed == "" else int(seed)
    assert deck is not None  # a deck was found, or errors were raised above
    version = deck.current_version
    assert version is not None  # goldfish_decks lists the decks with a version
    version.deck = deck
    if int(clean.get("games") or 0) > goldfish.inline_max:
        run = _on_worker(
            owner=owner,
            inline_max=goldfish.inline_max,
            kind=goldfish.slug,
            params=clean,
            deck_version=version,
            seed=seed,
        )
        return GoldfishAnswer(deck=deck, params=clean, seed=seed, run=run)
    try:
        played = play_inline(goldfish, deck_inputs(goldfish, version), clean, seed)
    except (ValueError, LookupError) as exc:  # an InputsError among them
        raise PlayInputError(f"this deck cannot be played: {exc}", "deck") from exc
    return GoldfishAnswer(deck=deck, params=clean, seed=seed, summary=played["summary"])


@dataclass
class GoldfishPage:
    game: GameDef
    goldfish: Goldfish[Any]
    decks: list[Deck]
    values: dict[str, Any]
    errors: dict[str, str] = field(default_factory=dict)
    answer: GoldfishAnswer | None = None
    status: int = 200


def goldfish_page(
    *,
    game: GameDef,
    goldfish: Goldfish[Any],
    user: Viewer,
    raw: Mapping[str, Any] | None = None,
    initial: Mapping[str, Any] | None = None,
) -> GoldfishPage:
    """The goldfish page of a game: the decks `user` may pick and the form, and with `raw`
    submitted values the summary, the run started, or every error."""
    decks = goldfish_decks(user=user, game_slug=game.slug)
    specs = goldfish_specs(goldfish)
    if raw is None:
        values = _form_values(specs, initial or {})
        values["deck"] = str((initial or {}).get("deck", ""))[:40]
        return GoldfishPage(game, goldfish, decks, values)
    values = _form_values(specs, raw)
    values["deck"] = str(raw.get("deck", ""))[:40]
    try:
        answer = goldfish_play(
            game_slug=game.slug, goldfish=goldfish, decks=decks, raw=raw, owner=user
        )
    except PlayInputError as exc:
        return GoldfishPage(game, goldfish, decks, values, errors=exc.errors, status=exc.status)
    return GoldfishPage(game, goldfish, decks, values, answer=answer)
