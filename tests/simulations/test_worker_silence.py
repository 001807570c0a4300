"""When no worker answers, the health page and the run page say so, with how long the oldest
queued run has waited (a dead worker once left every run queued while /health/ said "ok")."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from cardsite.workers import SEEN_KEY, note_worker_alive
from simulations.models import SimulationRun
from simulations.services import simulation_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued_run(user, redline_deck, django_capture_on_commit_callbacks):
    """A run queued two minutes ago (its chunks never sent: no worker takes them)."""
    with django_capture_on_commit_callbacks(execute=False):
        run = simulation_start(
            owner=user,
            kind="redline-goldfish",
            params={"games": 1000, "turns": 8},
            deck_version=redline_deck.current_version,
            seed=1,
        )
    SimulationRun.objects.filter(pk=run.pk).update(
        created_at=timezone.now() - timedelta(seconds=125)
    )
    return run


def test_a_silent_worker_with_a_run_waiting_is_down(client, user, queued_run):
    cache.set(SEEN_KEY, time.time() - 300, timeout=None)  # last answered 5 minutes ago
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["broker"] == "ok" and body["down"] == ["worker"]
    assert body["worker"]["status"] == "silent"
    assert body["worker"]["last_seen_seconds"] >= 300
    assert body["worker"]["oldest_queued_seconds"] >= 125
    assert body["message"] == (
        "No background worker has answered for 5 min; the oldest queued run has waited 2 min."
    )
    client.force_login(user)
    page = client.get(f"/simulations/{queued_run.pk}/").content.decode()
    assert 'id="worker-note"' in page
    assert "No background worker has answered for 5 min" in page
    assert "the oldest queued run has waited 2 min" in page


def test_a_worker_that_answers_is_ok_and_the_run_page_says_nothing(client, user, queued_run):
    note_worker_alive()
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["worker"]["status"] == "ok"
    assert body["worker"]["oldest_queued_seconds"] >= 125
    client.force_login(user)
    page = client.get(f"/simulations/{queued_run.pk}/").content.decode()
    assert 'id="worker-note"' not in page


def test_no_worker_yet_and_nothing_waiting_is_a_warning(client):
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["worker"] == {
        "status": "silent",
        "last_seen_seconds": None,
        "oldest_queued_seconds": None,
    }
    assert body["warning"] == "No background worker has answered yet."
