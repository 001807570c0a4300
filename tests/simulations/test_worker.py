"""Simulations on real Celery workers: from the deck panel's button to the charts, and a
worker killed in the middle of a run does not lose it."""

from __future__ import annotations

import pytest

from simulations.models import SimulationRun
from tests.conftest import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_from_the_button_to_the_charts(client, user, redline_deck, celery_worker_process, settings):
    settings.SIMULATIONS_CHUNK_GAMES = 40_000
    client.force_login(user)
    panel = client.get(f"/simulations/decks/{redline_deck.pk}/?v=1", HTTP_HX_REQUEST="true")
    assert 'id="sim-start-redline-goldfish"' in panel.content.decode()
    r = client.post(
        f"/simulations/decks/{redline_deck.pk}/start/",
        {
            "kind": "redline-goldfish",
            "version": "1",
            "games": "160000",
            "turns": "10",
            "mulligan_lo": "2",
            "mulligan_hi": "4",
            "on_the_play": "1",
            "seed": "2024",
        },
    )
    assert r.status_code == 302
    run = SimulationRun.objects.get()
    assert r["Location"] == f"/simulations/{run.pk}/" and run.n_chunks == 4

    def finished():
        status = client.get(f"/api/simulations/{run.pk}/").json()["status"]
        return status if status in ("done", "failed") else None

    assert wait_for(finished, timeout=180, interval=0.5) == "done"
    run.refresh_from_db()
    assert run.results["stats"]["games"] == 160_000 and run.chunks_done == 4
    assert len(run.timings["chunks"]) == 4 and run.timings["workers"]
    html = client.get(f"/simulations/{run.pk}/").content.decode()
    assert html.count("<svg") >= 6
    for chart in ("opening-resources", "win-turn", "win-cumulative", "stuck"):
        assert f'id="chart-run{run.pk}-{chart}"' in html
    assert 'hx-trigger="every 1s"' not in html


def test_a_worker_killed_during_a_run_does_not_lose_it(
    client, user, redline_deck, dedicated_worker, settings
):
    # A chunk takes about a second; a started chunk without a result after 8 s is lost,
    # and so is a queued one when the run made no progress for 15 s.
    settings.SIMULATIONS_CHUNK_GAMES = 100_000
    settings.SIMULATIONS_CHUNK_LOST_SECONDS = 8
    settings.SIMULATIONS_QUEUE_LOST_SECONDS = 15
    settings.SIMULATIONS_MAX_REAPS = 10
    first = dedicated_worker.start(concurrency=1)
    client.force_login(user)
    r = client.post(
        f"/api/decks/{redline_deck.pk}/simulations/",
        {"kind": "redline-goldfish", "params": {"games": 400_000, "turns": 12}, "seed": 11},
        content_type="application/json",
    )
    assert r.status_code == 202
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.n_chunks == 4

    def a_chunk_is_being_played():
        run.refresh_from_db()
        return len(run.chunk_started) > run.chunks_done

    wait_for(a_chunk_is_being_played, timeout=60, interval=0.05)
    dedicated_worker.kill(first)  # kill -9 the worker and its pool process
    run.refresh_from_db()
    assert run.status == "running" and run.chunks_done < run.n_chunks
    lost = set(run.chunk_started) - set(run.chunk_results)
    assert lost

    dedicated_worker.start(concurrency=1)

    def finished():  # the API's read runs the cheap lost-chunk check
        status = client.get(f"/api/simulations/{run.pk}/").json()["status"]
        return status if status in ("done", "failed") else None

    status = wait_for(finished, timeout=180, interval=0.5)
    run.refresh_from_db()
    assert status == "done", run.error
    assert run.reaps >= 1
    assert run.results["stats"]["games"] == 400_000 and run.chunks_done == 4
    assert any(set(e["chunks"]) & {int(i) for i in lost} for e in run.timings["reaped"])
