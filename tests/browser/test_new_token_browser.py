"""In a real browser, at 1440 and 390 px: after "Create token" the page opens on the new
token, focused and in view however long the page above it, with a button that copies it;
the page is still the account page the creation redirected to (post/redirect/get), and a
reload shows the token no more."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from cardsite.models import ApiToken

from .support import page_ready, sign_in
from .test_page_sweep_browser import axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
PASSWORD = "a-long-pass-for-tests-123"


@pytest.fixture(params=list(WIDTHS))
def page(request, browser, live_server, live_catalogue, django_user_model):
    user = django_user_model.objects.create_user("demo", "demo@example.com", PASSWORD)
    # The sample decks are the user's: the account page lists them above the tokens.
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    context = browser.new_context(
        viewport=WIDTHS[request.param],
        base_url=live_server.url,
        permissions=["clipboard-read", "clipboard-write"],
    )
    context.set_default_timeout(15_000)
    pg = context.new_page()
    sign_in(pg, "demo", PASSWORD)
    pg.user = user
    yield pg
    context.close()


def test_a_new_token_is_shown_in_view_focused_with_a_button_that_copies_it(page):
    page.goto("/accounts/profile/")
    form = page.locator("form[action='/accounts/tokens/']")
    form.locator("input[name=name]").fill("my script")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/accounts/profile/**")
    page_ready(page)
    token = page.locator("#new-token")
    expect(token).to_be_focused()
    expect(token).to_be_in_viewport(ratio=1)
    # The page above it is longer than the window: the page opened on the token.
    assert page.evaluate("window.scrollY") > 0
    text = token.inner_text().strip()
    assert len(text) > 20
    copy = page.get_by_role("button", name="Copy the token")
    expect(copy).to_be_in_viewport(ratio=1)
    copy.click()
    expect(page.locator(".new-token .copied")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == text
    assert axe_violations(page, axe_source()[0]) == []
    # Shown once: a reload shows it no more and makes no other token.
    page.reload()
    page.wait_for_load_state("load")
    expect(page.locator("#new-token")).to_have_count(0)
    assert ApiToken.objects.filter(user=page.user).count() == 1


def test_the_deck_pages_copy_buttons_still_copy_their_lists(page):
    deck = page.user.decks.order_by("pk").first()
    page.goto(f"/decks/{deck.pk}/")
    page.locator("#copy-list summary").click()
    page.get_by_role("button", name="Copy Markdown").click()
    expect(page.locator("#copy-list .copied").nth(1)).to_have_text("Copied.")
    body = page.locator("#copy-markdown").input_value()
    assert body.startswith(f"# {deck.name}")
    assert page.evaluate("navigator.clipboard.readText()") == body
