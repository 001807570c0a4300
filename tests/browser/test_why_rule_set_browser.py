"""The "Why?" of a rule set's ban on the check page in a real browser, at 1440 and 390 px: it
opens on the rule set's name, date and note (no "No rulebook sentence is recorded"), ends
each sentence once, fits the screen and passes axe-core."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from validation.packages import sample_list

from .support import BROKEN_WORDS, LONG_WORD
from .test_page_sweep_browser import DESKTOP, PHONE, axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(params=[DESKTOP, PHONE], ids=["1440", "390"])
def page(request, browser, live_server, live_catalogue):
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.width = request.param["width"]
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    yield pg
    context.close()


def test_the_why_of_a_ban_quotes_the_rule_set(page):
    page.goto("/check/")
    page.wait_for_function("() => window.htmx !== undefined")
    page.select_option("#id_game_format", "redline/standard")
    page.fill("#id_list", sample_list("redline", "standard").text() + "Arsenal:\n1 Hidden Ambush\n")
    page.fill("#id_rule_set", "S2")
    page.click("#check-form button[type=submit]")
    block = page.locator('#verdict .violation[data-code="format.banned"]')
    expect(block).to_contain_text("Hidden Ambush is banned in S2 (Sample Season 2)")
    block.locator("summary").click()
    why = block.locator("details.why")
    expect(why).to_contain_text("A card the rule set bans may not be played at all.")
    expect(why).to_contain_text(
        "Rule set S2 (Sample Season 2), in effect from 1 Jan 2027, which says:"
    )
    expect(why.locator("blockquote")).to_contain_text("Hidden Ambush is banned")
    expect(why).not_to_contain_text("No rulebook sentence is recorded")
    assert not re.search(r"(?<!\.)\.\s*\.(?!\.)", why.inner_text())
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(BROKEN_WORDS, LONG_WORD) == []
    script, _pinned = axe_source()
    assert axe_violations(page, script) == []
    assert page.console_errors == []
