"""What each pytest-xdist worker process gets of its own.

`pytest -n 2` runs the tests in worker processes gw0, gw1, …, side by side. pytest-django
gives each its own test database (test_<name>_gw0, …). The rest is given here, before any
test runs: each worker's own Redis databases for the broker and the cache (a cache clear,
which every test starts with, flushes its whole database), its own cache key prefix and its
own Celery queue names. The values go into the environment as well, so that a Celery worker
or a server a test starts in another process uses the same ones. (Files: every test writes
under its own tmp_path, which pytest-xdist already keeps apart per worker.)

Worker n uses the Redis databases 2n and 2n + 1 counted from the configured broker's (the
cache's is the broker's next one, as in the settings): gw0 has the configured ones, 0 and 1
for redis://…/0. Redis has 16: the last pair is the serial lane's, which `make test` runs
beside the parallel lane (TEST_LANE=serial, outside pytest-xdist: its own databases, prefix
and queues the same way, under the name "serial"), so the parallel lane has at most 7 workers.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

REDIS_DATABASES = 16
REDIS_SCHEMES = ("redis://", "rediss://")
#: The slot of the serial lane: the last pair of Redis databases.
SERIAL_SLOT = REDIS_DATABASES // 2 - 1
#: The most workers the parallel lane may have beside the serial lane.
MAX_PARALLEL_WORKERS = SERIAL_SLOT


def worker_number() -> int | None:
    """This process's pytest-xdist worker number (gw3 → 3), None outside pytest-xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name.removeprefix("gw")) if name.startswith("gw") else None


def this_slot() -> tuple[int, str] | None:
    """(slot, name) of this process: its xdist worker's, the serial lane's (TEST_LANE=serial),
    or None for a plain run of pytest, which uses the configured services as they are."""
    n = worker_number()
    if n is not None:
        if n >= MAX_PARALLEL_WORKERS and os.environ.get("TEST_LANES_TOGETHER") == "1":
            raise RuntimeError(
                f"worker gw{n}: beside the serial lane the parallel lane has at most "
                f"{MAX_PARALLEL_WORKERS} workers (--maxprocesses)"
            )
        return n, f"gw{n}"
    if os.environ.get("TEST_LANE") == "serial":
        return SERIAL_SLOT, "serial"
    return None


def redis_database(url: str) -> int:
    """The database number of a Redis URL (0 when it names none)."""
    return int((urlparse(url).path or "/0").strip("/") or 0)


def _shifted(url: str, by: int) -> str:
    """A Redis URL with its database number moved on by `by`."""
    db = (redis_database(url) + by) % REDIS_DATABASES
    return urlparse(url)._replace(path=f"/{db}").geturl()


def worker_services(
    worker: int,
    count: int,
    *,
    broker: str,
    cache: str,
    key_prefix: str,
    queue: str,
    name: str | None = None,
) -> dict[str, str]:
    """The environment of worker `worker` of `count` (named `name`, gw<worker> by default),
    from the configured broker URL, cache location, cache key prefix and default queue."""
    redis = broker.startswith(REDIS_SCHEMES) or cache.startswith(REDIS_SCHEMES)
    if redis and 2 * count > REDIS_DATABASES:
        raise RuntimeError(
            f"{count} xdist workers need {2 * count} Redis databases and Redis has "
            f"{REDIS_DATABASES}: run at most {REDIS_DATABASES // 2} workers (-n)"
        )
    name = name or f"gw{worker}"
    env = {
        "CACHE_KEY_PREFIX": f"{key_prefix or 'cardsite'}-{name}",
        "CELERY_QUEUE": f"{queue}-{name}",
    }
    if broker.startswith(REDIS_SCHEMES):
        env["CELERY_BROKER_URL"] = _shifted(broker, 2 * worker)
    if cache.startswith(REDIS_SCHEMES):
        env["CACHE_URL"] = _shifted(cache, 2 * worker)
    return env


def apply_to_this_worker(settings) -> dict[str, str]:
    """Give this xdist worker its own services: the environment for the processes tests
    start, and the settings of this process. Returns what it set ({} outside
    pytest-xdist)."""
    slot = this_slot()
    if slot is None:
        return {}
    n, name = slot
    env = worker_services(
        n,
        int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", n + 1)),
        name=name,
        broker=settings.CELERY_BROKER_URL,
        cache=str(settings.CACHES["default"].get("LOCATION", "")),
        key_prefix=settings.CACHES["default"].get("KEY_PREFIX", ""),
        queue=settings.CELERY_TASK_DEFAULT_QUEUE,
    )
    os.environ.update(env)

    # This process read its settings before the test modules were imported: the same
    # values here, with the signal that makes Django's cache handler read them again.
    from django.test.signals import setting_changed
    from kombu import Queue

    queue = env["CELERY_QUEUE"]
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            **settings.CACHES["default"],
            "KEY_PREFIX": env["CACHE_KEY_PREFIX"],
            **({"LOCATION": env["CACHE_URL"]} if "CACHE_URL" in env else {}),
        },
    }
    setting_changed.send(sender=type(settings), setting="CACHES", value=settings.CACHES, enter=True)
    settings.CELERY_BROKER_URL = env.get("CELERY_BROKER_URL", settings.CELERY_BROKER_URL)
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    settings.CELERY_CONTROL_QUEUE = f"{queue}.control"
    settings.CELERY_TASK_QUEUES = (Queue(queue), Queue(f"{queue}.control"))

    from cardsite.celery import app

    app.conf.broker_url = settings.CELERY_BROKER_URL
    app.conf.task_default_queue = queue
    app.conf.task_queues = settings.CELERY_TASK_QUEUES
    return env
