"""The builder with the keyboard, at 1440 px and at 390 px: the quick-add box and the deck
panel are a few Tabs from the top of the page (skip links after the one to the main
content; before them, the whole search panel and its 40 results stood in the way: 145
Tabs), and stepping through a picker that saves on a change (REDLINE's general) with the
arrow keys saves nothing until Enter, or until the focus leaves it: one save, not one a
key."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from decks.models import Deck, DeckVersion

from .support import builder_state, page_ready, sign_up, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 1440, "height": 900}, {"width": 390, "height": 844}]

#: At most this many Tabs from the top of the page, and one Enter on the link.
FEW = 5


def _new_builder(browser, live_server, size, game="redline", fmt="standard"):
    context = browser.new_context(viewport=size, base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    name = sign_up(page, "reach")
    page.goto(f"/build/{game}/{fmt}/new/")
    page.fill("#id_name", "Keyboard reach")
    page.click("form.panel button[type=submit]")
    expect(page.locator("#builder-state")).to_be_visible()
    page_ready(page)
    return context, page, name


def _tabs_to(page, target_id: str) -> int:
    """From the top of the page, loaded afresh (nothing focused), Tab until a link to
    `#target_id` has the focus, then Enter: the Tabs pressed, once `target_id` (or a
    control in it) has the focus."""
    page.reload()
    page_ready(page)
    for presses in range(1, 30):
        page.keyboard.press("Tab")
        href = page.evaluate("() => document.activeElement.getAttribute('href') || ''")
        if href == f"#{target_id}":
            expect(page.locator(f"a[href='#{target_id}']")).to_be_in_viewport()
            page.keyboard.press("Enter")
            page.wait_for_function(
                "id => { const t = document.getElementById(id);"
                " return t && t.contains(document.activeElement); }",
                arg=target_id,
            )
            return presses
    raise AssertionError(f"no link to #{target_id} in 30 Tabs")


@pytest.mark.parametrize("size", SIZES, ids=["1440", "390"])
def test_quick_add_and_the_deck_are_a_few_tabs_from_the_top(
    browser, live_server, live_catalogue, size
):
    context, page, _name = _new_builder(browser, live_server, size)
    try:
        # The search panel holds its results (40 cards, three controls each).
        expect(page.locator("tr.b-result")).to_have_count(40)
        presses = _tabs_to(page, "quick-add")
        assert presses <= FEW, presses
        assert page.evaluate("() => document.activeElement.id") == "quick-add"
        # Typing there adds the card: the box is the real quick add, not a copy.
        before = page.evaluate(
            "() => document.querySelector('#builder-base').value + ':' +"
            " document.querySelector('#builder-rev').value"
        )
        page.keyboard.type("Longbow")
        page.keyboard.press("Enter")
        wait_saved(page, before)
        expect(page.locator('#builder-state tr.b-row[data-card="Longbow"]')).to_have_count(1)

        presses = _tabs_to(page, "deck-panel")
        assert presses <= FEW, presses
        # The next Tab goes on into the deck panel, not back to the search.
        page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('#deck-panel')")
    finally:
        context.close()


def _revisions(deck: Deck) -> list[tuple[int, int, bool]]:
    return list(
        DeckVersion.objects.filter(deck=deck)
        .order_by("number")
        .values_list("number", "revision", "sealed")
    )


@pytest.mark.parametrize("size", SIZES, ids=["1440", "390"])
def test_arrowing_through_a_picker_saves_once_on_enter_or_on_leaving(
    browser, live_server, live_catalogue, size
):
    context, page, name = _new_builder(browser, live_server, size)
    posts: list[str] = []
    page.on(
        "request",
        lambda r: (
            posts.append(r.post_data or "") if r.method == "POST" and "/build/" in r.url else None
        ),
    )
    try:
        deck = Deck.objects.get(owner__username=name)
        picker = page.locator("#general-picker")
        options = picker.locator("option").evaluate_all("os => os.map(o => o.value)")
        generals = [o for o in options if o]
        assert len(generals) >= 4
        picker.focus()
        for _ in range(3):
            page.keyboard.press("ArrowDown")
        expect(picker).to_have_value(generals[2])
        page.wait_for_timeout(700)  # long enough for a request a key would have sent
        assert posts == [] and _revisions(deck) == []

        # Enter saves the general shown: one save.
        state = builder_state(page)
        page.keyboard.press("Enter")
        state = wait_saved(page, state)
        assert len(posts) == 1, posts
        deck.refresh_from_db()
        version = deck.current_version
        assert [e["card"] for e in version.entries if e["section"] == "general"] == [generals[2]]
        assert _revisions(deck) == [(1, 0, False)]
        expect(page.locator("#general-picker")).to_be_focused()

        # Two more steps, then Tab away: one more save, of the general left shown.
        for _ in range(2):
            page.keyboard.press("ArrowDown")
        expect(page.locator("#general-picker")).to_have_value(generals[4])
        page.wait_for_timeout(700)
        assert len(posts) == 1, posts
        page.keyboard.press("Tab")
        wait_saved(page, state)
        assert len(posts) == 2, posts
        deck.refresh_from_db()
        version = deck.current_version
        assert [e["card"] for e in version.entries if e["section"] == "general"] == [generals[4]]
        assert _revisions(deck) == [(1, 1, False)]
    finally:
        context.close()
