"""Comments, reports and moderation.

Commenting needs an account that has saved at least one deck (a spammer's new account has
none). A comment tells the decklist's author, the author of the comment it replies to and
every user it @mentions (each once, never the commenter), through the notices app.
Moderators (staff) hide, restore and delete decklists and comments, and a decklist's author
hides and restores the comments on it; every step is logged with who, when and why, and
resolves the open reports of the item. Any signed-in user reports an item once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from cardsite.accounts import signed_in
from decklists import markdown
from decklists.from_decks import Deck
from decklists.listing_cache import listings_changed
from decklists.models import (
    COMMENT_MAX,
    REASON_MAX,
    Comment,
    Decklist,
    ModerationLog,
    Report,
)
from notices.models import Notice
from notices.services import NoticeDraft, Subject, notices_write

from .errors import DecklistInvalid, NotAllowed
from .publish import render_text

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django.db.models import QuerySet


def may_comment(user: User | AnonymousUser | None) -> bool:
    """Signed in, and has saved at least one deck (one query)."""
    if not signed_in(user):
        return False
    return Deck.objects.filter(owner=user, current_version__isnull=False).exists()


def comment_url(comment: Comment) -> str:
    return reverse("decklists:detail", args=[comment.decklist_id]) + f"#comment-{comment.pk}"


def _clean_text(text: str, field: str = "text") -> str:
    text = str(text or "")
    if not text.strip():
        raise DecklistInvalid({field: ["write something"]})
    if len(text) > COMMENT_MAX:
        raise DecklistInvalid({field: [f"{len(text)} characters; at most {COMMENT_MAX}"]})
    return text


def comment_post(
    *, decklist: Decklist, author: User, text: str, reply_to: int | None = None
) -> Comment:
    """A comment on a listed decklist (the caller found it in scope); NotAllowed for an
    account with no saved deck, DecklistInvalid for an empty or too long text or a reply to
    a comment not on this decklist."""
    if not may_comment(author):
        raise NotAllowed("Save at least one deck before you comment: it keeps spam out.")
    text = _clean_text(text)
    parent = None
    if reply_to is not None:
        parent = Comment.objects.filter(pk=reply_to, decklist=decklist, hidden=False).first()
        if parent is None:
            raise DecklistInvalid({"reply_to": [f"no comment {reply_to} on this decklist"]})
    with transaction.atomic():
        comment = Comment.objects.create(
            decklist=decklist,
            author=author,
            reply_to=parent,
            text=text,
            html=render_text(text),
        )
        Decklist.objects.filter(pk=decklist.pk).update(comments=F("comments") + 1)
        notices_write(_comment_notices(comment, decklist, author, parent))
    return comment


def _comment_notices(
    comment: Comment, decklist: Decklist, author: User, parent: Comment | None
) -> list[NoticeDraft]:
    subject = Subject(kind="comment", id=comment.pk, url=comment_url(comment))
    told: set[int] = {author.pk}
    out = []

    def tell(user_id: int, kind: str, message: str) -> None:
        if user_id in told:
            return
        told.add(user_id)
        out.append(
            NoticeDraft(
                owner_id=user_id,
                kind=kind,
                key=f"{kind}:{comment.pk}",
                subject=subject,
                message=message,
            )
        )

    who = author.username
    if parent is not None:
        tell(
            parent.author_id,
            Notice.Kind.REPLY,
            f"{who} replied to your comment on “{decklist.name}”.",
        )
    tell(
        decklist.author_id,
        Notice.Kind.COMMENT,
        f"{who} commented on your decklist “{decklist.name}”.",
    )
    names = markdown.mentions(comment.text)
    if names:
        for user_id in (
            get_user_model()
            .objects.filter(username__in=names, is_active=True)
            .values_list("pk", flat=True)
        ):
            tell(
                user_id,
                Notice.Kind.MENTION,
                f"{who} mentioned you in a comment on “{decklist.name}”.",
            )
    return out


# --- Moderation ------------------------------------------------------------------------------


def _clean_reason(reason: str) -> str:
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise DecklistInvalid({"reason": ["give a reason: it is logged"]})
    if len(reason) > REASON_MAX:
        raise DecklistInvalid({"reason": [f"{len(reason)} characters; at most {REASON_MAX}"]})
    return reason


def _log(actor: User, action: str, kind: str, pk: int, target: str, reason: str) -> None:
    ModerationLog.objects.create(
        actor=actor,
        action=action,
        target_kind=kind,
        target_id=pk,
        target=target[:200],
        reason=reason,
    )


def _resolve_reports(
    actor: User,
    outcome: str,
    *,
    decklist: Decklist | None = None,
    comment: Comment | None = None,
) -> int:
    reports = Report.objects.filter(resolved_at__isnull=True)
    reports = (
        reports.filter(decklist=decklist)
        if decklist is not None
        else reports.filter(comment=comment)
    )
    return reports.update(resolved_at=timezone.now(), resolved_by=actor, outcome=outcome)


def may_moderate_comment(
    user: User | AnonymousUser, comment: Comment | None, decklist: Decklist
) -> bool:
    """Staff, or the author of the decklist the comment is on."""
    return bool(
        getattr(user, "is_staff", False) or (signed_in(user) and decklist.author_id == user.pk)
    )


def decklist_hide(*, decklist: Decklist, actor: User, reason: str) -> None:
    reason = _clean_reason(reason)
    with transaction.atomic():
        Decklist.objects.filter(pk=decklist.pk).update(hidden=True, hidden_reason=reason)
        decklist.hidden, decklist.hidden_reason = True, reason
        _log(actor, ModerationLog.Action.HIDE, "decklist", decklist.pk, decklist.name, reason)
        _resolve_reports(actor, "hidden", decklist=decklist)


def decklist_restore(*, decklist: Decklist, actor: User, reason: str) -> None:
    reason = _clean_reason(reason)
    with transaction.atomic():
        Decklist.objects.filter(pk=decklist.pk).update(hidden=False, hidden_reason="")
        decklist.hidden, decklist.hidden_reason = False, ""
        _log(actor, ModerationLog.Action.RESTORE, "decklist", decklist.pk, decklist.name, reason)
        _resolve_reports(actor, "restored", decklist=decklist)


def decklist_delete(*, decklist: Decklist, actor: User, reason: str) -> None:
    reason = _clean_reason(reason)
    with transaction.atomic():
        _log(actor, ModerationLog.Action.DELETE, "decklist", decklist.pk, decklist.name, reason)
        decklist.delete()
        listings_changed()


def _comment_label(comment: Comment) -> str:
    return f"on decklist {comment.decklist_id}: {comment.text[:150]}"


def comment_hide(*, comment: Comment, actor: User, reason: str) -> None:
    reason = _clean_reason(reason)
    with transaction.atomic():
        if Comment.objects.filter(pk=comment.pk, hidden=False).update(
            hidden=True, hidden_reason=reason
        ):
            Decklist.objects.filter(pk=comment.decklist_id, comments__gt=0).update(
                comments=F("comments") - 1
            )
        comment.hidden, comment.hidden_reason = True, reason
        _log(
            actor, ModerationLog.Action.HIDE, "comment", comment.pk, _comment_label(comment), reason
        )
        _resolve_reports(actor, "hidden", comment=comment)


def comment_restore(*, comment: Comment, actor: User, reason: str) -> None:
    reason = _clean_reason(reason)
    with transaction.atomic():
        if Comment.objects.filter(pk=comment.pk, hidden=True).update(
            hidden=False, hidden_reason=""
        ):
            Decklist.objects.filter(pk=comment.decklist_id).update(comments=F("comments") + 1)
        comment.hidden, comment.hidden_reason = False, ""
        _log(
            actor,
            ModerationLog.Action.RESTORE,
            "comment",
            comment.pk,
            _comment_label(comment),
            reason,
        )
        _resolve_reports(actor, "restored", comment=comment)


def comment_delete(*, comment: Comment, actor: User, reason: str) -> None:
    reason = _clean_reason(reason)
    with transaction.atomic():
        _log(
            actor,
            ModerationLog.Action.DELETE,
            "comment",
            comment.pk,
            _comment_label(comment),
            reason,
        )
        if not comment.hidden:
            Decklist.objects.filter(pk=comment.decklist_id, comments__gt=0).update(
                comments=F("comments") - 1
            )
        comment.delete()


def reports_dismiss(*, reports: QuerySet[Report], actor: User, reason: str) -> int:
    """Close open reports without acting on their items (logged per item)."""
    reason = _clean_reason(reason)
    n = 0
    with transaction.atomic():
        for report in reports.filter(resolved_at__isnull=True).select_related(
            "decklist", "comment"
        ):
            decklist, comment = report.decklist, report.comment
            if decklist is not None:
                _log(
                    actor,
                    ModerationLog.Action.DISMISS,
                    "decklist",
                    decklist.pk,
                    decklist.name,
                    reason,
                )
            else:
                assert comment is not None  # a report is of a decklist or of a comment
                _log(
                    actor,
                    ModerationLog.Action.DISMISS,
                    "comment",
                    comment.pk,
                    _comment_label(comment),
                    reason,
                )
            n += Report.objects.filter(pk=report.pk).update(
                resolved_at=timezone.now(), resolved_by=actor, outcome="dismissed"
            )
    return n


def report_file(
    *,
    reporter: User,
    reason: str,
    decklist: Decklist | None = None,
    comment: Comment | None = None,
) -> tuple[Report, bool]:
    """The user's report of a decklist or a comment: once per user and item (a second
    report returns the first, with False)."""
    reason = _clean_reason(reason)
    if (decklist is None) == (comment is None):
        raise ValueError("report one decklist or one comment")
    lookup = {"decklist": decklist} if decklist is not None else {"comment": comment}
    try:
        with transaction.atomic():
            report, created = Report.objects.get_or_create(
                reporter=reporter, **lookup, defaults={"reason": reason}
            )
    except IntegrityError:
        report, created = Report.objects.get(reporter=reporter, **lookup), False
    return report, created
