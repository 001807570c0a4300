"""The client's address, as every part of the site reads it (throttles, the login lock,
logs): REMOTE_ADDR, or, behind TRUSTED_PROXY_COUNT proxies that append to X-Forwarded-For,
the address the outermost trusted proxy saw. A header the client sends itself is never
trusted beyond that count, so a forged X-Forwarded-For does not make a new client."""

from __future__ import annotations

from django.conf import settings


def client_ip(request) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [h.strip() for h in forwarded.split(",") if h.strip()]
    if not hops:
        return remote
    return hops[-min(proxies, len(hops))]
