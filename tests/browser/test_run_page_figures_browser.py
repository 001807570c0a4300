"""A goldfish run's page and a comparison's page in a real browser, at 1440 and 390 px: each
statistic is one figure (the mean winning turn shown once), the comparison's heading says
the games it played, and both pages fit the screen and pass axe-core."""

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
    from decks import services as decks
    from simulations import compare, services
    from tests.simulations.test_compare import play_all

    user = django_user_model.objects.create_user("runner", "runner@example.com", PASSWORD)
    text = sample_list("redline", "standard").text()
    deck = decks.deck_create(
        owner=user, game_slug="redline", format="standard", name="Sample", text=text
    )
    starved = text.replace("20 Supply Drop", "10 Supply Drop").replace(
        "3 Close Call", "13 Close Call"
    )
    decks.deck_save_version(deck=deck, author=user, text=starved, based_on=1)
    run = services.simulation_start(
        owner=user,
        kind="redline-goldfish",
        params={"games": 2_000, "turns": 12},
        deck_version=deck.versions.get(number=1),
        seed=1,
    )
    for i in range(run.n_chunks):
        services.simulation_run_chunk(run_id=run.pk, chunk_index=i, worker="inline")
    a, b = (deck.versions.get(number=n) for n in (1, 2))
    a.deck = b.deck = deck
    comparison = play_all(
        compare.compare_start(owner=user, a=a, b=b, params={"games": 200_000, "turns": 10}, seed=7)
    )
    context = browser.new_context(viewport=request.param, base_url=live_server.url)
    context.set_default_timeout(15_000)
    pg = context.new_page()
    pg.width = request.param["width"]
    pg.run, pg.comparison = run, comparison
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    sign_in(pg, "runner", PASSWORD)
    yield pg
    context.close()


def _fits_and_passes_axe(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(BROKEN_WORDS, LONG_WORD) == []
    script, _pinned = axe_source()
    assert axe_violations(page, script) == []


def test_each_statistic_is_one_figure_and_a_comparison_says_the_games_it_played(page):
    page.goto(f"/simulations/{page.run.pk}/")
    page_ready(page)
    rows = page.locator("#metrics th, #key-figures th")
    labels = [t.split("\n")[0].strip() for t in rows.all_inner_texts()]
    assert labels.count("Mean winning turn") == 1, labels
    expect(page.locator("#metric-win_turn")).to_contain_text("a game not won counts as the turn")
    _fits_and_passes_axe(page)
    page.goto(f"/simulations/{page.comparison.pk}/")
    page_ready(page)
    played = page.comparison.results["games"]
    assert played < 200_000
    expect(page.locator("#run-heading")).to_contain_text(
        f"{played:,} games played (at most 200,000)"
    )
    _fits_and_passes_axe(page)
    assert page.console_errors == []
