"""The collection page at 1440 and 390 px: the checklist per expansion is read whole (every
column, "Missing" the last, inside its panel without scrolling on a desktop) and nothing
overflows a phone's screen."""

from __future__ import annotations

import pytest

from .support import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"

#: The checklist's table against its scrolled region, and the page against the screen.
MEASURE = """() => {
  const region = document.querySelector('#completion .table-scroll');
  const table = region.querySelector('table');
  const missing = table.querySelector('thead th:last-child').getBoundingClientRect();
  return {
    table: Math.round(table.getBoundingClientRect().width),
    region: region.clientWidth,
    missingRight: Math.round(missing.right),
    regionRight: Math.round(region.getBoundingClientRect().right),
    page: document.documentElement.scrollWidth,
    screen: document.documentElement.clientWidth,
  };
}"""


@pytest.fixture
def collector(live_server, live_catalogue, django_user_model):
    from catalogue.models import Card, Expansion
    from collection.models import CollectionEntry, OwnedProduct

    user = django_user_model.objects.create_user("collector", "c@example.com", PASSWORD)
    OwnedProduct.objects.create(owner=user, expansion=Expansion.objects.get(code="RL1"), count=2)
    OwnedProduct.objects.create(owner=user, expansion=Expansion.objects.get(code="HS1"))
    CollectionEntry.objects.create(
        owner=user, card=Card.objects.get(game__slug="red-code", name="Barracuda"), count=2
    )
    return live_server.url


@pytest.mark.parametrize("width,height", [(1440, 900), (390, 844)])
def test_the_collection_checklist_is_read_whole(browser, collector, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=collector)
    context.set_default_timeout(20_000)
    page = context.new_page()
    try:
        sign_in(page, "collector", PASSWORD)
        page.goto("/collection/")
        m = page.evaluate(MEASURE)
        assert m["page"] <= m["screen"], m
        if width >= 1000:
            # The whole table, "Missing" included, is in view without scrolling it.
            assert m["table"] <= m["region"] and m["missingRight"] <= m["regionRight"], m
        assert page.locator("#completion").get_by_text("45 missing").is_visible()
    finally:
        context.close()
