"""Under pytest-xdist each worker has its own Redis databases for the broker and the cache,
its own cache key prefix and its own queues (tests/xdist_services.py), and this process
really uses them."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from tests.xdist_services import SERIAL_SLOT, redis_database, worker_number, worker_services


def test_each_xdist_worker_has_its_own_redis_databases_prefix_and_queues():
    base = dict(
        broker="redis://127.0.0.1:6391/0",
        cache="redis://127.0.0.1:6391/1",
        key_prefix="cardsite",
        queue="cardsite",
    )
    assert worker_services(0, 2, **base) == {
        "CELERY_BROKER_URL": "redis://127.0.0.1:6391/0",
        "CACHE_URL": "redis://127.0.0.1:6391/1",
        "CACHE_KEY_PREFIX": "cardsite-gw0",
        "CELERY_QUEUE": "cardsite-gw0",
    }
    assert worker_services(1, 2, **base) == {
        "CELERY_BROKER_URL": "redis://127.0.0.1:6391/2",
        "CACHE_URL": "redis://127.0.0.1:6391/3",
        "CACHE_KEY_PREFIX": "cardsite-gw1",
        "CELERY_QUEUE": "cardsite-gw1",
    }
    # The serial lane, run beside the parallel lane: the last pair, under its own name.
    assert worker_services(SERIAL_SLOT, SERIAL_SLOT + 1, name="serial", **base) == {
        "CELERY_BROKER_URL": "redis://127.0.0.1:6391/14",
        "CACHE_URL": "redis://127.0.0.1:6391/15",
        "CACHE_KEY_PREFIX": "cardsite-serial",
        "CELERY_QUEUE": "cardsite-serial",
    }
    # Counted from the configured ones, round the 16 databases.
    shifted = worker_services(3, 8, **{**base, "broker": "redis://h/10", "cache": "redis://h/11"})
    assert (shifted["CELERY_BROKER_URL"], shifted["CACHE_URL"]) == ("redis://h/0", "redis://h/1")
    with pytest.raises(RuntimeError, match="at most 8 workers"):
        worker_services(0, 9, **base)
    # No Redis (the embedded defaults): its own prefix and queues all the same.
    assert worker_services(1, 9, broker="filesystem://", cache="", key_prefix="", queue="q") == {
        "CACHE_KEY_PREFIX": "cardsite-gw1",
        "CELERY_QUEUE": "q-gw1",
    }


def test_this_process_uses_its_workers_redis_databases_and_queue():
    """The cache and the broker this process (and what it starts) really use."""
    from django.core.cache import cache

    from cardsite.celery import app

    n = worker_number()
    cache_url = settings.CACHES["default"].get("LOCATION", "")
    if not str(cache_url).startswith("redis"):
        pytest.fail("the suite runs on Redis (CELERY_BROKER_URL)")
    client = cache._cache.get_client(write=True)
    assert client.connection_pool.connection_kwargs["db"] == redis_database(cache_url)
    with app.connection_for_write() as conn:
        broker_db = int(conn.as_uri().rsplit("/", 1)[1] or 0)
    assert broker_db == redis_database(os.environ["CELERY_BROKER_URL"])
    if n is not None:
        assert cache_url == os.environ["CACHE_URL"]
        assert settings.CACHES["default"]["KEY_PREFIX"].endswith(f"-gw{n}")
        assert app.conf.task_default_queue == os.environ["CELERY_QUEUE"]
        assert app.conf.task_default_queue.endswith(f"-gw{n}")
