"""A Tactical Assault force taken to the table on a phone, then read without a signal
(Playwright's offline mode): the deck, a card with its image, the tournament sheet and the
odds table the server computed; a change made offline is refused with a clear message and
nothing is sent; a page not kept shows the offline page, which lists the deck kept. Every
page read is axe-clean at 390 px."""

from __future__ import annotations

import pytest

from decks.models import Deck
from decks.services import deck_create
from validation.packages import sample_list

from .support import sign_in
from .test_page_sweep_browser import PHONE, axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"


@pytest.fixture
def phone(browser, live_server, live_catalogue, django_user_model, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    user = django_user_model.objects.create_user("player", "player@example.com", PASSWORD)
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors
    page.user = user
    yield page
    context.close()


def _axe_clean(page, script: str) -> None:
    assert axe_violations(page, script) == [], page.url


def test_a_force_taken_to_the_table_reads_offline_on_a_phone(phone):
    page = phone
    axe, _ = axe_source()
    deck = deck_create(
        owner=page.user,
        game_slug="tactical-assault",
        format="standard",
        name="Ridge force",
        text=sample_list("tactical-assault", "standard").text(),
    )
    sign_in(page, "player", PASSWORD)
    page.goto(f"/decks/{deck.pk}/")
    page.click("#take-to-table")
    page.wait_for_load_state("load")
    page.wait_for_selector("#table-progress[data-state=kept]", timeout=240_000)
    assert "Kept on this device" in page.inner_text("#table-progress")
    _axe_clean(page, axe)
    odds_online = page.inner_text("#odds-1-firepower")

    page.context.set_offline(True)
    try:
        # The odds table, as the server drew it; opening the page offline drops nothing.
        page.goto(f"/decks/{deck.pk}/table/")
        assert page.inner_text("#odds-1-firepower") == odds_online
        assert page.locator("#odds-1-firepower tbody tr").count() > 10
        page.wait_for_selector("#table-progress[data-state=kept]")
        assert "No signal: this deck as kept on this device" in page.inner_text("#table-progress")
        _axe_clean(page, axe)

        # The deck's page, with the banner saying there is no signal.
        page.goto(f"/decks/{deck.pk}/")
        assert page.inner_text("h1") == "Ridge force"
        assert page.locator("#offline-banner").is_visible()
        _axe_clean(page, axe)

        # A card whose name has a space, reached as on the deck page, with its image.
        link = page.locator("#deck-list a.card-link").filter(has_text="Heavy Weapon")
        name = link.inner_text()
        link.click()
        page.wait_for_load_state("load")
        assert page.inner_text("h1") == name
        image = page.locator("figure.card-image img")
        image.scroll_into_view_if_needed()
        page.wait_for_function(
            "() => { const i = document.querySelector('figure.card-image img');"
            " return i && i.complete && i.naturalWidth > 0; }"
        )
        assert image.get_attribute("alt").startswith(f"{name}: ")
        _axe_clean(page, axe)

        # The tournament sheet.
        page.goto(f"/decks/{deck.pk}/export/print/?v=1")
        sheet = page.inner_text("main")
        assert "Ridge force" in sheet and "Player" in sheet and "Infantry" in sheet

        # The proxies were kept too (read from the device's cache by the page).
        kept_pdf = page.evaluate(
            "(url) => fetch(url).then(r => r.arrayBuffer())"
            ".then(b => new TextDecoder().decode(new Uint8Array(b).slice(0, 5)))",
            f"/decks/{deck.pk}/export/proxies/?v=1",
        )
        assert kept_pdf == "%PDF-"

        # A change made offline is refused, the form kept, nothing sent.
        page.goto(f"/decks/{deck.pk}/")
        page.locator("form[action$='/clone/'] button[type=submit]").click()
        refused = page.locator(".offline-refused")
        refused.wait_for()
        assert "Not sent: you are offline" in refused.inner_text()
        assert page.url.endswith(f"/decks/{deck.pk}/")

        # A page this device did not keep: the offline page, listing the deck kept.
        page.goto("/play/")
        assert page.inner_text("h1") == "No signal"
        page.wait_for_selector("#kept-decks a")
        assert "Ridge force" in page.inner_text("#kept-decks")
        _axe_clean(page, axe)
    finally:
        page.context.set_offline(False)
    assert Deck.objects.filter(owner=page.user).count() == 1  # the clone never happened
    assert page.console_errors == []
