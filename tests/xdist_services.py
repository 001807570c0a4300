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
for redis://…/0. Redis has 16, so at most 8 workers.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

REDIS_DATABASES = 16
REDIS_SCHEMES = ("redis://", "rediss://")


def worker_number() -> int | None:
    """This process's pytest-xdist worker number (gw3 → 3), None outside pytest-xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name.removeprefix("gw")) if name.startswith("gw") else None


def redis_database(url: str) -> int:
    """The database number of a Redis URL (0 when it names none)."""
    return int((urlparse(url).path or "/0").strip("/") or 0)


def _shifted(url: str, by: int) -> str:
    """A Redis URL with its database number moved on by `by`."""
    db = (redis_database(url) + by) % REDIS_DATABASES
    return urlparse(url)._replace(path=f"/{db}").geturl()


def worker_services(
    worker: int, count: int, *, broker: str, cache: str, key_prefix: str, queue: str
) -> dict[str, str]:
    """The environment of worker `worker` of `count`, from the configured broker URL, cache
    location, cache key prefix and default queue."""
    redis = broker.startswith(REDIS_SCHEMES) or cache.startswith(REDIS_SCHEMES)
    if redis and 2 * count > REDIS_DATABASES:
        raise RuntimeError(
            f"{count} xdist workers need {2 * count} Redis databases and Redis has "
            f"{REDIS_DATABASES}: run at most {REDIS_DATABASES // 2} workers (-n)"
        )
    name = f"gw{worker}"
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
    n = worker_number()
    if n is None:
        return {}
    env = worker_services(
        n,
        int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", n + 1)),
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
