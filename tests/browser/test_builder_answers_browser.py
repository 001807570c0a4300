"""The builder's answers carry only what changed (out-of-band swaps): after a run of taps the
page shows exactly what it shows when loaded again, rows, counts, rule marks, section counts,
the game's own panel, the verdict and the legality bar; a deployment map no unit moved on is
kept as it is, not sent again."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from decks import services
from tests.decks.conftest import sample_list

from .support import builder_state, page_ready, sign_up, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SNAPSHOT = """() => {
  const text = el => el ? el.textContent.replace(/\\s+/g, ' ').trim() : null;
  const all = sel => [...document.querySelectorAll(sel)];
  return {
    rows: all('#builder-state tr.b-row').map(r => [
      r.id, r.className, r.getAttribute('data-codes'), r.querySelector('.b-count').value,
      text(r.querySelector('.offence'))]),
    heads: all('#builder-state .b-section h3, #builder-state tr.b-group').map(text),
    extra: text(document.querySelector('#builder-extra')),
    // The totals as a set: a stored report comes back from jsonb with its keys reordered.
    verdict: text(document.querySelector('#verdict')) + text(document.querySelector('#violations')),
    totals: all('#totals tr').map(text).sort(),
    stats: text(document.querySelector('#builder-panel .b-counts')),
    bar: text(document.querySelector('#legality-bar')),
    busy: document.querySelector('#builder-state').getAttribute('aria-busy'),
  };
}"""


@pytest.fixture
def page(browser, live_server, live_catalogue):
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    yield pg
    context.close()


def _open(page, game: str, fmt: str):
    username = sign_up(page, "answers")
    user = get_user_model().objects.get(username=username)
    deck = services.deck_create(
        owner=user, game_slug=game, format=fmt, name="Answers", text=sample_list(game, fmt)
    )
    page.goto(f"/decks/{deck.pk}/build/")
    page_ready(page)
    return deck


def _tap(page, locator) -> None:
    before = builder_state(page)
    locator.click()
    wait_saved(page, before)


def _same_as_reloaded(page, deck) -> dict:
    shown = page.evaluate(SNAPSHOT)
    other = page.context.new_page()
    other.goto(f"/decks/{deck.pk}/build/")
    fresh = other.evaluate(SNAPSHOT)
    other.close()
    assert shown == fresh
    return shown


def test_taps_answered_with_only_what_changed_leave_the_page_as_a_reload_draws_it(page):
    deck = _open(page, "tactical-assault", "campaign")
    rows = page.locator("#builder-state tr.b-row")
    first = rows.first
    name = first.get_attribute("data-card")
    # "+" takes the force over its points: every row comes marked, the verdict says why.
    _tap(page, first.get_by_role("button", name=f"One more {name}"))
    shown = _same_as_reloaded(page, deck)
    assert all("involved" in r[1] for r in shown["rows"]) and shown["busy"] is None
    expect(page.locator("#verdict .verdict")).to_contain_text("Not legal")
    # "−" takes it back: the marks go, the verdict is legal again.
    _tap(page, first.get_by_role("button", name=f"One fewer {name}"))
    shown = _same_as_reloaded(page, deck)
    assert not any("involved" in r[1] for r in shown["rows"])
    expect(page.locator("#verdict .verdict")).to_have_text("Legal")
    # A count typed in, then a row taken to 0 (deleted), then a card added from the search.
    box = rows.nth(1).locator("input.b-count")
    before = builder_state(page)
    box.fill("0")
    box.press("Tab")
    wait_saved(page, before)
    _same_as_reloaded(page, deck)
    page.fill("#search-q", "")
    page.press("#search-q", "Enter")
    result = page.locator("tr.b-result").nth(3)
    _tap(page, result.locator("button.b-btn:not(.minus)").first)
    _same_as_reloaded(page, deck)


def test_a_deployment_map_no_unit_moved_on_is_kept(page):
    deck = _open(page, "hex-skirmish", "standard")
    page.evaluate("() => { document.querySelector('svg.placement-map').dataset.kept = 'yes'; }")
    hexes = page.locator("svg.placement-map .cell").count()
    row = page.locator("#builder-state tr.b-row").first
    name = row.get_attribute("data-card")
    _tap(page, row.get_by_role("button", name=f"One more {name}"))
    # The same map element, still drawn in full; and the rest as a reload draws it.
    assert page.evaluate("() => document.querySelector('svg.placement-map').dataset.kept") == "yes"
    assert page.locator("svg.placement-map .cell").count() == hexes > 0
    _same_as_reloaded(page, deck)
