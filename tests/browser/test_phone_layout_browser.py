"""The phone layout folds what it should (the navigation behind a Menu button, the
catalogue's filters), with the card grid in two columns. (That every page at 1440 px and
390 px breaks no word and fits the screen is test_page_sweep_browser's.)"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from validation.registry import registry

from .support import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1440, "height": 1000}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def signed_in_page(browser, live_server, live_catalogue, django_user_model):
    user = django_user_model.objects.create_user("demo", "demo@example.com", "a-long-pass-123")
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    sign_in(page, "demo", "a-long-pass-123")
    page.user = user
    yield page
    context.close()


def test_a_phone_folds_the_navigation_and_filters_and_shows_two_card_columns(signed_in_page):
    page = signed_in_page
    page.set_viewport_size(PHONE)
    game = registry.all()[0].slug
    page.goto(f"/cards/{game}/")
    page.wait_for_load_state("load")
    links = page.locator("#site-links")
    toggle = page.locator("header.site .menu-toggle")
    assert toggle.is_visible() and not links.is_visible()
    header = page.locator("header.site").bounding_box()
    assert header["height"] < 60, header  # one line
    toggle.click()
    assert links.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    # The filters: the search box shows, the rest is folded behind "Filters".
    assert page.locator("#filters input[name=q]").is_visible()
    assert not page.locator("#filters select[name=kind]").is_visible()
    page.locator("#filters summary").click()
    assert page.locator("#filters select[name=kind]").is_visible()
    # Two columns of card faces.
    faces = page.locator("#results .grid .face")
    first, second = faces.nth(0).bounding_box(), faces.nth(1).bounding_box()
    assert abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"] + first["width"] - 1
    # At desktop: every link in one row, no Menu button, the filters open.
    page.set_viewport_size(DESKTOP)
    page.goto(f"/cards/{game}/")
    page.wait_for_load_state("load")
    assert not page.locator("header.site .menu-toggle").is_visible()
    assert page.locator("#site-links").is_visible()
    assert page.locator("#filters select[name=kind]").is_visible()
    # The search box, the filters and the button stand apart (spaced, not touching).
    box = page.locator("#filters input[name=q]").bounding_box()
    kind = page.locator("#filters select[name=kind]").bounding_box()
    button = page.locator("#filters button[type=submit]").bounding_box()
    assert kind["x"] >= box["x"] + box["width"] + 4 or kind["y"] >= box["y"] + box["height"] + 4
    assert button["x"] > kind["x"] or button["y"] >= kind["y"] + kind["height"] + 4


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1440"])
def test_every_search_result_of_the_builder_shows_its_buttons(signed_in_page, size):
    """A card that goes to two sections gets two button pairs; they wrap instead of widening
    the results until the "+" of every row leaves the panel."""
    page = signed_in_page
    page.set_viewport_size(size)
    for deck in page.user.decks.all():
        page.goto(f"/decks/{deck.pk}/build/")
        page.wait_for_load_state("load")
        panel = page.locator("#search-results").bounding_box()
        outside = page.evaluate(
            """(right) => [...document.querySelectorAll('#search-results .b-btn')]
                .filter(b => b.getBoundingClientRect().right > right + 1)
                .map(b => b.getAttribute('aria-label'))""",
            panel["x"] + panel["width"],
        )
        assert outside == [], (deck.game.slug, outside[:3])


def test_rule_codes_are_not_in_the_visible_message_text(signed_in_page):
    from decks.models import Deck

    deck = Deck.objects.filter(owner=signed_in_page.user).first()
    from decks import services

    services.deck_save_version(
        deck=deck,
        author=signed_in_page.user,
        text="",
        based_on=deck.current_version,
    )
    page = signed_in_page
    page.goto(f"/decks/{deck.pk}/")
    violations = page.locator("#verdict .violation")
    assert violations.count()
    for i in range(violations.count()):
        item = violations.nth(i)
        code = item.get_attribute("data-code")
        assert code and code not in item.inner_text()
