"""Publishing: a deck's current version frozen as a decklist (legal today, or refused with
its problems), several decks published as one set, and a decklist copied back into a
player's decks (the copy remembers where it came from)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from cardsite import task_refs
from catalogue import rulesets
from catalogue.models import Card
from catalogue.services import card_facts_by_names
from decklists import markdown
from decklists.from_decks import (
    COLLECTION_OPTION,
    Deck,
    DeckVersion,
    ListEntry,
    RuleSetCache,
    SavedList,
    deck_create,
    entries_as_sections,
    entries_from_json,
)
from decklists.listing_cache import listings_changed
from decklists.models import (
    DESCRIPTION_MAX,
    Author,
    Decklist,
    DecklistCard,
    DecklistSet,
    DeckOrigin,
)
from validation.registry import GameDef
from validation.runner import Report
from validation.types import CardFacts

from . import popularity
from .errors import DecklistInvalid, PublishRefused
from .legality import check_formats, legality_rows, legality_write
from .people import followers_tell

if TYPE_CHECKING:
    from django.contrib.auth.models import User

NAME_MAX = 200
#: Decks published as one set, at most.
SET_MAX = 8


def signature(
    *, game_slug: str, format: str, entries: Sequence[Mapping[str, Any]], options: Mapping[str, Any]
) -> str:
    """A hash of the sorted list: equal for two lists of the same cards, counts, sections,
    placements and options, whatever their order."""
    rows = sorted(
        (e.section, e.card.lower(), e.count, list(e.placement or []))
        for e in entries_from_json(entries)
    )
    doc = json.dumps([game_slug, format, rows, options or {}], sort_keys=True)
    return hashlib.sha256(doc.encode()).hexdigest()


def duplicate_of(*, game_id: int, sig: str, exclude: int | None = None) -> Decklist | None:
    """The earliest listed decklist with this signature (one query)."""
    qs = Decklist.objects.listed().filter(game_id=game_id, signature=sig)
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    return qs.order_by("published_at", "pk").first()


def render_text(text: str) -> str:
    """Markdown as sanitised HTML, its @mentions of existing users linked (one query when it
    mentions anyone)."""
    names = markdown.mentions(text)
    known: set[str] = set()
    if names:
        known = set(
            get_user_model().objects.filter(username__in=names).values_list("username", flat=True)
        )
    return markdown.render(text, known_users=known)


def faction_and_leader(
    game_def: GameDef, format: str, entries: Sequence[ListEntry], facts: Mapping[str, CardFacts]
) -> tuple[str, str]:
    """The list's leader (the one card of a section that holds exactly one card of one kind)
    and its faction: the leader's, else the faction most of its copies have ("" for none)."""
    fmt = game_def.format(format)
    leaders = {s.name for s in fmt.sections if s.size == (1, 1) and len(s.kinds) == 1}
    leader = next((e.card for e in entries if e.section in leaders), "")
    if leader:
        card = facts.get(leader.lower())
        if card is not None and card.faction:
            return card.faction, leader
    counts: dict[str, int] = {}
    for e in entries:
        card = facts.get(e.card.lower())
        if card is not None and card.faction:
            counts[card.faction] = counts.get(card.faction, 0) + e.count
    faction = max(sorted(counts), key=lambda f: counts[f]) if counts else ""
    return faction, leader


def _clean_meta(name: str, description: str) -> tuple[str, str]:
    errors: dict[str, list[str]] = {}
    name = " ".join(str(name or "").split())
    if not name:
        errors["name"] = ["give the decklist a name"]
    elif len(name) > NAME_MAX:
        errors["name"] = [f"{len(name)} characters; at most {NAME_MAX}"]
    description = str(description or "")
    if len(description) > DESCRIPTION_MAX:
        errors["description"] = [f"{len(description)} characters; at most {DESCRIPTION_MAX}"]
    if errors:
        raise DecklistInvalid(errors)
    return name, description


class _Prepared:
    """A deck's current version checked for publication."""

    def __init__(
        self,
        deck: Deck,
        version: DeckVersion,
        entries: list[dict[str, Any]],
        saved: SavedList,
        reports: dict[str, Report],
        facts: Mapping[str, CardFacts],
    ) -> None:
        self.deck, self.version, self.entries, self.saved = deck, version, entries, saved
        self.options = dict(saved.options)
        self.reports, self.facts = reports, facts


def _prepare(deck: Deck, *, field: str = "deck") -> _Prepared:
    """The deck's current version checked in every format of its game under today's rule
    sets; PublishRefused with the problems when it is not legal in its own format today."""
    version = deck.current_version
    if version is None:
        raise PublishRefused([f"“{deck.name}” has no saved list yet"], field=field)
    entries = [dict(e) for e in version.entries]
    options = {k: v for k, v in (version.options or {}).items() if k != COLLECTION_OPTION}
    saved = SavedList.stored(game=deck.game, format=deck.format, entries=entries, options=options)
    facts = card_facts_by_names(game_slug=deck.game.slug, names=saved.card_names)
    reports = check_formats(saved=saved, pool=facts, sets=RuleSetCache(deck.game.slug))
    own = reports[deck.format]
    if not own.legal:
        problems = [e.message for e in own.errors] or ["not legal"]
        code = own.rule_set
        where = f" under {code}" if code else ""
        fmt_name = deck.game.definition.format(deck.format).name
        raise PublishRefused(
            [f"“{deck.name}” is not legal in {fmt_name}{where} today: {p}" for p in problems],
            field=field,
        )
    return _Prepared(deck, version, entries, saved, reports, facts)


def _create(
    ready: _Prepared, *, author: User, name: str, description: str, set_: DecklistSet | None = None
) -> Decklist:
    """Within the caller's transaction: the decklist of a prepared deck, its card rows and
    its legality rows."""
    deck = ready.deck
    game_def = deck.game.definition
    previous = Decklist.objects.filter(deck=deck).order_by("-revision", "-pk").first()
    precedent: int | None = None
    derivation, revision = "", 1
    if previous is not None:
        precedent, derivation, revision = (
            previous.pk,
            Decklist.Derivation.VERSION,
            previous.revision + 1,
        )
    else:
        origin = DeckOrigin.objects.filter(deck=deck, decklist__isnull=False).first()
        if origin is not None:
            precedent, derivation = origin.decklist_id, Decklist.Derivation.COPY
    now = timezone.now()
    fresh = popularity.freshness(now)
    faction, leader = faction_and_leader(game_def, deck.format, ready.saved.entries, ready.facts)
    own = ready.reports[deck.format]
    decklist = Decklist.objects.create(
        author=author,
        game=deck.game,
        format=deck.format,
        name=name,
        description=description,
        description_html=render_text(description),
        deck=deck,
        deck_version=ready.version,
        version_number=ready.version.number,
        revision=revision,
        precedent_id=precedent,
        derivation=derivation,
        set=set_,
        list_text=ready.version.list_text,
        entries=ready.entries,
        options=ready.options,
        signature=signature(
            game_slug=deck.game.slug,
            format=deck.format,
            entries=ready.entries,
            options=ready.options,
        ),
        faction=faction,
        leader=leader,
        published_report=own.as_dict(),
        published_code=own.rule_set or "",
        freshness=fresh,
        score=popularity.score(likes=0, fresh=fresh),
        published_at=now,
    )
    # A new decklist: the cached lists are renewed (now and once it commits).
    listings_changed()
    counts: dict[str, int] = {}
    for e in ready.saved.entries:
        counts[e.card.lower()] = counts.get(e.card.lower(), 0) + e.count
    ids = {
        name.lower(): pk
        for name, pk in Card.objects.filter(
            game=deck.game, name__in=ready.saved.card_names
        ).values_list("name", "pk")
    }
    DecklistCard.objects.bulk_create(
        [
            DecklistCard(decklist=decklist, card_id=ids[n], count=c)
            for n, c in counts.items()
            if n in ids
        ]
    )
    legality_write(legality_rows(decklist.pk, ready.reports, now))
    Author.objects.get_or_create(user=author)
    transaction.on_commit(lambda: _tell_followers_later(decklist.pk))
    return decklist


def _tell_followers_later(decklist_id: int) -> None:
    # Sent through the typed registry of tasks: the tasks import the services, so the
    # services do not import the tasks.
    try:
        task_refs.TELL_FOLLOWERS.delay(decklist_id)
    except Exception:  # noqa: BLE001 - the broker is down: the followers are told in-process
        followers_tell(decklist_id=decklist_id)


def decklist_publish(*, deck: Deck, author: User, name: str, description: str = "") -> Decklist:
    """Publish the current version of `deck` (the caller's own: scoped in its query) as a
    decklist: legal today in its format, or PublishRefused with every problem and nothing
    written. A deck published before makes the next revision of it ("v2 of …"); a deck
    copied from a decklist derives from that one. Its author's followers are told."""
    name, description = _clean_meta(name, description)
    prepared = _prepare(deck)
    with transaction.atomic():
        return _create(prepared, author=author, name=name, description=description)


def decklist_publish_set(
    *, decks: Sequence[Deck], author: User, name: str, description: str = ""
) -> DecklistSet:
    """Publish several of the author's decks of one game as one set, all or nothing: every
    deck must be legal today in its format (PublishRefused lists the problems of each deck
    that is not, and nothing is written)."""
    name, description = _clean_meta(name, description)
    if not 2 <= len(decks) <= SET_MAX:
        raise DecklistInvalid({"decks": [f"pick 2 to {SET_MAX} decks; {len(decks)} picked"]})
    if len({d.game_id for d in decks}) > 1:
        raise DecklistInvalid({"decks": ["the decks of a set are of one game"]})
    problems: list[str] = []
    prepared = []
    for deck in decks:
        try:
            prepared.append(_prepare(deck, field="decks"))
        except PublishRefused as exc:
            problems += exc.problems
    if problems:
        raise PublishRefused(problems, field="decks")
    with transaction.atomic():
        set_ = DecklistSet.objects.create(
            author=author,
            name=name,
            description=description,
            description_html=render_text(description),
        )
        for p in prepared:
            _create(p, author=author, name=p.deck.name, description=description, set_=set_)
    return set_


def decklist_copy(*, decklist: Decklist, owner: User, name: str | None = None) -> Deck:
    """A private deck of `owner` holding the decklist's list (its version 1), remembering the
    decklist it came from: a publication of it derives from this one."""
    with transaction.atomic():
        deck = deck_create(
            owner=owner,
            game_slug=decklist.game.slug,
            format=decklist.format,
            name=(name or decklist.name)[:NAME_MAX],
            description="",
            sections=entries_as_sections(decklist.entries),
            options=dict(decklist.options),
        )
        DeckOrigin.objects.create(deck=deck, decklist=decklist)
    return deck


def in_force_code(game_slug: str, format: str) -> str:
    found = rulesets.in_force(game_slug, format)
    return found.code if found is not None else ""
