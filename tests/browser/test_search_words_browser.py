"""Searching in a real browser, at 1440 and 390 px: every search box's placeholder fits in
its box (measured in the box's own font) on the catalogue, each game's card list, the
builder, the tuner and the page not found; a key written as the label a card shows
(`class:submarine` where the card shows "Class submarine") finds the cards; a word found as
typed brings no "Showing results for" banner, a typo does."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from validation.packages import sample_list
from validation.registry import registry

from .support import BROKEN_WORDS, LONG_WORD, page_ready, sign_in
from .test_page_sweep_browser import DESKTOP, PHONE, axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"

#: Every visible text box with a placeholder whose placeholder is wider than the room for
#: text inside the box: its id or name, the text's width and the room (px).
CUT_OFF = """() => {
  const canvas = document.createElement("canvas").getContext("2d");
  const out = [];
  for (const el of document.querySelectorAll("input[placeholder]")) {
    if (!el.getClientRects().length || el.type === "hidden") continue;
    const cs = getComputedStyle(el);
    canvas.font = cs.font;
    const text = canvas.measureText(el.placeholder).width;
    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (text > room) out.push(`${el.id || el.name}: "${el.placeholder}" ${Math.ceil(text)} > ${Math.floor(room)}`);
  }
  return out;
}"""


@pytest.fixture(params=[DESKTOP, PHONE], ids=["1440", "390"])
def page(request, browser, live_server, live_catalogue, django_user_model):
    from decks import services

    user = django_user_model.objects.create_user("searcher", "searcher@example.com", PASSWORD)
    pg_decks = {
        game: services.deck_create(
            owner=user,
            game_slug=game,
            format=fmt,
            name=f"{game} deck",
            text=sample_list(game, fmt).text(),
        )
        for game, fmt in (("redline", "standard"), ("hex-skirmish", "standard"))
    }
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.width = request.param["width"]
    pg.decks = pg_decks
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    sign_in(pg, "searcher", PASSWORD)
    yield pg
    context.close()


def test_every_search_boxs_placeholder_fits_in_it(page):
    urls = ["/cards/", *[f"/cards/{g.slug}/" for g in registry.all()]]
    for deck in page.decks.values():
        urls += [f"/decks/{deck.pk}/build/", f"/simulations/decks/{deck.pk}/tune/"]
    cut = []
    for url in urls:
        page.goto(url)
        page_ready(page)
        cut += [f"{url}: {problem}" for problem in page.evaluate(CUT_OFF)]
    page.goto("/no/such/page/")
    cut += [f"404: {problem}" for problem in page.evaluate(CUT_OFF)]
    assert cut == []


def test_a_key_written_as_its_label_finds_cards_and_a_banner_only_for_a_typo(page):
    page.goto("/cards/red-code/?q=class:submarine")
    page_ready(page)
    expect(page.locator("#results")).not_to_contain_text("unknown key")
    card = page.locator("#results a[href*='/card/']").first
    card.click()
    page_ready(page)
    expect(page.locator("main")).to_contain_text(re.compile(r"Class\s*submarine"))
    page.goto("/cards/redline/?q=efreets")
    page_ready(page)
    expect(page.locator(".search-corrected")).to_have_count(0)
    page.goto("/cards/redline/?q=tigrcat")
    page_ready(page)
    expect(page.locator(".search-corrected")).to_have_text("Showing results for Tigercat")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(BROKEN_WORDS, LONG_WORD) == []
    script, _pinned = axe_source()
    assert axe_violations(page, script) == []
    assert page.console_errors == []


def test_text_put_in_the_catalogue_search_box_without_keys_searches(
    browser, live_server, live_catalogue
):
    """Text pasted with the mouse or set by fill() fires no key event: the box hears `input`."""
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    try:
        pg.goto("/cards/redline/")
        page_ready(pg)
        expect(pg.locator("#results")).not_to_contain_text("No card matches")
        pg.fill("#filters input[name=q]", "zzzzqqq")
        expect(pg.locator("#results")).to_contain_text("No card matches")
        expect(pg).to_have_url(re.compile(r"q=zzzzqqq"))
    finally:
        context.close()
