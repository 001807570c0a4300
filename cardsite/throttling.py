"""Throttles for pages, with the API's scopes and rates: a POST to an expensive page (the
list check, starting a simulation, a tool's run) counts against the same
limit as the matching API route, per user (or per client address when signed out), in the
shared cache. Over the limit the page answers 429 with Retry-After and a message."""

from __future__ import annotations

from functools import wraps

from django.shortcuts import render
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from .clientip import client_ip


class PageThrottle(SimpleRateThrottle):
    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_rate(self):
        # Read at call time: the rates are settings (THROTTLE_* in the environment).
        return ScopedRateThrottle.THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        ident = (
            f"user-{user.pk}" if user is not None and user.is_authenticated else client_ip(request)
        )
        return self.cache_format % {"scope": f"page-{self.scope}", "ident": ident}


def page_throttle(scope: str, methods: tuple[str, ...] = ("POST",)):
    """Decorate a page view: its `methods` requests count against `scope`'s rate."""

    def decorate(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method in methods:
                throttle = PageThrottle(scope)
                if throttle.rate and not throttle.allow_request(request, None):
                    wait = int(throttle.wait() or 1) + 1
                    template = (
                        "errors/_throttled.html"
                        if getattr(request, "htmx", False)
                        else "errors/throttled.html"
                    )
                    response = render(request, template, {"wait": wait}, status=429)
                    response["Retry-After"] = str(wait)
                    return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
