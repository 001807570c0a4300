"""The API's scopes: what a token (a personal token or an app's OAuth token) may do.

Every API view declares the scope each of its operations needs, in `required_scopes`: a
dict whose keys are, looked up in this order, the viewset action (`"publish"`), the HTTP
method (`"POST"`), or `"read"` (GET, HEAD, OPTIONS) and `"write"` (any other method).
A request carrying a token without that scope answers 403 with
`WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` (RFC 6750 §3.1). A view
that declares no scope for an operation takes no token at all (the same 403): the walk of
every API operation in the tests keeps each one declared. A signed-in session or HTTP Basic
is the user themself and has every scope.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS

READ = "read"
DECKS_READ = "decks:read"
DECKS_WRITE = "decks:write"
COLLECTION_READ = "collection:read"
COLLECTION_WRITE = "collection:write"
DECKLISTS_WRITE = "decklists:write"
NOTICES_READ = "notices:read"

#: Every scope, with what it lets an app do, in the words of the consent screen.
SCOPES: dict[str, str] = {
    READ: "Read the public catalogue, decklists and authors (open to anyone anyway)",
    DECKS_READ: "See your decks (private ones too), their versions, exports and simulations",
    DECKS_WRITE: "Create, change and delete your decks, and run simulations and campaigns",
    COLLECTION_READ: "See your card collection and wants",
    COLLECTION_WRITE: "Change your card collection",
    DECKLISTS_WRITE: "Publish decklists, and like, favourite, comment and follow as you",
    NOTICES_READ: "Read your notices (and mark them read)",
}

#: The scopes of a read-only token: what an old "read only" personal token could do.
READ_ONLY = [READ, DECKS_READ, COLLECTION_READ, NOTICES_READ]
ALL = list(SCOPES)


def parse(text: str | Iterable[str] | None) -> set[str]:
    """The scopes of a space-separated string (or an iterable of scopes)."""
    if not text:
        return set()
    if isinstance(text, str):
        return set(text.split())
    return set(text)


def ordered(scopes: Iterable[str]) -> list[str]:
    """Scopes in the order of SCOPES (unknown ones left out)."""
    have = set(scopes)
    return [scope for scope in SCOPES if scope in have]


def required_scope(view, method: str) -> str | None:
    """The scope `view` declares for a `method` request (None: it declares none)."""
    declared = getattr(view, "required_scopes", None) or {}
    method = method.upper()
    action = getattr(view, "action", None)
    if action and action in declared:
        return declared[action]
    if method in declared:
        return declared[method]
    if method == "HEAD" and "GET" in declared:
        return declared["GET"]
    return declared.get(READ if method in SAFE_METHODS else "write")


class InsufficientScope(exceptions.PermissionDenied):
    """A token without the scope an operation needs: 403 with `WWW-Authenticate` saying
    which (RFC 6750's `insufficient_scope`), set by the API's exception handler from
    `www_authenticate`."""

    default_code = "insufficient_scope"

    def __init__(self, needed: str | None):
        detail: str
        if needed:
            detail = str(_("This token lacks the scope “%(scope)s” (%(what)s).")) % {
                "scope": needed,
                "what": SCOPES.get(needed, needed),
            }
            self.www_authenticate = (
                f'Bearer realm="api", error="insufficient_scope", scope="{needed}", '
                f'error_description="This token lacks the scope {needed}."'
            )
        else:
            detail = str(_("This operation takes no token: sign in instead."))
            self.www_authenticate = (
                'Bearer realm="api", error="insufficient_scope", '
                'error_description="This operation takes no token."'
            )
        super().__init__(detail, code="insufficient_scope")


def enforce(request, granted: Iterable[str]) -> None:
    """Refuse a token-authenticated request whose token lacks the scope its view declares."""
    context = getattr(request, "parser_context", None) or {}
    view = context.get("view")
    method = request.method.lower()
    if view is not None and (method not in view.http_method_names or not hasattr(view, method)):
        return  # a method the view does not take: its 405, not a scope's 403
    if method == "options":
        return  # what the operation takes (DRF's metadata) is no one's data
    needed = required_scope(view, request.method)
    if needed is None or needed not in set(granted):
        raise InsufficientScope(needed)


class ScopesBackend:
    """django-oauth-toolkit's scopes: ours, every one available to every app, `read` the
    default when an app asks for none."""

    def get_all_scopes(self) -> dict[str, str]:
        return dict(SCOPES)

    def get_available_scopes(self, application=None, request=None, *args, **kwargs) -> list[str]:
        return list(SCOPES)

    def get_default_scopes(self, application=None, request=None, *args, **kwargs) -> list[str]:
        return [READ]
