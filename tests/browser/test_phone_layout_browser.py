"""Every page of every game at 1440 px and 390 px: no word is ever broken across lines
(each word of the page's text is measured with a Range: a word drawn on two lines is
broken), nothing is wider than the screen, and the phone layout folds what it should (the
navigation behind a Menu button, the catalogue's filters), with the card grid in two
columns.

Words longer than LONG_WORD characters (addresses, share tokens) may break: nothing else
fits a phone."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from validation.registry import registry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1440, "height": 1000}
PHONE = {"width": 390, "height": 844}
LONG_WORD = 24

BROKEN_WORDS = """(longest) => {
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    if (!el || el.closest("svg, script, style, noscript, textarea, select, option, [hidden]")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || !el.getClientRects().length) continue;
    // Chunks between spaces; one longer than `longest` (an address) may break anywhere.
    const chunks = /\\S+/g;
    let c;
    while ((c = chunks.exec(node.textContent))) {
     if (c[0].length > longest) continue;
     const re = /[^\\-\\u2013\\u2014\\/,·]+/g;
     let m;
     while ((m = re.exec(c[0]))) {
      const word = m[0];
      if (word.length < 2) continue;
      const range = document.createRange();
      range.setStart(node, c.index + m.index);
      range.setEnd(node, c.index + m.index + word.length);
      const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (tops.size > 1) {
        bad.push(word + " in <" + el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
          + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "") + ">");
      }
     }
    }
  }
  return bad.slice(0, 15);
}"""


def check_page(page, url: str, problems: list[str]) -> None:
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        response = page.goto(url)
        assert response is not None and response.status < 500, f"{url}: {response.status}"
        page.wait_for_load_state("load")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > size["width"]:
            problems.append(f"{url} at {size['width']} px: the page is {width} px wide")
        broken = page.evaluate(BROKEN_WORDS, LONG_WORD)
        if broken:
            problems.append(f"{url} at {size['width']} px: broken words {broken}")


@pytest.fixture
def signed_in_page(browser, live_server, live_catalogue, django_user_model):
    user = django_user_model.objects.create_user("demo", "demo@example.com", "a-long-pass-123")
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", "demo")
    page.fill("#id_password", "a-long-pass-123")
    page.click("main form button[type=submit]")
    page.wait_for_load_state("load")
    page.user = user
    yield page
    context.close()


def site_pages() -> list[str]:
    return [
        "/",
        "/cards/",
        "/cards/help/",
        "/decks/mine/",
        "/decks/public/",
        "/build/",
        "/build/new/",
        "/decks/new/",
        "/decks/import/",
        "/check/",
        "/play/",
        "/simulations/",
        "/collection/",
        "/accounts/profile/",
        "/no-such-page/",
        "/simulations/odds/?deck_size=60&group=24&k=2&turns=5&opening=7&on_the_play=1",
    ]


def game_pages(game: str, user) -> list[str]:
    from catalogue.models import Card, Expansion
    from decks.models import Deck

    definition = registry.get(game)
    urls = [
        f"/cards/{game}/",
        f"/cards/{game}/?view=list",
        f"/decks/public/{game}/",
        f"/build/?game={game}",
    ]
    for kind in definition.kinds:
        card = Card.objects.filter(game__slug=game, kind=kind).order_by("name").first()
        if card is not None:
            urls.append(f"/cards/{game}/card/{card.pk}/")
    card = Card.objects.filter(game__slug=game).order_by("name").first()
    urls.append(f"/cards/{game}/card/{card.pk}/add/")
    for code in Expansion.objects.filter(game__slug=game).values_list("code", flat=True):
        urls.append(f"/cards/{game}/sets/{code}/")
    for deck in Deck.objects.filter(owner=user, game__slug=game):
        urls += [
            f"/decks/{deck.pk}/",
            deck.get_share_url(),
            f"/decks/{deck.pk}/build/",
            f"/decks/{deck.pk}/edit/",
            f"/decks/{deck.pk}/export/print/",
        ]
    urls += [f"/play/{game}/{tool.slug}/" for tool in definition.tools]
    if definition.goldfish:
        urls.append(f"/play/{game}/goldfish/")
    return urls


def test_the_site_pages_break_no_word_and_fit_a_phone(signed_in_page):
    problems: list[str] = []
    for url in site_pages():
        check_page(signed_in_page, url, problems)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", [g.slug for g in registry.all()])
def test_every_page_of_a_game_breaks_no_word_and_fits_a_phone(signed_in_page, game):
    problems: list[str] = []
    for url in game_pages(game, signed_in_page.user):
        check_page(signed_in_page, url, problems)
    assert not problems, "\n".join(problems)


def test_a_phone_folds_the_navigation_and_filters_and_shows_two_card_columns(signed_in_page):
    page = signed_in_page
    page.set_viewport_size(PHONE)
    game = registry.all()[0].slug
    page.goto(f"/cards/{game}/")
    page.wait_for_load_state("load")
    links = page.locator("#site-links")
    toggle = page.locator("header.site .menu-toggle")
    assert toggle.is_visible() and not links.is_visible()
    header = page.locator("header.site").bounding_box()
    assert header["height"] < 60, header  # one line
    toggle.click()
    assert links.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    # The filters: the search box shows, the rest is folded behind "Filters".
    assert page.locator("#filters input[name=q]").is_visible()
    assert not page.locator("#filters select[name=kind]").is_visible()
    page.locator("#filters summary").click()
    assert page.locator("#filters select[name=kind]").is_visible()
    # Two columns of card faces.
    faces = page.locator("#results .grid .face")
    first, second = faces.nth(0).bounding_box(), faces.nth(1).bounding_box()
    assert abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"] + first["width"] - 1
    # At desktop: every link in one row, no Menu button, the filters open.
    page.set_viewport_size(DESKTOP)
    page.goto(f"/cards/{game}/")
    page.wait_for_load_state("load")
    assert not page.locator("header.site .menu-toggle").is_visible()
    assert page.locator("#site-links").is_visible()
    assert page.locator("#filters select[name=kind]").is_visible()


def test_rule_codes_are_not_in_the_visible_message_text(signed_in_page):
    from decks.models import Deck

    deck = Deck.objects.filter(owner=signed_in_page.user).first()
    from decks import services

    services.deck_save_version(
        deck=deck,
        author=signed_in_page.user,
        text="",
        based_on=deck.current_version,
    )
    page = signed_in_page
    page.goto(f"/decks/{deck.pk}/")
    violations = page.locator("#verdict .violation")
    assert violations.count()
    for i in range(violations.count()):
        item = violations.nth(i)
        code = item.get_attribute("data-code")
        assert code and code not in item.inner_text()
