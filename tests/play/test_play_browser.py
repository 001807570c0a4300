"""The play tools in a real browser: Debian's Chromium, driven by Playwright, against the
live test server. Each tool is opened from its game page's link, used, and shows a result.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.support import page_ready

from .conftest import giant_units_deck, make_force

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def page(browser, live_server, live_catalogue):
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert errors == [], errors


def sign_in(page, live_server, user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def open_tool(page, game: str, label: str) -> None:
    page.goto(f"/cards/{game}/")
    page.get_by_role("link", name=label, exact=True).click()
    page_ready(page)


def test_combat_odds(page):
    open_tool(page, "tactical-assault", "Combat odds")
    expect(page).to_have_url(re.compile(r"/play/tactical-assault/combat-odds/$"))
    page.select_option("#id_attacker", "Infantry")
    page.select_option("#id_target", "Armored")  # htmx recomputes on change
    table = page.locator("#odds-table")
    expect(table).to_be_visible()
    # htmx recomputes on the change: allow a loaded machine time for the answer
    expect(table.locator("tr", has_text="no effect")).to_contain_text("5/9", timeout=15_000)
    expect(page.locator("#tool-result svg:visible")).to_be_visible()
    page.select_option("#id_attack", "close_combat")
    page.check("#id_target_shaken")
    expect(page.locator("#odds-table tr", has_text="eliminated")).to_contain_text("4/9")
    expect(page.locator("#figure-net-shift td")).to_have_text("2")
    # The address keeps the values: a reload shows the same odds.
    expect(page).to_have_url(re.compile(r"attack=close_combat.*target_shaken=on"))
    page.reload()
    expect(page.locator("#figure-net-shift td")).to_have_text("2")


def test_combat_odds_shows_only_the_modifiers_of_the_chosen_attack(page):
    open_tool(page, "tactical-assault", "Combat odds")
    page.select_option("#id_attacker", "Infantry")
    page.select_option("#id_target", "Armored")
    page.select_option("#id_attack", "firepower")
    expect(page.locator("#id_obstructed")).to_be_visible()
    expect(page.locator("#id_target_shaken")).to_be_hidden()
    page.check("#id_obstructed")
    page.select_option("#id_attack", "close_combat")
    expect(page.locator("#id_obstructed")).to_be_hidden()
    expect(page.locator("#id_range")).to_be_hidden()
    expect(page.locator("#id_target_shaken")).to_be_visible()
    expect(page.locator("#id_in_cover")).to_be_visible()
    # The hidden modifier is not sent: nothing is "ignored" in the answer.
    expect(page.locator("#odds-table")).to_be_visible()
    expect(page.locator("#tool-ignored")).to_have_count(0)


def test_close_combat(page):
    open_tool(page, "tactical-assault", "Close combat")
    page.select_option("#id_unit_a", "Infantry")
    page.select_option("#id_unit_b", "Armored")
    page.fill("#id_games", "2000")
    page.fill("#id_seed", "5")
    page.get_by_role("button", name="Run").click()
    expect(page.locator("#close-combat-table")).to_contain_text("Armored eliminated")
    expect(page.locator("#tool-result h2")).to_have_text(
        "Infantry against Armored: 2000 games (seed 5)"
    )
    expect(page.locator("#tool-result svg").first).to_be_visible()
    # A link leads to the odds of one attack, and back.
    page.locator("#other-tools").get_by_role("link", name="Combat odds").click()
    page_ready(page)
    expect(page).to_have_url(re.compile(r"/play/tactical-assault/combat-odds/$"))


def test_crew_economy(page):
    open_tool(page, "red-code", "Crew economy")
    page.select_option("#id_ship", "Barracuda")
    page.fill("#id_distance", "2")
    page.get_by_role("button", name="Show the result").click()
    expect(page.locator("#figure-turns-to-sink-stingray td")).to_have_text("4")
    expect(page.locator("#crew-table")).to_contain_text("Leviathan")
    expect(page.locator("#tool-result svg:visible")).to_be_visible()


def test_crew_matchup_picker_follows_the_ship(page):
    from catalogue.models import Card

    sides = dict(
        Card.objects.filter(game__slug="red-code", kind="ship").values_list("name", "faction")
    )
    open_tool(page, "red-code", "Crew economy")
    for ship in sorted(sides):
        page.select_option("#id_ship", ship)
        for name, side in sides.items():  # the friends leave the picker, the enemies are in it
            option = page.locator(f"#id_target option[value='{name}']")
            expect(option).to_have_count(1 if side != sides[ship] else 0)
    expect(page.locator("#tool-errors")).to_have_count(0)


def test_visual_field(page):
    open_tool(page, "red-code", "Visual field")
    expect(page.locator("#chart-sea-map")).to_be_visible()
    seed = re.search(r"seed=(\d+)", page.url).group(1)
    page.locator("#chart-sea-map a.cell.sea").first.click()
    page_ready(page)
    expect(page.locator("#vf-table")).to_be_visible()
    assert f"seed={seed}" in page.url
    assert page.locator("#chart-sea-map a.target").count() > 0
    expect(page.locator("#chart-sea-map .marker.circle")).to_have_count(1)
    page.get_by_role("link", name="New seed").click()
    page_ready(page)
    expect(page.locator("#chart-sea-map")).to_be_visible()
    expect(page.locator("#vf-table")).to_have_count(0)


def test_goldfish(page, live_server, user):
    giant_units_deck(user)
    sign_in(page, live_server, user)
    open_tool(page, "red-mittens", "Goldfish a deck")
    page.fill("#id_games", "200")
    page.get_by_role("button", name="Goldfish").click()
    figures = page.locator("#goldfish-figures")
    expect(figures).to_contain_text("Turn the opponent reaches 0 LP")
    expect(figures).to_contain_text("1.00")
    expect(page.locator("#goldfish-result svg").first).to_be_visible()


def test_campaign_tracker(page, live_server, user):
    make_force(user, "Ann's force")
    make_force(user, "Ben's force")
    sign_in(page, live_server, user)
    open_tool(page, "tactical-assault", "Campaign tracker")
    page.get_by_role("link", name="New campaign").click()
    page.fill("#id_name", "Ridgeline")
    page.get_by_role("button", name="Create").click()
    for name, force in (("Ann", "Ann's force"), ("Ben", "Ben's force")):
        page.fill("#id_name", name)
        # each deck is named with its format, version and last change beside its name
        option = page.locator("#id_deck option", has_text=f"{force} (")
        expect(option).to_have_count(1)
        page.select_option("#id_deck", value=option.get_attribute("value"))
        page.get_by_role("button", name="Add").click()
        expect(page.locator(".messages")).to_contain_text(f"{name} joins")
    page.get_by_role("link", name="Record a game").click()
    page.get_by_label("Ann").select_option("win")
    page.get_by_label("Ben").select_option("loss")
    page.get_by_role("button", name="Record").click()
    expect(page.locator(".messages")).to_contain_text("Ann +9")
    page.get_by_role("link", name="Spend campaign points").click()
    page.select_option("#id_player", label="Ben (6 campaign points)")
    page.check("input[name=kind][value=swap]")
    page.fill("#id_remove", "1 Armored")
    page.fill("#id_add", "1 Behemoth")
    page.get_by_role("button", name="Spend").click()
    expect(page.locator("#spend-errors")).to_contain_text("exactly 36")
    page.fill("#id_add", "1 Mechanized, 1 Swarm")
    page.get_by_role("button", name="Spend").click()
    expect(page.locator(".messages")).to_contain_text("swapped units")
    expect(page.locator("#standings")).to_contain_text("Ann")
    rows = page.locator("#standings tbody tr")
    expect(rows.nth(0)).to_contain_text("Ann")
    expect(rows.nth(1)).to_contain_text("Ben")
