"""A deck built with the keyboard alone, at 1440 px and at 390 px: from the page's load, Tab
reaches the skip link first, the skip link leads to the main content, Tab reaches the
builder's search box, a typed name finds the card, Enter adds it, and "+" and "−" and a
typed count change it, and a count down to 0 removes it. After every change the server's
answer replaces the deck panel (or, in one step, only the changed row, out of band): the
focus must come back to the same control of the changed row (or, the row gone, to the
nearest control of its section), never to the page body.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .support import page_ready, sign_up, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME, FORMAT, CARD = "redline", "standard", "Longbow"

#: What has the focus: "body", or the tag, classes and label of the focused control, and the
#: card of the row it sits in.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {what: "body", id: "", label: "", card: null, deckRow: false, value: null};
  const row = el.closest("[data-card]");
  return {what: el.tagName.toLowerCase() + (el.className ? "." + String(el.className).trim().split(/\\s+/).join(".") : ""),
          id: el.id, label: el.getAttribute("aria-label") || "", card: row ? row.getAttribute("data-card") : null,
          deckRow: !!el.closest("#builder-state tr.b-row"), value: el.value === undefined ? null : el.value};
}"""


def focused(page) -> dict:
    return page.evaluate(FOCUSED)


def tab_to(page, test, limit: int = 80, back: bool = False) -> int:
    """Press Tab (Shift+Tab) until the focused control passes `test`; returns the presses."""
    for n in range(1, limit + 1):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        now = focused(page)
        assert now["what"] != "body", f"the focus fell to the body after {n} presses"
        if test(now):
            return n
    raise AssertionError(f"not reached in {limit} presses; last {focused(page)}")


def saved_after(page, state: str, key: str) -> str:
    page.keyboard.press(key)
    return wait_saved(page, state)


@pytest.mark.parametrize(
    "size", [{"width": 1440, "height": 900}, {"width": 390, "height": 844}], ids=["1440", "390"]
)
def test_a_deck_built_with_the_keyboard_keeps_the_focus(browser, live_server, live_catalogue, size):
    # page.route does not see what a service worker fetches: none here.
    context = browser.new_context(viewport=size, base_url=live_server.url, service_workers="block")
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        sign_up(page, "keys")
        page.goto(f"/build/{GAME}/{FORMAT}/new/")
        page.fill("#id_name", "Keyboard deck")
        page.click("form.panel button[type=submit]")
        expect(page.locator("#builder-state")).to_be_visible()
        page_ready(page)
        state = page.evaluate(
            "() => document.querySelector('#builder-base').value + ':' +"
            " document.querySelector('#builder-rev').value"
        )
        page.evaluate("() => document.activeElement && document.activeElement.blur()")

        # The first Tab stop is the skip link; it leads to the main content.
        page.keyboard.press("Tab")
        assert focused(page)["what"] == "a.skip-link"
        expect(page.locator("a.skip-link")).to_be_in_viewport()
        page.keyboard.press("Enter")
        assert focused(page)["id"] == "main"
        # From there, the search box in a few presses: the deck page link, the deck's name
        # and visibility and the rule set it follows come first, the site's navigation is
        # skipped (15 presses from the top of the page without the skip link).
        presses = tab_to(page, lambda f: f["id"] == "search-q", limit=20)
        assert presses <= 8, presses

        # A name typed, the card found; Tab to its "+" and Enter adds it.
        with page.expect_response(lambda r: f"/search/?q={CARD}&" in r.url):
            page.keyboard.type(CARD)
        page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )
        expect(page.locator(f'tr.b-result[data-card="{CARD}"]')).to_be_visible()
        tab_to(page, lambda f: f["card"] == CARD and f["label"].startswith(f"Add {CARD}"))
        add_label = focused(page)["label"]
        state = saved_after(page, state, "Enter")
        row = page.locator(f'#builder-state tr.b-row[data-card="{CARD}"]')
        expect(row.locator("input.b-count")).to_have_value("1")
        now = focused(page)
        assert now["label"] == add_label, now

        # Tab on to the deck row's "+": Enter twice, the focus stays on it.
        tab_to(page, lambda f: f["deckRow"] and f["label"] == f"One more {CARD}")
        for count in ("2", "3"):
            state = saved_after(page, state, "Enter")
            expect(row.locator("input.b-count")).to_have_value(count)
            now = focused(page)
            assert now["deckRow"] and now["label"] == f"One more {CARD}", now

        # Back to "−" (past the count box): Enter, the focus stays on "−".
        tab_to(page, lambda f: f["deckRow"] and f["label"] == f"One fewer {CARD}", back=True)
        state = saved_after(page, state, "Enter")
        expect(row.locator("input.b-count")).to_have_value("2")
        now = focused(page)
        assert now["deckRow"] and now["label"] == f"One fewer {CARD}", now

        # A typed count: Tab to the box, type 4, Enter; the focus stays in the box.
        tab_to(page, lambda f: f["deckRow"] and f["label"] == f"Copies of {CARD}")
        page.keyboard.press("Control+A")
        page.keyboard.type("4")
        state = saved_after(page, state, "Enter")
        expect(row.locator("input.b-count")).to_have_value("4")
        now = focused(page)
        assert now["deckRow"] and now["label"] == f"Copies of {CARD}", now

        # An answer that replaces only the changed row, out of band (the main swap skipped),
        # keeps the focus as well: "+" on the row, answered with the row alone.
        tab_to(page, lambda f: f["deckRow"] and f["label"] == f"One more {CARD}")
        old_row = row.evaluate("r => { r.dataset.old = '1'; return r.outerHTML; }")
        target = f"#builder-state tr.b-row[data-card='{CARD}']"
        alone = old_row.replace("<tr ", f'<tr hx-swap-oob="outerHTML:{target}" ', 1)
        alone = alone.replace(' data-old="1"', "").replace('value="4"', 'value="5"')
        page.route(
            "**/build/change/",
            lambda route: route.fulfill(
                status=200, headers={"HX-Reswap": "none"}, content_type="text/html", body=alone
            ),
            times=1,
        )
        page.keyboard.press("Enter")
        page.wait_for_function(
            "sel => { const r = document.querySelector(sel); return r && !r.dataset.old; }",
            arg=target,
        )
        now = focused(page)
        assert now["deckRow"] and now["label"] == f"One more {CARD}", now

        # A count of 0 removes the row: the focus goes to the nearest control, not the body.
        tab_to(page, lambda f: f["deckRow"] and f["label"] == f"Copies of {CARD}", back=True)
        page.keyboard.press("Control+A")
        page.keyboard.type("0")
        state = saved_after(page, state, "Enter")
        expect(row).to_have_count(0)
        now = focused(page)
        assert now["what"] != "body", now
        assert page.evaluate("() => !!document.activeElement.closest('#builder')")
    finally:
        context.close()
