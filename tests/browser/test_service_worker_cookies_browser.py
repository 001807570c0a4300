"""The service worker's own requests never touch the reader's cookies.

It installs on the first page a visitor opens and precaches the offline page. That page, like
every page, sends the CSRF cookie back as it received it. Sent with the visitor's cookies, a
precache that answered after the visitor signed up (signing in renews the CSRF secret) put the
old secret back: the next form the visitor sent was refused as expired. The worker now fetches
what it precaches without cookies, so its answers set none."""

from __future__ import annotations

import threading

import pytest
from django.core.signals import request_started
from playwright.sync_api import expect

from .support import page_ready, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def held_offline_page():
    """Hold the server's answer to the offline page (the worker's precache) until released;
    `arrived` is set once the request reached the server, with its Cookie header."""
    arrived = threading.Event()
    release = threading.Event()
    cookies: list[str] = []

    def hold(sender, environ, **kwargs):
        if environ.get("PATH_INFO") == "/offline/" and not release.is_set():
            cookies.append(environ.get("HTTP_COOKIE", ""))
            arrived.set()
            release.wait(30)

    request_started.connect(hold, weak=False)
    try:
        yield arrived, release, cookies
    finally:
        release.set()
        request_started.disconnect(hold)


def test_a_precache_answered_after_signing_up_does_not_expire_the_next_form(
    browser, live_server, live_catalogue, held_offline_page
):
    arrived, release, cookies = held_offline_page
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        # The sign-up page registers the worker, whose install asks for the offline page.
        sign_up(page, "racer")
        assert arrived.wait(15), "the service worker never asked for the offline page"
        page.goto("/build/redline/standard/new/")
        release.set()
        # The worker is active once its precache (the held answer among it) is stored.
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        page.fill("#id_name", "After the precache")
        page.click("form.panel button[type=submit]")
        page_ready(page)
        expect(page.locator("h1")).not_to_contain_text("expired")
        expect(page.locator("#builder-state")).to_be_visible()
        assert cookies == [""], "the precache was sent with the visitor's cookies"
    finally:
        context.close()
