"""Start a tuning run of a deck: which single swap helps most at a metric.

`tune_start` reads the cards that may come in: the cards of the kinds the goldfish's
sections take (read from the format's section specs through the registry) that the deck's
rule set allows, narrowed by a catalogue search query of the deck's game (every term must
be read: one that cannot is refused, naming where it starts), by the user's collection, or
by both; with neither, every card that fits is proposed. They are ranked by `PROMISE` and
the first `MAX_INCOMING` come in. Every single swap (one copy of a card of a section the
goldfish reads out, other than the cards to keep, one copy of an incoming card in, of a
kind the section takes) is ordered by the same ranking and tried with the validator in
that order, on the rules core's deck read once, until `MAX_SWAPS` are legal or
`MAX_TRIALS` were tried: the most promising are raced (simulations/tuning.py) on the
workers, never a refusal for having too many. `tune_apply` saves a suggested swap as a new
version of the deck. Every problem is a SimulationError naming its field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db.models import Case, Exists, F, OuterRef, Q, Value, When
from django.db.models.functions import Abs

from catalogue import rulesets
from catalogue.models import Card, Printing, RuleSetCard
from catalogue.search import search_cards
from catalogue.services import GamePool
from collection.interface import loose_card_ids
from decks.lists import (
    COLLECTION_OPTION,
    ListEntry,
    ListInvalid,
    VersionConflict,
    as_sections,
    collection_counts,
    deck_card_names,
    deck_rule_set,
    entries_from_json,
    list_check,
)
from decks.models import DeckVersion
from decks.services import deck_save_version, entries_as_sections
from validation.registry import registry
from validation.runner import validate
from validation.sim.inputs import card_json, entries_json
from validation.types import Deck, Entry

from . import compare, services, tuning
from .kinds import SimulationKind
from .models import RunKind, SimulationRun, Status

MAX_INCOMING = 20
MAX_SWAPS = 60
MAX_TRIALS = 300  # swaps the validator is asked about in one request
MAX_KEEP = 100
#: Candidates read (most promising first) to find the MAX_INCOMING that fit the deck.
MAX_READ = 200
DEFAULT_MAX_GAMES = 50_000
MIN_GAMES = 1_000
MAX_GAMES = 400_000

#: How the most promising cards and swaps are chosen (simulations/tuning.py, shown on the
#: run page).
PROMISE = tuning.PROMISE


def section_kinds(game_slug: str, format: str, sections: Sequence[str]) -> dict[str, set[str]]:
    """Section -> the kinds of the game's cards it takes, read from the format's section
    specs (every kind of the game but those a section excludes, when it names none)."""
    game = registry.get(game_slug)
    fmt = game.format(format)
    out = {}
    for name in sections:
        spec = fmt.section(name)
        out[name] = set(spec.kinds_of(tuple(game.kinds)) if spec else game.kinds)
    return out


def _playable(rule_set) -> Q:
    """The cards a rule set allows (not banned; printed in a legal expansion when it lists
    them); every card for the bare format (None)."""
    if rule_set is None:
        return Q()
    allowed = ~Q(
        Exists(RuleSetCard.objects.filter(card=OuterRef("pk"), rule_set=rule_set, banned=True))
    )
    if rule_set.expansions.exists():
        allowed &= Q(
            Exists(Printing.objects.filter(card=OuterRef("pk"), expansion__rule_sets=rule_set))
        )
    return allowed


def incoming_cards(
    *,
    user,
    game_slug: str,
    query: str,
    collection: bool,
    kinds: set[str],
    base: Deck | None = None,
    rule_set=None,
) -> tuple[list[Any], bool]:
    """The catalogue's cards that may come in, as CardFacts, most promising first (PROMISE),
    at most MAX_READ, and whether there were more: the cards of `kinds` (those
    the goldfish's sections take) allowed by `rule_set` (the deck's), narrowed by `query`
    (a search of the game: every term must be read) and by `collection` (cards the user
    owns). With neither, every card that fits is a candidate. One query for the cards."""
    qs = Card.objects.filter(game__slug=game_slug, kind__in=sorted(kinds)).filter(
        _playable(rule_set)
    )
    if query:
        result = search_cards(query=query, queryset=qs, game_slug=game_slug)
        if result.error:
            raise services.SimulationError({"candidates": result.error})
        if result.dropped:
            terms = "; ".join(str(d) for d in result.dropped)
            them = "them" if len(result.dropped) > 1 else "it"
            raise services.SimulationError(
                {
                    "candidates": f"the query cannot be read whole ({terms}); correct or "
                    f"remove {them}: every term decides which cards may come in"
                }
            )
        qs = result.queryset
    if collection:
        qs = qs.filter(pk__in=loose_card_ids(user))
    ranked = qs.annotate(**_promise(base)).order_by(  # type: ignore[misc]  # annotated above
        "promise_new", "promise_kind", "promise_cost", "name"
    )
    cards = list(ranked.only(*Card.FACT_FIELDS)[: MAX_READ + 1])
    if not cards:
        where = f"the query {query!r}" if query else "your collection" if collection else ""
        if query and collection:
            where += " among the cards you own"
        if not where:
            raise services.SimulationError(
                {"candidates": "no card of the game fits the deck's sections"}
            )
        raise services.SimulationError(
            {"candidates": f"{where} finds no card the deck's sections take"}
        )
    return [c.facts() for c in cards[:MAX_READ]], len(cards) > MAX_READ


def _promise(base: Deck | None) -> dict[str, Any]:
    """The annotations the candidates are ranked by (PROMISE): 0 for a card the deck plays
    (1 otherwise), the rank of its kind by the copies the deck holds of it, and the gap
    between its cost and the deck's average cost for its kind."""
    copies: dict[str, int] = {}
    costs: dict[str, int] = {}
    names: set[str] = set()
    for entries in base.sections.values() if base else ():
        for e in entries:
            names.add(e.card.name)
            copies[e.card.kind] = copies.get(e.card.kind, 0) + e.count
            costs[e.card.kind] = costs.get(e.card.kind, 0) + e.card.cost * e.count
    order = sorted(copies, key=lambda k: (-copies[k], k))
    plays = When(name__in=sorted(names), then=Value(0)) if names else None
    return {
        "promise_new": Case(plays, default=Value(1)) if plays else Value(1),
        "promise_kind": Case(
            *[When(kind=k, then=Value(i)) for i, k in enumerate(order)],
            default=Value(len(order)),
        )
        if order
        else Value(0),
        "promise_cost": Case(
            *[
                When(kind=k, then=Abs(F("cost") - Value(round(costs[k] / copies[k]))))
                for k in order
            ],
            default=Value(0),
        )
        if order
        else Value(0),
    }


def _add_one(rows: list[Entry], card) -> None:
    """One more copy of `card` in `rows`: its row counts one more, or a row of one is added
    at the end."""
    for i, e in enumerate(rows):
        if e.card.name == card.name:
            rows[i] = Entry(e.card, e.count + 1, e.placement)
            return
    rows.append(Entry(card, 1))


def _swapped(deck: Deck, section: str, cut: str, add) -> Deck:
    sections = {name: list(entries) for name, entries in deck.sections.items()}
    rows = [
        Entry(e.card, e.count - 1, e.placement) if e.card.name == cut else e
        for e in sections[section]
    ]
    rows = [e for e in rows if e.count > 0]
    _add_one(rows, add)
    sections[section] = rows
    return Deck(sections=sections, options=deck.options)


def base_deck(*, version: DeckVersion) -> Deck:
    """The version as the rules core reads it (the catalogue's facts of its cards);
    SimulationError when it is not legal as it is: the tuner keeps a legal deck legal."""
    deck = version.deck
    checked = list_check(
        game_slug=deck.game.slug,
        format=deck.format,
        sections=entries_as_sections(version.entries),
        options=dict(version.options),
        owner=deck.owner,
        rule_set=lambda read: deck_rule_set(deck=deck, names=deck_card_names(read)),
    )
    if not checked.report.legal:
        first = checked.report.errors[0].message if checked.report.errors else ""
        raise services.SimulationError(
            {
                "deck": "this version is not legal as it is "
                f"({first}); the tuner tries swaps that keep a legal deck legal"
            }
        )
    return checked.deck


def candidate_pairs(
    base: Deck, sections: Mapping[str, set[str]], incoming: list, keep: set[str]
) -> list[tuple[str, str, Any]]:
    """Every single swap the sections' kinds allow, (section, card out, card in), most
    promising first (PROMISE): a card out ranked by its copies (most first, then name), a
    card in by its place in `incoming`, tried in order of the two ranks added up."""
    pairs = []
    for section, kinds in sections.items():
        cuts = sorted(
            (e for e in base.sections.get(section, []) if e.card.name.lower() not in keep),
            key=lambda e: (-e.count, e.card.name),
        )
        for i, entry in enumerate(cuts):
            for j, add in enumerate(incoming):
                if add.name != entry.card.name and add.kind in kinds:
                    pairs.append((i + j, i, section, entry.card.name, add))
    pairs.sort(key=lambda p: p[:2])
    return [(section, cut, add) for _, _, section, cut, add in pairs]


class _Checker:
    """The validator asked about changes of the deck read once, under its rule set and its
    owner's collection (what the deck's own check reads)."""

    def __init__(self, *, version: DeckVersion, base: Deck, incoming: Sequence[Any]) -> None:
        deck = version.deck
        self.game_slug, self.format = deck.game.slug, deck.format
        options = dict(version.options)
        names = [e.card.name for es in base.sections.values() for e in es]
        names += [c.name for c in incoming]
        if options.get(COLLECTION_OPTION) is True:
            options[COLLECTION_OPTION] = collection_counts(
                owner=deck.owner, game_slug=self.game_slug, names=names
            )
        self.base = Deck(sections=base.sections, options=options)
        self.rule_set = deck_rule_set(deck=deck, names=names)
        self.pool = GamePool(game_slug=self.game_slug)

    def report(self, deck: Deck):
        return validate(self.game_slug, self.format, deck, cards=self.pool, rule_set=self.rule_set)

    def fits(self, card, section: str) -> bool:
        """Whether one more copy of `card` in `section` breaks no rule about the card
        itself (its copies, its faction, a ban, the card pool): a card that cannot come in
        whatever goes out is no candidate. Rules about the whole section (its size, its
        points) are left to the swaps."""
        rows = list(self.base.sections.get(section, []))
        _add_one(rows, card)
        deck = Deck(sections={**self.base.sections, section: rows}, options=self.base.options)
        return not any(card.name in v.cards and len(v.cards) == 1 for v in self.report(deck).errors)


def fitting_cards(
    checker: _Checker, candidates: Sequence[Any], sections: Mapping[str, set[str]]
) -> tuple[list[Any], bool]:
    """The first MAX_INCOMING of `candidates` (in their order) of which one more copy fits
    the deck (`_Checker.fits`, in the first section taking its kind), and whether more
    would have fitted."""
    out: list[Any] = []
    for card in candidates:
        section = next((s for s, kinds in sections.items() if card.kind in kinds), None)
        if section is None or not checker.fits(card, section):
            continue
        if len(out) == MAX_INCOMING:
            return out, True
        out.append(card)
    return out, False


def legal_swaps(
    *, checker: _Checker, pairs: Sequence[tuple[str, str, Any]]
) -> tuple[list[dict[str, Any]], int]:
    """The swaps of `pairs`, in order, that the validator accepts (under the deck's rule
    set and collection), at most MAX_SWAPS of them, asking it at most MAX_TRIALS times;
    and how many it was asked about."""
    swaps: list[dict[str, Any]] = []
    trials = 0
    for section, cut, add in pairs:
        if trials >= MAX_TRIALS or len(swaps) >= MAX_SWAPS:
            break
        trials += 1
        if checker.report(_swapped(checker.base, section, cut, add)).legal:
            swaps.append(
                {
                    "section": section,
                    "cut": cut,
                    "add": add.name,
                    "card": card_json(add, text=False),
                }
            )
    return swaps, trials


def racing_kind(game_slug: str, games: int) -> SimulationKind:
    """The kind a tuning run of a deck of `game_slug` plays: the game's first that pairs
    games and races swaps; SimulationError on `kind`, or on `max_games` when `games` is out
    of the tuning run's bounds."""
    kind = compare.pairing_kind(game_slug, None)
    if kind.goldfish.play_many is None:
        raise services.SimulationError({"kind": f"{kind.label} cannot race swaps"})
    if not MIN_GAMES <= games <= MAX_GAMES:
        raise services.SimulationError(
            {
                "max_games": f"max_games must be between {MIN_GAMES:,} and {MAX_GAMES:,}; got {games:,}"
            }
        )
    return kind


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
    deck = version.deck
    games = DEFAULT_MAX_GAMES if max_games is None else int(max_games)
    start = services.run_start(
        owner=owner,
        doing="tune a deck",
        kind=lambda: racing_kind(deck.game.slug, games),
        params={**(params or {}), "games": games},
        seed=seed,
        decided=True,
        metric=metric,
    )
    kind, clean, chosen = start.kind, start.params, start.metric
    assert chosen is not None  # a run a metric decides
    goldfish = kind.goldfish
    if len(keep) > MAX_KEEP:
        raise services.SimulationError({"keep": f"at most {MAX_KEEP} cards to keep"})
    kept = {str(k).strip().lower() for k in keep if str(k).strip()}
    base = base_deck(version=version)
    kinds = section_kinds(deck.game.slug, deck.format, goldfish.sections)
    pinned = deck.rule_set_pin
    candidates, more_read = incoming_cards(
        user=owner,
        game_slug=deck.game.slug,
        query=query.strip(),
        collection=collection,
        kinds={k for section in kinds.values() for k in section},
        base=base,
        rule_set=pinned if pinned is not None else rulesets.in_force(deck.game.slug, deck.format),
    )
    checker = _Checker(version=version, base=base, incoming=candidates)
    incoming, more = fitting_cards(checker, candidates, kinds)
    more = more or more_read
    if not incoming:
        raise services.SimulationError(
            {
                "candidates": "no single swap of these cards keeps the deck legal: one "
                "more copy of each breaks a rule about the card itself (its copies, its "
                "faction, a ban or the card pool)"
            }
        )
    pairs = candidate_pairs(base, kinds, incoming, kept)
    swaps, trials = legal_swaps(checker=checker, pairs=pairs)
    if not swaps:
        raise services.SimulationError(
            {"candidates": "no single swap of these cards keeps the deck legal"}
        )
    chosen_by = {
        "incoming": [c.name for c in incoming],
        "more_cards": more,
        "possible": len(pairs),
        "tried": trials,
        "raced": len(swaps),
        "proposed": not query.strip() and not collection,
    }
    sections = {s: base.sections.get(s, []) for s in goldfish.sections}
    prepare, play_many = goldfish.prepare, goldfish.play_many
    assert prepare is not None and play_many is not None  # a deck goldfish that races swaps
    try:
        base_inputs = prepare(sections)
        measured, _ = play_many(base_inputs, [], clean, 0, 0, 0)
    except (ValueError, LookupError, TypeError) as exc:
        raise services.SimulationError({"deck": f"this deck cannot be simulated: {exc}"}) from exc
    if chosen.key not in measured:
        raise services.SimulationError(
            {"metric": f"{chosen.label} cannot be compared game by game; choose another"}
        )
    inputs = tuning.new_inputs(
        base=base_inputs,
        sections={s: entries_json(e) for s, e in sections.items()},
        swaps=swaps,
        metric=chosen,
        max_games=games,
        per_chunk=2 * services.chunk_games(),
    )
    inputs["chosen"] = chosen_by
    return start.create_run(
        kind=RunKind.TUNING,
        deck_version=version,
        label=f"Tune {deck.name} v{version.number}",
        inputs=inputs,
    )


def tune_apply(*, run: SimulationRun, user, index: int) -> DeckVersion:
    """Save suggestion `index` of a finished tuning run as a new version of its deck (the
    deck's owner only; the version the run tuned must still be the current one)."""
    if run.status != Status.DONE or run.kind != RunKind.TUNING:
        raise services.SimulationError("this run has no swap to apply")
    suggestions = (run.results or {}).get("suggestions", [])
    if not 0 <= index < len(suggestions):
        raise services.SimulationError({"swap": f"there is no suggestion {index + 1}"})
    version = run.deck_version
    if version is None or version.deck.owner_id != user.pk:
        raise services.SimulationError("only the deck's owner may change it")
    swap = suggestions[index]
    rows: list[ListEntry] = []
    done_cut = done_add = False
    for e in entries_from_json(version.entries):
        count = e.count
        if not done_cut and e.section == swap["section"] and e.card == swap["cut"]:
            count -= 1
            done_cut = True
        if not done_add and e.section == swap["section"] and e.card == swap["add"]:
            count += 1
            done_add = True
        if count > 0:
            rows.append(replace(e, count=count))
    if not done_add:
        rows.append(ListEntry(section=swap["section"], card=swap["add"], count=1))
    try:
        return deck_save_version(
            deck=version.deck,
            author=user,
            sections=as_sections(rows),
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
