"""The tuner's form in a real browser, at 1440 and 390 px: every control has a label of its own
that overlaps no other label or control and fits the screen; a query term the tuner cannot
read is reported with where it starts; with no query the tuner proposes the cards that fit
and starts."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from validation.packages import sample_list

from .support import BROKEN_WORDS, LONG_WORD, page_ready, sign_in
from .test_page_sweep_browser import DESKTOP, PHONE, axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"

#: For every visible control of the form: its label's and its own box, the label's element
#: and whether the label wraps the control; and every pair of those boxes that overlap.
LAYOUT = """() => {
  const form = document.querySelector("#tune-form");
  const boxes = [];
  const out = {missing: [], wrapping: [], overlaps: [], wide: []};
  for (const el of form.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    const label = el.labels && el.labels[0];
    if (!label) { out.missing.push(el.name); continue; }
    if (label.contains(el)) out.wrapping.push(el.name);
    boxes.push(["label " + el.name, label.getBoundingClientRect()]);
    boxes.push([el.name, el.getBoundingClientRect()]);
  }
  for (const [name, r] of boxes) if (r.right > innerWidth) out.wide.push(name);
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, ra] = boxes[i], [b, rb] = boxes[j];
    if (ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1 && rb.top < ra.bottom - 1)
      out.overlaps.push(a + " / " + b);
  }
  return out;
}"""


@pytest.fixture(params=[DESKTOP, PHONE], ids=["1440", "390"])
def page(request, browser, live_server, live_catalogue, django_user_model):
    from decks import services

    user = django_user_model.objects.create_user("tuner", "tuner@example.com", PASSWORD)
    deck = services.deck_create(
        owner=user,
        game_slug="hex-skirmish",
        format="standard",
        name="Army",
        text=sample_list("hex-skirmish", "standard").text(),
    )
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.width = request.param["width"]
    pg.deck = deck
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    sign_in(pg, "tuner", PASSWORD)
    yield pg
    context.close()


def _fits_and_passes_axe(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(BROKEN_WORDS, LONG_WORD) == []
    script, _pinned = axe_source()
    assert axe_violations(page, script) == []


def test_the_tune_form_has_separate_readable_labels_and_reports_an_unread_term(page):
    from simulations.models import SimulationRun

    page.goto(f"/simulations/decks/{page.deck.pk}/tune/")
    page_ready(page)
    layout = page.evaluate(LAYOUT)
    assert layout == {"missing": [], "wrapping": [], "overlaps": [], "wide": []}
    _fits_and_passes_axe(page)
    page.fill("#tune-query", "kind:command colour:blue")
    page.click("#tune-form button[type=submit]")
    page_ready(page)
    expect(page.locator("p.violation[role=alert]")).to_contain_text(
        "the query cannot be read whole ('colour:blue' (at character 14): unknown key 'colour'"
    )
    assert page.evaluate(LAYOUT)["overlaps"] == []
    _fits_and_passes_axe(page)
    assert not SimulationRun.objects.exists()
    page.fill("#tune-query", "")
    page.fill("#tune-games", "1000")
    page.click("#tune-form button[type=submit]")
    page_ready(page)
    expect(page.locator("#tune-chosen")).to_contain_text("No search was given")
    assert SimulationRun.objects.get().inputs["chosen"]["proposed"]
    assert [m for m in page.console_errors if "status of 400" not in m] == []
