"""Decks and their versions: create, save a version (with optimistic concurrency), autosave
the working version, seal, update, pin to a rule set, share links, delete and clone."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from catalogue import rulesets
from catalogue.models import Game
from decks.lists import (
    COLLECTION_OPTION,
    CheckedList,
    DeckInvalid,
    VersionConflict,
    as_sections,
    deck_card_names,
    deck_rule_set,
    entries_from_json,
    list_check,
)
from decks.models import Deck as DeckModel
from decks.models import DeckVersion, RetiredShareToken, Visibility, new_share_token
from decks.verdicts import apply_report, deck_revalidate, upcoming_effect
from notices.services import notices_forget
from notices.subjects import DECK
from validation import decklist
from validation.registry import registry
from validation.types import Deck

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _entries(deck: Deck) -> list[dict[str, Any]]:
    """A resolved Deck as stored JSON entries, with canonical card names."""
    out: list[dict[str, Any]] = []
    for section, items in deck.sections.items():
        for e in items:
            row: dict[str, Any] = {"section": section, "card": e.card.name, "count": e.count}
            if e.placement is not None:
                row[decklist.PLACEMENT] = [e.placement[0], e.placement[1]]
            out.append(row)
    return out


def entries_as_sections(entries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Stored entries in the JSON list form {"section": [{"card", "count", "placement"?}]}."""
    return as_sections(entries_from_json(entries))


def _check_meta(*, game_slug: str, format: str, visibility: str | None = None) -> Game:

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
    assert game is not None  # an unknown game is an error above
    return game


def _upcoming(deck: DeckModel, version: DeckVersion) -> dict[str, Any]:
    """The upcoming rule set's effect on a version just saved, stored with its verdict."""
    return upcoming_effect(deck=deck, version=version)


def deck_create(
    *,
    owner: User,
    game_slug: str,
    format: str,
    name: str,
    description: str = "",
    visibility: str = "private",
    text: str | None = None,
    sections: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> DeckModel:
    """Create a deck; with a list (text or sections) it also saves version 1. All or
    nothing: a list with line errors raises ListInvalid and creates no deck."""

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


def _check_for(
    deck: DeckModel,
    *,
    sections: Mapping[str, Any] | None,
    options: Mapping[str, Any] | None,
    text: str | None = None,
) -> CheckedList:
    """A new list of `deck` checked in its game and format; the deck's owner is read only
    for a deck restricted to its owner's collection."""
    return list_check(
        game_slug=deck.game.slug,
        format=deck.format,
        text=text,
        sections=sections,
        options=options,
        owner=deck.owner if (options or {}).get(COLLECTION_OPTION) is True else None,
        rule_set=lambda read: deck_rule_set(deck=deck, names=deck_card_names(read)),
    )


def _write_next(
    deck: DeckModel,
    locked: DeckModel,
    *,
    author: User,
    checked: CheckedList,
    current: DeckVersion | None,
    sealed: bool = True,
    note: str = "",
) -> DeckVersion:
    """Write the version after `current` (None: the first) of the row-locked deck `locked`."""
    locked.game = deck.game
    return _write_version(
        deck=locked,
        author=author,
        checked=checked,
        number=(current.number if current else 0) + 1,
        based_on=current,
        sealed=sealed,
        note=note,
    )


def _write_version(
    *,
    deck: DeckModel,
    author: User,
    checked: CheckedList,
    number: int,
    based_on: DeckVersion | None,
    sealed: bool = True,
    note: str = "",
) -> DeckVersion:
    """Insert version `number` of `deck` from a checked list and make it current (the
    version it was based on is sealed: only the current version may be a working one)."""

    game = registry.get(deck.game.slug)
    report = checked.report
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
        report=report.as_dict(),
        rule_set_code=report.rule_set or "",
        note=" ".join(str(note or "").split())[:200],
    )
    deck.current_version = version
    apply_report(deck, report)
    # A working version (the builder's autosave) gets its upcoming effect when it is sealed:
    # a tap in the builder does not pay for it (a page shows it computed meanwhile).
    deck.upcoming = _upcoming(deck, version) if sealed else {}
    deck.save()
    return version


def deck_save_version(
    *,
    deck: DeckModel,
    author: User,
    text: str | None = None,
    sections: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    based_on: DeckVersion | int | None = None,
    note: str = "",
) -> DeckVersion:
    """Save a new version of `deck` from a list (text or sections) and make it current,
    with an optional `note` (what changed, shown in the deck's history).

    `based_on` names the version the author started from: a DeckVersion of this deck, its
    number, or None for a deck without versions. When the deck's current version is another
    one (someone saved in between), VersionConflict is raised and nothing is written; a list
    with line errors raises ListInvalid. Existing versions are never edited.
    """

    if isinstance(based_on, DeckVersion):
        if based_on.deck_id != deck.pk:
            raise ValueError("based_on must be a version of the same deck")
        base_number: int | None = based_on.number
    else:
        base_number = int(based_on) if based_on is not None else None
    checked = _check_for(deck, text=text, sections=sections, options=options)
    try:
        with transaction.atomic():
            locked = DeckModel.objects.select_for_update().get(pk=deck.pk)
            current = (
                DeckVersion.objects.filter(pk=locked.current_version_id or 0)
                .only("id", "number", "sealed")
                .first()
            )
            current_number = current.number if current else None
            if base_number != current_number:
                raise VersionConflict(current_number)
            version = _write_next(
                deck, locked, author=author, checked=checked, current=current, note=note
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
    deck: DeckModel,
    author: User,
    sections: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
    based_on: int | None,
    revision: int | None,
) -> DeckVersion:
    """The builder's autosave: rewrite the current working version in place when it is
    unsealed, by `author`, last written less than WORKING_WINDOW_SECONDS ago and still at
    `revision` (the revision the page holds); otherwise write a new working version.

    A page whose base or revision is stale (another tab saved since) gets VersionConflict and
    nothing is written. `revision=None` (a client that does not track revisions) always
    writes a new version."""

    checked = _check_for(deck, sections=sections, options=options)
    now = timezone.now()
    with transaction.atomic():
        locked = DeckModel.objects.select_for_update().get(pk=deck.pk)
        current = DeckVersion.objects.filter(pk=locked.current_version_id or 0).first()
        current_number = current.number if current else None
        if based_on != current_number:
            raise VersionConflict(current_number)
        working = current is not None and not current.sealed
        if current is not None and working and revision is not None:
            if revision != current.revision:
                raise VersionConflict(current_number)
        fresh = (
            current is not None
            and working
            and revision is not None
            and current.author_id == getattr(author, "pk", None)
            and (current.updated_at or current.created_at)
            >= now - timedelta(seconds=WORKING_WINDOW_SECONDS)
        )
        if current is None or not fresh:
            version = _write_next(
                deck, locked, author=author, checked=checked, current=current, sealed=False
            )
        else:
            game = registry.get(deck.game.slug)
            report = checked.report
            DeckVersion.objects.filter(pk=current.pk).update(
                list_text=decklist.export(checked.deck, game),
                entries=_entries(checked.deck),
                options=dict(checked.deck.options),
                report=report.as_dict(),
                rule_set_code=report.rule_set or "",
                revision=current.revision + 1,
                updated_at=now,
            )
            version = DeckVersion.objects.get(pk=current.pk)
            locked.current_version = version
            apply_report(locked, report)
            locked.upcoming = {}  # computed when the working version is sealed
            locked.save()
    _copy_deck_state(deck, locked)
    return version


def deck_seal_version(*, deck: DeckModel, note: str = "") -> DeckVersion | None:
    """Seal the deck's current version ("Save version" in the builder, or leaving it), with
    an optional note; a note may be added to a sealed version. Returns the version, or None
    for a deck without versions."""
    current_id = deck.current_version_id
    version = DeckVersion.objects.filter(pk=current_id).first() if current_id is not None else None
    if version is None:
        return None
    note = " ".join(str(note or "").split())[:200]
    fields: dict[str, Any] = {"sealed": True}
    if note:
        fields["note"] = note
    DeckVersion.objects.filter(pk=version.pk).update(**fields)
    version.refresh_from_db()
    stored = deck.upcoming or {}
    if (stored.get("version"), stored.get("revision")) != (version.pk, version.revision):
        # The working version's upcoming effect, stored with its verdict now that it is kept.
        deck.upcoming = _upcoming(deck, version)
        DeckModel.objects.filter(pk=deck.pk).update(upcoming=deck.upcoming)
    return version


def _copy_deck_state(deck: DeckModel, locked: DeckModel) -> None:
    """The caller's deck object takes what the save wrote on the locked copy."""
    for attr in (
        "current_version",
        "current_version_id",
        "legal",
        "violations_count",
        "warnings_count",
        "report",
        "upcoming",
        "validated_at",
        "updated_at",
    ):
        setattr(deck, attr, getattr(locked, attr))


def deck_update(
    *,
    deck: DeckModel,
    name: str | None = None,
    description: str | None = None,
    visibility: str | None = None,
) -> DeckModel:
    """Change a deck's name, description or visibility (its list changes only by versions)."""
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


def deck_pin(*, deck: DeckModel, code: str | None) -> DeckModel:
    """Pin `deck` to its format's rule set `code`, or (None or empty) let it follow the
    format; the deck is re-checked at once. DeckInvalid when the format has no such rule
    set."""
    pin = None
    if code:
        pin = rulesets.by_code(deck.game.slug, deck.format, code)
        if pin is None:
            raise DeckInvalid({"rule_set": [f"{deck.format} has no rule set {code!r}"]})
    deck.rule_set_pin = pin
    DeckModel.objects.filter(pk=deck.pk).update(rule_set_pin=pin)
    deck_revalidate(deck=deck)
    return deck


def deck_new_share_link(*, deck: DeckModel) -> DeckModel:
    """Replace the deck's share link: the old one stops working at once (and says so)."""
    _retire_share_token(deck, RetiredShareToken.Reason.REPLACED)
    deck.share_token = new_share_token()
    deck.save(update_fields=["share_token", "updated_at"])
    return deck


def _retire_share_token(deck: DeckModel, reason: str) -> None:
    """Remember the deck's current share token as retired (for the page its link shows)."""
    if deck.pk and deck.share_token:
        RetiredShareToken.objects.update_or_create(
            token=deck.share_token, defaults={"deck": deck, "reason": reason}
        )


def deck_delete(*, deck: DeckModel) -> None:
    """Delete a deck and all its versions, and its notices (notices.services.notices_forget:
    a notice names its deck with no foreign key)."""
    with transaction.atomic():
        # current_version points into the versions: clear it first so the cascade is clean.
        type(deck).objects.filter(pk=deck.pk).update(current_version=None)
        notices_forget(DECK, [deck.pk])
        deck.delete()


#: What a clone copies of its deck (the cached verdict included), and of the deck's current
#: version (its version 1).
CLONED_DECK_FIELDS = (
    "game",
    "format",
    "description",
    "rule_set_pin_id",
    "legal",
    "violations_count",
    "warnings_count",
    "report",
    "validated_at",
)
CLONED_VERSION_FIELDS = ("list_text", "entries", "options", "report", "rule_set_code")


def deck_clone(*, deck: DeckModel, owner: User, name: str | None = None) -> DeckModel:
    """A private copy of `deck` for `owner`, whose version 1 is the source's current
    version (list, options and the cached verdict copied as they are)."""

    source = deck.current_version
    with transaction.atomic():
        clone = DeckModel.objects.create(
            owner=owner,
            name=name or f"{deck.name} (copy)"[:200],
            cloned_from=deck,
            **{key: getattr(deck, key) for key in CLONED_DECK_FIELDS},
        )
        if source is not None:
            version = DeckVersion.objects.create(
                deck=clone,
                number=1,
                author=owner,
                **{key: getattr(source, key) for key in CLONED_VERSION_FIELDS},
            )
            clone.current_version = version
            clone.save(update_fields=["current_version", "updated_at"])
    return clone


def deck_set_built(*, deck: DeckModel, built: bool) -> None:
    """Mark a deck built (its cards sit in a deck box) or not. Every figure is read from the
    decks as they are, so the next read of any page or answer counts it (nothing cached)."""
    if deck.built != built:
        deck.built = built
        DeckModel.objects.filter(pk=deck.pk).update(built=built)
