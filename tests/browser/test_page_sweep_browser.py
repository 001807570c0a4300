"""Every page of the site and of every game, at 1440 px and at 390 px, one case per game and
width (and the site's own pages, signed out and signed in, as cases of their own, so that
pytest-xdist spreads them): no axe-core violation (WCAG 2.0, 2.1 and 2.2 at levels A and AA,
and axe's best practices), no console error, nothing wider than the screen and no word broken
across lines (an element narrower than its longest word).

The pages: home, catalogue (grid and list), card pages, sets, rules, the check page with a
verdict, the builder (with search results), the deck, share (signed out), print and edit
pages, public decks, my decks, the simulation start, run, list and compare pages, each
game's play tools and campaign pages (a campaign with players, a game and a spend), the
account pages, and every error page: 404 (a mistyped address, a replaced and a withdrawn
share link), and 400, 403 (forbidden and a failed CSRF check), 429, 500 and the 503 pages
(the database down, a cancelled statement, the site unavailable). The live server cannot be
made to fail on purpose, so those are answered by the site's own handlers through Django's
test client (a query failing, a throttle spent) and handed to the browser at their address
on the live server.

axe-core is the npm package pinned in package.json and package-lock.json (`make install-dev`
runs `npm ci`); the test injects node_modules/axe-core/axe.min.js into each page and fails
when it is missing or is another version.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogue.models import Expansion
from collection.models import OwnedProduct
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

ROOT = Path(__file__).resolve().parents[2]
AXE_SCRIPT = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_source() -> tuple[str, str]:
    """axe-core's script and the version package.json pins; the test fails without it."""
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]["axe-core"]
    if not AXE_SCRIPT.is_file():
        pytest.fail(
            f"axe-core is not installed ({AXE_SCRIPT.relative_to(ROOT)} is missing): "
            "run `make install-dev`, which runs `npm ci` from package-lock.json"
        )
    return AXE_SCRIPT.read_text(encoding="utf-8"), pinned


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


def axe_violations(page, script: str) -> list[str]:
    # Injected through the DevTools protocol, so the site's Content-Security-Policy allows it.
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(script)
    results = page.evaluate("(options) => axe.run(document, options)", AXE_OPTIONS)
    out = []
    for v in results["violations"]:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:4]]
        more = len(v["nodes"]) - len(targets)
        out.append(
            f"axe {v['id']} ({v['impact']}): {v['help']} at {targets}"
            + (f" and {more} more" if more > 0 else "")
        )
    return out


class Sweep:
    """One browser context at one width; collects every problem of every page it visits."""

    def __init__(self, browser, base_url: str, size: dict, axe_script: str):
        self.size = size
        self.base_url = base_url
        self.axe_script = axe_script
        # page.route does not see what a service worker fetches, and some pages are answered
        # by the test (visit_answer): the site's service worker is left out here.
        self.context = browser.new_context(
            viewport=size, base_url=base_url, service_workers="block"
        )
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

    def visit_answer(self, url: str, response) -> None:
        """Visit `url` on the live server, answered with `response` (status, headers and body
        of a Django response) instead of the server's: the page's styles and scripts still
        come from the live server."""
        full = self.base_url + url
        headers = {k: v for k, v in response.items()}
        status, body = response.status_code, response.content

        def fulfill(route):
            route.fulfill(status=status, headers=headers, body=body)

        def matches(address: str) -> bool:
            return address == full

        self.page.route(matches, fulfill)
        try:
            self.visit(url, status=status)
        finally:
            self.page.unroute(matches, fulfill)

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
        for v in page.evaluate(PAGE_RULES) + axe_violations(page, self.axe_script):
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
    game that has a goldfish (two for the first, for the compare page), a campaign of each
    game with campaign rules, two old share links, and the error answers."""
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
    # A collection: every sample expansion once, and the decks beyond each game's first
    # built, so the collection page's checklist, the deck pages' "Your cards" (with cards
    # short and the built decks holding them) and the card pages' figures are swept too.
    OwnedProduct.objects.bulk_create(
        [OwnedProduct(owner=user, expansion=e) for e in Expansion.objects.all()]
    )
    Deck.objects.filter(owner=user).exclude(
        pk__in=[d.pk for d in decks.values() if d is not None]
    ).update(built=True)
    links = old_share_links(user, decks[registry.all()[0].slug])
    oauth = oauth_pages(user, django_user_model)
    return {
        "oauth": oauth,
        "user": user,
        "decks": decks,
        "runs": runs,
        "campaigns": sample_campaigns(user),
        "links": links,
        "answers": error_answers(links["private_deck"]),
        "base_url": live_server.url,
    }


def old_share_links(user, deck) -> dict:
    """Two copies of `deck` shared by link: one whose link the owner replaced, one no longer
    shared (private). The old links' addresses, and the private deck."""
    from decks import services

    text = deck.current_version.list_text
    out = {}
    for name in ("replaced", "withdrawn"):
        copy = services.deck_create(
            owner=user,
            game_slug=deck.game.slug,
            format=deck.format,
            name=f"{deck.name} ({name})",
            visibility="unlisted",
            text=text,
        )
        out[name] = copy.get_share_url()
        if name == "replaced":
            services.deck_new_share_link(deck=copy)
        else:
            services.deck_update(deck=copy, visibility="private")
            out["private_deck"] = copy
    return out


def sample_campaigns(user) -> dict[str, int]:
    """For each game with campaign rules, a campaign of two players keeping the account's
    sample list of the campaign format, with one game recorded and one award bought."""
    from decks.models import Deck
    from play import campaign_services as services

    campaigns = {}
    for game in registry.all():
        rules = game.campaign
        if rules is None:
            continue
        deck = Deck.objects.filter(owner=user, game__slug=game.slug, format=rules.format).first()
        assert deck is not None, f"no sample {game.slug}/{rules.format} list for a campaign"
        campaign = services.campaign_create(owner=user, game=game.slug, name="Sample campaign")
        _, total = services.campaign_list_problems(campaign=campaign, deck=deck)
        if total and total != campaign.points_total:
            campaign.points_total = total
            campaign.save(update_fields=["points_total"])
        a = services.campaign_player_add(campaign=campaign, name="Ann", deck=deck)
        b = services.campaign_player_add(campaign=campaign, name="Ben", deck=deck)
        services.campaign_game_record(campaign=campaign, results=[(a, "win"), (b, "loss")])
        a.refresh_from_db()
        if a.campaign_points >= rules.award_cost:
            services.campaign_spend_award(player=a)
        campaigns[game.slug] = campaign.pk
    return campaigns


def _fail_every_query(execute, sql, params, many, context):
    raise RuntimeError("a fault that is not the database being down")


def _refuse_every_query(execute, sql, params, many, context):
    from django.db import OperationalError

    raise OperationalError("server closed the connection unexpectedly")


def _cancel_first_query():
    """A query wrapper: the first statement is cancelled as by statement_timeout."""
    from django.db import OperationalError
    from psycopg.errors import QueryCanceled

    calls = []

    def wrapper(execute, sql, params, many, context):
        calls.append(sql)
        if len(calls) == 1:
            try:
                raise QueryCanceled("canceling statement due to statement timeout")
            except QueryCanceled as exc:
                raise OperationalError(str(exc)) from exc
        return execute(sql, params, many, context)

    return wrapper


def error_answers(private_deck) -> list[tuple[str, object]]:
    """The error pages the live server cannot be made to answer, each as the site's handlers
    answer it through Django's test client: (address, response)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.http import HttpResponse
    from django.template.loader import render_to_string
    from django.test import Client
    from rest_framework.throttling import ScopedRateThrottle

    answers = []

    def add(url, response, status):
        assert response.status_code == status, f"{url} answered {response.status_code}"
        answers.append((url, response))

    add("/", Client().get("/", HTTP_HOST="bad host"), 400)
    staff = get_user_model().objects.create_user("staff", password=PASSWORD, is_staff=True)
    client = Client()
    client.force_login(staff)
    # Staff read every deck but may not run another player's private one.
    url = f"/simulations/decks/{private_deck.pk}/start/"
    add(url, client.post(url), 403)
    client = Client(enforce_csrf_checks=True)
    add("/accounts/login/", client.post("/accounts/login/", {"username": "x"}), 403)
    # The card search's limit, spent by a client of its own address.
    rates = ScopedRateThrottle.THROTTLE_RATES
    ScopedRateThrottle.THROTTLE_RATES = dict(rates, search="1/hour")
    try:
        client = Client(REMOTE_ADDR="192.0.2.7")
        url = f"/cards/{private_deck.game.slug}/"
        client.get(url)
        add(url, client.get(url), 429)
    finally:
        ScopedRateThrottle.THROTTLE_RATES = rates
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(_fail_every_query):
        add("/", client.get("/"), 500)
    with connection.execute_wrapper(_refuse_every_query):
        add("/decks/public/", client.get("/decks/public/"), 503)
    with connection.execute_wrapper(_cancel_first_query()):
        add("/cards/", client.get("/cards/"), 503)
    # 503.html: a template no view of the site answers (as tests/site/test_error_pages.py
    # renders it).
    add("/", HttpResponse(render_to_string("503.html", {}), status=503), 503)
    return answers


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
    # Old share links: "the owner replaced this link", "the owner stopped sharing".
    s.visit(site["links"]["replaced"], status=404)
    s.visit(site["links"]["withdrawn"], status=404)


def oauth_pages(user, django_user_model) -> list[str]:
    """OAuth's pages for `user`: their app, the apps they allowed (one, by another author),
    and the consent screen of another app asking for every scope."""
    from urllib.parse import urlencode

    from oauth2_provider.models import Application

    from cardsite import scopes
    from cardsite.models import AllowedApp

    author = django_user_model.objects.create_user("toolmaker", "t@example.com", PASSWORD)
    kinds = {
        "client_type": Application.CLIENT_PUBLIC,
        "authorization_grant_type": "authorization-code",
    }
    own = Application.objects.create(
        user=user, name="My deck tracker", redirect_uris="https://tracker.example/cb", **kinds
    )
    allowed = Application.objects.create(
        user=author, name="Tournament Tool", redirect_uris="http://127.0.0.1/cb", **kinds
    )
    AllowedApp.objects.create(user=user, application=allowed, scope=" ".join(scopes.READ_ONLY))
    asking = Application.objects.create(
        user=author, name="Table Script", redirect_uris="http://127.0.0.1/cb", **kinds
    )
    query = urlencode(
        {
            "response_type": "code",
            "client_id": asking.client_id,
            "redirect_uri": "http://127.0.0.1:8123/cb",
            "scope": " ".join(scopes.ALL),
            "state": "sweep",
            "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "code_challenge_method": "S256",
        }
    )
    return [
        "/oauth/apps/",
        f"/oauth/apps/{own.pk}/",
        "/oauth/allowed/",
        f"/oauth/authorize/?{query}",
    ]


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
    for url in site["oauth"]:
        s.visit(url)
    s.visit("/no-such-page/", status=404)
    for url, response in site["answers"]:
        s.visit_answer(url, response)


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
        campaign = f"/play/{game}/campaigns/{site['campaigns'][game]}/"
        urls += [campaign] + [campaign + p for p in ("games/new/", "spend/", "standings/")]
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


#: The sweep's cases: the site's own pages (signed out, then signed in), and each game's.
PAGES = ["site", *registry.slugs()]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
@pytest.mark.parametrize("pages", PAGES)
def test_every_page_passes_axe_and_fits_the_screen(browser, site, pages, size):
    """One case per part of the site and width, so that the cases run side by side; each
    has the whole site's data and its own browser context."""
    script, pinned = axe_source()
    s = Sweep(browser, site["base_url"], size, script)
    try:
        s.page.goto("/")
        s.page.evaluate(script)
        version = s.page.evaluate("() => axe.version")
        print(f"axe-core {version}")
        assert version == pinned, f"axe-core {version} loaded, package.json pins {pinned}"
        if pages == "site":
            sweep_signed_out(s, site)
        s.sign_in("demo")
        if pages == "site":
            sweep_site(s, site)
        else:
            sweep_game(s, site, pages)
    finally:
        s.close()
    print(f"{s.visited} pages of {pages} checked at {size['width']} px")
    assert s.visited > 0
    assert not s.problems, f"{len(s.problems)} problems:\n" + "\n".join(s.problems)


def test_the_unavailable_page_tries_again_until_the_reader_stops_it(browser, live_server):
    """The 503 page of a database outage reloads itself after its count down (no meta
    refresh, which a reader could not turn off), and "Stop trying" stops it."""
    from django.test import RequestFactory

    from cardsite.outages import database_unavailable_response

    response = database_unavailable_response(RequestFactory().get("/decks/public/"))
    assert response.status_code == 503 and b'http-equiv="refresh"' not in response.content
    # page.route does not see what a service worker fetches: none here.
    context = browser.new_context(base_url=live_server.url, service_workers="block")
    page = context.new_page()
    loads = []

    def fulfill(route):
        loads.append(route.request.url)
        route.fulfill(status=503, headers=dict(response.items()), body=response.content)

    page.route(live_server.url + "/decks/public/", fulfill)
    try:
        page.goto("/decks/public/")
        assert page.get_by_text("This page will try again by itself in").is_visible()
        page.wait_for_event("load", timeout=15_000)  # the reload, once counted down
        assert len(loads) == 2
        page.get_by_role("button", name="Stop trying").click()
        assert page.get_by_text("This page will not try again by itself.").is_visible()
        assert page.evaluate("document.activeElement.textContent") == "Try again now"
        page.wait_for_timeout(7_000)  # longer than the count down
        assert len(loads) == 2
    finally:
        context.close()
