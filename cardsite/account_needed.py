"""Pages that build something a user keeps (a new deck) need an account. A visitor without
one who opens such a page is told so, with both ways in, each leading back to the page
(`?next=`), instead of being sent to the sign-in form without a word."""

from __future__ import annotations

from functools import wraps
from urllib.parse import quote

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request) -> str:
    """The `next` address a request carries (posted, else in the query) when it is on this
    site; "" otherwise."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return ""


def ways_in(next_url: str) -> dict[str, str]:
    """The sign-up and sign-in addresses that lead back to `next_url`."""
    back = f"?next={quote(next_url, safe='/')}" if next_url else ""
    return {"signup_url": reverse("signup") + back, "login_url": reverse("login") + back}


def account_needed(view):
    """A view for signed-in users: a visitor's GET is answered with the page that says an
    account is needed (200, the ways in); any other request goes to the sign-in form, as
    `login_required` sends it."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.method not in ("GET", "HEAD"):
            return redirect_to_login(request.get_full_path())
        return render(request, "registration/account_needed.html", ways_in(request.get_full_path()))

    return wrapper
