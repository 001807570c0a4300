"""Every page of the site and of every game, at 1440 px and at 390 px, in one browser session
per width: no axe-core violation (WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best
practices), no console error, nothing wider than the screen and no word broken across lines
(an element narrower than its longest word).

The pages: home, catalogue (grid and list), card pages, sets, rules, the check page with a
verdict, the builder (with search results), the deck, share (signed out), print and edit
pages, public decks, my decks, the simulation start, run, list and compare pages, each
game's play tools, the account pages and the error page. axe-core comes bundled with the
`axe-playwright-python` package (a dev dependency), so the test needs nothing from the
network.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from validation.registry import registry

from .support import BROKEN_WORDS, LONG_WORD, page_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
PASSWORD = "a-long-pass-123"

AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": [
            "wcag2a",
            "wcag2aa",
            "wcag21a",
            "wcag21aa",
            "wcag22a",
            "wcag22aa",
            "best-practice",
        ],
    },
    # An experimental rule, on: a control's accessible name starts with its visible text.
    "rules": {"label-content-name-mismatch": {"enabled": True}},
    "resultTypes": ["violations"],
}
AXE = Axe()

#: A list with a card the catalogue lacks and a rule broken, so the check page shows its
#: verdict, its unknown line and a rule problem.
BROKEN_LIST_EXTRA = "\n5 No Such Card Anywhere\n"


#: What axe-core leaves to review but the site promises: every id an ARIA attribute or a
#: label names is on the page, the page has a viewport meta tag and one h1, and a page with
#: the site's navigation starts with the skip link to its main content.
PAGE_RULES = """() => {
  const out = [];
  for (const el of document.querySelectorAll("[aria-describedby], [aria-labelledby], [aria-controls], label[for]")) {
    for (const attr of ["aria-describedby", "aria-labelledby", "aria-controls", "for"]) {
      for (const id of (el.getAttribute(attr) || "").split(/\\s+/).filter(Boolean)) {
        if (!document.getElementById(id)) out.push(attr + " names #" + id + ", not on the page");
      }
    }
  }
  if (!document.querySelector("meta[name=viewport][content*='width=device-width']")) out.push("no viewport meta tag");
  const h1 = document.querySelectorAll("h1").length;
  if (h1 !== 1) out.push(h1 + " h1 headings");
  if (document.querySelector("header.site")) {
    const first = document.querySelector("a[href], button, input:not([type=hidden]), select, textarea, [tabindex]");
    const main = document.querySelector("main#main");
    if (!first || !first.matches("a.skip-link[href='#main']") || !main) out.push("no skip link to main first");
  }
  return out;
}"""


def axe_violations(page) -> list[str]:
    results = AXE.run(page, options=AXE_OPTIONS)
    out = []
    for v in results.response["violations"]:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:4]]
        more = len(v["nodes"]) - len(targets)
        out.append(
            f"axe {v['id']} ({v['impact']}): {v['help']} at {targets}"
            + (f" and {more} more" if more > 0 else "")
        )
    return out


class Sweep:
    """One browser context at one width; collects every problem of every page it visits."""

    def __init__(self, browser, base_url: str, size: dict):
        self.size = size
        self.context = browser.new_context(viewport=size, base_url=base_url)
        self.context.set_default_timeout(20_000)
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.page.on(
            "console", lambda m: self.console.append(m.text) if m.type == "error" else None
        )
        self.page.on("pageerror", lambda e: self.console.append(str(e)))
        self.problems: list[str] = []
        self.visited = 0

    def visit(self, url: str, status: int = 200) -> None:
        self.console.clear()
        response = self.page.goto(url)
        assert response is not None
        if response.status != status:
            self.problems.append(f"{url}: answered {response.status}, not {status}")
        self.ready()
        # An error page's own status is logged by the browser as a failed load: expected.
        if status >= 400:
            self.console[:] = [m for m in self.console if f"status of {status}" not in m]
        self.check(url)

    def ready(self) -> None:
        """Loaded, and htmx bound where the page loads it (the print page does not)."""
        self.page.wait_for_load_state("load")
        self.page.wait_for_function(
            "() => window.htmx !== undefined || !document.querySelector('script[src*=htmx]')"
        )

    def check(self, where: str) -> None:
        page, width = self.page, self.size["width"]
        self.visited += 1
        label = f"{where} at {width} px"
        page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            self.problems.append(f"{label}: the page is {scroll} px wide")
        broken = page.evaluate(BROKEN_WORDS, LONG_WORD)
        if broken:
            self.problems.append(f"{label}: broken words {broken}")
        for v in page.evaluate(PAGE_RULES) + axe_violations(page):
            self.problems.append(f"{label}: {v}")
        if self.console:
            self.problems.append(f"{label}: console errors {self.console[:5]}")
        self.console.clear()

    def sign_in(self, username: str) -> None:
        self.page.goto("/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", PASSWORD)
        self.page.click("main form button[type=submit]")
        page_ready(self.page)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def site(live_server, live_catalogue, django_user_model):
    """The demo account with the sample decks published, one finished simulation run of each
    game that has a goldfish (two for the first, for the compare page)."""
    from cardsite.tokens import create_token
    from decks.models import Deck
    from decks.samples import publish_sample_decks
    from simulations import kinds, services
    from simulations.services import simulation_run_chunk

    user = django_user_model.objects.create_user("demo", "demo@example.com", PASSWORD)
    publish_sample_decks(owner=user)
    # The profile page lists the account's API tokens in a table.
    create_token(user, name="sample script", scope="read", expiry_days=30)
    decks, runs = {}, {}
    for game in registry.all():
        deck = Deck.objects.filter(owner=user, game__slug=game.slug).order_by("pk").first()
        decks[game.slug] = deck
        kind = next((k for k in kinds.for_game(game.slug) if k.needs_deck), None)
        if kind is None or deck is None:
            continue
        params = kind.defaults()
        if "games" in params:
            params["games"] = 100
        game_runs = []
        for seed in (1, 2):
            run = services.simulation_start(
                owner=user, kind=kind, params=params, deck_version=deck.current_version, seed=seed
            )
            for i in range(run.n_chunks):
                simulation_run_chunk(run_id=run.pk, chunk_index=i, worker="inline")
            game_runs.append(run.pk)
        runs[game.slug] = game_runs
    return {"user": user, "decks": decks, "runs": runs, "base_url": live_server.url}


def sweep_signed_out(s: Sweep, site) -> None:
    for url in (
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/done/",
    ):
        s.visit(url)
    first = registry.all()[0].slug
    s.visit(site["decks"][first].get_share_url())


def sweep_site(s: Sweep, site) -> None:
    for url in (
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
        "/simulations/compare/",
        "/simulations/odds/?deck_size=60&group=24&k=2&turns=5&opening=7&on_the_play=1",
        "/collection/",
        "/accounts/profile/",
        "/accounts/password_change/",
    ):
        s.visit(url)
    s.visit("/no-such-page/", status=404)


def sweep_game(s: Sweep, site, game: str) -> None:
    from catalogue.models import Card, Expansion

    definition = registry.get(game)
    urls = [
        f"/cards/{game}/",
        f"/cards/{game}/?view=list",
        f"/rules/{game}/",
        f"/decks/public/{game}/",
        f"/build/?game={game}",
    ]
    for kind in definition.kinds:
        card = Card.objects.filter(game__slug=game, kind=kind).order_by("name").first()
        if card is not None:
            urls.append(f"/cards/{game}/card/{card.pk}/")
    card = Card.objects.filter(game__slug=game).order_by("name").first()
    urls.append(f"/cards/{game}/card/{card.pk}/add/")
    code = Expansion.objects.filter(game__slug=game).values_list("code", flat=True).first()
    if code:
        urls.append(f"/cards/{game}/sets/{code}/")
    deck = site["decks"][game]
    if deck is not None:
        urls += [
            f"/decks/{deck.pk}/",
            deck.get_share_url(),
            f"/decks/{deck.pk}/edit/",
            f"/decks/{deck.pk}/settings/",
            f"/decks/{deck.pk}/export/print/",
            f"/simulations/decks/{deck.pk}/",
        ]
    runs = site["runs"].get(game, [])
    if runs:
        urls += [f"/simulations/{runs[0]}/", f"/simulations/compare/?a={runs[0]}&b={runs[1]}"]
    urls += [f"/play/{game}/{tool.slug}/" for tool in definition.tools]
    if definition.goldfish:
        urls.append(f"/play/{game}/goldfish/")
    if definition.campaign is not None:
        urls += [f"/play/{game}/campaigns/", f"/play/{game}/campaigns/new/"]
    for url in urls:
        s.visit(url)

    if deck is not None:
        # The builder, with the search panel's results shown.
        s.visit(f"/decks/{deck.pk}/build/")
        s.page.fill("#search-q", card.name)
        s.page.press("#search-q", "Enter")
        s.page.locator("tr.b-result").first.wait_for()
        s.check(f"/decks/{deck.pk}/build/ (search results)")

        # The check page with a verdict: the deck's list, one line of an unknown card.
        fmt = deck.format
        text = deck.current_version.list_text
        s.visit(f"/check/?f={game}/{fmt}")
        s.page.select_option("#id_game_format", f"{game}/{fmt}")
        s.page.fill("#id_list", (text or "1 " + card.name) + BROKEN_LIST_EXTRA)
        s.page.click("#check-form button[type=submit]")
        s.page.locator("#verdict .verdict").wait_for()
        s.check(f"/check/ {game} (a verdict)")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_every_page_passes_axe_and_fits_the_screen(browser, site, size):
    s = Sweep(browser, site["base_url"], size)
    try:
        sweep_signed_out(s, site)
        s.sign_in("demo")
        sweep_site(s, site)
        for game in registry.all():
            sweep_game(s, site, game.slug)
    finally:
        s.close()
    print(f"{s.visited} pages checked at {size['width']} px")
    assert not s.problems, f"{len(s.problems)} problems:\n" + "\n".join(s.problems)
