"""In a real browser, at 1440 and 390 px: "Sign in with Cardsite" end to end. An author
registers an app on "Your apps"; a player opens the app's sign-in link, signs in, reads the
consent screen (the app, its author, each scope in words) and allows it; the browser is sent
back to the app's loopback address with a code and the state; the app exchanges the code
with its PKCE verifier, creates a deck with the token, refreshes (the refresh token
rotates); the player revokes the app on "Apps you allowed", and its token is refused.
axe-core finds nothing on the pages."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests
from playwright.sync_api import expect

from cardsite import scopes
from decks.models import Deck

from .support import sign_in
from .test_page_sweep_browser import axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": {"width": 1440, "height": 1000}, "phone": {"width": 390, "height": 844}}
PASSWORD = "a-long-pass-for-tests-123"
DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


@pytest.fixture(params=list(WIDTHS))
def context(request, browser, live_server, live_catalogue, django_user_model):
    django_user_model.objects.create_user("author", "a@example.com", PASSWORD)
    django_user_model.objects.create_user("player", "p@example.com", PASSWORD)
    ctx = browser.new_context(viewport=WIDTHS[request.param], base_url=live_server.url)
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def clean(page) -> None:
    assert axe_violations(page, axe_source()[0]) == [], page.url


def test_sign_in_with_cardsite_end_to_end(context, live_server):
    # The author registers a desktop app (public: no secret; a loopback redirect URI).
    page = context.new_page()
    sign_in(page, "author", PASSWORD)
    page.goto("/oauth/apps/")
    clean(page)
    page.fill("#id_name", "Table Tracker")
    page.fill("#id_redirect_uris", "http://127.0.0.1/callback")
    page.check("input[name=client_type][value=public]")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/oauth/apps/*/")
    client_id = page.locator("#client-id").inner_text()
    expect(page.locator("#client-secret")).to_have_count(0)
    clean(page)
    context.clear_cookies()  # the author signs out

    # The app opens its sign-in link in the player's browser (PKCE, S256).
    verifier = secrets.token_urlsafe(48)
    challenge = (
        base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    )
    redirect_uri = "http://127.0.0.1:53682/callback"
    query = urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "scope": "read decks:read decks:write",
            "state": "tracker-state-1",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
    )
    landed: list[str] = []

    def app_callback(route):
        landed.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<p>Signed in</p>")

    page.route("http://127.0.0.1:53682/**", app_callback)
    page.goto(f"/oauth/authorize/?{query}")
    # not signed in: the sign-in page first, then back to the consent screen
    page.fill("#id_username", "player")
    page.fill("#id_password", PASSWORD)
    page.click("main form [type=submit]")
    page.wait_for_url("**/oauth/authorize/**")
    screen = page.locator("#consent")
    expect(page.locator("h1")).to_contain_text("Allow Table Tracker to act for you?")
    expect(screen).to_contain_text("an app by author")
    for scope in ("read", "decks:read", "decks:write"):
        expect(page.locator("#consent-scopes")).to_contain_text(scopes.SCOPES[scope])
    expect(page.locator("#consent-scopes li")).to_have_count(3)
    clean(page)
    page.click("#consent button[name=allow]")
    page.wait_for_url("http://127.0.0.1:53682/callback?**")
    back = parse_qs(urlsplit(landed[-1]).query)
    assert back["state"] == ["tracker-state-1"]
    code = back["code"][0]

    # The app exchanges the code (with its verifier) and acts for the player.
    token_url = f"{live_server.url}/oauth/token/"
    tokens = requests.post(
        token_url,
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "client_id": client_id,
            "code_verifier": verifier,
        },
        timeout=10,
    )
    assert tokens.status_code == 200, tokens.text
    issued = tokens.json()
    assert issued["scope"] == "read decks:read decks:write"
    made = requests.post(
        f"{live_server.url}/api/decks/",
        json={"game": "redline", "format": "standard", "name": "Tracked"},
        headers={"Authorization": f"Bearer {issued['access_token']}"},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    assert Deck.objects.get(name="Tracked").owner.username == "player"
    refused = requests.put(
        f"{live_server.url}/api/collection/",
        json={"products": [], "cards": []},
        headers={"Authorization": f"Bearer {issued['access_token']}"},
        timeout=10,
    )
    assert refused.status_code == 403
    assert 'scope="collection:write"' in refused.headers["WWW-Authenticate"]

    # A refresh rotates the refresh token.
    refreshed = requests.post(
        token_url,
        data={
            "grant_type": "refresh_token",
            "refresh_token": issued["refresh_token"],
            "client_id": client_id,
        },
        timeout=10,
    ).json()
    assert refreshed["refresh_token"] != issued["refresh_token"]
    ok = requests.get(
        f"{live_server.url}/api/decks/",
        headers={"Authorization": f"Bearer {refreshed['access_token']}"},
        timeout=10,
    )
    assert ok.status_code == 200 and "Tracked" in ok.text

    # The player sees the app among the apps they allowed, and revokes it.
    page.goto("/oauth/allowed/")
    row = page.locator("#allowed tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Table Tracker")
    expect(row).to_contain_text(scopes.SCOPES["decks:write"])
    clean(page)
    row.get_by_role("button", name="Revoke").click()
    page.wait_for_url("**/oauth/allowed/")
    expect(page.locator(".messages")).to_contain_text("can no longer act for you")
    expect(page.locator("#allowed")).to_have_count(0)
    gone = requests.get(
        f"{live_server.url}/api/decks/",
        headers={"Authorization": f"Bearer {refreshed['access_token']}"},
        timeout=10,
    )
    assert gone.status_code == 401
    again = requests.post(
        token_url,
        data={
            "grant_type": "refresh_token",
            "refresh_token": refreshed["refresh_token"],
            "client_id": client_id,
        },
        timeout=10,
    )
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


def test_an_unknown_redirect_uri_stays_on_an_error_page(context):
    page = context.new_page()
    sign_in(page, "author", PASSWORD)
    page.goto("/oauth/apps/")
    page.fill("#id_name", "Tool")
    page.fill("#id_redirect_uris", "https://tool.example/cb")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/oauth/apps/*/")
    client_id = page.locator("#client-id").inner_text()
    query = urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": "https://evil.example/cb",
            "state": "s",
            "code_challenge": "x" * 43,
            "code_challenge_method": "S256",
        }
    )
    page.goto(f"/oauth/authorize/?{query}")
    expect(page.locator("#oauth-error")).to_be_visible()
    assert urlsplit(page.url).path == "/oauth/authorize/"
    clean(page)


def guide_walk() -> str:
    """The Python walk of docs/api.md's "Building an app"."""
    text = DOC.read_text()
    section = text[text.index("## Building an app") :]
    return re.search(r"```python\n(.*?)\n```", section, re.S).group(1)


def test_the_guides_python_walk_signs_in_and_acts(
    browser, live_server, live_catalogue, django_user_model, tmp_path
):
    """The guide's script, run as written: it prints the sign-in link and waits on its
    loopback port; the player's browser allows it; it creates a deck and refreshes."""
    from oauth2_provider.models import Application

    author = django_user_model.objects.create_user("author", "a@example.com", PASSWORD)
    django_user_model.objects.create_user("player", "p@example.com", PASSWORD)
    app = Application.objects.create(
        user=author,
        name="Guide App",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1/callback",
    )
    script = tmp_path / "walk.py"
    script.write_text(guide_walk())
    # BROWSER=true: webbrowser.open runs `true`; the test's browser opens the link instead.
    env = {**os.environ, "SITE": live_server.url, "CLIENT_ID": app.client_id, "BROWSER": "true"}
    walk = subprocess.Popen(
        [sys.executable, str(script)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = walk.stdout.readline().strip()
        assert url.startswith(f"{live_server.url}/oauth/authorize/?"), walk.stderr.read()
        context = browser.new_context(viewport=WIDTHS["desktop"], base_url=live_server.url)
        context.set_default_timeout(15_000)
        page = context.new_page()
        sign_in(page, "player", PASSWORD)
        page.goto(url)
        expect(page.locator("#consent")).to_contain_text("Guide App")
        page.click("#consent button[name=allow]")
        page.wait_for_url("http://127.0.0.1:*/callback?**")
        expect(page.locator("body")).to_contain_text("Signed in")
        out, err = walk.communicate(timeout=60)
        context.close()
    finally:
        if walk.poll() is None:
            walk.kill()
    assert walk.returncode == 0, err
    assert "created deck" in out and "decks: 1" in out, out
    assert Deck.objects.get(name="From my app").owner.username == "player"
