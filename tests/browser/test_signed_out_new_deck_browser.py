"""A visitor without an account, at 1440 px and at 390 px, asks for a new deck: the page says
that building needs an account and offers both sign up and sign in (it passes axe-core and
fits the screen); signing up from it leads back to the new deck, which opens in the
builder."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from .support import BROKEN_WORDS, LONG_WORD, page_ready
from .test_page_sweep_browser import axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 1440, "height": 900}, {"width": 390, "height": 844}]


def _page_problems(page, script: str) -> list[str]:
    width = page.viewport_size["width"]
    problems = list(axe_violations(page, script))
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > width:
        problems.append(f"the page is {wide} px wide")
    broken = page.evaluate(BROKEN_WORDS, LONG_WORD)
    if broken:
        problems.append(f"broken words {broken}")
    return problems


@pytest.mark.parametrize("size", SIZES, ids=["1440", "390"])
def test_a_visitor_asking_for_a_new_deck_is_offered_an_account_and_led_back(
    browser, live_server, live_catalogue, size
):
    script, _version = axe_source()
    context = browser.new_context(viewport=size, base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto("/build/?game=redline")
        page_ready(page)
        needed = page.locator(".account-needed")
        expect(needed).to_contain_text("Building a deck needs an account")
        assert _page_problems(page, script) == []

        page.get_by_role("link", name="New Standard").click()
        page_ready(page)
        assert page.url.endswith("/build/redline/standard/new/")
        expect(needed).to_contain_text("Building a deck needs an account")
        sign_in = needed.get_by_role("link", name="Sign in")
        expect(sign_in).to_be_visible()
        assert sign_in.get_attribute("href").endswith("?next=/build/redline/standard/new/")
        assert _page_problems(page, script) == []

        needed.get_by_role("link", name="Create an account").click()
        page_ready(page)
        name = f"visitor{uuid.uuid4().hex[:8]}"
        page.fill("#id_username", name)
        page.fill("#id_email", f"{name}@example.com")
        page.fill("#id_password1", "a-long-pass-for-tests-123")
        page.fill("#id_password2", "a-long-pass-for-tests-123")
        page.click("form.panel button[type=submit]")
        page_ready(page)
        # Back at the deck asked for, signed in: name it and the builder opens.
        assert page.url.endswith("/build/redline/standard/new/")
        expect(page.locator("header.site")).to_contain_text(name)
        page.click("form.panel button[type=submit]")
        page_ready(page)
        expect(page.locator("#builder-state")).to_be_visible()
    finally:
        context.close()
