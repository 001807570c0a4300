"""Notices: what the site tells a deck's owner when a re-check changed the deck's verdict
(legal ↔ not legal) or its total points, or when the rule set a deck was pinned to was
deleted. One notice per deck per change: `key` identifies the change (the re-check that
found it, and the new verdict and points), unique per deck, so that a chunk of work done
twice writes nothing twice. An owner may opt in to an email digest of the notices not yet
mailed (`NoticePreference`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class NoticeQuerySet(models.QuerySet):
    def owned_by(self, user) -> NoticeQuerySet:
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(owner=user)

    def unread(self) -> NoticeQuerySet:
        return self.filter(read_at__isnull=True)


class Notice(models.Model):
    class Kind(models.TextChoices):
        VERDICT = "verdict", "Verdict changed"
        POINTS = "points", "Total points changed"
        PIN = "pin", "Pinned rule set deleted"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    deck = models.ForeignKey("decks.Deck", on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    key = models.CharField(max_length=120)
    #: The rule set the deck was checked under ("" for the bare format).
    rule_set_code = models.CharField(max_length=40, blank=True, default="")
    legal = models.BooleanField(null=True, blank=True)
    was_legal = models.BooleanField(null=True, blank=True)
    points = models.IntegerField(null=True, blank=True)
    was_points = models.IntegerField(null=True, blank=True)
    message = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    objects = NoticeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "key"], name="notice_deck_key_unique"),
        ]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="notice_owner_created"),
            models.Index(
                fields=["owner"], condition=Q(read_at__isnull=True), name="notice_owner_unread"
            ),
        ]

    def __str__(self) -> str:
        return self.message


class NoticePreference(models.Model):
    """An owner's choice about notices: `email_digest` (opt-in) mails the notices not yet
    mailed, at most once a day (`digest_sent_at`)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preference"
    )
    email_digest = models.BooleanField(default=False)
    digest_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: digest {'on' if self.email_digest else 'off'}"
