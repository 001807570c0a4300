"""The deck builder in a real browser: Debian's Chromium, driven by Playwright, against the
live test server. Sign up, build a legal REDLINE arsenal from the search panel, watch a
violation come and go (and say why), share the deck, and place Hex Skirmish units by
clicking hexes.

Screenshots (desktop and phone-sized) are written under pytest's tmp_path, never the repo.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .support import builder_state, page_ready, sign_up, wait_saved

DESKTOP = {"width": 1440, "height": 1000}
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def page(browser, live_server, live_catalogue):
    # page.route does not see what a service worker fetches: none here.
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, service_workers="block"
    )
    context.set_default_timeout(15_000)
    pg = context.new_page()
    yield pg
    context.close()


def new_deck(page, game: str, fmt: str, name: str) -> None:
    page.goto(f"/build/{game}/{fmt}/new/")
    page.fill("#id_name", name)
    page.click("form.panel button[type=submit]")
    expect(page.locator("#builder-state")).to_be_visible()
    page_ready(page)


class Builder:
    """Drives the builder page, waiting for each autosave before the next change: the base
    and revision the page holds move on with every save (a session of edits rewrites one
    working version, so the version number alone does not)."""

    def __init__(self, page):
        self.page = page
        self.state = self._state()

    def _state(self) -> str:
        return builder_state(self.page)

    @property
    def version(self) -> int:
        return int(self.state.split(":")[0] or 0)

    def saved(self) -> None:
        self.state = wait_saved(self.page, self.state)

    def search(self, text: str) -> None:
        self.page.fill("#search-q", text)
        self.page.press("#search-q", "Enter")

    def add_from_search(self, name: str, section: str) -> None:
        self.search(name)
        row = self.page.locator(f'tr.b-result[data-card="{name}"]')
        row.locator(f'[data-section="{section}"] button').first.click()
        self.saved()
        expect(self.deck_row(name)).to_be_visible()

    def deck_row(self, name: str):
        return self.page.locator(f'#builder-state tr.b-row[data-card="{name}"]')

    def set_count(self, name: str, count: int) -> None:
        box = self.deck_row(name).locator("input.b-count")
        box.fill(str(count))
        box.press("Tab")
        self.saved()
        expect(self.deck_row(name).locator("input.b-count")).to_have_value(str(count))


ARSENAL = [
    ("Tigercat", 4),
    ("Rabbit", 4),
    ("Longbow", 4),
    ("Kestrel", 4),
    ("Pulse Laser", 4),
    ("Hellfire Missile Pod", 4),
    ("Ablative Plating", 2),
    ("Full Salvo", 4),
    ("Close Call", 4),
    ("Dig In", 2),
    ("Supply Drop", 24),
]


def screenshot(page, tmp_path, name: str) -> None:
    """A full-page shot at desktop size and at phone size, under tmp_path."""
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(tmp_path / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    print(f"screenshots: {tmp_path}")


def test_build_a_legal_redline_arsenal_and_share_it(browser, page, live_server, tmp_path):
    sign_up(page, "builder")
    new_deck(page, "redline", "standard", "UNE efreets")
    b = Builder(page)
    expect(page.locator("#verdict")).to_contain_text("Not legal")

    b.search("kind:general faction:une")
    b.add_from_search("General Jeffrey Moore", "general")
    for name, count in ARSENAL:
        b.add_from_search(name, "arsenal")
        if count > 1:
            b.set_count(name, count)
    expect(page.locator("#verdict .verdict")).to_have_text("Legal")
    expect(page.locator("#section-arsenal .b-counter")).to_have_text("60 / 60")

    # A fifth Tigercat breaks the copy limit; the row is highlighted; one fewer mends it.
    b.deck_row("Tigercat").get_by_role("button", name="One more Tigercat").click()
    b.saved()
    expect(page.locator('#violations [data-code="arsenal.copies"]')).to_contain_text("Tigercat")
    expect(b.deck_row("Tigercat")).to_have_class("b-row involved")
    expect(page.locator("#verdict")).to_contain_text("Not legal")
    # "Why?" opens the rule and the rulebook sentence it comes from, linked to its row.
    why = page.locator('#violations [data-code="arsenal.copies"] details.why')
    why.get_by_text("Why?").click()
    expect(why).to_contain_text("up to 4 copies of any one card")
    expect(why.get_by_role("link")).to_have_attribute("href", "/rules/redline/#arsenal.copies")
    screenshot(page, tmp_path, "redline-violation")
    b.deck_row("Tigercat").get_by_role("button", name="One fewer Tigercat").click()
    b.saved()
    expect(page.locator('#violations [data-code="arsenal.copies"]')).to_have_count(0)
    expect(page.locator("#verdict .verdict")).to_have_text("Legal")
    expect(page.locator(".b-curve rect")).to_have_count(8)

    # Save the name and make the deck unlisted; the share link appears.
    page.fill('#builder-meta input[name="name"]', "UNE efreets (final)")
    page.select_option('#builder-meta select[name="visibility"]', "unlisted")
    page.click("#builder-meta button[type=submit]")
    expect(page.locator("#builder-meta .b-saved")).to_be_visible()
    share = page.locator("#share-link").get_attribute("href")
    assert "/decks/shared/" in share
    screenshot(page, tmp_path, "redline-builder")

    # Signed out, the share link shows the list read-only.
    stranger = browser.new_context(viewport=DESKTOP)
    try:
        other = stranger.new_page()
        other.goto(share)
        expect(other.locator("h1")).to_have_text("UNE efreets (final)")
        expect(other.locator("#deck-list")).to_contain_text("Tigercat")
        expect(other.locator("#deck-list")).to_contain_text("24")
        expect(other.locator("#verdict")).to_contain_text("Legal")
        expect(other.locator("#builder-state")).to_have_count(0)
        expect(other.get_by_role("link", name="Edit list")).to_have_count(0)
    finally:
        stranger.close()

    from decks.models import Deck

    deck = Deck.objects.get(name="UNE efreets (final)")
    assert deck.legal and deck.visibility == "unlisted"
    assert deck.current_version.number == b.version
    # The session's edits are one working version; leaving the builder seals it.
    assert not deck.current_version.sealed
    page.click("text=deck page")
    expect(page.locator("#verdict")).to_contain_text("Legal")

    def sealed():
        deck.current_version.refresh_from_db()
        return deck.current_version.sealed

    from tests.conftest import wait_for

    wait_for(sealed, timeout=15)


def test_a_search_result_takes_a_click_the_moment_it_appears(page):
    """A click on a result htmx has just swapped in is not lost: the page binds new content
    at once (with htmx's default settle delay, buttons stayed dead for 20 ms)."""
    sign_up(page, "builder")
    new_deck(page, "hex-skirmish", "standard", "Quick army")
    b = Builder(page)
    # Click the result the instant the first search answer lands in the page.
    page.evaluate(
        """() => {
          const box = document.querySelector('#search-results');
          const watch = new MutationObserver(() => {
            const button = box.querySelector(
              'tr.b-result[data-card="Lancers"] [data-section="units"] button');
            if (button) { watch.disconnect(); button.click(); }
          });
          watch.observe(box, {childList: true, subtree: true});
        }"""
    )
    b.search("Lancers")
    b.saved()
    expect(b.deck_row("Lancers")).to_be_visible()


def test_place_hex_skirmish_units_by_clicking_hexes(page, live_server, tmp_path):
    sign_up(page, "builder")
    new_deck(page, "hex-skirmish", "standard", "Hex army")
    b = Builder(page)
    b.add_from_search("Lancers", "units")
    b.add_from_search("Pikemen", "units")

    def place(unit: str, c: int, r: int) -> None:
        page.locator(f'[data-placement-unit][data-card="{unit}"]').click()
        expect(page.locator("#placement-status")).to_contain_text("now click a free hex")
        page.locator(f'.placement-map .cell[data-c="{c}"][data-r="{r}"]').click()
        b.saved()
        expect(page.locator(f'.placement-map .cell[data-c="{c}"][data-r="{r}"]')).to_have_attribute(
            "data-occupant", unit
        )

    place("Lancers", 2, 3)
    place("Pikemen", 5, 0)
    expect(b.deck_row("Lancers")).to_contain_text("@2,3")

    # An occupied hex is refused in the page: nothing is posted, the version stays.
    page.locator('[data-placement-unit][data-card="Pikemen"]').click()
    page.locator('.placement-map .cell[data-c="2"][data-r="3"]').click()
    expect(page.locator("#placement-status")).to_contain_text("taken by Lancers")
    assert b._state() == b.state  # nothing was saved
    expect(page.locator('#violations [data-code="army.deployment"]')).to_have_count(0)
    screenshot(page, tmp_path, "hex-builder")

    from decks.models import Deck

    deck = Deck.objects.select_related("current_version").get(name="Hex army")
    text = deck.current_version.list_text
    assert "1 Lancers @2,3" in text and "1 Pikemen @5,0" in text
    assert not [e for e in deck.report["errors"] if e["code"] == "army.deployment"]


def test_red_code_match_setup_and_a_new_map_layout(page, live_server, tmp_path):
    sign_up(page, "builder")
    new_deck(page, "red-code", "war", "Convoy battle")
    b = Builder(page)
    page.locator('form[data-side="blue"] select').first.select_option("Barracuda")
    b.saved()
    page.locator('form[data-side="red"] select').first.select_option("Tempest")
    b.saved()
    page.fill('#match-setup input[name="seed"]', "2024")
    page.click("#new-layout")
    b.saved()
    expect(page.locator("#map-seed")).to_have_text("2024")
    expect(page.locator("#rc-map .map-card")).to_have_count(12)
    expect(page.locator("#rc-map .map-card.start")).to_have_count(2)
    expect(page.locator("#verdict .verdict")).to_have_text("Legal")
    screenshot(page, tmp_path, "red-code-builder")

    from decks.models import Deck

    deck = Deck.objects.select_related("current_version").get(name="Convoy battle")
    assert deck.current_version.options["map"]["seed"] == 2024
    assert deck.legal


def test_a_tap_shows_the_count_before_the_server_answers_and_a_refused_change_rolls_back(page):
    """ "+" shows the new count and section total at once, while the server's answer is held
    back; the answer then brings the verdict. A change the server refuses puts the numbers
    back and says why."""
    sign_up(page, "builder")
    new_deck(page, "redline", "standard", "Instant")
    b = Builder(page)
    b.add_from_search("Tigercat", "arsenal")
    row = b.deck_row("Tigercat")
    counter = page.locator("#section-arsenal .b-counter")
    expect(row.locator("input.b-count")).to_have_value("1")
    expect(counter).to_have_text("1 / 60")

    held = []
    page.route("**/build/change/", lambda route: held.append(route))
    row.get_by_role("button", name="One more Tigercat").click()
    # Nothing has reached the server yet, and the page already shows 2 copies.
    expect(row.locator("input.b-count")).to_have_value("2")
    expect(counter).to_have_text("2 / 60")
    assert len(held) == 1 and b.state == builder_state(page)
    held[0].continue_()
    page.unroute("**/build/change/")
    b.saved()
    expect(row.locator("input.b-count")).to_have_value("2")

    # The server refuses the next change (an error answer): the count goes back, with why.
    page.route(
        "**/build/change/",
        lambda route: route.fulfill(
            status=400, body="This list is locked.", content_type="text/plain"
        ),
    )
    row.get_by_role("button", name="One more Tigercat").click()
    expect(page.locator("#instant-error")).to_contain_text("Not changed: This list is locked.")
    expect(row.locator("input.b-count")).to_have_value("2")
    expect(counter).to_have_text("2 / 60")


def test_taps_made_while_a_change_is_on_its_way_all_count(page):
    """Three quick taps on "+" while the first one's answer is held back (a slow
    connection): once it arrives the other two are sent in turn, and the deck holds three
    more copies, as a reload shows (htmx dropped a tap queued on a row the answer drew
    again)."""
    sign_up(page, "builder")
    new_deck(page, "redline", "standard", "Quick taps")
    b = Builder(page)
    b.add_from_search("Tigercat", "arsenal")
    row = b.deck_row("Tigercat")
    expect(row.locator("input.b-count")).to_have_value("1")

    held, sent = [], []

    def hold_the_first(route):
        sent.append(route.request.post_data)
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/build/change/", hold_the_first)
    more = row.get_by_role("button", name="One more Tigercat")
    for _ in range(3):
        more.click()
    page.wait_for_timeout(300)
    assert len(sent) == 1  # the other taps wait for the first answer
    held[0].continue_()
    expect(row.locator("input.b-count")).to_have_value("4")
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
    page.reload()
    expect(b.deck_row("Tigercat").locator("input.b-count")).to_have_value("4")
    expect(page.locator("#section-arsenal .b-counter")).to_have_text("4 / 60")
    assert len(sent) == 3


def test_a_card_preview_shown_by_the_mouse_never_covers_a_button_it_can_be_clicked_through(page):
    """A mouse resting on a result's name shows the card's preview beside it, over the row's
    own buttons: the preview is for the eye (the mouse cannot reach it without leaving the
    name, which hides it), so a click on a button under it reaches the button. (A preview
    taking the click left "+" dead under a resting mouse.)"""
    sign_up(page, "preview")
    new_deck(page, "redline", "standard", "Preview test")
    b = Builder(page)
    b.search("Tigercat")
    # The search answers the typing (after 150 ms) and the Enter: the row hovered must be the
    # last answer's, not one swapped out under the mouse a moment later.
    page.wait_for_load_state("networkidle")
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
    row = page.locator('tr.b-result[data-card="Tigercat"]')
    row.locator("a.b-name").hover()
    popover = page.locator(".face-popover")
    expect(popover).to_be_visible()
    plus = row.locator('[data-section="arsenal"] button.b-btn:not(.minus)')
    expect(plus).to_be_visible()
    box = plus.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # What a click at the button's centre lands on, with the preview shown.
    hit = page.evaluate(
        "([x, y]) => { const el = document.elementFromPoint(x, y); return el && el.closest('button') ? el.closest('button').getAttribute('aria-label') : (el ? el.className : null); }",
        [x, y],
    )
    expect(popover).to_be_visible()
    assert hit == "Add Tigercat to Arsenal", hit
    plus.click(timeout=3_000)
    b.saved()
    expect(b.deck_row("Tigercat").locator("input.b-count")).to_have_value("1")
