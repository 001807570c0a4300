"""Likes, favourites and follows: one of each per user and item, idempotent (a second like
changes nothing), counters and the author's reputation moved with F() expressions in the
same transaction as the row."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse

from decklists.models import Author, Decklist, Favourite, Follow, Like
from notices.models import Notice
from notices.services import NoticeDraft, Subject, notices_write

from . import popularity
from .errors import DecklistInvalid

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: A reader's mark on a decklist.
_Mark = TypeVar("_Mark", Like, Favourite)

#: Reputation an author gains from a like and from a favourite of one of their decklists
#: by someone else.
LIKE_POINTS = 1
FAVOURITE_POINTS = 5


def _reputation(author_id: int, points: int) -> None:
    Author.objects.get_or_create(user_id=author_id)
    Author.objects.filter(user_id=author_id).update(reputation=F("reputation") + points)


def _toggle(
    model: type[_Mark],
    counter: str,
    points: int,
    *,
    decklist: Decklist,
    user: User,
    on: bool,
) -> bool:
    """Add (on) or remove the user's row; move the decklist's counter (and for likes its
    score) and the author's reputation only when a row came or went. True when it did."""
    with transaction.atomic():
        if on:
            try:
                with transaction.atomic():
                    _, created = model.objects.get_or_create(decklist=decklist, user=user)
            except IntegrityError:  # the same like, a moment ago
                created = False
            changed, delta = created, 1
        else:
            changed, delta = (
                bool(model.objects.filter(decklist=decklist, user=user).delete()[0]),
                -1,
            )
        if not changed:
            return False
        fields = {counter: F(counter) + delta}
        if counter == "likes":
            fields["score"] = popularity.score_after(delta)
        Decklist.objects.filter(pk=decklist.pk).update(**fields)
        if decklist.author_id != user.pk:
            _reputation(decklist.author_id, delta * points)
    return True


def decklist_like(*, decklist: Decklist, user: User) -> bool:
    return _toggle(Like, "likes", LIKE_POINTS, decklist=decklist, user=user, on=True)


def decklist_unlike(*, decklist: Decklist, user: User) -> bool:
    return _toggle(Like, "likes", LIKE_POINTS, decklist=decklist, user=user, on=False)


def decklist_favourite(*, decklist: Decklist, user: User) -> bool:
    return _toggle(Favourite, "favourites", FAVOURITE_POINTS, decklist=decklist, user=user, on=True)


def decklist_unfavourite(*, decklist: Decklist, user: User) -> bool:
    return _toggle(
        Favourite, "favourites", FAVOURITE_POINTS, decklist=decklist, user=user, on=False
    )


def author_follow(*, author: User, follower: User) -> bool:
    """`follower` follows `author` (idempotent); following oneself is refused."""
    if author.pk == follower.pk:
        raise DecklistInvalid({"author": ["you cannot follow yourself"]})
    with transaction.atomic():
        try:
            with transaction.atomic():
                _, created = Follow.objects.get_or_create(author=author, follower=follower)
        except IntegrityError:
            created = False
        if created:
            Author.objects.get_or_create(user=author)
            Author.objects.filter(user=author).update(followers=F("followers") + 1)
    return created


def author_unfollow(*, author: User, follower: User) -> bool:
    with transaction.atomic():
        gone = bool(Follow.objects.filter(author=author, follower=follower).delete()[0])
        if gone:
            Author.objects.filter(user=author, followers__gt=0).update(followers=F("followers") - 1)
    return gone


def followers_tell(*, decklist_id: int) -> int:
    """One notice to each follower of the decklist's author (once: the notice's key names
    the decklist). Returns the number written."""
    decklist = Decklist.objects.select_related("author", "game").filter(pk=decklist_id).first()
    if decklist is None or decklist.hidden:
        return 0
    url = reverse("decklists:detail", args=[decklist.pk])
    what = f"{decklist.game.name}, {decklist.game.definition.format(decklist.format).name}"
    message = f"{decklist.author.username} published “{decklist.name}” ({what})."[:499]
    n = 0
    followers = Follow.objects.filter(author_id=decklist.author_id).values_list(
        "follower_id", flat=True
    )
    subject = Subject(kind="decklist", id=decklist.pk, url=url)
    batch: list[NoticeDraft] = []
    for follower_id in followers.iterator(chunk_size=1000):
        batch.append(
            NoticeDraft(
                owner_id=follower_id,
                kind=Notice.Kind.PUBLISHED,
                key=f"published:{decklist.pk}",
                subject=subject,
                message=message,
            )
        )
        if len(batch) >= 1000:
            n += notices_write(batch)
            batch = []
    n += notices_write(batch)
    return n


def user_by_name(name: str) -> User | None:
    """The active user of this name, or None."""
    return get_user_model().objects.filter(username=name, is_active=True).first()
