"""The compare form of a deck in a real browser, at 1440 and 390 px: it opens on the version
before against the latest, and a version compared with itself is refused with a message
(nothing is started)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from validation.packages import sample_list

from .support import BROKEN_WORDS, LONG_WORD, page_ready, sign_in
from .test_page_sweep_browser import DESKTOP, PHONE, axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"


@pytest.fixture(params=[DESKTOP, PHONE], ids=["1440", "390"])
def page(request, browser, live_server, live_catalogue, django_user_model):
    from decks import services

    user = django_user_model.objects.create_user("comparer", "comparer@example.com", PASSWORD)
    text = sample_list("redline", "standard").text()
    deck = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="Two versions", text=text
    )
    services.deck_save_version(
        deck=deck,
        author=user,
        text=text.replace("4 Tigercat", "3 Tigercat").replace("20 Supply Drop", "21 Supply Drop"),
        based_on=1,
    )
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.width = request.param["width"]
    pg.deck = deck
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    sign_in(pg, "comparer", PASSWORD)
    yield pg
    context.close()


def _fits_and_passes_axe(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(BROKEN_WORDS, LONG_WORD) == []
    script, _pinned = axe_source()
    assert axe_violations(page, script) == []


def test_the_compare_form_opens_on_the_version_before_and_refuses_a_version_against_itself(page):
    from simulations.models import SimulationRun

    page.goto(f"/decks/{page.deck.pk}/")
    page_ready(page)
    page.click("#compare-with")
    page_ready(page)
    assert page.input_value("#compare-a") == "1"
    assert page.input_value("#compare-b") == "v:2"
    _fits_and_passes_axe(page)
    page.select_option("#compare-b", "v:1")
    page.click("#compare-form button[type=submit]")
    page_ready(page)
    expect(page.locator("p.violation[role=alert]")).to_contain_text(
        "A and B are the same version (Two versions v1)"
    )
    _fits_and_passes_axe(page)
    assert not SimulationRun.objects.exists()
    assert [m for m in page.console_errors if "status of 400" not in m] == []
