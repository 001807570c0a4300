"""In a real browser, at 1440 and 390 px: the builder's upcoming rule set line follows each
change (it stayed as the page was opened), and making an API token then reloading the page
makes no second token (post/redirect/get); axe-core finds nothing on either page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from cardsite.models import ApiToken
from decks import services
from validation import packages

from .support import builder_state, page_ready, sign_in, wait_saved
from .test_page_sweep_browser import axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": {"width": 1440, "height": 1000}, "phone": {"width": 390, "height": 844}}
PASSWORD = "a-long-pass-for-tests-123"


@pytest.fixture(params=list(WIDTHS))
def page(request, browser, live_server, live_catalogue, django_user_model):
    user = django_user_model.objects.create_user("player", "p@example.com", PASSWORD)
    context = browser.new_context(viewport=WIDTHS[request.param], base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    sign_in(pg, "player", PASSWORD)
    pg.user = user
    yield pg
    context.close()


def test_the_builders_upcoming_rule_set_line_follows_a_change(page):
    text = packages.sample_list("redline", "standard").text()
    deck = services.deck_create(
        owner=page.user, game_slug="redline", format="standard", name="Moore", text=text
    )
    page.goto(reverse("builder:deck", args=[deck.pk]))
    page_ready(page)
    line = page.locator("#upcoming-effect")
    expect(line).to_contain_text("Longbow cost 3 → 4")
    state = builder_state(page)
    box = page.locator('#builder-state tr.b-row[data-card="Longbow"] input.b-count')
    box.fill("0")
    box.press("Tab")
    wait_saved(page, state)
    expect(page.locator('#builder-state tr.b-row[data-card="Longbow"]')).to_have_count(0)
    expect(line).not_to_contain_text("Longbow")
    shown = line.inner_text()
    assert axe_violations(page, axe_source()[0]) == []
    page.reload()
    page_ready(page)
    assert page.locator("#upcoming-effect").inner_text() == shown


def test_making_a_token_then_reloading_makes_no_second_token(page):
    page.goto("/accounts/profile/")
    page.fill("input[name=name]", "my script")
    page.locator("input[name=name]").press("Enter")
    page.wait_for_url("**/accounts/profile/")
    expect(page.locator("#new-token")).to_be_visible()
    assert axe_violations(page, axe_source()[0]) == []
    page.reload()
    page.wait_for_load_state("load")
    expect(page.locator("#new-token")).to_have_count(0)
    assert ApiToken.objects.filter(user=page.user).count() == 1
