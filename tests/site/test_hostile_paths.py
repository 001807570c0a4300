"""Every URL pattern of the site with a hostile value in each path segment it takes (a NUL,
10 kB of text, non-ASCII digits, `..`), asked by an anonymous and by a signed-in client:
never a 500."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

HOSTILE = {
    "nul": "%00",
    "10kB": "x" * 10_000,
    "digits": quote("²٣"),
    "dots": "..",
    "big-int": "9" * 30,
}
# A value of each converter the others take while one segment is hostile.
ORDINARY = {"int": "1", "slug": "redline", "str": "RL1", "path": "x", "uuid": "0" * 32}
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


def _routes(resolver=None, prefix: str = "") -> list[str]:
    """The `path()` routes of the site (regex patterns, the admin's and media, left out)."""
    resolver = resolver or get_resolver()
    out: list[str] = []
    for p in resolver.url_patterns:
        route = getattr(p.pattern, "_route", None)
        if route is None:
            continue
        if isinstance(p, URLResolver):
            out.extend(_routes(p, prefix + route))
        elif isinstance(p, URLPattern):
            out.append(prefix + route)
    return sorted(set(out))


def _urls() -> list[tuple[str, str]]:
    urls = []
    for route in _routes():
        params = list(_PARAM.finditer(route))
        for i, _ in enumerate(params):
            for label, value in HOSTILE.items():
                parts, last = [], 0
                for j, m in enumerate(params):
                    parts.append(route[last : m.start()])
                    parts.append(value if i == j else ORDINARY.get(m.group(1) or "str", "x"))
                    last = m.end()
                parts.append(route[last:])
                urls.append((f"/{''.join(parts)}", label))
    return urls


URLS = _urls()
# Each path also with hostile query values: non-ASCII digits, huge numbers, a long word.
QUERIES = (
    "",
    "?v=%C2%B2&page=%C2%B2&per=%C2%B2",
    "?v=" + "9" * 30 + "&page=" + "9" * 30 + "&q=" + "y" * 70,
)


def test_the_crawl_covers_the_routes():
    assert len(_routes()) > 40
    assert any("/cards/redline/sets/%00/" == url for url, _ in URLS)


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_no_route_answers_500_to_a_hostile_path_segment(client, user, sample_catalogue, signed_in):
    client.raise_request_exception = False
    if signed_in:
        client.force_login(user)
    failures = []
    for url, label in URLS:
        for query in QUERIES:
            response = client.get(url + query)
            if response.status_code >= 500 and response.status_code != 503:
                failures.append((response.status_code, label, url[:120] + query[:20]))
    assert not failures, failures
