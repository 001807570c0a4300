"""Notices: what the site tells a user. A notice names its subject generically: a subject
kind and an object id (a deck, a decklist, a comment: `subject_kind`, `subject_id`; none for
a notice about nothing in particular) and the page it links to (`url`, or the link the
subject's kind registered: notices.subjects). The apps that cause notices write them through
notices.services (`NoticeDraft`, `notices_write`); this app imports none of them and holds
no foreign key into them.

About a deck: a re-check changed its verdict (legal ↔ not legal) or its total points, or
the rule set it was pinned to was deleted; the verdict's payload is `rule_set_code`,
`legal`, `was_legal`, `points` and `was_points` (`VerdictChange`). One notice per subject
per change: `key` identifies the change (the re-check that found it, and the new verdict and
points), unique per owner and subject (per owner for a notice without a subject), so that
a chunk of work done twice writes nothing twice. About the community: an author the user
follows published a decklist, someone commented on the user's decklist, replied to their
comment or mentioned them. A user may opt in to an email digest of the notices not yet
mailed and switch off the community kinds (`NoticePreference`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Self

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from cardsite.models import OwnedQuerySet

from . import subjects
from .subjects import DECK

_DECK_NAMES = ("deck", "deck_id", "deck__in", "deck_id__in")


def _deck_subject(kwargs: dict[str, Any]) -> dict[str, Any]:
    """`deck=` / `deck_id=` (a deck or its id; `__in` a list of them) as the subject of kind
    DECK."""
    for name in [k for k in kwargs if k in _DECK_NAMES]:
        value = kwargs.pop(name)
        kwargs["subject_kind"] = DECK
        if name.endswith("__in"):
            kwargs["subject_id__in"] = [getattr(v, "pk", v) for v in value]
        else:
            kwargs["subject_id"] = getattr(value, "pk", value)
    return kwargs


class NoticeQuerySet(OwnedQuerySet):
    def unread(self) -> NoticeQuerySet:
        return self.filter(read_at__isnull=True)

    def about(self, kind: str, ids: Iterable[int]) -> NoticeQuerySet:
        """The notices whose subject is one of `ids` of kind `kind`."""
        return self.filter(subject_kind=kind, subject_id__in=list(ids))

    # `get` filters through `filter`.
    def filter(self, *args: Any, **kwargs: Any) -> Self:
        return super().filter(*args, **_deck_subject(kwargs))

    def exclude(self, *args: Any, **kwargs: Any) -> Self:
        return super().exclude(*args, **_deck_subject(kwargs))


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
    #: What the notice is about: a kind of subject ("deck", "decklist", "comment"; "" for
    #: none) and its id, with no foreign key (the rows are the apps' above this one).
    subject_kind = models.CharField(max_length=20, blank=True, default="")
    subject_id = models.BigIntegerField(null=True, blank=True)
    #: The page the notice links to, when not its subject's own (a comment on a decklist).
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
            models.UniqueConstraint(
                fields=["owner", "subject_kind", "subject_id", "key"],
                condition=Q(subject_id__isnull=False),
                name="notice_subject_key_unique",
            ),
            models.UniqueConstraint(
                fields=["owner", "key"],
                condition=Q(subject_id__isnull=True),
                name="notice_owner_key_unique",
            ),
        ]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="notice_owner_created"),
            models.Index(
                fields=["owner"], condition=Q(read_at__isnull=True), name="notice_owner_unread"
            ),
            models.Index(fields=["subject_kind", "subject_id"], name="notice_subject"),
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **_deck_subject(kwargs))

    @property
    def deck_id(self) -> int | None:
        """The id of the deck the notice is about (None when its subject is no deck)."""
        return self.subject_id if self.subject_kind == DECK else None

    def __str__(self) -> str:
        return self.message

    def get_absolute_url(self) -> str:
        """The page the notice links to: the one it names, else its subject's (the link the
        subject's kind registered), else the notices page."""
        if self.url:
            return self.url
        if self.subject_id is not None:
            link = subjects.link(self.subject_kind, self.subject_id)
            if link:
                return link
        return reverse("notices:list")


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
