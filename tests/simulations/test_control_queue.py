"""The reaper does not wait behind the work it rescues: periodic and control work goes to a
control queue that every worker serves beside the default queue, so under a backlog of
chunks the reaper (and the health page's ping) runs at the next free slot, not after the
backlog drains."""

from __future__ import annotations

import re

import pytest

from cardsite.celery import app, control_queue
from simulations.models import SimulationRun
from tests.conftest import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_control_tasks_are_routed_to_the_control_queue(settings):
    router = app.amqp.router
    queue = app.conf.task_default_queue
    assert control_queue() == f"{queue}.control"
    for name in ("jobs.reap", "cardsite.answer_ping"):
        assert router.route({}, name)["queue"].name == f"{queue}.control", name
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert router.route({}, entry["task"])["queue"].name == f"{queue}.control"
    assert router.route({}, "jobs.run_chunk")["queue"].name == queue


def test_the_reaper_runs_while_a_backlog_of_chunks_waits(
    user, redline_deck, dedicated_worker, settings, client
):
    settings.SIMULATIONS_CHUNK_GAMES = 20_000
    worker = dedicated_worker.start(concurrency=1)
    client.force_login(user)
    r = client.post(
        f"/api/decks/{redline_deck.pk}/simulations/",
        {"kind": "redline-goldfish", "params": {"games": 240_000, "turns": 12}, "seed": 5},
        content_type="application/json",
    )
    assert r.status_code == 202
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.n_chunks == 12
    # The twelve chunks are queued before the reaper; the one worker slot takes them in turn.
    app.send_task("jobs.reap")

    def finished():
        run.refresh_from_db()
        return run.status if run.status in ("done", "failed") else None

    assert wait_for(finished, timeout=180, interval=0.5) == "done", run.error

    def reaped_logged():
        log = worker.log_path.read_text()
        return "jobs.reap[" in log and "succeeded" in log and log

    log = wait_for(reaped_logged, timeout=30)
    done = [
        m.group(1)
        for m in re.finditer(r"Task (jobs\.run_chunk|jobs\.reap)\[[^\]]+\] succeeded", log)
    ]
    assert done.count("jobs.run_chunk") == 12
    chunks_before_reap = done.index("jobs.reap")
    # On the chunks' own queue it would have run 13th, after the whole backlog.
    assert chunks_before_reap < 6, done


def test_worker_log_lines_carry_the_run_and_the_chunk(
    user, redline_deck, dedicated_worker, settings, client
):
    """A real worker's log: the site's structured lines (time level logger message
    key=value), with the run and chunk fields and the task's name and id."""
    settings.SIMULATIONS_CHUNK_GAMES = 20_000
    worker = dedicated_worker.start(concurrency=1)
    client.force_login(user)
    r = client.post(
        f"/api/decks/{redline_deck.pk}/simulations/",
        {"kind": "redline-goldfish", "params": {"games": 40_000, "turns": 12}, "seed": 5},
        content_type="application/json",
    )
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.n_chunks == 2

    def finished_lines():
        lines = [
            line
            for line in worker.log_path.read_text().splitlines()
            if "job chunk finished" in line
        ]
        return lines if len(lines) == 2 else None

    lines = wait_for(finished_lines, timeout=120)
    for chunk, line in enumerate(sorted(lines, key=lambda x: "chunk=1" in x)):
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d INFO cardsite\.tasks ", line), line
        assert "kind=simulations.goldfish" in line, line
        assert f"job={run.pk}" in line and f"chunk={chunk}" in line, line
        assert "task=jobs.run_chunk" in line and "task_id=" in line, line
    # Celery's own lines are in the same format
    log = worker.log_path.read_text()
    assert re.search(r"^\S+ INFO celery\.app\.trace Task jobs\.run_chunk\[", log, re.M)
