"""The site installs as a web app and reads without a signal: its manifest (with icons that
answer), its service worker (at the root, precaching the site's own static files and the
offline page, never keeping a change), and the offline page."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.staticfiles import finders
from PIL import Image

pytestmark = pytest.mark.django_db


def _static(client, path: str) -> bytes:
    """A file the site serves: a static file (found where the server finds it) or a page."""
    if path.startswith("/static/"):
        found = finders.find(path.removeprefix("/static/"))
        assert found, f"{path} is not a static file"
        with open(found, "rb") as f:
            return f.read()
    answer = client.get(path)
    assert answer.status_code == 200, path
    return answer.content


def test_every_page_names_the_manifest_and_loads_the_offline_script(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "/static/js/offline.js" in page


def test_the_manifest_makes_the_site_installable_with_icons_that_answer(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    sizes = set()
    for icon in manifest["icons"]:
        picture = Image.open(io.BytesIO(_static(client, icon["src"])))
        assert f"{picture.width}x{picture.height}" == icon["sizes"]
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes


def test_the_service_worker_precaches_the_static_files_and_the_offline_page(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    precached = json.loads(re.search(r"const PRECACHE_URLS = (\[.*?\]);", script).group(1))
    for path in (
        "/static/css/site.css",
        "/static/js/htmx.min.js",
        "/static/js/offline.js",
        "/static/js/table.js",
        "/offline/",
    ):
        assert path in precached
    for path in precached:
        assert _static(client, path)
    assert re.search(r'const VERSION = "[0-9a-f]{16}";', script)
    # A change is sent or refused, never kept for later.
    assert 'request.method !== "GET"' in script and "fetch(request).catch(refused)" in script


def test_the_offline_page_says_what_is_readable_without_a_signal(client):
    page = client.get("/offline/").content.decode()
    assert "<h1>No signal</h1>" in page
    assert 'id="kept-decks"' in page and "Take to the table" in page
