"""The embedded broker (`make run`'s default, the filesystem broker) with a real worker: many
runs queued at once, from several threads, are all played. (A message file read while its
writer was still writing it once killed the worker: "Unrecoverable error: JSONDecodeError",
and every later run stayed queued. Messages are now written whole before they can be seen,
and a file that cannot be read all the same is logged and skipped: the test leaves an empty
one in the queue.)"""

from __future__ import annotations

import threading

import pytest
from django.conf import settings as django_settings
from django.db import connections

from cardsite.celery import app
from simulations.models import SimulationRun
from simulations.services import simulation_start
from tests.conftest import _private_queue, reset_broker_connections, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

THREADS = 4
RUNS_EACH = 5


@pytest.fixture
def filesystem_broker(dedicated_worker, tmp_path):
    """This process and the workers `dedicated_worker` starts use the embedded broker (the
    filesystem broker, as `make run` configures it), in folders of their own, whatever
    broker the suite uses; restored afterwards."""
    conf = app.conf
    saved = (
        conf.broker_url,
        conf.broker_transport,
        conf.task_default_queue,
        conf.broker_transport_options,
    )
    broker_dir = tmp_path / "data" / "broker"
    conf.broker_url = "filesystem://"
    conf.broker_transport = django_settings.EMBEDDED_BROKER_TRANSPORT
    queue = _private_queue(app, broker_dir, "test-fs")
    dedicated_worker.queue, dedicated_worker.broker_dir = queue, broker_dir
    yield dedicated_worker
    (
        conf.broker_url,
        conf.broker_transport,
        conf.task_default_queue,
        conf.broker_transport_options,
    ) = saved
    reset_broker_connections(app)


def test_twenty_runs_queued_from_four_threads_are_all_played(
    user, redline_deck, filesystem_broker, settings
):
    settings.SIMULATIONS_MAX_ACTIVE = THREADS * RUNS_EACH
    settings.SIMULATIONS_CHUNK_GAMES = 500
    # A message file caught while its writer was still writing it: empty.
    queue_dir = filesystem_broker.broker_dir / "queue"
    (queue_dir / f"1_{'0' * 8}.{filesystem_broker.queue}.msg").write_bytes(b"")
    worker = filesystem_broker.start(concurrency=2, env={"CELERY_BROKER_URL": "filesystem://"})
    version = redline_deck.current_version
    started: list[int] = []
    failures: list[BaseException] = []
    go = threading.Barrier(THREADS)

    def queue_runs() -> None:
        try:
            go.wait()
            for i in range(RUNS_EACH):
                run = simulation_start(
                    owner=user,
                    kind="redline-goldfish",
                    params={"games": 1000, "turns": 8},
                    deck_version=version,
                    seed=1000 + i,
                )
                started.append(run.pk)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=queue_runs) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures and len(started) == THREADS * RUNS_EACH

    def all_done():
        statuses = list(
            SimulationRun.objects.filter(pk__in=started).values_list("status", flat=True)
        )
        return statuses.count("done") == len(started)

    try:
        wait_for(all_done, timeout=180, interval=0.5)
    except AssertionError:
        statuses = SimulationRun.objects.filter(pk__in=started).values_list("status", flat=True)
        log = worker.log_path.read_text()  # type: ignore[attr-defined]
        raise AssertionError(f"runs: {sorted(statuses)}; worker log:\n{log[-3000:]}") from None
    log = worker.log_path.read_text()  # type: ignore[attr-defined]
    assert worker.poll() is None, log[-3000:]
    assert "Unrecoverable error" not in log
    assert "unreadable message skipped" in log  # the empty file, logged
    # every message was written whole: nothing but the empty one was skipped
    assert log.count("unreadable message skipped") == 1
    assert SimulationRun.objects.filter(pk__in=started, chunks_done=2).count() == len(started)
