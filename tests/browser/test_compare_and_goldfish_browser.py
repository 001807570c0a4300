"""Comparing and goldfishing in a real browser, at 1440 and 390 px: a deck of one version
opens its compare form on a pair it accepts, every field's label above its box; the page
comparing two runs offers only runs that compare and says why two others do not; the Play
goldfish page says where the games play and follows the run's status to "Done" (on a real
Celery worker)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from validation.packages import sample_list

from .support import BROKEN_WORDS, LONG_WORD, page_ready, sign_in
from .test_page_sweep_browser import DESKTOP, PHONE, axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-123"


@pytest.fixture(params=[DESKTOP, PHONE], ids=["1440", "390"])
def page(request, browser, live_server, live_catalogue, django_user_model):
    user = django_user_model.objects.create_user("walker", "walker@example.com", PASSWORD)
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.width = request.param["width"]
    pg.user = user
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    sign_in(pg, "walker", PASSWORD)
    yield pg
    context.close()


def _deck(user, name: str, fmt: str = "standard"):
    from decks import services

    return services.deck_create(
        owner=user,
        game_slug="redline",
        format=fmt,
        name=name,
        text=sample_list("redline", fmt).text(),
    )


def _fits_and_passes_axe(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(BROKEN_WORDS, LONG_WORD) == []
    script, _pinned = axe_source()
    assert axe_violations(page, script) == []


#: Where the words of a box's label are drawn, and the box: {"text": [x, top, bottom], ...}.
LABEL_AND_BOX = """(sel) => {
  const box = document.querySelector(sel);
  const label = box.labels[0];
  const text = [...label.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
  const range = document.createRange();
  range.selectNodeContents(text);
  const a = range.getBoundingClientRect(), b = box.getBoundingClientRect();
  return {text: [a.x, a.top, a.bottom], box: [b.x, b.top, b.bottom]};
}"""


def _label_above_its_box(page, box: str) -> None:
    """The words of the field's label sit right above its box, left-aligned with it."""
    drawn = page.evaluate(LABEL_AND_BOX, box)
    (tx, _ttop, tbottom), (bx, btop, _bbottom) = drawn["text"], drawn["box"]
    assert abs(tx - bx) <= 2 and tbottom <= btop + 1 and btop - tbottom < 12, (box, drawn)


def test_a_deck_of_one_version_opens_against_the_users_latest_deck_of_its_format(page):
    from simulations.models import SimulationRun

    _deck(page.user, "Older list")
    latest = _deck(page.user, "Latest list")
    _deck(page.user, "Another format", fmt="scramble")
    single = _deck(page.user, "Only one version")
    page.goto(f"/decks/{single.pk}/")
    page_ready(page)
    page.click("#compare-with")
    page_ready(page)
    assert page.input_value("#compare-a") == "1"
    assert page.input_value("#compare-b") == f"d:{latest.pk}"
    _fits_and_passes_axe(page)
    page.fill("#compare-games", "2000")
    page.click("#compare-form button[type=submit]")
    page_ready(page)
    run = SimulationRun.objects.get()
    assert page.url.endswith(f"/simulations/{run.pk}/")
    assert run.label == "Only one version v1 vs Latest list v1"
    assert page.console_errors == []


def test_every_field_of_the_compare_form_has_its_label_right_above_its_box(page):
    """No label ("Seed") is left at a line's end with its box on the next line."""
    from decks import services

    deck = _deck(page.user, "Two versions")
    text = sample_list("redline", "standard").text()
    services.deck_save_version(
        deck=deck,
        author=page.user,
        text=text.replace("4 Tigercat", "3 Tigercat").replace("20 Supply Drop", "21 Supply Drop"),
        based_on=1,
    )
    page.goto(f"/simulations/decks/{deck.pk}/compare/")
    assert page.input_value("#compare-a") == "1" and page.input_value("#compare-b") == "v:2"
    for name in ("seed", "a", "b_ref", "games", "turns"):
        _label_above_its_box(page, f"#compare-form [name={name}]")
    _fits_and_passes_axe(page)


def test_a_deck_of_one_version_and_no_deck_of_its_format_asks_to_choose_b(page, django_user_model):
    from decks.models import Deck

    single = _deck(page.user, "Only one version")
    theirs = _deck(django_user_model.objects.create_user("other", "o@example.com", PASSWORD), "P")
    Deck.objects.filter(pk=theirs.pk).update(visibility="public")
    page.goto(f"/decks/{single.pk}/")
    page_ready(page)
    page.click("#compare-with")
    page_ready(page)
    expect(page.locator("#compare-choose-b")).to_contain_text("choose B")
    assert page.input_value("#compare-b") == ""
    _fits_and_passes_axe(page)
    # the browser asks for B: nothing is sent, no "version against itself"
    page.click("#compare-form button[type=submit]")
    assert page.evaluate("document.querySelector('#compare-b').validity.valueMissing")
    assert page.locator("p.violation").count() == 0


def _goldfish_run(deck, seed: int):
    from simulations import services
    from tests.simulations.conftest import play_inline

    run = services.simulation_start(
        owner=deck.owner,
        kind="redline-goldfish",
        params={"games": 2_000, "turns": 8},
        deck_version=deck.current_version,
        seed=seed,
    )
    play_inline(run)
    return run


def _comparison(deck, twin):
    from simulations import compare
    from tests.simulations.test_compare import play_all

    a, b = deck.current_version, twin.current_version
    a.deck, b.deck = deck, twin
    return play_all(
        compare.compare_start(
            owner=deck.owner, a=a, b=b, params={"games": 10_000, "turns": 8}, seed=1
        )
    )


def test_comparing_two_runs_offers_only_runs_that_compare(page):
    deck, twin = _deck(page.user, "Mine"), _deck(page.user, "Twin")
    first, second = _comparison(deck, twin), _comparison(twin, deck)
    page.goto(f"/simulations/compare/?a={first.pk}&b={second.pk}")
    expect(page.locator("p.error[role=alert]")).to_contain_text(
        f"Run #{first.pk} is a comparison: its page shows its own results."
    )
    expect(page.locator("#compare-nothing")).to_be_visible()
    assert page.locator("#compare-figures").count() == 0
    _fits_and_passes_axe(page)
    older, newer = _goldfish_run(deck, 1), _goldfish_run(twin, 2)
    page.goto("/simulations/compare/")
    assert page.input_value("#compare-runs-1-a") == str(newer.pk)
    assert page.input_value("#compare-runs-1-b") == str(older.pk)
    assert page.locator(f"#compare-runs-1-a option[value='{first.pk}']").count() == 0
    _fits_and_passes_axe(page)
    page.click("#compare-runs-1 button[type=submit]")
    page_ready(page)
    assert page.locator("#compare-figures tbody tr").count() > 0
    assert page.locator("#compare-metrics tbody tr").count() > 0
    _fits_and_passes_axe(page)
    # the refusal answered 400; nothing else went wrong
    assert [m for m in page.console_errors if "status of 400" not in m] == []


@pytest.mark.worker
def test_the_play_goldfish_page_follows_its_run_on_a_worker(page, celery_worker_process):
    from simulations.models import SimulationRun

    deck = _deck(page.user, "Goldfished")
    page.goto("/play/redline/goldfish/")
    page_ready(page)
    page.select_option("#id_deck", str(deck.pk))
    page.fill("[name=games]", "3000")
    page.click("#goldfish-form button[type=submit]")
    notice = page.locator("#goldfish-result p.notice")
    expect(notice).to_contain_text("The games play on a worker: simulation run #")
    assert "More than 0" not in notice.inner_text()
    run = SimulationRun.objects.get()
    # the status follows the run without a reload, and stops asking once it is done
    expect(page.locator(f"#run-status-{run.pk}")).to_have_text("Done", timeout=120_000)
    assert page.locator(f"#run-status-{run.pk}[hx-trigger]").count() == 0
    _fits_and_passes_axe(page)
    assert page.console_errors == []
