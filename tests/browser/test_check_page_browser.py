"""The "Check a list" page in a real browser: a list with a name cut short answers the
unknown line and the rule problems of the rest at once; one click on a suggestion puts the
card's name on that line of the list and checks again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from validation.packages import sample_list

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(browser, live_server, live_catalogue):
    context = browser.new_context(
        viewport={"width": 1440, "height": 1000}, base_url=live_server.url
    )
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    yield pg
    context.close()


def test_a_suggestion_fixes_its_line_in_one_click_and_checks_again(page):
    lines = sample_list("redline", "standard").text().splitlines()
    assert lines[7] == "4 Tigercat" and lines[9] == "4 Longbow"
    lines[7], lines[9] = "4  tigerca", "5 Longbow"
    page.goto("/check/")
    page.wait_for_function("() => window.htmx !== undefined")
    page.select_option("#id_game_format", "redline/standard")
    page.fill("#id_list", "\n".join(lines) + "\n")
    page.click("#check-form button[type=submit]")
    unknown = page.locator("#unknown-lines li")
    expect(unknown).to_have_count(1)
    expect(unknown).to_contain_text("Line 8: unknown card 'tigerca'")
    expect(page.locator("#verdict")).to_contain_text("Line 10: 5 copies of Longbow; at most 4")
    expect(page.locator("#verdict .verdict")).to_have_text(
        "Not legal: 1 card not found, 2 problems"
    )

    page.click('#unknown-lines button.fix[data-card="Tigercat"]')
    expect(page.locator("#unknown-lines")).to_have_count(0)
    # the card is read now: the arsenal holds 61 cards, and the fifth Longbow is still one
    expect(page.locator("#verdict .verdict")).to_have_text("Not legal: 2 problems")
    expect(page.locator("#verdict")).to_contain_text("61 cards in the arsenal; exactly 60")
    value = page.input_value("#id_list").splitlines()
    assert value[7] == "4  Tigercat" and value[9] == "5 Longbow"
    assert page.console_errors == []


def test_an_exported_list_is_checked_as_its_game_with_the_menu_left_alone(page):
    from decks.list_header import export_header

    header = export_header(name="Army", game_slug="hex-skirmish", format="standard", options={})
    page.goto("/check/")
    page.wait_for_function("() => window.htmx !== undefined")
    expect(page.locator("#id_game_format option:checked")).to_contain_text("As the list says")
    page.fill("#id_list", header + sample_list("hex-skirmish", "standard").text())
    page.click("#check-form button[type=submit]")
    expect(page.locator("#read-as")).to_have_text(
        "Checked as Hex Skirmish — Standard, as the list's # Game: and # Format: lines say."
    )
    expect(page.locator("#verdict .verdict")).to_have_text("Legal")
    assert page.input_value("#id_game_format") == ""
    assert page.console_errors == []
