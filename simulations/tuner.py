"""Start a tuning run of a deck: which single swap helps most at a metric.

`tune_start` reads the cards that may come in (a catalogue search query of the deck's
game, the user's collection, or both: the cards of the query that the user owns), at most
`MAX_INCOMING` of them; tries every single swap (one copy of a card of a section the
goldfish reads out, other than the cards to keep, one copy of an incoming card in) with the
validator, on the rules core's deck read once; keeps the legal ones (at most `MAX_SWAPS`);
and starts the race (simulations/tuning.py) on the workers. `tune_apply` saves a suggested
swap as a new version of the deck. Every problem is a SimulationError naming its field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from catalogue.models import Card
from catalogue.search import search_cards
from catalogue.services import GamePool
from decks.lists import (
    COLLECTION_OPTION,
    ListInvalid,
    VersionConflict,
    collection_counts,
    list_check,
)
from decks.models import CollectionEntry, DeckVersion
from decks.services import deck_save_version, entries_as_sections
from validation.registry import registry
from validation.runner import validate
from validation.sim.inputs import card_json, entries_json
from validation.types import Deck, Entry

from . import compare, services, tuning
from .models import SimulationRun, Status

MAX_INCOMING = 20
MAX_SWAPS = 60
MAX_TRIALS = 300  # swaps the validator is asked about in one request
MAX_KEEP = 100
DEFAULT_MAX_GAMES = 50_000
MAX_GAMES = 400_000


def incoming_cards(*, user, game_slug: str, query: str, collection: bool) -> list[Any]:
    """The catalogue's cards that may come in, as CardFacts, by name (two queries at most)."""
    qs = Card.objects.filter(game__slug=game_slug)
    if not query and not collection:
        raise services.SimulationError(
            {"candidates": "say which cards may come in: a search query, your collection, or both"}
        )
    if query:
        result = search_cards(query=query, queryset=qs, game_slug=game_slug)
        if result.error:
            raise services.SimulationError({"candidates": result.error})
        qs = result.queryset
    if collection:
        owned = CollectionEntry.objects.filter(owner=user, count__gt=0).values("card_id")
        qs = qs.filter(pk__in=owned)
    cards = list(qs.order_by("name")[: MAX_INCOMING + 1])
    if not cards:
        where = f"the query {query!r}" if query else "your collection"
        if query and collection:
            where += " among the cards you own"
        raise services.SimulationError({"candidates": f"{where} finds no card of this game"})
    if len(cards) > MAX_INCOMING:
        raise services.SimulationError(
            {
                "candidates": f"more than {MAX_INCOMING} cards may come in; narrow the query "
                "(e.g. by kind or cost)"
            }
        )
    return [c.facts() for c in cards]


def _swapped(deck: Deck, section: str, cut: str, add) -> Deck:
    sections = {name: list(entries) for name, entries in deck.sections.items()}
    rows = [
        Entry(e.card, e.count - 1, e.placement) if e.card.name == cut else e
        for e in sections[section]
    ]
    rows = [e for e in rows if e.count > 0]
    for i, e in enumerate(rows):
        if e.card.name == add.name:
            rows[i] = Entry(e.card, e.count + 1, e.placement)
            break
    else:
        rows.append(Entry(add, 1))
    sections[section] = rows
    return Deck(sections=sections, options=deck.options)


def legal_swaps(
    *, version: DeckVersion, goldfish_sections: Sequence[str], incoming: list, keep: set[str]
) -> tuple[Deck, list[dict[str, Any]]]:
    """The deck as the rules core reads it, and every single swap the validator accepts."""
    deck = version.deck
    game_slug = deck.game.slug
    checked = list_check(
        game_slug=game_slug,
        format=deck.format,
        sections=entries_as_sections(version.entries),
        options=dict(version.options),
        owner=deck.owner,
    )
    if not checked.report.legal:
        first = checked.report.errors[0].message if checked.report.errors else ""
        raise services.SimulationError(
            {
                "deck": "this version is not legal as it is "
                f"({first}); the tuner tries swaps that keep a legal deck legal"
            }
        )
    base = checked.deck
    options = dict(version.options)
    if options.get(COLLECTION_OPTION) is True:
        names = [e.card.name for es in base.sections.values() for e in es]
        names += [c.name for c in incoming]
        options[COLLECTION_OPTION] = collection_counts(
            owner=deck.owner, game_slug=game_slug, names=names
        )
    base.options = options
    pool = GamePool(game_slug=game_slug)
    fmt = registry.get(game_slug).format(deck.format)
    swaps = []
    trials = 0
    for section in goldfish_sections:
        spec = fmt.section(section)
        for entry in base.sections.get(section, []):
            cut = entry.card.name
            if cut.lower() in keep:
                continue
            for add in incoming:
                if add.name == cut:
                    continue
                if spec is not None and (
                    (spec.kinds and add.kind not in spec.kinds) or add.kind in spec.exclude
                ):
                    continue  # the section's own kind rule refuses it
                trials += 1
                if trials > MAX_TRIALS or len(swaps) > MAX_SWAPS:
                    raise services.SimulationError(
                        {
                            "candidates": f"too many swaps to try (at most {MAX_SWAPS} legal "
                            f"ones are raced, {MAX_TRIALS} tried): narrow the query or keep "
                            "more cards"
                        }
                    )
                report = validate(
                    game_slug, deck.format, _swapped(base, section, cut, add), cards=pool
                )
                if report.legal:
                    swaps.append(
                        {
                            "section": section,
                            "cut": cut,
                            "add": add.name,
                            "card": card_json(add, text=False),
                        }
                    )
    return base, swaps


def tune_start(
    *,
    owner,
    version: DeckVersion,
    metric: str | None,
    query: str,
    collection: bool,
    keep: Sequence[str] = (),
    max_games: int | None = None,
    params: Mapping[str, Any] | None = None,
    seed: Any = None,
) -> SimulationRun:
    if not getattr(owner, "is_authenticated", False):
        raise services.SimulationError("sign in to tune a deck")
    deck = version.deck
    kind = compare.pairing_kind(deck.game.slug, None)
    goldfish = kind.goldfish
    if goldfish.play_many is None:
        raise services.SimulationError({"kind": f"{kind.label} cannot race swaps"})
    games = DEFAULT_MAX_GAMES if max_games is None else int(max_games)
    if not 1_000 <= games <= MAX_GAMES:
        raise services.SimulationError(
            {"max_games": f"max_games must be between 1,000 and {MAX_GAMES:,}; got {games:,}"}
        )
    clean = services.params_validate(kind, {**(params or {}), "games": games})
    chosen = compare.deciding_metric(kind, metric, clean)
    if len(keep) > MAX_KEEP:
        raise services.SimulationError({"keep": f"at most {MAX_KEEP} cards to keep"})
    kept = {str(k).strip().lower() for k in keep if str(k).strip()}
    incoming = incoming_cards(
        user=owner, game_slug=deck.game.slug, query=query.strip(), collection=collection
    )
    base_deck, swaps = legal_swaps(
        version=version, goldfish_sections=goldfish.sections, incoming=incoming, keep=kept
    )
    if not swaps:
        raise services.SimulationError(
            {"candidates": "no single swap of these cards keeps the deck legal"}
        )
    if len(swaps) > MAX_SWAPS:
        raise services.SimulationError(
            {
                "candidates": f"{len(swaps)} legal swaps; at most {MAX_SWAPS} are raced: "
                "narrow the query or keep more cards"
            }
        )
    sections = {s: base_deck.sections.get(s, []) for s in goldfish.sections}
    try:
        base_inputs = goldfish.prepare(sections)
        measured, _ = goldfish.play_many(base_inputs, [], clean, 0, 0, 0)
    except (ValueError, LookupError, TypeError) as exc:
        raise services.SimulationError({"deck": f"this deck cannot be simulated: {exc}"}) from exc
    if chosen.key not in measured:
        raise services.SimulationError(
            {"metric": f"{chosen.label} cannot be compared game by game; choose another"}
        )
    seed_value = services._seed(seed)
    inputs = tuning.new_inputs(
        base=base_inputs,
        sections={s: entries_json(e) for s, e in sections.items()},
        swaps=swaps,
        metric=chosen,
        max_games=games,
        per_chunk=2 * services.chunk_games(),
    )
    return services.create_run(
        owner=owner,
        kind=kind.slug,
        deck_version=version,
        label=f"Tune {deck.name} v{version.number}",
        params=clean,
        inputs=inputs,
        seed=seed_value,
        n_chunks=len(inputs["chunks"]),
    )


def tune_apply(*, run: SimulationRun, user, index: int) -> DeckVersion:
    """Save suggestion `index` of a finished tuning run as a new version of its deck (the
    deck's owner only; the version the run tuned must still be the current one)."""
    if run.status != Status.DONE or run.inputs.get("experiment") != tuning.TUNE:
        raise services.SimulationError("this run has no swap to apply")
    suggestions = (run.results or {}).get("suggestions", [])
    if not 0 <= index < len(suggestions):
        raise services.SimulationError({"swap": f"there is no suggestion {index + 1}"})
    version = run.deck_version
    if version is None or version.deck.owner_id != user.pk:
        raise services.SimulationError("only the deck's owner may change it")
    swap = suggestions[index]
    rows = []
    done_cut = done_add = False
    for e in version.entries:
        e = dict(e)
        if not done_cut and e["section"] == swap["section"] and e["card"] == swap["cut"]:
            e["count"] = int(e["count"]) - 1
            done_cut = True
        if not done_add and e["section"] == swap["section"] and e["card"] == swap["add"]:
            e["count"] = int(e["count"]) + 1
            done_add = True
        if e["count"] > 0:
            rows.append(e)
    if not done_add:
        rows.append({"section": swap["section"], "card": swap["add"], "count": 1})
    try:
        return deck_save_version(
            deck=version.deck,
            author=user,
            sections=entries_as_sections(rows),
            options=dict(version.options),
            based_on=version.number,
            note=f"Tuner #{run.pk}: {swap['cut']} out, {swap['add']} in",
        )
    except VersionConflict as exc:
        raise services.SimulationError(
            f"the deck changed since it was tuned (now version {exc.current_number}); tune it again"
        ) from exc
    except ListInvalid as exc:
        raise services.SimulationError(f"the swapped list cannot be saved: {exc}") from exc
