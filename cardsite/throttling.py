"""Rate limits, one counter per client and scope shared by the API and the pages.

A scope's rate (THROTTLE_* settings, `N/second|minute|hour|day`) is N requests in a window of
that length, which begins with the client's first request. Each request adds one to the
client's counter with the cache's atomic increment (on Redis one MULTI of SET NX, INCR and
PTTL, `cardsite.cache.RedisCache.count_in_window`; elsewhere `cache.add` then `cache.incr`
under the embedded file cache's lock), the counter living as long as the window:
however many requests race, at most N pass in a window. (DRF's own throttles read a list of
times, append and write it back: concurrent requests read the same list, and 32 concurrent
clients got half as many again through.)

The counter is the client's, whatever door it comes through: the API views throttled with
`ScopedRateThrottle` (below) and the pages decorated with `page_throttle` use one key,
`throttle:<scope>:<user id or address>`. So a POST to the list check page counts against the
validate API's limit and the reverse; the simulation start form, the play tools' runs and the
simulate API share `simulate`.

A scope may have a tighter rate for new accounts (`<scope>_new`, e.g. `comment_new`): an
account that joined less than NEW_ACCOUNT_DAYS ago is counted under it instead
(`account_scope`), so a spammer's fresh accounts post less than a regular's.

Over the limit: 429 with Retry-After (the end of the window), a page or a fragment for htmx.
When the cache cannot be reached the request is let through unthrottled and a warning is
logged (`throttle cache unavailable`): an outage of the cache never answers 500.
"""

from __future__ import annotations

import logging
import math
import time
from datetime import timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from django.utils import timezone
from rest_framework import throttling as drf_throttling

from .accounts import signed_in
from .clientip import client_ip

logger = logging.getLogger(__name__)


def throttle_ident(request) -> str:
    """The client a counter belongs to: the signed-in user, else the client's address."""
    user: Any = getattr(request, "user", None)
    if signed_in(user):
        return f"user-{user.pk}"
    return f"ip-{client_ip(request)}"


def throttle_key(scope: str, request) -> str:
    return f"throttle:{scope}:{throttle_ident(request)}"


class WindowCounter:
    """The counting shared by the API's and the pages' throttles. Set `scope`, `rate`,
    `num_requests` and `duration` before `count`.

    After `count`: `limit`, `used` (requests counted in this window, None when the cache was
    unreachable), `remaining` and, for a refused request, `wait()` (seconds until the window
    ends)."""

    scope: str | None = None
    num_requests: int | None = None
    duration: int | None = None
    used: int | None = None
    window_end: float | None = None
    window_start: float | None = None
    key: str | None = None

    @staticmethod
    def timer() -> float:
        return time.time()

    @property
    def limit(self) -> int | None:
        return self.num_requests

    @property
    def remaining(self) -> int | None:
        if self.num_requests is None or self.used is None:
            return None
        return max(0, self.num_requests - self.used)

    def count(self, request) -> bool:
        """Count this request; True when it is within the limit (or the cache is down)."""
        key = self.key = throttle_key(self.scope or "", request)
        now = self.timer()
        try:
            self.used, start = _increment(key, self.duration or 0, now)
            self.window_start = start
        except Exception as exc:  # noqa: BLE001 - any cache failure: let the request through
            self.used = None
            logger.warning(
                "throttle cache unavailable; request let through unthrottled",
                extra={
                    "scope": self.scope,
                    "path": getattr(request, "path", ""),
                    "error": f"{exc.__class__.__name__}: {exc}",
                },
            )
            return True
        if self.num_requests is None or self.used <= self.num_requests:
            return True
        if start is None:
            try:
                start = cache.get(f"{key}:start")
            except Exception:  # noqa: BLE001 - only the Retry-After hint is lost
                start = None
        self.window_end = (start if isinstance(start, float) else now) + (self.duration or 0)
        return False

    def wait(self) -> float | None:
        if self.window_end is None:
            return None
        return max(0.0, self.window_end - self.timer())

    def rate_limit_state(self) -> tuple[int, int, int] | None:
        """(limit, remaining, seconds until the window ends) after `count`, for the
        RateLimit-* headers; None when the request was not counted (the cache was down)."""
        if self.num_requests is None or self.used is None or self.duration is None:
            return None
        end = self.window_end
        if end is None:
            start = self.window_start
            if start is None and self.key is not None:
                try:
                    start = cache.get(f"{self.key}:start")
                except Exception:  # noqa: BLE001 - only the reset hint is lost
                    start = None
            end = (start if isinstance(start, float) else self.timer()) + self.duration
        reset = max(0, math.ceil(end - self.timer()))
        return int(self.num_requests), int(self.remaining or 0), int(reset)


def _increment(key: str, duration: int, now: float) -> tuple[int, float | None]:
    """Add one to the client's counter `key`, atomically. The first request of a window
    creates it at 0, living `duration` seconds (and notes when the window began, for the
    Retry-After hint). Returns the count and, when this request began the window, its start
    (on Redis always: one round trip answers the count and the window's time left)."""
    in_window = getattr(cache, "count_in_window", None)
    if in_window is not None:
        used, left = in_window(key, duration)
        return used, now + left - duration
    for _ in range(3):
        created = cache.add(key, 0, duration)
        if created:
            cache.set(f"{key}:start", now, duration)
        try:
            used = cache.incr(key)
        except ValueError:  # expired or evicted between add and incr: begin again
            continue
        if used == 1 and not created:
            # Another request created it a moment ago, or the counter expired between the
            # cache's existence check and its increment, which then made a counter that
            # never expires (Redis INCR): give it its lifetime again.
            cache.touch(key, duration)
        return used, now if created else None
    raise RuntimeError(f"the cache keeps losing the counter {key!r}")


def account_scope(scope: str, user) -> str:
    """`scope`, or `<scope>_new` for an account younger than NEW_ACCOUNT_DAYS when that scope
    has a rate of its own."""

    newer = f"{scope}_new"
    if newer not in drf_throttling.ScopedRateThrottle.THROTTLE_RATES:
        return scope
    joined = getattr(user, "date_joined", None)
    if not signed_in(user) or joined is None:
        return scope
    days = float(getattr(settings, "NEW_ACCOUNT_DAYS", 7))
    return newer if joined > timezone.now() - timedelta(days=days) else scope


class ScopedRateThrottle(WindowCounter, drf_throttling.ScopedRateThrottle):
    """DRF's ScopedRateThrottle (the view's `throttle_scope`, the rates of
    DEFAULT_THROTTLE_RATES) with the shared, atomic counter. A scope with a `<scope>_new`
    rate counts new accounts under it (`account_scope`)."""

    def allow_request(self, request, view):
        method = request.method.lower()
        if method not in view.http_method_names or not hasattr(view, method):
            return True  # not counted: the view answers 405 (the method before the limit)
        self.scope = getattr(view, self.scope_attr, None)
        if self.scope:
            self.scope = account_scope(self.scope, getattr(request, "user", None))
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.num_requests is None:
            return True
        return self.count(request)

    def get_cache_key(self, request, view):
        return throttle_key(self.scope or "", request)


class PageThrottle(WindowCounter):
    """A page's throttle for `scope`, with the API's rate for it (read at call time: tests
    and settings change drf's ScopedRateThrottle.THROTTLE_RATES)."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        self.rate = drf_throttling.ScopedRateThrottle.THROTTLE_RATES.get(scope)
        self.num_requests, self.duration = drf_throttling.SimpleRateThrottle.parse_rate(
            self,  # type: ignore[arg-type]  # parse_rate reads nothing of its instance
            self.rate,
        )

    def allow_request(self, request, view=None) -> bool:
        if self.num_requests is None:
            return True
        return self.count(request)


def page_throttle(scope: str, methods: tuple[str, ...] = ("POST",)):
    """Decorate a page view: its `methods` requests count against `scope`'s rate."""

    def decorate(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method in methods:
                throttle = PageThrottle(account_scope(scope, getattr(request, "user", None)))
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
