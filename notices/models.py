"""Notices: what the site tells a user. About a deck: a re-check changed its verdict (legal ↔
not legal) or its total points, or the rule set it was pinned to was deleted; one notice per
deck per change: `key` identifies the change (the re-check that found it, and the new verdict
and points), unique per deck, so that a chunk of work done twice writes nothing twice.
About the community (no deck): an author the user follows published a decklist, someone
commented on the user's decklist, replied to their comment or mentioned them; `url` is the
page it links to and `key` is unique per user. The kinds are data here: the app that writes
them is not imported. A user may opt in to an email digest of the notices not yet mailed and
switch off the community kinds (`NoticePreference`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from cardsite.models import OwnedQuerySet


class NoticeQuerySet(OwnedQuerySet):
    def unread(self) -> NoticeQuerySet:
        return self.filter(read_at__isnull=True)


class Notice(models.Model):
    class Kind(models.TextChoices):
        VERDICT = "verdict", "Verdict changed"
        POINTS = "points", "Total points changed"
        PIN = "pin", "Pinned rule set deleted"
        PUBLISHED = "published", "An author you follow published a decklist"
        COMMENT = "comment", "A comment on your decklist"
        REPLY = "reply", "A reply to your comment"
        MENTION = "mention", "You were mentioned in a comment"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    deck = models.ForeignKey(
        "decks.Deck", on_delete=models.CASCADE, null=True, blank=True, related_name="notices"
    )
    #: The page a notice without a deck links to (a decklist, a comment).
    url = models.CharField(max_length=300, blank=True, default="")
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
            models.UniqueConstraint(
                fields=["owner", "key"],
                condition=Q(deck__isnull=True),
                name="notice_owner_key_unique",
            ),
        ]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="notice_owner_created"),
            models.Index(
                fields=["owner"], condition=Q(read_at__isnull=True), name="notice_owner_unread"
            ),
        ]

    def __str__(self) -> str:
        return self.message

    def get_absolute_url(self) -> str:
        """The page the notice links to: its deck's, or the page it names."""
        if self.deck_id is not None:
            return reverse("decks:detail", args=[self.deck_id])
        return self.url or reverse("notices:list")


#: The kinds a user may switch off on the account page (the community's); a deck's verdict
#: notices are always written.
SWITCHABLE_KINDS = (
    Notice.Kind.PUBLISHED,
    Notice.Kind.COMMENT,
    Notice.Kind.REPLY,
    Notice.Kind.MENTION,
)


class NoticePreference(models.Model):
    """A user's choice about notices: `email_digest` (opt-in) mails the notices not yet
    mailed, at most once a day (`digest_sent_at`); `muted` lists the kinds (of
    SWITCHABLE_KINDS) the user switched off: none of those is written for them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preference"
    )
    email_digest = models.BooleanField(default=False)
    muted = models.JSONField(default=list, db_default=[], blank=True)
    digest_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: digest {'on' if self.email_digest else 'off'}"
