"""Deck services: checking lists against the rules core, decks and their versions, and
collections.

Services are named by verb and take keyword arguments; views and API classes parse input,
call one service and render. Permission scoping is the caller's job and is done in the
query (`Deck.objects.visible_to(user)` / `.owned_by(user)`): a service trusts the objects
it is handed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from catalogue.services import (
    GamePool,
    card_facts_by_names,
    cards_near_names,
    expansion_card_names,
)
from validation import decklist
from validation.registry import registry
from validation.runner import Report, validate
from validation.types import Deck


class ListInvalid(Exception):
    """The list could not be taken: `line_errors` are the lines that could not be read
    (syntax, unknown cards), by line. When only cards were unknown, the rest was checked:
    `checked` holds that check, and `errors` (what the API answers) lists after the line
    errors every rule problem of the lines that were read, each with its `code` and
    `severity` (and `line`, 0 when it names no line)."""

    def __init__(self, errors: list[dict[str, Any]], checked: CheckedList | None = None):
        super().__init__(f"{len(errors)} line error(s)")
        self.line_errors = errors
        self.checked = checked
        self.errors = errors + (checked.problem_items() if checked is not None else [])


@dataclass
class CheckedList:
    """A list checked as written: the `deck` of the lines read, the rules' `report` on it
    (as stored with a deck), the card lines not read (`unread`: unknown names, with
    suggestions) and which lines hold each card (`where`), so that a rule problem about a
    card names its lines."""

    deck: Deck
    report: Report
    lines: list[Any] = field(default_factory=list)
    unread: list[decklist.LineError] = field(default_factory=list)
    where: Mapping[tuple[str, str], Any] = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        """Legal: no rule error and every card line read."""
        return self.report.legal and not self.unread

    def located(self) -> Report:
        """The report as shown for the list as written: not legal while a line is unknown,
        every violation about a card naming its lines ("Line 4: …")."""
        return Report(
            legal=self.legal,
            errors=[decklist.locate(v, self.where) for v in self.report.errors],
            warnings=[decklist.locate(v, self.where) for v in self.report.warnings],
            totals=self.report.totals,
        )

    def answer(self) -> dict[str, Any]:
        """The validate API's answer: the located report and the `unknown` lines."""
        body = self.located().as_dict()
        body["unknown"] = [e.as_unread() for e in self.unread]
        return body

    def problem_items(self) -> list[dict[str, Any]]:
        """Every rule problem (errors, then warnings) as an item of a list of line errors."""
        report = self.located()
        return [
            {
                "line": v.lines[0] if v.lines else 0,
                "message": v.message,
                "suggestions": [],
                "code": v.code,
                "severity": v.severity,
            }
            for v in report.errors + report.warnings
        ]


def _line_errors(errors) -> list[dict[str, Any]]:
    return [
        {"line": e.line, "message": e.message, "suggestions": list(e.suggestions)} for e in errors
    ]


def _read(game_slug: str, parsed: decklist.ParseResult) -> decklist.Resolved:
    """Resolve parsed lines against the catalogue: the deck of the lines read and an error
    for each card line that was not (unknown names, expansion codes that are unknown or do
    not hold the card)."""
    # A card whose own name ends in brackets ("Bunker (Large)") is read as a name and a code.
    bracketed = [f"{line.name} ({line.set_code})" for line in parsed.lines if line.set_code]
    cards = card_facts_by_names(
        game_slug=game_slug, names=[line.name for line in parsed.lines] + bracketed
    )
    inexact = list(
        dict.fromkeys(
            line.name
            for line in parsed.lines
            if line.name.lower() not in cards
            and f"{line.name} ({line.set_code})".lower() not in cards
        )
    )
    # A name not found as written: its nearest cards by the name index (one more query,
    # SUGGESTION_CANDIDATES rows a name, never the whole game), for the first MAX_SUGGESTED
    # such names. The list reader matches spacing and punctuation among them (and only
    # that: a name that is the beginning of a card's is unknown), and the "did you mean"
    # suggestions are the closest of them.
    near = cards_near_names(game_slug=game_slug, names=inexact[: decklist.MAX_SUGGESTED])
    if near:
        cards = dict(cards)
        for found in near.values():
            for facts in found:
                cards.setdefault(facts.name.lower(), facts)
    # Expansion codes written after names are checked with two more queries (the game's
    # codes, the printings of the list's cards), only when a line names one.
    expansions = (
        expansion_card_names(
            game_slug=game_slug,
            names=[line.name for line in parsed.lines]
            + bracketed
            + [facts.name for found in near.values() for facts in found],
        )
        if any(line.set_code for line in parsed.lines)
        else None
    )
    return decklist.read_lines(
        parsed.lines,
        cards,
        expansions=expansions,
        game_name=registry.get(game_slug).name,
        suggest=lambda names: {
            name: decklist.closest_names(name, [c.name for c in near.get(name, ())])
            for name in names
        },
    )


def _resolve(game_slug: str, parsed: decklist.ParseResult) -> tuple[Deck, list[Any]]:
    """`_read`, raising ListInvalid with every error (parse errors and the lines not read
    together, by line)."""
    read = _read(game_slug, parsed)
    errors = sorted([*parsed.errors, *read.unread], key=lambda e: e.line)
    if errors:
        raise ListInvalid(_line_errors(errors))
    return read.deck, parsed.lines


def _parse(
    game_slug: str, text: str | None, sections: Mapping[str, Any] | None
) -> decklist.ParseResult:
    game = registry.get(game_slug)
    if text is not None:
        return decklist.parse(text, game)
    return decklist.parse_sections(sections or {}, game)


def deck_from_list(
    *,
    game_slug: str,
    text: str | None = None,
    sections: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> tuple[Deck, list[Any]]:
    """Read a list (text or sections) into a Deck of catalogue facts.

    One query fetches every named card; a second, only when a name is not exact, fetches
    the nearest cards of the first unknown names from the name index (matched for spacing
    and punctuation, and the suggestions). Raises ListInvalid with every line error.
    """
    deck, lines = _resolve(game_slug, _parse(game_slug, text, sections))
    deck.options = dict(options or {})
    return deck, lines


#: The deck option "restrict to my collection": `true` checks the deck against its owner's
#: collection (army.collection); a mapping {card name: copies} gives the counts directly.
COLLECTION_OPTION = "collection"


def collection_counts(*, owner, game_slug: str, names) -> dict[str, int]:
    """How many copies of each named card of a game `owner` owns (cards not owned are left
    out), in one query."""
    from .models import CollectionEntry

    names = list(dict.fromkeys(names))
    if owner is None or not getattr(owner, "is_authenticated", False) or not names:
        return {}
    return dict(
        CollectionEntry.objects.filter(
            owner=owner, card__game__slug=game_slug, card__name__in=names
        ).values_list("card__name", "count")
    )


def clean_collection_option(options: Mapping[str, Any] | None, *, owner) -> dict[str, Any]:
    """The options as stored: `collection` false or null is dropped; true (restrict to the
    owner's collection) needs an owner; a mapping must map card names to copies. Raises
    DeckInvalid naming the option otherwise."""
    out = dict(options or {})
    if COLLECTION_OPTION not in out:
        return out
    value = out[COLLECTION_OPTION]
    if value is None or value is False:
        del out[COLLECTION_OPTION]
    elif value is True:
        if owner is None or not getattr(owner, "is_authenticated", False):
            raise DeckInvalid(
                {"options": ["collection: sign in to check a list against your collection"]}
            )
    elif isinstance(value, Mapping):
        bad = [
            str(name)
            for name, n in value.items()
            if not isinstance(n, int) or isinstance(n, bool) or n < 0
        ]
        if bad:
            raise DeckInvalid(
                {"options": [f"collection: copies of {', '.join(bad)} must be whole numbers ≥ 0"]}
            )
    else:
        raise DeckInvalid(
            {"options": ["collection: true (your collection) or {card name: copies owned}"]}
        )
    return out


def rules_options(
    options: Mapping[str, Any], *, owner, game_slug: str, deck: Deck
) -> dict[str, Any]:
    """The options the rules core sees: `collection: true` becomes the owner's counts of the
    deck's cards (so that army.collection reports every shortage)."""
    out = dict(options)
    if out.get(COLLECTION_OPTION) is True:
        names = [e.card.name for entries in deck.sections.values() for e in entries]
        out[COLLECTION_OPTION] = collection_counts(owner=owner, game_slug=game_slug, names=names)
    return out


def list_check(
    *,
    game_slug: str,
    format: str,
    text: str | None = None,
    sections: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    owner=None,
    report_unknown: bool = False,
) -> CheckedList:
    """Read and validate a list: every violation, every warning and the totals. `owner` is
    whose collection `options={"collection": true}` means (DeckInvalid without one).

    A list that does not parse raises ListInvalid with every line error. Card lines whose
    card is unknown do not stop the check: the lines read are validated all the same. With
    `report_unknown` (a check: the validate API, the check page) the answer holds both, and
    is not legal; otherwise (a save) ListInvalid is raised, carrying the check too."""
    options = clean_collection_option(options, owner=owner)
    parsed = _parse(game_slug, text, sections)
    read = _read(game_slug, parsed)
    if parsed.errors:
        errors = sorted([*parsed.errors, *read.unread], key=lambda e: e.line)
        raise ListInvalid(_line_errors(errors))
    deck = read.deck
    stored = dict(options or {})
    deck.options = rules_options(stored, owner=owner, game_slug=game_slug, deck=deck)
    # The game's whole pool is loaded only if a rule asks for it (a map dealt from its cards).
    report = validate(game_slug, format, deck, cards=GamePool(game_slug=game_slug))
    deck.options = stored
    checked = CheckedList(
        deck=deck, report=report, lines=parsed.lines, unread=read.unread, where=read.where
    )
    if read.unread and not report_unknown:
        raise ListInvalid(_line_errors(read.unread), checked)
    return checked


# --- Decks and versions -------------------------------------------------------------------


class VersionConflict(Exception):
    """A save named a base version that is no longer the deck's current one: someone saved
    elsewhere in between. Nothing was written; `current_number` is the version to reload
    (None when the deck has no version yet)."""

    def __init__(self, current_number: int | None):
        super().__init__(f"the deck was saved since (current version {current_number})")
        self.current_number = current_number


class DeckInvalid(ValueError):
    """Deck metadata that cannot be saved (an unknown game or format, a bad visibility):
    `errors` maps field -> messages."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        self.errors = errors


def _entries(deck: Deck) -> list[dict[str, Any]]:
    """A resolved Deck as stored JSON entries, with canonical card names."""
    out: list[dict[str, Any]] = []
    for section, items in deck.sections.items():
        for e in items:
            row: dict[str, Any] = {"section": section, "card": e.card.name, "count": e.count}
            if e.placement is not None:
                row["hex"] = [e.placement[0], e.placement[1]]
            out.append(row)
    return out


def entries_as_sections(entries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Stored entries in the JSON list form {"section": [{"card", "count", "hex"?}]}."""
    out: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        item = {"card": e["card"], "count": e["count"]}
        if e.get("hex") is not None:
            item["hex"] = list(e["hex"])
        out.setdefault(e["section"], []).append(item)
    return out


def _check_meta(*, game_slug: str, format: str, visibility: str | None = None):
    from catalogue.models import Game

    from .models import Visibility

    errors: dict[str, list[str]] = {}
    game = Game.objects.filter(slug=game_slug).first() if game_slug in registry else None
    if game is None:
        errors["game"] = [f"unknown game {game_slug!r}; use one of {', '.join(registry.slugs())}"]
    else:
        try:
            game.definition.format(format)
        except ValueError as exc:
            errors["format"] = [str(exc)]
    if visibility is not None and visibility not in Visibility.values:
        errors["visibility"] = [f"use one of {', '.join(Visibility.values)}"]
    if errors:
        raise DeckInvalid(errors)
    return game


def _apply_report(deck, report: dict[str, Any]) -> None:
    from django.utils import timezone

    deck.legal = bool(report.get("legal"))
    deck.violations_count = len(report.get("errors", []))
    deck.warnings_count = len(report.get("warnings", []))
    deck.report = report
    deck.validated_at = timezone.now()


def deck_create(
    *,
    owner,
    game_slug: str,
    format: str,
    name: str,
    description: str = "",
    visibility: str = "private",
    text: str | None = None,
    sections: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
):
    """Create a deck; with a list (text or sections) it also saves version 1. All or
    nothing: a list with line errors raises ListInvalid and creates no deck."""
    from django.db import transaction

    from .models import Deck as DeckModel

    game = _check_meta(game_slug=game_slug, format=format, visibility=visibility)
    checked = None
    if text is not None or sections is not None:
        checked = list_check(
            game_slug=game_slug,
            format=format,
            text=text,
            sections=sections,
            options=options,
            owner=owner,
        )
    with transaction.atomic():
        deck = DeckModel.objects.create(
            owner=owner,
            game=game,
            format=format,
            name=name,
            description=description,
            visibility=visibility,
        )
        if checked is not None:
            _write_version(deck=deck, author=owner, checked=checked, number=1, based_on=None)
    return deck


def _write_version(
    *, deck, author, checked: CheckedList, number: int, based_on, sealed: bool = True
):
    """Insert version `number` of `deck` from a checked list and make it current (the
    version it was based on is sealed: only the current version may be a working one)."""
    from django.utils import timezone

    from .models import DeckVersion

    game = registry.get(deck.game.slug)
    report = checked.report.as_dict()
    if based_on is not None and not based_on.sealed:
        DeckVersion.objects.filter(pk=based_on.pk).update(sealed=True)
    version = DeckVersion.objects.create(
        sealed=sealed,
        updated_at=timezone.now(),
        deck=deck,
        number=number,
        based_on=based_on,
        author=author,
        list_text=decklist.export(checked.deck, game),
        entries=_entries(checked.deck),
        options=dict(checked.deck.options),
        report=report,
    )
    deck.current_version = version
    _apply_report(deck, report)
    deck.save()
    return version


def deck_save_version(
    *,
    deck,
    author,
    text: str | None = None,
    sections: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    based_on: Any = None,
):
    """Save a new version of `deck` from a list (text or sections) and make it current.

    `based_on` names the version the author started from: a DeckVersion of this deck, its
    number, or None for a deck without versions. When the deck's current version is another
    one (someone saved in between), VersionConflict is raised and nothing is written; a list
    with line errors raises ListInvalid. Existing versions are never edited.
    """
    from django.db import IntegrityError, transaction

    from .models import Deck as DeckModel
    from .models import DeckVersion

    if isinstance(based_on, DeckVersion):
        if based_on.deck_id != deck.pk:
            raise ValueError("based_on must be a version of the same deck")
        base_number: int | None = based_on.number
    else:
        base_number = int(based_on) if based_on is not None else None
    checked = list_check(
        game_slug=deck.game.slug,
        format=deck.format,
        text=text,
        sections=sections,
        options=options,
        # the deck's owner is read only for a deck restricted to its owner's collection
        owner=deck.owner if (options or {}).get(COLLECTION_OPTION) is True else None,
    )
    try:
        with transaction.atomic():
            locked = DeckModel.objects.select_for_update().get(pk=deck.pk)
            current = (
                DeckVersion.objects.filter(pk=locked.current_version_id)
                .only("id", "number", "sealed")
                .first()
            )
            current_number = current.number if current else None
            if base_number != current_number:
                raise VersionConflict(current_number)
            locked.game = deck.game
            version = _write_version(
                deck=locked,
                author=author,
                checked=checked,
                number=(current_number or 0) + 1,
                based_on=current,
            )
    except IntegrityError as exc:
        # Two saves from the same base raced past the check (SQLite has no row locks):
        # the unique (deck, number) constraint refused the second.
        latest = DeckVersion.objects.filter(deck=deck).order_by("-number").first()
        raise VersionConflict(latest.number if latest else None) from exc
    _copy_deck_state(deck, locked)
    return version


#: Builder edits by the same author within this time of the last one rewrite the working
#: version instead of adding one.
WORKING_WINDOW_SECONDS = 5 * 60


def deck_autosave(
    *,
    deck,
    author,
    sections: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
    based_on: int | None,
    revision: int | None,
):
    """The builder's autosave: rewrite the current working version in place when it is
    unsealed, by `author`, last written less than WORKING_WINDOW_SECONDS ago and still at
    `revision` (the revision the page holds); otherwise write a new working version.

    A page whose base or revision is stale (another tab saved since) gets VersionConflict and
    nothing is written. `revision=None` (a client that does not track revisions) always
    writes a new version."""
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from .models import Deck as DeckModel
    from .models import DeckVersion

    checked = list_check(
        game_slug=deck.game.slug,
        format=deck.format,
        sections=sections,
        options=options,
        # the deck's owner is read only for a deck restricted to its owner's collection
        owner=deck.owner if (options or {}).get(COLLECTION_OPTION) is True else None,
    )
    now = timezone.now()
    with transaction.atomic():
        locked = DeckModel.objects.select_for_update().get(pk=deck.pk)
        current = DeckVersion.objects.filter(pk=locked.current_version_id).first()
        current_number = current.number if current else None
        if based_on != current_number:
            raise VersionConflict(current_number)
        working = current is not None and not current.sealed
        if working and revision is not None and revision != current.revision:
            raise VersionConflict(current_number)
        fresh = (
            working
            and revision is not None
            and current.author_id == getattr(author, "pk", None)
            and (current.updated_at or current.created_at)
            >= now - timedelta(seconds=WORKING_WINDOW_SECONDS)
        )
        if not fresh:
            locked.game = deck.game
            version = _write_version(
                deck=locked,
                author=author,
                checked=checked,
                number=(current_number or 0) + 1,
                based_on=current,
                sealed=False,
            )
        else:
            game = registry.get(deck.game.slug)
            report = checked.report.as_dict()
            DeckVersion.objects.filter(pk=current.pk).update(
                list_text=decklist.export(checked.deck, game),
                entries=_entries(checked.deck),
                options=dict(checked.deck.options),
                report=report,
                revision=current.revision + 1,
                updated_at=now,
            )
            version = DeckVersion.objects.get(pk=current.pk)
            locked.current_version = version
            _apply_report(locked, report)
            locked.save()
    _copy_deck_state(deck, locked)
    return version


def deck_seal_version(*, deck, note: str = ""):
    """Seal the deck's current version ("Save version" in the builder, or leaving it), with
    an optional note; a note may be added to a sealed version. Returns the version, or None
    for a deck without versions."""
    from .models import DeckVersion

    version = DeckVersion.objects.filter(pk=deck.current_version_id).first()
    if version is None:
        return None
    note = " ".join(str(note or "").split())[:200]
    fields = {"sealed": True}
    if note:
        fields["note"] = note
    DeckVersion.objects.filter(pk=version.pk).update(**fields)
    version.refresh_from_db()
    return version


def _copy_deck_state(deck, locked) -> None:
    """The caller's deck object takes what the save wrote on the locked copy."""
    for attr in (
        "current_version",
        "current_version_id",
        "legal",
        "violations_count",
        "warnings_count",
        "report",
        "validated_at",
        "updated_at",
    ):
        setattr(deck, attr, getattr(locked, attr))


def deck_update(
    *,
    deck,
    name: str | None = None,
    description: str | None = None,
    visibility: str | None = None,
):
    """Change a deck's name, description or visibility (its list changes only by versions)."""
    from .models import RetiredShareToken, Visibility, new_share_token

    if visibility is not None and visibility not in Visibility.values:
        raise DeckInvalid({"visibility": [f"use one of {', '.join(Visibility.values)}"]})
    fields = []
    leaves_unlisted = False
    if visibility is not None and visibility != Visibility.UNLISTED and deck.pk:
        # As stored: a model form may already have set the new value on the instance.
        stored = type(deck).objects.filter(pk=deck.pk).values_list("visibility", flat=True)
        leaves_unlisted = stored.first() == Visibility.UNLISTED
    for attr, value in (("name", name), ("description", description), ("visibility", visibility)):
        if value is not None:
            setattr(deck, attr, value)
            fields.append(attr)
    if leaves_unlisted:
        # Whoever had the link loses it: going back to unlisted hands out a new one.
        _retire_share_token(deck, RetiredShareToken.Reason.WITHDRAWN)
        deck.share_token = new_share_token()
        fields.append("share_token")
    if fields:
        deck.save(update_fields=[*fields, "updated_at"])
    return deck


def deck_new_share_link(*, deck):
    """Replace the deck's share link: the old one stops working at once (and says so)."""
    from .models import RetiredShareToken, new_share_token

    _retire_share_token(deck, RetiredShareToken.Reason.REPLACED)
    deck.share_token = new_share_token()
    deck.save(update_fields=["share_token", "updated_at"])
    return deck


def _retire_share_token(deck, reason: str) -> None:
    """Remember the deck's current share token as retired (for the page its link shows)."""
    from .models import RetiredShareToken

    if deck.pk and deck.share_token:
        RetiredShareToken.objects.update_or_create(
            token=deck.share_token, defaults={"deck": deck, "reason": reason}
        )


def deck_delete(*, deck) -> None:
    """Delete a deck and all its versions."""
    from django.db import transaction

    with transaction.atomic():
        # current_version points into the versions: clear it first so the cascade is clean.
        type(deck).objects.filter(pk=deck.pk).update(current_version=None)
        deck.delete()


def deck_clone(*, deck, owner, name: str | None = None):
    """A private copy of `deck` for `owner`, whose version 1 is the source's current
    version (list, options and the cached verdict copied as they are)."""
    from django.db import transaction

    from .models import Deck as DeckModel
    from .models import DeckVersion

    source = deck.current_version
    with transaction.atomic():
        clone = DeckModel.objects.create(
            owner=owner,
            game=deck.game,
            format=deck.format,
            name=name or f"{deck.name} (copy)"[:200],
            description=deck.description,
            cloned_from=deck,
            legal=deck.legal,
            violations_count=deck.violations_count,
            warnings_count=deck.warnings_count,
            report=deck.report,
            validated_at=deck.validated_at,
        )
        if source is not None:
            version = DeckVersion.objects.create(
                deck=clone,
                number=1,
                author=owner,
                list_text=source.list_text,
                entries=source.entries,
                options=source.options,
                report=source.report,
            )
            clone.current_version = version
            clone.save(update_fields=["current_version", "updated_at"])
    return clone


def _unreadable_report(errors: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "legal": False,
        "errors": [
            {
                "code": "deck.card",
                "severity": "error",
                "message": e["message"],
                "section": e.get("section", ""),
                "cards": e.get("cards", []),
            }
            for e in errors
        ],
        "warnings": [],
        "totals": {},
    }


def version_check(*, deck, version, pool: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Validate a stored version against today's catalogue; the report as a dict. A card
    that has left the catalogue makes the deck illegal (code `deck.card`)."""
    from validation.types import Entry

    slug = deck.game.slug
    if pool is None:
        pool = card_facts_by_names(game_slug=slug, names=[e["card"] for e in version.entries])
    sections: dict[str, list[Entry]] = {}
    missing = []
    for e in version.entries:
        facts = pool.get(e["card"].lower())
        if facts is None:
            missing.append(
                {
                    "message": f"{e['card']} is no longer in the {deck.game.name} catalogue",
                    "section": e["section"],
                    "cards": [e["card"]],
                }
            )
            continue
        hex_ = e.get("hex")
        sections.setdefault(e["section"], []).append(
            Entry(facts, e["count"], (hex_[0], hex_[1]) if hex_ else None)
        )
    if missing:
        return _unreadable_report(missing)
    rules_deck = Deck(sections=sections)
    options = dict(version.options)
    owner = deck.owner if options.get(COLLECTION_OPTION) is True else None
    rules_deck.options = rules_options(options, owner=owner, game_slug=slug, deck=rules_deck)
    try:
        report = validate(
            slug,
            deck.format,
            rules_deck,
            cards=pool if isinstance(pool, GamePool) else GamePool(game_slug=slug),
        )
    except (KeyError, ValueError) as exc:  # game or format gone from the rules core
        return _unreadable_report([{"message": str(exc)}])
    return report.as_dict()


def deck_revalidate(*, deck, pool: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """Re-run the rules core on the deck's current version and store the verdict (legal,
    counts, report). Returns the report, or None for a deck without a version. Idempotent;
    a save that lands meanwhile wins (the update is conditional on the version)."""
    from django.utils import timezone

    from .models import Deck as DeckModel
    from .models import DeckVersion

    version = deck.current_version
    if version is None:
        return None
    if not isinstance(version, DeckVersion):  # pragma: no cover - defensive
        version = DeckVersion.objects.get(pk=deck.current_version_id)
    report = version_check(deck=deck, version=version, pool=pool)
    _apply_report(deck, report)
    DeckModel.objects.filter(pk=deck.pk, current_version_id=version.pk).update(
        legal=deck.legal,
        violations_count=deck.violations_count,
        warnings_count=deck.warnings_count,
        report=report,
        validated_at=deck.validated_at or timezone.now(),
    )
    return report


def revalidate_game_decks(*, game_slug: str) -> int:
    """Re-validate every saved deck of a game against its current catalogue (after an
    import or an admin edit). The game's pool is loaded once. Returns the number of decks."""
    from .models import Deck as DeckModel

    pool = GamePool(game_slug=game_slug)
    n = 0
    decks = (
        DeckModel.objects.filter(game__slug=game_slug, current_version__isnull=False)
        .select_related("game", "owner", "current_version")
        .order_by("pk")
    )
    for deck in decks.iterator(chunk_size=200):
        deck_revalidate(deck=deck, pool=pool)
        n += 1
    return n


# --- Collections --------------------------------------------------------------------------


def _collection_lines(text: str, game) -> decklist.ParseResult:
    """Read `N Name` lines; section headers are allowed and ignored (a deck list can be
    imported into a collection as it is)."""
    result = decklist.ParseResult()
    for line_no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or decklist._COMMENT.match(raw):
            continue
        line = decklist._TRAILING_COMMENT.sub("", raw).strip()
        if decklist._HEADER.match(line):
            continue
        # The parser's own card-line reader, so that errors read the same as a deck's.
        error = decklist._card_line(result, line_no, line, "collection", game)
        if error:
            result.errors.append(error)
    return result


def collection_import(*, owner, game_slug: str, text: str, replace: bool = False) -> int:
    """Add the cards of a list to the user's collection (or, with `replace`, make the
    collection of that game exactly the list). All or nothing: a list with line errors
    raises ListInvalid and changes nothing. Returns the number of cards (copies) read."""
    from django.db import transaction
    from django.db.models import F

    from catalogue.models import Card

    from .models import CollectionEntry

    game = registry.get(game_slug)
    parsed = _collection_lines(text, game)
    deck, _ = _resolve(game_slug, parsed)
    wanted: dict[str, int] = {}
    for items in deck.sections.values():
        for e in items:
            wanted[e.card.name] = wanted.get(e.card.name, 0) + e.count
    cards = {c.name: c for c in Card.objects.filter(game__slug=game_slug, name__in=list(wanted))}
    with transaction.atomic():
        mine = CollectionEntry.objects.filter(owner=owner, card__game__slug=game_slug)
        if replace:
            mine.exclude(card__name__in=list(wanted)).delete()
        existing = {e.card_id: e for e in mine.filter(card__in=list(cards.values()))}
        new = []
        for name, n in wanted.items():
            card = cards[name]
            entry = existing.get(card.pk)
            if entry is None:
                new.append(CollectionEntry(owner=owner, card=card, count=n))
            elif replace:
                CollectionEntry.objects.filter(pk=entry.pk).update(count=n)
            else:
                CollectionEntry.objects.filter(pk=entry.pk).update(count=F("count") + n)
        CollectionEntry.objects.bulk_create(new)
    return sum(wanted.values())


def collection_set(*, owner, card, count: int):
    """Set how many copies of `card` the user owns (0 removes the entry)."""
    from .models import CollectionEntry

    if count <= 0:
        CollectionEntry.objects.filter(owner=owner, card=card).delete()
        return None
    entry, _ = CollectionEntry.objects.update_or_create(
        owner=owner, card=card, defaults={"count": count}
    )
    return entry
