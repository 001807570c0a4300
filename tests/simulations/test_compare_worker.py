"""Paired comparisons on real Celery workers: the rounds are ordinary chunks, so a worker
killed in the middle of a round does not lose the comparison; two identical lists stop after
the first round, equivalent within the margin."""

from __future__ import annotations

import pytest

from simulations.models import SimulationRun
from tests.conftest import wait_for
from tests.simulations.conftest import copy_of, sample_list

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _one_supply_short(deck):
    """The deck's list with one resource fewer (59 cards): a difference the paired games need
    several rounds to settle."""
    from decks.services import deck_create

    text = sample_list("redline", "standard").replace("20 Supply Drop", "19 Supply Drop")
    return deck_create(
        owner=deck.owner, game_slug="redline", format="standard", name="One short", text=text
    )


def _finished(run):
    def check():
        run.refresh_from_db()
        return run.status if run.status in ("done", "failed") else None

    return check


def test_a_comparison_plays_its_rounds_on_a_worker(
    client, user, redline_deck, celery_worker_process, settings
):
    settings.SIMULATIONS_CHUNK_GAMES = 20_000
    client.force_login(user)
    r = client.post(
        "/api/simulations/compare/",
        {
            "a": {"deck": redline_deck.pk},
            "b": {"deck": _one_supply_short(redline_deck).pk},
            "params": {"games": 40_000, "turns": 8},
            "seed": 5,
        },
        content_type="application/json",
    )
    assert r.status_code == 202
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert wait_for(_finished(run), timeout=180, interval=0.5) == "done", run.error
    body = client.get(f"/api/simulations/{run.pk}/").json()
    assert body["results"]["games"] == 40_000 and len(body["results"]["rounds"]) == 3
    won = next(d for d in body["results"]["differences"] if d["metric"] == "won_by_8")
    assert not won["distinguishable"]
    assert run.chunks_done == run.n_chunks == 3  # 10k, 10k, then 20k: one chunk a round


def test_identical_lists_stop_on_a_worker_after_the_first_round(
    client, user, redline_deck, celery_worker_process
):
    client.force_login(user)
    twin = copy_of(redline_deck)
    r = client.post(
        "/api/simulations/compare/",
        {
            "a": {"deck": redline_deck.pk},
            "b": {"deck": twin.pk},
            "params": {"games": 200_000, "turns": 8},
            "seed": 5,
        },
        content_type="application/json",
    )
    assert r.status_code == 202
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert wait_for(_finished(run), timeout=180, interval=0.5) == "done", run.error
    results = client.get(f"/api/simulations/{run.pk}/").json()["results"]
    assert results["games"] == 10_000 and len(results["rounds"]) == 1
    assert results["stopped"] == "interval inside the equivalence margin"
    assert results["verdict"].startswith(
        "Won by turn 8: not distinguishable after 10,000 games, and equivalent within ±1.0 points"
    )
    page = client.get(f"/simulations/{run.pk}/").content.decode()
    assert "10,000 games played (at most 200,000)" in page


@pytest.mark.faults
def test_a_worker_killed_mid_round_does_not_lose_the_comparison(
    user, redline_deck, dedicated_worker, settings, client
):
    """kill -9 the worker while a chunk of a later round is played, start another with beat:
    the comparison finishes, every planned game counted once."""
    settings.SIMULATIONS_CHUNK_GAMES = 40_000
    first = dedicated_worker.start(concurrency=1)
    client.force_login(user)
    r = client.post(
        "/api/simulations/compare/",
        {
            "a": {"deck": redline_deck.pk},
            "b": {"deck": _one_supply_short(redline_deck).pk},
            "params": {"games": 160_000, "turns": 12},
            "metric": "win_turn",
            "seed": 9,
        },
        content_type="application/json",
    )
    assert r.status_code == 202
    client.logout()
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.inputs["looks"] == [10_000, 20_000, 40_000, 80_000, 160_000]

    def a_later_round_is_being_played():
        run.refresh_from_db()
        return run.n_chunks >= 4 and len(run.chunk_started) > run.chunks_done

    wait_for(a_later_round_is_being_played, timeout=120, interval=0.05)
    dedicated_worker.kill(first)
    lost = set(run.chunk_started) - set(run.chunk_results)
    assert lost and run.status == "running"
    dedicated_worker.start(concurrency=1, beat=True)
    assert wait_for(_finished(run), timeout=120, interval=0.5) == "done", run.error
    # the difference is settled after the fourth round, 80,000 games
    assert run.reaps >= 1 and run.results["games"] == 80_000
    assert sorted(int(k) for k in run.chunk_results) == list(range(run.n_chunks))
    assert sum(c["games"] for c in run.chunk_results.values()) == 80_000
