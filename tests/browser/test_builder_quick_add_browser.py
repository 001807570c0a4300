"""The builder's quick add, typed as a person types: a whole list, a line and Enter after
another with no pause, comes out as the list (every game, a desktop and a phone); the box
is empty and keeps the focus after each line. The collection panel ("Your cards") follows
every change of the list."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from catalogue.models import Card
from collection.models import CollectionEntry
from decks.models import Deck
from tests.decks.conftest import sample_list
from validation import decklist
from validation.registry import registry

from .support import builder_state, page_ready, sign_up, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: One sample list of each game.
LISTS = [
    ("redline", "standard"),
    ("tactical-assault", "custom"),
    ("red-code", "war"),
    ("red-mittens", "core"),
    ("hex-skirmish", "standard"),
]
WIDTHS = {"desktop": (1440, 900), "phone": (390, 844)}

#: Whether the quick-add lines typed have all been answered (nothing waiting, nothing in
#: flight, nothing being swapped in).
DRAINED = """() => {
  const queue = document.querySelector('#quick-add-queue');
  return !(queue && /Adding/.test(queue.textContent))
    && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling');
}"""


@pytest.fixture(params=list(WIDTHS))
def page(request, browser, live_server, live_catalogue):
    width, height = WIDTHS[request.param]
    context = browser.new_context(
        viewport={"width": width, "height": height}, base_url=live_server.url
    )
    context.set_default_timeout(15_000)
    pg = context.new_page()
    yield pg
    context.close()


def _new_deck(page, game: str, fmt: str) -> Deck:
    """A new deck, made through the site's "new deck" page, open in the builder."""
    page.goto(f"/build/{game}/{fmt}/new/")
    page.fill("#id_name", "Typed in")
    page.click("main form button[type=submit]")
    page_ready(page)
    return Deck.objects.filter(name="Typed in").latest("pk")


def _saved(deck: Deck) -> dict[tuple, int]:
    deck.refresh_from_db()
    out: dict[tuple, int] = {}
    for e in deck.current_version.entries if deck.current_version else []:
        cell = e.get(decklist.PLACEMENT)
        key = (e["section"], e["card"], tuple(cell) if cell else None)
        out[key] = out.get(key, 0) + e["count"]
    return out


def _listed(text: str, game: str) -> dict[tuple, int]:
    read = decklist.parse(text, registry.get(game))
    assert read.ok, read.errors
    out: dict[tuple, int] = {}
    for line in read.lines:
        key = (line.section, line.name, line.placement)
        out[key] = out.get(key, 0) + line.count
    return out


@pytest.mark.parametrize(("game", "fmt"), LISTS)
def test_a_list_typed_line_after_line_is_the_deck(page, game, fmt):
    sign_up(page, "typist")
    deck = _new_deck(page, game, fmt)
    text = sample_list(game, fmt)
    box = page.locator("#quick-add")
    box.focus()
    for line in text.splitlines():
        page.keyboard.type(line)
        page.keyboard.press("Enter")
    page.wait_for_function(DRAINED, timeout=120_000)
    assert _saved(deck) == _listed(text, game)
    # Every line answered: none refused, the box empty and still where the typing is.
    expect(box).to_have_value("")
    expect(box).to_be_focused()
    expect(page.locator("#quick-add-queue")).to_have_text("")
    # What the page shows is what was saved.
    expect(page.locator("#deck-head .b-error")).to_have_count(0)
    shown = page.evaluate(
        "() => [...document.querySelectorAll('#builder-state tr.b-row')]"
        ".reduce((n, r) => n + Number(r.querySelector('.b-count').value), 0)"
    )
    assert shown == sum(_listed(text, game).values())


def test_a_line_refused_is_said_and_the_last_one_given_back(page):
    sign_up(page, "typist")
    deck = _new_deck(page, "redline", "standard")
    box = page.locator("#quick-add")
    box.focus()
    for line in ("Arsenal:", "4 Tigercat", "2 Zzqxv Wobble", "Rabbit", "Qqxzv"):
        page.keyboard.type(line)
        page.keyboard.press("Enter")
    page.wait_for_function(DRAINED, timeout=60_000)
    queue = page.locator("#quick-add-queue")
    expect(queue).to_contain_text("2 lines not added: “2 Zzqxv Wobble” (No card of")
    expect(queue).to_contain_text("“Qqxzv” (No card of")
    # The lines after a refused one are added all the same; the last line, refused, is
    # back in the box to be put right.
    assert _saved(deck) == {("arsenal", "Tigercat", None): 4, ("arsenal", "Rabbit", None): 1}
    expect(box).to_have_value("Qqxzv")
    expect(box).to_be_focused()
    # The next line typed starts afresh.
    box.fill("Rabbit")
    before = builder_state(page)
    box.press("Enter")
    wait_saved(page, before)
    expect(queue).to_have_text("")
    expect(box).to_have_value("")


def _owns(username: str, game: str, counts: dict[str, int]) -> None:
    user = get_user_model().objects.get(username=username)
    for name, n in counts.items():
        card = Card.objects.get(game__slug=game, name=name)
        CollectionEntry.objects.create(owner=user, card=card, count=n)


def _quick_add(page, line: str) -> None:
    before = builder_state(page)
    page.locator("#quick-add").fill(line)
    page.locator("#quick-add").press("Enter")
    wait_saved(page, before)


def _tap(page, row, name: str) -> None:
    before = builder_state(page)
    row.get_by_role("button", name=name).click()
    wait_saved(page, before)


def test_the_collection_panel_follows_every_change(page):
    username = sign_up(page, "owner")
    _owns(username, "redline", {"Tigercat": 2, "Rabbit": 1})
    _new_deck(page, "redline", "standard")
    panel = page.locator("#builder-availability")
    expect(panel).to_contain_text("Your cards")
    expect(panel.locator("#short")).to_have_count(0)
    _quick_add(page, "Tigercat")
    expect(panel.locator("#all-free")).to_be_visible()
    row = page.locator("#builder-state tr.b-row[data-card='Tigercat']")
    # Past the two owned copies: the panel says how many are short, at each step.
    _tap(page, row, "One more Tigercat")
    _tap(page, row, "One more Tigercat")
    expect(panel.locator("#short")).to_contain_text("1 Tigercat short")
    _tap(page, row, "One more Tigercat")
    expect(panel.locator("#short")).to_contain_text("2 Tigercat short")
    _quick_add(page, "Rabbit")
    _quick_add(page, "Rabbit")
    expect(panel.locator("#short")).to_contain_text("1 Rabbit short")
    expect(panel.locator("#short")).to_contain_text("2 Tigercat short")
    # Taken down to what is owned: nothing is short any more.
    _tap(page, page.locator("#builder-state tr.b-row[data-card='Rabbit']"), "One fewer Rabbit")
    for _ in range(2):
        _tap(page, row, "One fewer Tigercat")
    expect(panel.locator("#short")).to_have_count(0)
    expect(panel.locator("#all-free")).to_be_visible()
    expect(panel).not_to_have_attribute("aria-busy", "true")
