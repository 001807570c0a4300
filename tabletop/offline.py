"""The site as an installable web app that reads without a signal: its manifest, its service
worker and the page it shows offline.

The service worker (templates/offline/sw.js) follows Workbox's strategies, written out by
hand because the site has no front-end build step: the site's own static files and the
offline page are precached when it installs (a new list, a new cache; fetched without
cookies, since a page answered after the reader signed in would set the CSRF cookie back to
its old secret and expire the next form), pages are answered
network-first (a page answered is kept, the last PAGES_KEPT of them; without a signal the
kept copy, else the offline page), card images cache-first (their addresses change with the
card), other reads network-first with the kept copy as the fallback. A change (any request
but GET) is never kept or replayed: without a signal it is refused with a message saying
nothing was saved (static/js/offline.js refuses it before it is sent, keeping the form as
typed). "Take to the table" (play/table.py, static/js/table.js) keeps a deck's pages in a
cache of their own, which the worker answers from like any other.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET

#: How many pages the worker keeps from browsing (the tables' pages are kept apart, all).
PAGES_KEPT = 60
#: How many card images it keeps from browsing.
IMAGES_KEPT = 400
#: Static files the pages use, precached (the admin's are left out).
PRECACHED_SUFFIXES = (".css", ".js", ".svg", ".png")


def _own_static() -> list[str]:
    """The site's own static files (static/), relative paths."""
    root = Path(settings.STATICFILES_DIRS[0])
    return sorted(
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and p.suffix in PRECACHED_SUFFIXES and p.name != "admin.css"
    )


@cache
def _worker() -> str:
    """The worker's script: its precache list (the static files' addresses, hashed names in
    production) and a version that changes with the list, the files and the script."""
    paths = _own_static()
    root = Path(settings.STATICFILES_DIRS[0])
    urls = [staticfiles_storage.url(p) for p in paths] + [reverse("offline")]
    digest = hashlib.sha256()
    for p in paths:
        digest.update(p.encode())
        digest.update((root / p).read_bytes())
    body = render_to_string(
        "offline/sw.js",
        {
            "precache": json.dumps(urls),
            "pages_kept": PAGES_KEPT,
            "images_kept": IMAGES_KEPT,
            "offline_url": json.dumps(reverse("offline")),
        },
    )
    digest.update(body.encode())
    return body.replace("__VERSION__", digest.hexdigest()[:16])


@require_GET
def service_worker(request):
    """/sw.js, at the root so that its scope is the whole site; checked on every visit."""
    response = HttpResponse(_worker(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request):
    """The web app manifest: the site installs as an app on a phone's home screen."""
    icons = [
        {"src": staticfiles_storage.url(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}"}
        | {"type": "image/png", "purpose": "any"}
        for size in (192, 512)
    ]
    body = {
        "name": "Cardsite",
        "short_name": "Cardsite",
        "description": "Card catalogue, deck builder and play tools; decks taken to the "
        "table read without a signal.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1b1b2f",
        "icons": icons,
    }
    response = HttpResponse(json.dumps(body), content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def offline(request):
    """What the service worker shows for a page it has not kept: what is kept on this device
    (static/js/offline.js lists the decks taken to the table from the browser's cache). It
    is precached without cookies and shown to whoever uses the device, signed in or not, so
    its header offers no account links (no "Sign in" to a reader who is signed in)."""
    return render(request, "offline/offline.html", {"pages_kept": PAGES_KEPT})
