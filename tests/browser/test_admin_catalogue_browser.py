"""The catalogue's admin pages at 1440 px: a card's and a rule set's change pages fit the
screen (no sideways scrolling of the page), and a new rule set, once its game is chosen,
offers that game's formats and expansions only."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from catalogue.models import Card, Expansion, Game, RuleSet

from .support import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1440, "height": 900}


@pytest.fixture
def admin_page(browser, live_server, live_catalogue, django_user_model):
    django_user_model.objects.create_user(
        "staff", "s@example.com", "a-long-pass-789", is_staff=True, is_superuser=True
    )
    context = browser.new_context(base_url=live_server.url, viewport=DESKTOP)
    context.set_default_timeout(15_000)
    page = context.new_page()
    sign_in(page, "staff", "a-long-pass-789", at="/admin/login/")
    yield page
    context.close()


def test_the_card_and_rule_set_change_pages_fit_1440_px(admin_page):
    page = admin_page
    card = Card.objects.filter(game__slug="redline", printings__isnull=False).first()
    rule_set = RuleSet.objects.filter(cards__isnull=False).first()
    expansion = Expansion.objects.first()
    for url in (
        f"/admin/catalogue/card/{card.pk}/change/",
        "/admin/catalogue/card/add/",
        f"/admin/catalogue/ruleset/{rule_set.pk}/change/",
        "/admin/catalogue/ruleset/add/",
        f"/admin/catalogue/expansion/{expansion.pk}/change/",
    ):
        page.goto(url)
        page.wait_for_load_state("load")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= DESKTOP["width"], f"{url} is {wide} px wide"


def test_a_new_rule_set_offers_its_games_formats_and_expansions(admin_page):
    page = admin_page
    hex_game = Game.objects.get(slug="hex-skirmish")
    page.goto("/admin/catalogue/ruleset/add/")
    page.wait_for_load_state("load")
    available = page.locator("#id_expansions_from option")
    expect(available).to_have_count(0)
    page.fill("#id_code", "P9")
    page.select_option("#id_game", str(hex_game.pk))
    page.wait_for_url(f"**/admin/catalogue/ruleset/add/?*game={hex_game.pk}*")
    page.wait_for_load_state("load")
    # What was typed is kept; the game's expansions and formats are offered, no other's.
    expect(page.locator("#id_code")).to_have_value("P9")
    expected = [str(e) for e in Expansion.objects.filter(game=hex_game)]
    expect(available).to_have_text(expected)
    formats = page.locator("#id_format option").all_inner_texts()
    assert [f for f in formats if not f.startswith("-")] == [
        f"{hex_game.name} — {fmt.name}" for fmt in hex_game.definition.formats.values()
    ]
