"""Every game, end to end in a real browser (Debian's Chromium driven by Playwright): sign
up, build a legal deck from an empty one with the search panel (hovering a name shows its
card face) and keyboard quick-add (a typo included), place units where the game deploys them, deal the map where the game deals one,
save a version with a note, share it, open the deck page and the share link signed out,
then the game's simulations or play tools. No page answers 500, and none is wider than a
390 px phone screen.

Screenshots at 1440 px and 390 px go under pytest's tmp_path (printed), never the repo.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from validation.packages import main_sample_list, sample_list
from validation.registry import registry

from .support import builder_state, page_ready, sign_up, wait_saved

DESKTOP = {"width": 1440, "height": 1000}
PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A format of each game whose sample list the test rebuilds (the required sections only):
#: the game's first format with an example list.
FORMATS = {slug: main_sample_list(slug).format for slug in registry.slugs()}


def sample_entries(game: str, fmt: str) -> list[tuple[str, str, int, tuple[int, int] | None]]:
    """(section, card, count, hex) of the sample list's required sections."""
    definition = registry.get(game)
    required = definition.format(fmt).required_sections
    labels = {definition.section_label(s).lower(): s for s in definition.section_names}
    labels.update({s.lower(): s for s in definition.section_names})
    section = None
    out = []
    for line in sample_list(game, fmt).text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith(":"):
            section = labels.get(line[:-1].strip().lower().replace(" ", "_")) or labels.get(
                line[:-1].strip().lower()
            )
            continue
        m = re.match(r"(\d+)\s+(.+?)(?:\s+@(\d+),(\d+))?$", line)
        if m and section in required:
            hex_ = (int(m[3]), int(m[4])) if m[3] else None
            out.append((section, m[2], int(m[1]), hex_))
    return out


def no_overflow(page, where: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{where}: {width} px wide"


def shots(page, tmp_path, name: str) -> None:
    """Full-page shots at 1440 and 390 px, asserting no sideways overflow on the phone."""
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(tmp_path / f"{name}-1440.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    no_overflow(page, name)
    page.screenshot(path=str(tmp_path / f"{name}-390.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    print(f"screenshots: {tmp_path / name}-*.png")


class Builder:
    """Drives the builder page; after each change waits until the saved base and revision
    the page holds have moved on and htmx has settled the swapped panels."""

    def __init__(self, page):
        self.page = page
        self.state = self._state()

    def _state(self) -> str:
        return builder_state(self.page)

    def saved(self) -> None:
        self.state = wait_saved(self.page, self.state)

    def row(self, name: str):
        return self.page.locator(f'#builder-state tr.b-row[data-card="{name}"]')

    def quick_add(self, typed: str, name: str) -> None:
        box = self.page.locator("#quick-add")
        box.fill(typed)
        box.press("Enter")
        self.saved()
        expect(self.page.locator(".b-notice")).to_contain_text(f"Added 1 {name}")
        expect(self.row(name).first).to_be_visible()
        # The cursor is back in the box for the next name.
        expect(self.page.locator("#quick-add")).to_be_focused()

    def add_from_search(self, name: str, section: str) -> None:
        self.page.fill("#search-q", name)
        self.page.press("#search-q", "Enter")
        result = self.page.locator(f'tr.b-result[data-card="{name}"]')
        expect(result).to_be_visible()
        # Hovering the name shows the drawn card face, rules text included.
        result.locator("a.b-name").hover()
        face = self.page.locator(".face-popover .card-face")
        expect(face).to_be_visible()
        expect(face).to_contain_text(name)
        self.page.mouse.move(0, 0)
        result.locator(f'[data-section="{section}"] button').first.click()
        self.saved()
        expect(self.row(name).first).to_be_visible()

    def set_count(self, name: str, count: int) -> None:
        box = self.row(name).first.locator("input.b-count")
        box.fill(str(count))
        box.press("Tab")
        self.saved()
        expect(self.row(name).first.locator("input.b-count")).to_have_value(str(count))

    def place(self, name: str, c: int, r: int) -> None:
        self.page.locator(f'[data-placement-unit][data-card="{name}"]').first.click()
        self.page.locator(f'.placement-map .cell[data-c="{c}"][data-r="{r}"]').click()
        self.saved()
        expect(
            self.page.locator(f'.placement-map .cell[data-c="{c}"][data-r="{r}"]')
        ).to_have_attribute("data-occupant", name)


@pytest.fixture
def page(browser, live_server, live_catalogue):
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("response", lambda r: errors.append(r.url) if r.status >= 500 else None)
    pg.server_errors = errors
    # The Content-Security-Policy is on: anything it blocks shows in the console.
    blocked: list[str] = []
    pg.on(
        "console",
        lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None,
    )
    pg.csp_violations = blocked
    yield pg
    context.close()


def typo(name: str) -> str:
    """The name with one letter dropped from its longest word (tigercat -> tigrcat)."""
    words = name.split()
    i = max(range(len(words)), key=lambda k: len(words[k]))
    w = words[i]
    if len(w) >= 6:
        words[i] = w[:3] + w[4:]
    return " ".join(words).lower()


@pytest.mark.parametrize("game", list(FORMATS))
def test_build_share_and_play_every_game(game, browser, page, live_server, tmp_path):
    fmt = FORMATS[game]
    definition = registry.get(game)
    sign_up(page, "player")
    page.goto(f"/build/{game}/{fmt}/new/")
    page.fill("#id_name", f"{definition.name} test deck")
    page.click("form.panel button[type=submit]")
    expect(page.locator("#builder-state")).to_be_visible()
    page_ready(page)
    b = Builder(page)

    entries = sample_entries(game, fmt)
    assert entries, game
    # The first card from the search panel, the second by quick-add with a typo, the rest
    # by quick-add with their names.
    for i, (section, name, count, hex_) in enumerate(entries):
        if i == 0:
            b.add_from_search(name, section)
        elif i == 1:
            b.quick_add(typo(name), name)
        else:
            b.quick_add(name, name)
        if count > 1:
            b.set_count(name, count)
        if hex_ is not None:
            b.place(name, *hex_)
    if page.locator("#new-layout").count():
        page.fill('#match-setup input[name="seed"]', "2024")
        page.click("#new-layout")
        b.saved()
    expect(page.locator("#verdict .verdict")).to_have_text("Legal")
    expect(page.locator("#legality-bar")).to_contain_text("Legal")

    # Seal the version with a note, then share it.
    page.fill('#seal-form input[name="note"]', "first legal list")
    page.click("#seal-form button[type=submit]")
    expect(page.locator(".b-notice")).to_contain_text("saved (first legal list)")
    page.select_option('#builder-meta select[name="visibility"]', "unlisted")
    page.click("#builder-meta button[type=submit]")
    expect(page.locator("#builder-meta .b-saved")).to_be_visible()
    share = page.locator("#share-link").get_attribute("href")
    shots(page, tmp_path, f"{game}-builder")

    # The deck page: the list, the verdict, the note in the history, and the goldfish
    # simulations of the games that have one, ready to start.
    page.click("text=deck page")
    expect(page.locator("#verdict")).to_contain_text("Legal")
    expect(page.locator("#versions")).to_contain_text("first legal list")
    from simulations import kinds

    if [k for k in kinds.for_game(game) if k.needs_deck]:
        panel = page.locator("#simulations-panel")
        expect(panel.locator("form[action$='/start/']").first).to_be_visible()
    shots(page, tmp_path, f"{game}-deck")

    # The share link, signed out, on a phone: a tap on a name shows its face inside the
    # screen, with a link to the card page.
    stranger = browser.new_context(
        viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True
    )
    try:
        other = stranger.new_page()
        other.goto(share)
        other.locator("#deck-list a[data-face-url]").first.tap()
        popover = other.locator(".face-popover")
        expect(popover.locator(".card-face")).to_be_visible()
        expect(popover.get_by_role("link", name="Open card page")).to_be_visible()
        box = popover.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        other.screenshot(path=str(tmp_path / f"{game}-share-preview-390.png"))
        expect(other.locator("#verdict")).to_contain_text("Legal")
        expect(other.locator("#deck-list")).to_contain_text(entries[0][1])
        no_overflow(other, f"{game} share link")
    finally:
        stranger.close()

    # The game's tools and simulations: every play page of the game opens from its game
    # page, and a tool or a goldfish sent as the page offers it shows its result (the new
    # deck among the goldfish's choices; a run on a worker where the goldfish plays none at
    # once); the deck's simulations panel loads.
    page.goto(f"/cards/{game}/")
    tools = [
        a.get_attribute("href")
        for a in page.locator("main a.button").all()
        if (a.get_attribute("href") or "").startswith(("/play/", "/simulations/"))
    ]
    expected = [t.slug for t in definition.tools] + (["goldfish"] if definition.goldfish else [])
    assert [u for u in tools if u.strip("/").split("/")[-1] in expected] == [
        f"/play/{game}/{slug}/" for slug in expected
    ]
    for url in tools:
        page.goto(url)
        page_ready(page)
        expect(page.locator("h1")).to_be_visible()
        form = page.locator("#tool-form, #goldfish-form")
        if form.count():
            if url.endswith("/goldfish/"):
                expect(page.locator("#id_deck")).to_contain_text(f"{definition.name} test deck")
            form.locator("button[type=submit]").click()
            answer = page.locator(
                "#tool-result h2, #goldfish-result h2, #tool-result #run-link, "
                "#goldfish-result #run-link"
            )
            expect(answer.first).to_be_visible()
            expect(page.locator(".errorlist:visible")).to_have_count(0)
        shots(page, tmp_path, f"{game}-tool-{url.strip('/').replace('/', '-')}")
    page.goto(share)
    if page.locator("#simulations-panel").count():
        expect(page.locator("#simulations-panel h2").first).to_be_visible()
    assert not page.server_errors, page.server_errors
    assert not page.csp_violations, page.csp_violations
