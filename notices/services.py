"""Notices: writing them in bulk (once per subject per change), forgetting a subject's, the
navigation's unread count, marking read, the owner's digest preference and the email digest.

The apps that cause notices describe each as a `NoticeDraft`: its owner, kind, key and
message, its `Subject` (a kind of subject, an object id and, when the page is not the
subject's own, a URL) and its kind's typed payload (`VerdictChange` for a deck's verdict,
points and pin notices; none for the community's), and hand them to `notices_write`."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from cardsite.accounts import signed_in

from .models import SWITCHABLE_KINDS, Notice, NoticePreference

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django.db.models import QuerySet

logger = logging.getLogger(__name__)

#: How long the navigation's unread count is kept in the cache (seconds); any change to a
#: user's notices drops it sooner.
UNREAD_TTL = 3600
#: Notices listed in one digest email (the rest are counted).
DIGEST_MAX = 50


def _unread_key(user_id: int) -> str:
    return f"notices:unread:{user_id}"


def unread_count(user: User | AnonymousUser | None) -> int:
    """The user's unread notices, from the cache (one query when it is not there)."""
    if not signed_in(user):
        return 0
    key = _unread_key(user.pk)
    try:
        n = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down: count from the database
        logger.warning("notices: cache unavailable, unread count read from the database")
        return Notice.objects.filter(owner_id=user.pk, read_at__isnull=True).count()
    if n is None:
        n = Notice.objects.filter(owner_id=user.pk, read_at__isnull=True).count()
        _cache_quietly(cache.set, key, n, UNREAD_TTL)
    return n


def _cache_quietly(operation: Callable[..., object], *args: object) -> None:
    """A cache write or delete that a cache outage must not turn into an error (the count
    is then read from the database until the cache is back; its entries expire)."""
    try:
        operation(*args)
    except Exception:  # noqa: BLE001 - any cache failure
        logger.warning("notices: cache unavailable, %s skipped", operation.__name__)


def unread_count_warm(
    sender: object = None, request: object = None, user: User | None = None, **kwargs: object
) -> None:
    """Signal receiver (user_logged_in): count the user's unread notices into the cache."""
    if user is not None:
        _cache_quietly(cache.delete, _unread_key(user.pk))
        unread_count(user)


def unread_forget(owner_ids: Iterable[int]) -> None:
    """Drop the cached counts of these owners now and again once the transaction commits (a
    page counting meanwhile would cache the count from before the change)."""
    keys = [_unread_key(pk) for pk in set(owner_ids)]
    if keys:
        _cache_quietly(cache.delete_many, keys)
        transaction.on_commit(lambda: _cache_quietly(cache.delete_many, keys))


@dataclass(frozen=True, slots=True)
class Subject:
    """What a notice is about: a kind of subject ("deck", "decklist", "comment"), its id,
    and the page to link to when it is not the subject's own (notices.subjects)."""

    kind: str
    id: int
    url: str = ""


@dataclass(frozen=True, slots=True)
class VerdictChange:
    """The payload of a deck's verdict, points and pin notices: the rule set it was checked
    under ("" for the bare format) and its verdict and total points, before and after."""

    rule_set_code: str = ""
    legal: bool | None = None
    was_legal: bool | None = None
    points: int | None = None
    was_points: int | None = None


#: The payload each kind of notice carries (a kind not listed carries none).
PAYLOADS: dict[str, type[VerdictChange]] = {
    Notice.Kind.VERDICT: VerdictChange,
    Notice.Kind.POINTS: VerdictChange,
    Notice.Kind.PIN: VerdictChange,
}


@dataclass(frozen=True, slots=True)
class NoticeDraft:
    """A notice to write (`notices_write`): for `owner_id`, of `kind`, once per `key` (and
    subject), saying `message` (cut to its column), about `subject`, with its kind's
    `payload`."""

    owner_id: int
    kind: str
    key: str
    message: str
    subject: Subject | None = None
    payload: VerdictChange | None = None

    def __post_init__(self) -> None:
        wanted = PAYLOADS.get(self.kind)
        if self.payload is not None and not isinstance(self.payload, wanted or ()):
            raise TypeError(f"a {self.kind} notice carries no {type(self.payload).__name__}")

    def as_notice(self) -> Notice:
        subject, change = self.subject, self.payload or VerdictChange()
        return Notice(
            owner_id=self.owner_id,
            kind=self.kind,
            key=self.key[:120],
            message=self.message[:499],
            subject_kind=subject.kind if subject else "",
            subject_id=subject.id if subject else None,
            url=subject.url if subject else "",
            rule_set_code=change.rule_set_code,
            legal=change.legal,
            was_legal=change.was_legal,
            points=change.points,
            was_points=change.was_points,
        )


def notices_write(drafts: Sequence[NoticeDraft | Notice]) -> int:
    """Insert notices in bulk; a notice whose (owner, subject, key) exists already (for a
    notice without a subject, whose (owner, key)) is skipped, so that work done twice tells
    nobody twice. A notice of a kind its owner switched off is not written (one query, only
    when a switchable kind is among them). Returns the number given."""
    notices = [d.as_notice() if isinstance(d, NoticeDraft) else d for d in drafts]
    if not notices:
        return 0
    switchable = {str(k) for k in SWITCHABLE_KINDS}
    owners = {n.owner_id for n in notices if str(n.kind) in switchable}
    if owners:
        muted = {
            (user_id, str(kind))
            for user_id, kinds in NoticePreference.objects.filter(user_id__in=owners)
            .exclude(muted=[])
            .values_list("user_id", "muted")
            for kind in kinds or ()
        }
        notices = [n for n in notices if (n.owner_id, str(n.kind)) not in muted]
        if not notices:
            return 0
    Notice.objects.bulk_create(notices, batch_size=1000, ignore_conflicts=True)
    unread_forget(n.owner_id for n in notices)
    return len(notices)


def notices_forget(kind: str, ids: Iterable[int]) -> int:
    """Delete the notices about the subjects `ids` of `kind` (their subject was deleted: the
    decks app calls it when a deck goes). Returns how many."""
    about = Notice.objects.about(kind, ids)
    owners = set(about.values_list("owner_id", flat=True))
    n, _ = about.delete()
    unread_forget(owners)
    return n


def notices_mark_all_read(user: User) -> int:
    """Mark every unread notice of the user read; returns how many."""
    n = Notice.objects.owned_by(user).unread().update(read_at=timezone.now())
    unread_forget([user.pk])
    return n


def notices_for(user: User | AnonymousUser) -> QuerySet[Notice]:
    """The user's notices, newest first (scoped in the query)."""
    return Notice.objects.owned_by(user).order_by("-created_at", "-id")


# --- The digest -----------------------------------------------------------------------------


def preference_for(user: User) -> NoticePreference:
    """The user's preference (an unsaved default when they never chose)."""
    return NoticePreference.objects.filter(user=user).first() or NoticePreference(user=user)


class NoticeSettings(TypedDict):
    """The profile page's notice settings: the preference and each switchable kind as
    (value, label, on)."""

    notice_preference: NoticePreference
    notice_kinds: list[tuple[str, str, bool]]


def profile_notice_preference(user: User) -> NoticeSettings:
    """The profile page's notice settings (the `profile_context` hook): the email digest and
    the kinds of notice the user may switch off, each with whether it is on."""
    pref = preference_for(user)
    muted = set(pref.muted or ())
    kinds = [(str(k), k.label, str(k) not in muted) for k in SWITCHABLE_KINDS]
    return {"notice_preference": pref, "notice_kinds": kinds}


def preference_set(
    user: User, *, email_digest: bool, muted: list[str] | None = None
) -> NoticePreference:
    """Set the user's digest choice and, when given, the kinds switched off (only kinds of
    SWITCHABLE_KINDS are kept)."""
    defaults: dict[str, Any] = {"email_digest": email_digest}
    if muted is not None:
        allowed = [str(k) for k in SWITCHABLE_KINDS]
        defaults["muted"] = [k for k in allowed if k in set(muted)]
    pref, _ = NoticePreference.objects.update_or_create(user=user, defaults=defaults)
    return pref


def _site_url(path: str) -> str:
    base = getattr(settings, "SITE_URL", "").rstrip("/")
    return f"{base}{path}" if base else path


def _digest_body(user: User, notices: list[Notice], more: int) -> str:
    lines = [f"Hello {user.get_username()},", "", "What is new for you:", ""]
    for n in notices:
        url = _site_url(n.get_absolute_url())
        lines.append(f"- {n.created_at:%Y-%m-%d}: {n.message} ({url})")
    if more:
        lines.append(f"- … and {more} more")
    lines += [
        "",
        f"Every notice: {_site_url(reverse('notices:list'))}",
        f"Stop these emails on your account page: {_site_url(reverse('profile'))}",
    ]
    return "\n".join(lines)


def digest_send(*, now: datetime | None = None) -> int:
    """Mail each owner who opted in the unread notices not mailed yet (newest first, at most
    DIGEST_MAX listed); every notice of theirs not mailed yet is then marked mailed, so that a
    second run sends nothing new. An owner without an email address is skipped. A failed
    mail is logged and tried again at the next run. Returns the number of emails sent."""
    now = now or timezone.now()
    sent = 0
    prefs = (
        NoticePreference.objects.filter(email_digest=True)
        .exclude(user__email="")
        .select_related("user")
        .order_by("pk")
    )
    for pref in prefs.iterator(chunk_size=200):
        user = pref.user
        pending = Notice.objects.filter(owner=user, emailed_at__isnull=True)
        unread = list(
            pending.filter(read_at__isnull=True).order_by("-created_at", "-id")[: DIGEST_MAX + 1]
        )
        if not unread:
            pending.update(emailed_at=now)
            continue
        shown, more = unread[:DIGEST_MAX], 0
        if len(unread) > DIGEST_MAX:
            more = pending.filter(read_at__isnull=True).count() - DIGEST_MAX
        subject = f"Cardsite: {len(shown) + more} notice{'s' if len(shown) + more != 1 else ''}"
        try:
            send_mail(subject, _digest_body(user, shown, more), None, [user.email])
        except Exception:  # noqa: BLE001 - one owner's mail must not stop the others'
            logger.exception("notice digest not sent", extra={"user": user.pk})
            continue
        cutoff = max(n.created_at for n in unread)
        pending.filter(created_at__lte=cutoff).update(emailed_at=now)
        NoticePreference.objects.filter(pk=pref.pk).update(digest_sent_at=now)
        sent += 1
    return sent
