"""Hostile input the site answers with a clear 400/404 instead of a 500, beside
`cardsite.errors`:

- a user name longer than the login lock's column (django-axes stores it in 255
  characters): cut to that length for the lock (`axes_username`), so a login or an HTTP Basic
  attempt with a 10,000-character name is refused like any wrong password;
- a NUL character, or a path too long, in the address itself (`RejectHostilePathMiddleware`):
  no page has such an address; a 404 saying why (PostgreSQL text cannot hold NUL);
- NUL characters inside uploaded files: `nul_line` names the first line holding one.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse

#: django-axes' AccessAttempt.username is a varchar(255).
AXES_USERNAME_MAX = 255
#: The longest address the site answers (no route comes near it).
MAX_PATH_CHARS = 2000


def axes_username(request, credentials) -> str:
    """The user name django-axes records for a login attempt, at most 255 characters."""
    value = None
    if credentials:
        value = credentials.get("username")
    if value is None and request is not None:
        value = request.POST.get("username", "")
    return str(value or "")[:AXES_USERNAME_MAX]


def nul_line(text: str) -> int | None:
    """The number (from 1) of the first line of `text` holding a NUL character, or None."""
    at = text.find("\x00")
    return None if at < 0 else text.count("\n", 0, at) + 1


class RejectHostilePathMiddleware:
    """An address holding a NUL character, or longer than MAX_PATH_CHARS, answers 404 with
    the reason (no route has such an address; unchecked, a NUL reaches the database)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path
        if "\x00" in path:
            message = "No page has this address: it contains a NUL character (\\x00)."
        elif len(path) > MAX_PATH_CHARS:
            message = f"No page has this address: it is longer than {MAX_PATH_CHARS:,} characters."
        else:
            return self.get_response(request)
        if path.startswith("/api/"):
            return JsonResponse({"detail": message}, status=404)
        return HttpResponse(message, status=404, content_type="text/plain; charset=utf-8")


def whole_number(raw: object, *, digits: int = 9) -> int | None:
    """A whole number written in ASCII digits (at most `digits` of them), or None: `²`
    and `٣` are digits to str.isdigit() but no version number."""
    if not isinstance(raw, str) or not raw.isascii() or not raw.isdigit() or len(raw) > digits:
        return None
    return int(raw)
