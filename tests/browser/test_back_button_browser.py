"""Back to a page whose address htmx pushed shows the whole page: a catalogue grid searched
(the address now names the search), a card opened, then Back. The partial answer fetched
for that address must not come back from the browser's cache as the page (it says `Vary:
HX-Request`), and a history restore asks for the whole page."""

from __future__ import annotations

import pytest

from .support import page_ready
from .test_page_sweep_browser import axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": {"width": 1440, "height": 1000}, "phone": {"width": 390, "height": 844}}


def whole_page(page) -> dict:
    return page.evaluate(
        """() => ({
            header: !!document.querySelector('header.site'),
            h1: document.querySelectorAll('h1').length,
            stylesheet: Array.from(document.styleSheets).some(
                (s) => (s.href || '').includes('/css/site')),
            filters: !!document.querySelector('#filters'),
        })"""
    )


@pytest.mark.parametrize("width", WIDTHS, ids=list(WIDTHS))
@pytest.mark.parametrize(("game", "query"), [("redline", "tiger"), ("hex-skirmish", "archer")])
def test_back_from_a_card_to_a_searched_grid_shows_the_whole_page(
    browser, live_server, live_catalogue, game, query, width
):
    context = browser.new_context(viewport=WIDTHS[width], base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(f"/cards/{game}/")
        page_ready(page)
        box = page.locator("#filters input[name=q]")
        box.fill(query)
        box.press("Enter")
        page.wait_for_url(f"**/cards/{game}/?*q={query}*")
        page.wait_for_function(
            "(q) => document.querySelector('#results p.muted') &&"
            " !document.querySelector('#results').textContent.includes('No card matches')",
            arg=query,
        )
        searched = page.url
        page.locator("#results .grid a[href*='/cards/']").first.click()
        page_ready(page)
        assert page.url != searched
        page.go_back()
        page.wait_for_load_state("load")
        assert page.url == searched
        assert whole_page(page) == {
            "header": True,
            "h1": 1,
            "stylesheet": True,
            "filters": True,
        }
        assert page.locator("#filters input[name=q]").input_value() == query
        assert axe_violations(page, axe_source()[0]) == []
    finally:
        context.close()
