"""Importing a deck in a real browser, at 1440 and 390 px: the site's own Hex Skirmish export
pasted back with the game-and-format menu left as it opens is imported as Hex Skirmish; a
list with a near-miss card name is refused with a one-click fix that imports it."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from validation.packages import sample_list

from .support import BROKEN_WORDS, LONG_WORD, page_ready, sign_in
from .test_page_sweep_browser import DESKTOP, PHONE, axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"


@pytest.fixture(params=[DESKTOP, PHONE], ids=["1440", "390"])
def page(request, browser, live_server, live_catalogue, django_user_model):
    django_user_model.objects.create_user("importer", "importer@example.com", PASSWORD)
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.width = request.param["width"]
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    sign_in(pg, "importer", PASSWORD)
    yield pg
    context.close()


def _fits_and_passes_axe(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(BROKEN_WORDS, LONG_WORD) == []
    script, _pinned = axe_source()
    assert axe_violations(page, script) == []


def test_the_sites_own_export_pasted_back_imports_with_the_menu_as_it_opens(page):
    from decks import selectors, services
    from decks.models import Deck

    owner = Deck._meta.get_field("owner").related_model.objects.get(username="importer")
    source = services.deck_create(
        owner=owner,
        game_slug="hex-skirmish",
        format="standard",
        name="My army",
        text=sample_list("hex-skirmish", "standard").text(),
    )
    exported = selectors.deck_export(deck=source, version=source.current_version)
    page.goto("/decks/import/")
    page_ready(page)
    assert page.input_value("#id_game_format") == ""
    expect(page.locator("#id_game_format option:checked")).to_contain_text("As the list says")
    _fits_and_passes_axe(page)
    page.fill("#id_list", exported)
    page.click("#deck-form button[type=submit]")
    page_ready(page)
    expect(page.locator("h1")).to_contain_text("My army")
    copy = Deck.objects.filter(owner=owner).exclude(pk=source.pk).get()
    assert (copy.game.slug, copy.format) == ("hex-skirmish", "standard")
    # The same cards in the same sections (the export lists them as the deck page does).
    same_order = lambda e: json.dumps(e, sort_keys=True)  # noqa: E731
    assert sorted(copy.current_version.entries, key=same_order) == sorted(
        source.current_version.entries, key=same_order
    )
    assert page.console_errors == []


def test_a_near_miss_name_is_fixed_in_one_click_on_the_import_form(page):
    from decks.models import Deck

    lines = sample_list("redline", "standard").text().splitlines()
    assert lines[7] == "4 Tigercat"
    lines[7] = "4 Tigercatt"
    page.goto("/decks/import/")
    page_ready(page)
    page.fill("#id_list", "\n".join(lines) + "\n")
    page.click("#deck-form button[type=submit]")
    page_ready(page)
    errors = page.locator("#line-errors")
    expect(errors).to_contain_text("Line 8: unknown card 'Tigercatt'; did you mean Tigercat?")
    fix = errors.locator('button.fix[data-card="Tigercat"]')
    expect(fix).to_have_count(1)
    _fits_and_passes_axe(page)
    assert not Deck.objects.exists()
    fix.click()
    page_ready(page)
    expect(page.locator("#line-errors")).to_have_count(0)
    deck = Deck.objects.get()
    assert deck.game.slug == "redline"
    assert {"card": "Tigercat", "count": 4} in [
        {"card": e["card"], "count": e["count"]} for e in deck.current_version.entries
    ]
    # The refused import answers 400, which the browser logs as a failed load: expected.
    assert [m for m in page.console_errors if "status of 400" not in m] == []
