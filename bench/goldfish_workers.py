"""Goldfish throughput through real Celery workers: 1,000,000 REDLINE games as one
SimulationRun (chunks of 50,000 games), on 1 worker and then on 2 workers (one process each),
from the start of the run to its merged results. Prints both times and the ratio
(target: ≥ 1.6× with 2 workers).

Uses CELERY_BROKER_URL (default redis://127.0.0.1:6379/0) and DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/cardsite_bench); a throwaway test database and a queue of
its own are created and removed.

Run: .venv/bin/python bench/goldfish_workers.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cardsite_bench")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
os.environ.setdefault("AXES_ENABLED", "0")
QUEUE = f"bench-{uuid.uuid4().hex[:8]}"
os.environ["CELERY_QUEUE"] = QUEUE

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from validation.packages import sample_list  # noqa: E402

GAMES = 1_000_000
SEED = 2026


def database_url() -> str:
    from cardsite.dburl import database_url as url_of

    return url_of(connection)


def start_workers(n: int, log_dir: Path) -> list[subprocess.Popen]:
    env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_QUEUE": QUEUE}
    procs = []
    for i in range(n):
        log = log_dir / f"worker-{n}-{i}.log"
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "cardsite", "worker", "-Q", QUEUE,
                 "--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle",
                 "--without-heartbeat", "-n", f"bench{i}-{uuid.uuid4().hex[:4]}@%h"],
                cwd=ROOT, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT,
            )
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text():
            if time.monotonic() > deadline or procs[-1].poll() is not None:
                raise RuntimeError(log.read_text()[-2000:])
            time.sleep(0.2)
    return procs


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()


def one_run(owner, version) -> tuple[float, dict]:
    from simulations.models import SimulationRun
    from simulations.services import simulation_start

    start = time.perf_counter()
    run = simulation_start(
        owner=owner, kind="redline-goldfish", params={"games": GAMES}, deck_version=version,
        seed=SEED,
    )  # fmt: skip
    while True:
        run = SimulationRun.objects.get(pk=run.pk)
        if run.status in ("done", "failed"):
            break
        time.sleep(0.02)
    elapsed = time.perf_counter() - start
    if run.status != "done":
        raise RuntimeError(f"run failed: {run.error}")
    return elapsed, run.results


def main() -> None:
    import tempfile

    from django.contrib.auth.models import User

    from decks.services import deck_create

    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    log_dir = Path(tempfile.mkdtemp(prefix="bench-workers-"))
    try:
        call_command("load_sample_data", verbosity=0, stdout=open(os.devnull, "w"))
        owner = User.objects.create_user("bench", password="bench-pass-2026")
        text = sample_list("redline", "standard").text()
        deck = deck_create(owner=owner, game_slug="redline", format="standard", name="Bench",
                           text=text)  # fmt: skip
        print(f"REDLINE goldfish through Celery workers: {GAMES:,} games, chunks of 50,000, "
              f"broker {os.environ['CELERY_BROKER_URL'].split('://')[0]}, "
              f"database {connection.vendor}")  # fmt: skip
        times: dict[int, float] = {}
        results = {}
        for n in (1, 2):
            procs = start_workers(n, log_dir)
            try:
                one_run(owner, deck.current_version)  # warm-up (imports, connections)
                best = min(one_run(owner, deck.current_version)[0] for _ in range(2))
                times[n], results[n] = best, one_run(owner, deck.current_version)[1]
            finally:
                stop(procs)
            print(f"  {n} worker{'s' if n > 1 else ' '}: {times[n]:.2f} s  "
                  f"-> {GAMES / times[n]:,.0f} games/s")  # fmt: skip
        print(f"  speed-up (2 workers / 1 worker): {times[1] / times[2]:.2f}x   [target >= 1.6x]")
        same = results[1].get("stats") == results[2].get("stats")
        print(f"  merged statistics identical with 1 and 2 workers: {same}")
        print(f"  1-minute load average: {os.getloadavg()[0]:.2f}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
