"""Reads of decks (no writes): a user's decks and the public ones, a version by section,
the diff of two versions, an export, the cards of a deck its reader lacks, the sample hand.
Writes are in decks.services."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from django.db.models import Q, QuerySet

from cardsite.accounts import Viewer
from catalogue import rulesets
from catalogue.models import Card, Game
from catalogue.services import card_facts_by_names
from validation import decklist
from validation.capabilities import DrawRules, InputsError
from validation.registry import FormatDef, registry
from validation.sample_hand import MAX_EXTRA_DRAWS, DrawnSection, deal
from validation.types import CardFacts, Entry, RuleSetFacts, plain

from .list_header import export_header
from .lists import IN_FORCE, deck_rule_set, entries_from_json
from .lists.edits import sections_for
from .lists.entries import Cell
from .lists.holdings import owned_counts
from .models import Deck as DeckModel
from .models import DeckVersion
from .presentation import kind_groups, section_order
from .services import entries_as_sections
from .verdicts import only_fresh, with_in_force

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_SEED = 2**31 - 1


class ShownCard(TypedDict):
    """A card of a sample hand as the page shows it, with its catalogue id for the link."""

    name: str
    kind: str
    cost: int
    pk: int | None


@dataclass(frozen=True)
class HandSection:
    """A drawn section as the page shows it: its label, the rule, and the cards with links."""

    section: str
    label: str
    rule: DrawRules
    dealt: DrawnSection
    opening: list[ShownCard]
    drawn: list[ShownCard]
    drawn_count: int


class ListedDeck(Protocol):
    """What the listings and exports read of a deck (a Deck, or a published decklist)."""

    @property
    def name(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def game(self) -> Game: ...


class ListedVersion(Protocol):
    """What the listings and exports read of a version (a DeckVersion, or a published
    decklist)."""

    @property
    def number(self) -> int: ...
    @property
    def list_text(self) -> str: ...
    @property
    def entries(self) -> list[dict[str, Any]]: ...
    @property
    def options(self) -> dict[str, Any]: ...


def new_seed() -> int:
    return random.SystemRandom().randint(1, MAX_SEED)


def drawn_sections(game_slug: str) -> tuple[DrawRules, ...]:
    return registry.get(game_slug).draws if game_slug in registry else ()


def sample_hand(
    *, deck: DeckModel, version: DeckVersion, seed: int, extra: dict[str, int]
) -> list[HandSection]:
    """The sample hand of a version: every drawn section dealt with the game's rules, from
    the seed, with `extra[section]` cards drawn after the opening hand. Two queries."""
    rules = drawn_sections(deck.game.slug)
    wanted = {r.section for r in rules}
    entries = [e for e in entries_from_json(version.entries) if e.section in wanted]
    pool = card_facts_by_names(game_slug=deck.game.slug, names=[e.card for e in entries])
    sections: dict[str, list[Entry]] = {}
    for e in entries:
        facts = pool.get(e.card.lower())
        if facts is not None:
            sections.setdefault(e.section, []).append(Entry(facts, e.count))
    pks = dict(
        Card.objects.filter(
            game_id=deck.game_id, name__in=[f.name for f in pool.values()]
        ).values_list("name", "pk")
    )
    definition = registry.get(deck.game.slug)

    def shown(cards: Iterable[CardFacts]) -> list[ShownCard]:
        return [
            {"name": c.name, "kind": c.kind, "cost": c.cost, "pk": pks.get(c.name)} for c in cards
        ]

    clamped = {k: max(0, min(int(v), MAX_EXTRA_DRAWS)) for k, v in extra.items()}
    dealt = deal(sections, rules, seed=seed, extra=clamped)
    return [
        HandSection(
            section=d.section,
            label=definition.section_label(d.section),
            rule=rule,
            dealt=d,
            opening=shown(d.opening),
            drawn=shown(d.drawn),
            drawn_count=len(d.drawn),
        )
        for rule, d in zip(rules, dealt, strict=True)
    ]


def deck_list_for_owner(*, owner: Viewer) -> list[DeckModel]:
    """The user's decks, most recently updated first, with their game and the code of the
    rule set in effect today in their format (`in_force_code`, for `decks_refresh`; one
    query)."""
    return list(
        with_in_force(DeckModel.objects.owned_by(owner))
        .select_related("game")
        .order_by("-updated_at", "-id")
    )


class CardCount(TypedDict):
    """A line of a version diff: a card (with its placement) and its copies."""

    card: str
    count: int


class CountChange(TypedDict):
    """A line of a version diff whose copies changed: before and after."""

    card: str
    before: int
    after: int


@dataclass
class SectionDiff:
    """What changed in one section between two versions."""

    section: str
    label: str
    added: list[CardCount] = field(default_factory=list)
    removed: list[CardCount] = field(default_factory=list)
    changed: list[CountChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def as_dict(self) -> dict[str, Any]:
        return plain(self, "section", "added", "removed", "changed")


def version_entries(
    *, version: DeckVersion, sections: Iterable[str], rule_set: RuleSetFacts | None = IN_FORCE
) -> dict[str, list[Entry]]:
    """The named sections of a version as the rules core's entries, in list order, with the
    catalogue's facts of every card (one query) and the costs of `rule_set` (by default the
    deck's own: its pin, or the rule set in effect today; a goldfish plays the costs the deck
    is checked under); every section asked for is a key, empty when the list has none. A
    card no longer in the catalogue raises InputsError naming it."""
    wanted = list(dict.fromkeys(sections))
    entries = [e for e in entries_from_json(version.entries) if e.section in wanted]
    names = [e.card for e in entries]
    if rule_set is IN_FORCE:
        rule_set = deck_rule_set(deck=version.deck, names=names)
    facts = card_facts_by_names(game_slug=version.deck.game.slug, names=names)
    out: dict[str, list[Entry]] = {s: [] for s in wanted}
    for e in entries:
        card = facts.get(e.card.lower())
        if card is None:
            raise InputsError(f"{e.card} is no longer in the catalogue")
        if rule_set is not None:
            card = rule_set.card(card)
        out[e.section].append(Entry(card, e.count, e.placement))
    return out


def deck_diff(*, version_a: DeckVersion, version_b: DeckVersion) -> list[SectionDiff]:
    """Per section, the cards added, removed and whose count changed from `version_a` to
    `version_b`, in the game's section order. A placed unit (its placement) is its own line."""
    game = registry.get(version_a.deck.game.slug) if version_a.deck.game.slug in registry else None

    def counts(version: DeckVersion) -> dict[str, dict[tuple[str, Cell | None], int]]:
        out: dict[str, dict[tuple[str, Cell | None], int]] = {}
        for e in entries_from_json(version.entries):
            key = (e.card, e.placement)
            sec = out.setdefault(e.section, {})
            sec[key] = sec.get(key, 0) + e.count
        return out

    a, b = counts(version_a), counts(version_b)
    order = list(game.section_names) if game else []
    order += [s for s in [*a, *b] if s not in order]
    diffs = []
    for section in order:
        if section not in a and section not in b:
            continue
        before, after = a.get(section, {}), b.get(section, {})
        d = SectionDiff(section, game.section_label(section) if game else section)
        for key in sorted(set(before) | set(after), key=lambda k: (k[0].lower(), k[1] or ())):
            label = key[0] + (f" @{key[1][0]},{key[1][1]}" if key[1] else "")
            x, y = before.get(key, 0), after.get(key, 0)
            if not x:
                d.added.append({"card": label, "count": y})
            elif not y:
                d.removed.append({"card": label, "count": x})
            elif x != y:
                d.changed.append({"card": label, "before": x, "after": y})
        diffs.append(d)
    return diffs


def listed_entries(
    *, deck: ListedDeck, version: ListedVersion, facts: Mapping[str, CardFacts] | None = None
) -> list[tuple[str, list[dict[str, Any]]]]:
    """A version's stored entries section by section in the order the deck page lists them:
    the format's sections (then any other the list holds), each section's cards grouped by
    kind, by cost then name within a kind (`decks.presentation.kind_groups`). `facts`: the
    cards' facts by lower-cased name when the caller has read them (else one query). A game
    no longer in the registry keeps the stored order."""
    held: dict[str, list[dict[str, Any]]] = {}
    for e in version.entries:
        held.setdefault(e["section"], []).append(e)
    if deck.game.slug not in registry:
        return list(held.items())
    game = registry.get(deck.game.slug)
    fmt = game.formats.get(deck.format)
    if facts is None:
        names = [e["card"] for e in version.entries]
        facts = card_facts_by_names(game_slug=deck.game.slug, names=names)
    known = facts

    def facts_of(entry: Mapping[str, Any]) -> CardFacts | None:
        return known.get(entry["card"].lower())

    order = section_order(fmt.section_names if fmt else game.section_names, held)
    return [
        (
            section,
            [
                e
                for _, _, group in kind_groups(game, held[section], facts_of, lambda e: e["card"])
                for e in group
            ],
        )
        for section in order
        if held.get(section)
    ]


def deck_export(
    *,
    deck: ListedDeck,
    version: ListedVersion,
    as_: str = "text",
    facts: Mapping[str, CardFacts] | None = None,
) -> str | dict[str, Any]:
    """A version of a deck as the text list (`as_="text"`), its cards in the order the deck
    page lists them (`listed_entries`; `facts` as there), or its JSON twin (`"json"`)."""
    if as_ == "text":
        header = export_header(
            name=deck.name, game_slug=deck.game.slug, format=deck.format, options=version.options
        )
        if deck.game.slug not in registry:
            return header + version.list_text
        sections = listed_entries(deck=deck, version=version, facts=facts)
        return header + decklist.write(
            registry.get(deck.game.slug),
            [
                (
                    section,
                    [(e["count"], e["card"], e.get(decklist.PLACEMENT)) for e in entries],
                )
                for section, entries in sections
            ],
        )
    if as_ == "json":
        return {
            "game": deck.game.slug,
            "format": deck.format,
            "name": deck.name,
            "version": version.number,
            "options": dict(version.options),
            "sections": entries_as_sections(version.entries),
        }
    raise ValueError(f"unknown export format {as_!r}; use text or json")


class MissingCard(TypedDict):
    """A card of a version the user lacks: copies needed, owned and missing."""

    card: str
    needed: int
    owned: int
    missing: int


def collection_missing(
    *, owner: User, deck: DeckModel, version: DeckVersion | None = None
) -> list[MissingCard]:
    """The cards of a deck's version (the current one by default) the user lacks:
    [{card, needed, owned, missing}] sorted by name, counting copies across sections (owned:
    products and loose cards, the collection app through decks.lists.holdings)."""
    version = version or deck.current_version
    if version is None:
        return []
    needed: dict[str, int] = {}
    for e in version.entries:
        needed[e["card"]] = needed.get(e["card"], 0) + e["count"]
    owned = owned_counts(owner=owner, game_id=deck.game_id, names=needed)
    out: list[MissingCard] = []
    for name in sorted(needed, key=str.lower):
        have = owned.get(name, 0)
        if have < needed[name]:
            out.append(
                {
                    "card": name,
                    "needed": needed[name],
                    "owned": have,
                    "missing": needed[name] - have,
                }
            )
    return out


def deck_public_list(
    *, game_slug: str | None = None, query: str = "", legal_in: str = ""
) -> QuerySet[DeckModel]:
    """Public decks (of one game), newest first, whose name contains `query`; with
    `legal_in` (a format), only the decks of that format legal today: their verdict is under
    the rule set in effect today (they follow the format, or are pinned to that very rule set)
    and legal (a following deck not yet re-checked under today's rule set is left out). A
    queryset with the game, the owner and `in_force_code`, for pagination."""
    qs = with_in_force(DeckModel.objects.public().select_related("game", "owner"))
    if game_slug:
        qs = qs.filter(game__slug=game_slug)
    if query:
        qs = qs.filter(name__icontains=query)
    if legal_in:
        games = [registry.get(game_slug)] if game_slug and game_slug in registry else registry.all()
        today_q = Q(pk__in=[])
        for game in games:
            if legal_in not in game.formats:
                continue
            current = rulesets.in_force(game.slug, legal_in)
            pinned = Q(rule_set_pin__isnull=True)
            if current is not None:
                pinned |= Q(rule_set_pin_id=current.pk)
            today_q |= Q(game__slug=game.slug) & pinned
        # A following deck whose verdict is still under yesterday's rule set is left out
        # until it is re-checked (only_fresh): its verdict is not today's.
        qs = only_fresh(qs.filter(today_q, format=legal_in, legal=True))
    return qs.order_by("-updated_at", "-id")


@dataclass
class SectionView:
    """A section of a version as shown: label, entries and the number of cards."""

    section: str
    label: str
    entries: list[dict[str, Any]]
    total: int


def version_sections(*, deck: ListedDeck, version: ListedVersion) -> list[SectionView]:
    """The entries of a version by section, in the order the deck page lists them
    (`listed_entries`: one query)."""
    game = registry.get(deck.game.slug) if deck.game.slug in registry else None
    return [
        SectionView(
            s,
            game.section_label(s) if game else s,
            entries,
            sum(e["count"] for e in entries),
        )
        for s, entries in listed_entries(deck=deck, version=version)
    ]


@dataclass
class CardTargets:
    """Where a card can be added from its page: the formats of its game that take it (slug
    -> (format, the sections it can go in)) and the reader's decks of those formats."""

    formats: dict[str, tuple[FormatDef, list[str]]]
    decks: list[Any]

    def deck(self, pk: int | None) -> Any | None:
        """The reader's deck `pk` among them, or None."""
        return next((d for d in self.decks if d.pk == pk), None) if pk is not None else None


def card_targets(*, owner: Viewer, card: Card) -> CardTargets:
    """The formats and the decks of `owner` that `card` (a catalogue card, with its game) can
    be added to (one query: the decks, with their current versions)."""
    game = registry.get(card.game.slug)
    formats = {}
    for slug, fmt in game.formats.items():
        sections = sections_for(card, fmt)
        if sections:
            formats[slug] = (fmt, sections)
    decks = [
        d
        for d in DeckModel.objects.owned_by(owner)
        .filter(game=card.game)
        .select_related("current_version", "game")
        if d.format in formats
    ]
    return CardTargets(formats=formats, decks=decks)
