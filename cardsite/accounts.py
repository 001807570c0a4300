"""Who is asking: whether a user (a request's, a service's caller's) is signed in."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, TypeGuard

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

#: Whom a service or selector is asked for: an account, an anonymous visitor (a request's
#: user) or nobody (a command, a job).
Viewer: TypeAlias = "User | AnonymousUser | None"


def signed_in(user: object) -> TypeGuard[User]:
    """Whether `user` is a signed-in account: False for None and for an anonymous user.

    The one test of the apps' services and selectors, which are called with a request's
    user, with None (a command, a job) or with an account."""
    return user is not None and bool(getattr(user, "is_authenticated", False))
