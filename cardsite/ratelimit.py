"""Rate-limit headers on the API's throttled routes: every answer of a throttled route says
the limit, what is left of it and when it resets (RateLimit-Limit, RateLimit-Remaining,
RateLimit-Reset, in seconds), and a 429 also Retry-After (DRF sets it).

The throttle's algorithm is not touched: `RateLimitHeadersMixin` wraps any DRF throttle's
`allow_request` and reads its state afterwards (`rate_limit_state()` when the throttle
defines one, as the site's counters do, else SimpleRateThrottle's `num_requests`,
`duration`, `history` and `now`); with the cache down there is no state and no header;
`RateLimitHeadersMiddleware` writes the headers on the way out."""

from __future__ import annotations

import math

from . import throttling


def throttle_state(throttle) -> tuple[int, int, int] | None:
    """(limit, remaining, seconds until the window resets) of a throttle that just ran."""
    reader = getattr(throttle, "rate_limit_state", None)
    if callable(reader):
        return reader()
    limit = getattr(throttle, "num_requests", None)
    duration = getattr(throttle, "duration", None)
    history = getattr(throttle, "history", None)
    now = getattr(throttle, "now", None)
    if limit is None or duration is None or history is None or now is None:
        return None
    remaining = max(0, limit - len(history))
    reset = math.ceil(history[-1] + duration - now) if history else duration
    return int(limit), int(remaining), max(0, int(reset))


class RateLimitHeadersMixin:
    """Mix into a DRF throttle class (first): its state is kept on the request for the
    middleware; the tightest of a view's throttles wins."""

    def allow_request(self, request, view):
        allowed = super().allow_request(request, view)  # type: ignore[misc]  # a mixin
        if getattr(self, "rate", None) is None:
            return allowed
        state = throttle_state(self)
        if state is not None:
            django_request = getattr(request, "_request", request)
            current = getattr(django_request, "rate_limit", None)
            if current is None or state[1] < current[1]:
                django_request.rate_limit = state
        return allowed


class ScopedRateThrottle(RateLimitHeadersMixin, throttling.ScopedRateThrottle):
    """The site's scoped throttle (one atomic counter per client and scope in the shared
    cache, cardsite.throttling), sending rate-limit headers."""


class RateLimitHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        state = getattr(request, "rate_limit", None)
        if state is not None:
            limit, remaining, reset = state
            if response.status_code == 429:
                remaining = 0
            response["RateLimit-Limit"] = str(limit)
            response["RateLimit-Remaining"] = str(remaining)
            response["RateLimit-Reset"] = str(reset)
            if response.status_code == 429 and "Retry-After" not in response:
                response["Retry-After"] = str(max(1, reset))
        return response
