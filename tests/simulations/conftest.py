"""Simulation test helpers: sample decks of REDLINE and Hex Skirmish, playing a run's chunks
in-process, and a dedicated Celery worker that a test may kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import _database_url_for_test_db, reset_broker_connections

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DATA = ROOT / "catalogue" / "sample_data"


def sample_list(game: str, fmt: str) -> str:
    return (SAMPLE_DATA / game / "decks" / f"{fmt}.txt").read_text()


@pytest.fixture
def make_deck():
    """make_deck(owner, game="redline", fmt="standard", visibility="private")."""
    from decks.services import deck_create

    def make(owner, game="redline", fmt="standard", visibility="private", name=None):
        return deck_create(
            owner=owner,
            game_slug=game,
            format=fmt,
            name=name or f"{game} {fmt}",
            visibility=visibility,
            text=sample_list(game, fmt),
        )

    return make


@pytest.fixture
def redline_deck(sample_catalogue, user, make_deck):
    return make_deck(user)


@pytest.fixture
def hex_deck(sample_catalogue, user, make_deck):
    return make_deck(user, game="hex-skirmish")


def play_inline(run) -> None:
    """Play every chunk of a run in this process (what the workers do), in reverse order so
    that finalising does not depend on chunk 0 being last."""
    from simulations.services import simulation_run_chunk

    for i in reversed(range(run.n_chunks)):
        simulation_run_chunk(run_id=run.pk, chunk_index=i, worker="inline")
    run.refresh_from_db()


def _database_url() -> str:
    return _database_url_for_test_db()


class DedicatedWorker:
    """A Celery worker subprocess on its own queue (like the `celery_worker_process`
    fixture), in its own process group so that a test can kill -9 all of it."""

    def __init__(self, tmp_path: Path, queue: str, broker_dir: Path | None):
        self.tmp_path = tmp_path
        self.queue = queue
        self.broker_dir = broker_dir
        self.procs: list[subprocess.Popen] = []

    def start(self, concurrency: int = 1, beat: bool = False) -> subprocess.Popen:
        """A worker; with `beat`, Celery beat inside it too (the scheduled reaper), as
        `make run` starts one beside the workers."""
        env = dict(os.environ)
        env["DATABASE_URL"] = _database_url()
        env["CELERY_QUEUE"] = self.queue
        env["AXES_ENABLED"] = "0"
        if self.broker_dir is not None:
            env["CARDSITE_DATA_DIR"] = str(self.broker_dir.parent)
        log = self.tmp_path / f"worker-{len(self.procs)}.log"
        with open(log, "w") as out:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "cardsite",
                    "worker",
                    "-Q",
                    self.queue,
                    f"--concurrency={concurrency}",
                    "--loglevel=INFO",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "-n",
                    f"sim-{uuid.uuid4().hex[:6]}@%h",
                    *(["-B", f"--schedule={self.tmp_path / 'beat-schedule'}"] if beat else []),
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        proc.log_path = log  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                self.kill(proc)
                raise RuntimeError(f"worker did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        self.procs.append(proc)
        return proc

    @staticmethod
    def kill(proc: subprocess.Popen) -> None:
        """kill -9 the worker and its pool processes (its whole process group)."""
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=20)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=20)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    self.kill(proc)


@pytest.fixture
def dedicated_worker(django_db_setup, tmp_path):
    """Start workers on a queue of their own; the app sends tasks there for this test."""
    from cardsite.celery import app

    saved = (app.conf.task_default_queue, app.conf.broker_transport_options)
    queue = f"test-sim-{uuid.uuid4().hex[:10]}"
    broker_dir = None
    if settings.CELERY_BROKER_URL.startswith("filesystem"):
        broker_dir = tmp_path / "data" / "broker"
        for sub in ("queue", "control"):
            (broker_dir / sub).mkdir(parents=True, exist_ok=True)
        app.conf.broker_transport_options = {
            "data_folder_in": str(broker_dir / "queue"),
            "data_folder_out": str(broker_dir / "queue"),
            "control_folder": str(broker_dir / "control"),
            "polling_interval": 0.2,
        }
    app.conf.task_default_queue = queue

    reset_broker_connections(app)
    worker = DedicatedWorker(tmp_path, queue, broker_dir)
    yield worker
    worker.stop_all()
    app.conf.task_default_queue, app.conf.broker_transport_options = saved
    reset_broker_connections(app)
