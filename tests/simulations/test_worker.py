"""Simulations on real Celery workers: from the deck panel's button to the charts, and a
worker killed in the middle of a run does not lose it."""

from __future__ import annotations

import time

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


@pytest.mark.faults  # the fault suite's "worker killed mid-run" (see tests/faults/)
def test_a_worker_killed_during_a_run_does_not_lose_it(
    user, redline_deck, dedicated_worker, settings, client
):
    """kill -9 a worker in the middle of a run and start another (with beat, as `make run`
    does): with the default leases the run finishes within 90 s, every game counted once,
    and no page is opened to make it happen."""
    settings.SIMULATIONS_CHUNK_GAMES = 100_000  # about a second a chunk
    first = dedicated_worker.start(concurrency=1)
    client.force_login(user)
    r = client.post(
        f"/api/decks/{redline_deck.pk}/simulations/",
        {"kind": "redline-goldfish", "params": {"games": 400_000, "turns": 12}, "seed": 11},
        content_type="application/json",
    )
    assert r.status_code == 202
    client.logout()
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.n_chunks == 4

    def a_chunk_is_being_played():
        run.refresh_from_db()
        return len(run.chunk_started) > run.chunks_done

    wait_for(a_chunk_is_being_played, timeout=60, interval=0.05)
    dedicated_worker.kill(first)  # kill -9 the worker and its pool process
    killed_at = time.monotonic()
    run.refresh_from_db()
    assert run.status == "running" and run.chunks_done < run.n_chunks
    lost = set(run.chunk_started) - set(run.chunk_results)
    assert lost

    dedicated_worker.start(concurrency=1, beat=True)

    def finished():  # read from the database: no page, no API
        run.refresh_from_db()
        return run.status if run.status in ("done", "failed") else None

    status = wait_for(finished, timeout=90, interval=0.5)
    assert time.monotonic() - killed_at <= 90
    assert status == "done", run.error
    assert run.reaps >= 1
    assert run.results["stats"]["games"] == 400_000 and run.chunks_done == 4
    assert sorted(run.chunk_results) == ["0", "1", "2", "3"]
    assert any(set(e["chunks"]) & {int(i) for i in lost} for e in run.timings["reaped"])
