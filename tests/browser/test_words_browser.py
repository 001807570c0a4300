"""The words a reader sees, in a real browser at 1440 and 390 px: every format of every game
is named as its game spells it ("Standard") on the deck page and My decks; the goldfish's
deck menu tells two decks of one name apart by their format, version and last change; a
search whose every term was left out (`kind:efret`) lists no card and its "did you mean
efreet?" is a link that runs the corrected search, on a game's card list and in the builder;
and the offline page, shown without a signal to a reader who is signed in, offers no
"Sign in"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from catalogue.models import Card, Game
from decks.models import Deck
from decks.services import deck_create
from validation.packages import sample_list
from validation.registry import registry

from .support import page_ready, sign_in
from .test_page_sweep_browser import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"


@pytest.fixture(params=[DESKTOP, PHONE], ids=["1440", "390"])
def page(request, browser, live_server, live_catalogue, django_user_model):
    user = django_user_model.objects.create_user("wordsmith", "words@example.com", PASSWORD)
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.user = user
    pg.console_errors = []
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    sign_in(pg, "wordsmith", PASSWORD)
    yield pg
    context.close()


def test_every_format_is_named_as_its_game_spells_it(page):
    made = []
    for game in registry.all():
        for fmt in game.formats.values():
            deck = Deck.objects.create(
                owner=page.user,
                game=Game.objects.get(slug=game.slug),
                format=fmt.slug,
                name=f"{game.slug} {fmt.slug} list",
            )
            made.append((deck, game.name, fmt.name))
    for deck, game_name, fmt_name in made:
        page.goto(f"/decks/{deck.pk}/")
        expect(page.locator("main p.muted").first).to_contain_text(f"{game_name} · {fmt_name} · by")
    page.goto("/decks/mine/")
    for deck, _, fmt_name in made:
        cell = page.locator(f'tr[data-deck="{deck.pk}"] td[data-label="Format"]')
        expect(cell).to_have_text(fmt_name)
        assert cell.is_visible()
    assert page.console_errors == []


def test_the_goldfish_menu_tells_two_decks_of_one_name_apart(page):
    for fmt in ("standard", "scramble"):
        deck_create(
            owner=page.user,
            game_slug="redline",
            format=fmt,
            name="My first arsenal",
            text=sample_list("redline", fmt).text(),
        )
    page.goto("/play/redline/goldfish/")
    options = page.locator("#id_deck option").all_inner_texts()
    assert len(options) == 2
    assert [re.sub(r"updated \d{4}-\d\d-\d\d", "updated DAY", o) for o in options] == [
        "My first arsenal (Standard · version 1 · updated DAY · by wordsmith)",
        "My first arsenal (Scramble · version 1 · updated DAY · by wordsmith)",
    ]


def test_a_search_left_out_whole_lists_nothing_and_links_the_correction(page):
    page.goto("/cards/redline/?q=kind%3Aefret")
    page_ready(page)
    expect(page.locator("#found")).to_have_text("0 cards")
    expect(page.locator("#results")).to_contain_text("no card is shown")
    fix = page.locator("#results a.search-fix")
    expect(fix).to_have_text("efreet")
    assert fix.is_visible()
    fix.click()
    page_ready(page)
    efreets = Card.objects.filter(game__slug="redline", kind="efreet").count()
    expect(page.locator("#found")).to_have_text(f"{efreets} cards")
    assert page.input_value("input[name=q]") == "kind:efreet"
    expect(page.locator("#results a.search-fix")).to_have_count(0)
    assert page.console_errors == []


def test_the_builders_search_links_the_correction(page):
    deck = deck_create(
        owner=page.user,
        game_slug="redline",
        format="standard",
        name="Arsenal",
        text=sample_list("redline", "standard").text(),
    )
    page.goto(f"/decks/{deck.pk}/build/")
    page_ready(page)
    page.fill("#search-q", "kind:efret")
    fix = page.locator("#search-results a.search-fix")
    expect(fix).to_have_text("efreet")
    expect(page.locator("#search-results")).to_contain_text("No cards match.")
    fix.scroll_into_view_if_needed()
    fix.click()
    page_ready(page)
    assert page.input_value("#search-q") == "kind:efreet"
    expect(page.locator("#search-results")).to_contain_text("Tigercat")
    expect(page.locator("#search-results a.search-fix")).to_have_count(0)
    assert page.console_errors == []


def test_the_offline_page_offers_no_sign_in_to_a_signed_in_reader(page):
    page.goto("/cards/")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    header = page.locator("header.site")
    expect(header).to_contain_text("wordsmith")
    page.context.set_offline(True)
    try:
        page.goto("/play/")  # never opened on this device: the offline page
        expect(page.locator("h1")).to_have_text("No signal")
        text = header.text_content()
        assert "Sign in" not in text and "Sign up" not in text
        assert page.locator("header.site a[href='/accounts/login/']").count() == 0
    finally:
        page.context.set_offline(False)
