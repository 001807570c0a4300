"""Decks and their versions.

A deck belongs to one user, one game and one format. Its content lives in immutable
versions: every save adds a `DeckVersion` (numbered 1, 2, 3… within the deck) that records
the list it was based on, so that a save from a stale base is refused instead of silently
overwriting someone else's work. The deck caches the verdict of its latest validation
(`legal`, `violations_count`, `report`), refreshed on save and whenever the game's catalogue
changes.

What a user owns (their collection) is the collection app's (collection.models).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from cardsite.accounts import signed_in
from cardsite.models import ChunkedJob, JobStatus, OwnedQuerySet
from catalogue.models import format_name
from validation.runner import Report


def stored_verdict(stored: Any) -> Report | None:
    """A verdict stored as JSON, read back (`Report.from_dict`); None when none is stored."""
    return Report.from_dict(stored) if stored else None


def new_share_token() -> str:
    """A random, unguessable token for an unlisted deck's link."""
    return secrets.token_urlsafe(16)


class Visibility(models.TextChoices):
    PRIVATE = "private", "Private"
    UNLISTED = "unlisted", "Unlisted (anyone with the link)"
    PUBLIC = "public", "Public"


class DeckQuerySet(OwnedQuerySet):
    """Every read of decks goes through one of these scopes (`owned_by` and the ones below),
    applied in the query."""

    def public(self) -> DeckQuerySet:
        return self.filter(visibility=Visibility.PUBLIC)

    def visible_to(self, user, *, share_token: str | None = None) -> DeckQuerySet:
        """The decks `user` may read: their own, public ones, and an unlisted one only when
        its share token is given. Staff may read every deck."""
        if getattr(user, "is_staff", False):
            return self.all()
        q = Q(visibility=Visibility.PUBLIC)
        if signed_in(user):
            q |= Q(owner=user)
        if share_token:
            q |= Q(visibility=Visibility.UNLISTED, share_token=share_token)
        return self.filter(q)

    def shared(self, token: str) -> DeckQuerySet:
        """The unlisted or public deck behind a share link (private decks never are)."""
        return self.filter(
            share_token=token, visibility__in=[Visibility.UNLISTED, Visibility.PUBLIC]
        )


class Deck(models.Model):
    """A user's deck (or army, or fleet) for one game and format.

    `current_version` is the latest saved version (None until the first save); `legal`,
    `violations_count` (errors only) and `report` are the latest validation of it.
    `rule_set_pin` is the rule set a pinned deck is checked under; a deck without one follows
    its format (the rule set in effect today). A deleted rule set unpins its decks.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    game = models.ForeignKey("catalogue.Game", on_delete=models.PROTECT, related_name="decks")
    format = models.SlugField(max_length=40)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True, max_length=5000)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    share_token = models.CharField(max_length=43, unique=True, default=new_share_token)
    current_version = models.ForeignKey(
        "DeckVersion",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    cloned_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="clones"
    )
    legal = models.BooleanField(default=False)
    violations_count = models.PositiveIntegerField(default=0)
    warnings_count = models.PositiveIntegerField(default=0)
    report = models.JSONField(default=dict, blank=True)
    validated_at = models.DateTimeField(null=True, blank=True)
    #: What the upcoming rule set will do to the current version of a deck that follows its
    #: format, computed with the verdict (decks.verdicts.rulesets.upcoming_effect): its
    #: `items`, `legal` and `errors` then, and what it was computed for (`key`: the rule sets
    #: in force and upcoming and their last change; `version`, `revision`); {} for none.
    upcoming = models.JSONField(default=dict, db_default={}, blank=True)
    rule_set_pin = models.ForeignKey(
        "catalogue.RuleSet",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pinned_decks",
        help_text="The rule set the deck is checked under for good; empty: the deck follows "
        "its format (checked under the rule set in effect today).",
    )
    #: The deck is built: its cards sit in a deck box, so they are not free for another deck
    #: (collection.selectors: owned · in your built decks · free).
    built = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = DeckQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-updated_at"], name="deck_owner_updated"),
            models.Index(fields=["game", "visibility", "-updated_at"], name="deck_game_public"),
            models.Index(
                fields=["owner", "game"], condition=Q(built=True), name="deck_owner_built"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:detail", args=[self.pk])

    def get_share_url(self) -> str:
        return reverse("decks:shared", args=[self.share_token])

    @property
    def definition(self):
        return self.game.definition

    @property
    def format_name(self) -> str:
        """The format's name as its game spells it ("Standard"); the slug of a format the
        game no longer has."""
        return format_name(self.game.slug, self.format)

    @property
    def picker_details(self) -> str:
        """What tells the deck apart from another of the same name in a menu of decks: its
        format, its version and the day it last changed ("Standard · version 3 · updated
        2026-05-01")."""
        parts = [self.format_name]
        version = self.current_version if self.current_version_id is not None else None
        if version is not None:
            parts.append(f"version {version.number}")
        if self.updated_at is not None:
            parts.append(f"updated {timezone.localdate(self.updated_at).isoformat()}")
        return " · ".join(parts)

    @property
    def verdict(self) -> Report | None:
        """The stored verdict (`report` read back by `Report.from_dict`: the one reading of
        the JSON); None for a deck never validated."""
        return stored_verdict(self.report)


class RetiredShareToken(models.Model):
    """A share token a deck no longer answers to, kept so that its link says why it stopped
    working: the owner replaced it, or stopped sharing the deck by link. Deleted with the
    deck (a deleted deck's links are plain 404s)."""

    class Reason(models.TextChoices):
        REPLACED = "replaced", "The owner replaced this link"
        WITHDRAWN = "withdrawn", "The owner stopped sharing this deck by link"

    token = models.CharField(max_length=43, unique=True)
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=10, choices=Reason.choices, default=Reason.REPLACED)
    retired_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.deck_id}: {self.reason}"


class DeckVersion(models.Model):
    """One saved state of a deck.

    A version is sealed (never edited again) when it is written by a list edit or the API,
    when its author presses "Save version" (with an optional `note`) or leaves the builder,
    and when a newer version is written. The builder's autosave writes an unsealed working
    version instead, and rewrites it in place (`revision` + 1, `updated_at`) while the same
    author goes on editing within a few minutes, so that a session of edits is one version.

    `list_text` is the canonical text of the list (the snapshot); `entries` the same list
    as [{"section", "card", "count", "placement"?}] (`placement`: [column, row] of a
    placed unit) with canonical card names; `options` the
    format options (e.g. {"points": 50}); `report` the validation report when it was saved.
    `based_on` is the version the author started from (None for a first version);
    `rule_set_code` the code of the rule set it was checked under (empty: the bare format).
    """

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    based_on = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    list_text = models.TextField()
    entries = models.JSONField(default=list)
    options = models.JSONField(default=dict, blank=True)
    report = models.JSONField(default=dict, blank=True)
    sealed = models.BooleanField(default=True)
    note = models.CharField(max_length=200, blank=True, default="")
    revision = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)
    rule_set_code = models.CharField(
        max_length=40, blank=True, default="", help_text="The rule set it was checked under."
    )

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="deckversion_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"

    def save(self, *args, **kwargs) -> None:
        # Versions are immutable through save(): a save may only create one. The working
        # version's rewrite and sealing are queryset updates in decks.services.
        if not self._state.adding:
            raise ValueError("a deck version is immutable; save a new version instead")
        super().save(*args, **kwargs)

    @property
    def verdict(self) -> Report | None:
        """The verdict stored with the version (`Report.from_dict`); None when none was."""
        return stored_verdict(self.report)

    @property
    def legal(self) -> bool:
        verdict = self.verdict
        return verdict is not None and verdict.legal

    def sections(self) -> dict[str, list[dict]]:
        """Entries grouped by section, in stored order."""
        out: dict[str, list[dict]] = {}
        for e in self.entries:
            out.setdefault(e["section"], []).append(e)
        return out


class RecheckJob(ChunkedJob):
    """The re-check of a format's saved decks after its rule sets changed (a rule set
    imported, edited or deleted, or taking effect today), a chunked job of the site's one
    job system (cardsite/jobs.py; its kind in decks/verdicts/recheck_jobs.py): `chunks` holds
    each chunk's first and last deck id, `chunk_results` each finished chunk's counts, and
    `checked`, `changed` and `notices` their sums (the progress page reads them). `key`,
    when set, makes a job unique (the day a rule set takes effect starts one job for it,
    however often beat asks)."""

    JOB_KIND = "decks.recheck"
    #: The kind of a job whose `format` is "": every saved deck of the game, each in its own
    #: format, after the game's catalogue changed.
    REVALIDATE_KIND = "decks.revalidate"
    #: A job's status (cardsite.models.JobStatus), as `RecheckJob.Status.DONE`.
    Status = JobStatus

    game = models.ForeignKey("catalogue.Game", on_delete=models.CASCADE, related_name="+")
    format = models.SlugField(max_length=40)
    #: The rule set whose change started the job: the decks pinned to it are re-checked
    #: with the decks that follow the format ("" when none).
    rule_set_code = models.CharField(max_length=40, blank=True, default="")
    reason = models.CharField(max_length=200)
    key = models.CharField(max_length=120, blank=True, default="")
    total = models.PositiveIntegerField(default=0)
    checked = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    notices = models.PositiveIntegerField(default=0)
    chunks = models.JSONField(default=list, blank=True)
    #: A deleted rule set's pins: {"ids": the decks that were pinned to it, "rule_set": its
    #: id, "code", "name"}; each of those decks' owners gets one notice from the job, which
    #: says what the deck now follows and its verdict there ({} for any other job).
    released = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=~Q(key=""), name="recheckjob_key_unique"
            )
        ]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="recheckjob_status")]

    def __str__(self) -> str:
        return f"re-check #{self.pk} of {self.format or 'every format'} ({self.status})"

    def job_kind(self) -> str:
        """A format's re-check, or (`format` "") the whole game's."""
        return self.JOB_KIND if self.format else self.REVALIDATE_KIND

    @property
    def format_name(self) -> str:
        """The format's name as its game spells it ("Standard"); "every format" for a whole
        game's re-check."""
        return format_name(self.game.slug, self.format) if self.format else "every format"

    @property
    def sweeps(self) -> int:
        """How many times the reaper sent the job's chunks again (its `attempts`)."""
        return self.attempts
