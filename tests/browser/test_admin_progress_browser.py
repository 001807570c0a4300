"""An admin's progress page follows the work in place: no reload on a timer (the page had a
meta refresh every 2 seconds, which a reader could not stop), a "Pause updates" that holds
the page as it is, and the finished state shown without the reader doing anything."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from decks.models import RecheckJob
from tests.conftest import wait_for

from .support import sign_in
from .test_page_sweep_browser import axe_source, axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _staff_starts_a_re_check(browser, live_server, django_user_model):
    """Three saved decks, a staff member signed in to the admin who starts a re-check of
    their format from its form (no worker serves its queue yet); the page on its progress."""
    from decks import services
    from validation.packages import sample_list

    owner = django_user_model.objects.create_user("owner", "o@example.com", "a-long-pass-123")
    for n in range(3):
        services.deck_create(
            owner=owner,
            game_slug="redline",
            format="standard",
            name=f"Deck {n}",
            text=sample_list("redline", "standard").text(),
        )
    django_user_model.objects.create_user(
        "staff", "s@example.com", "a-long-pass-789", is_staff=True, is_superuser=True
    )
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1440, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    sign_in(page, "staff", "a-long-pass-789", at="/admin/login/")
    page.goto("/admin/decks/recheckjob/start/")
    page.select_option("select[name=game]", "redline")
    page.fill("[name=format]", "standard")
    page.click("#content form [type=submit]")
    page.wait_for_url("**/progress/")
    page.wait_for_load_state("load")
    return context, page


def test_a_re_check_progress_page_updates_in_place_and_can_be_paused(
    browser, live_server, live_catalogue, django_user_model, dedicated_worker
):
    context, page = _staff_starts_a_re_check(browser, live_server, django_user_model)
    try:
        assert page.locator('meta[http-equiv="refresh"]').count() == 0
        expect(page.locator("#recheck-state")).to_have_text("Waiting for a worker…")
        page.evaluate("() => { window.sameDocument = true; }")
        script, _version = axe_source()
        assert axe_violations(page, script) == []

        pause = page.locator("[data-progress-pause]")
        expect(pause).to_be_visible()
        expect(pause).to_have_text("Pause updates")
        pause.click()
        expect(pause).to_have_attribute("aria-pressed", "true")
        expect(pause).to_have_text("Resume updates")

        dedicated_worker.start(concurrency=1)
        job = int(page.url.rstrip("/").split("/")[-2])  # …/recheckjob/<pk>/progress/
        wait_for(lambda: RecheckJob.objects.get(pk=job).status == RecheckJob.Status.DONE)
        # Paused: a polling period later the page still shows what it showed.
        time.sleep(2.5)
        expect(page.locator("#recheck-state")).to_have_text("Waiting for a worker…")

        pause.click()  # "Resume updates"
        expect(page.locator("#recheck-state")).to_contain_text("Done in ", timeout=20_000)
        expect(page.locator("#recheck-checked")).to_have_text("3")
        expect(page.locator("[data-progress-say]")).to_contain_text("Done")
        expect(pause).to_be_hidden()
        # Updated in place: the same document, never reloaded.
        assert page.evaluate("() => window.sameDocument === true")
        assert axe_violations(page, script) == []
    finally:
        context.close()


def test_a_progress_page_whose_reader_was_signed_out_stops_and_says_so(
    browser, live_server, live_catalogue, django_user_model, dedicated_worker
):
    """Signed out meanwhile, the page's next update brings the sign-in page: the progress
    page stops updating and says to reload it (it does not poll the sign-in page forever)."""
    context, page = _staff_starts_a_re_check(browser, live_server, django_user_model)
    try:
        expect(page.locator("#recheck-state")).to_have_text("Waiting for a worker…")
        context.clear_cookies()
        stopped = page.locator("[data-progress-stopped]")
        expect(stopped).to_have_text("This page stopped updating: reload it to see the progress.")
        expect(page.locator("[data-progress-say]")).to_have_text(stopped.inner_text())
        expect(page.locator("[data-progress-pause]")).to_be_hidden()
    finally:
        context.close()
