"""The site's cache backends.

The embedded default's cache: Django's file cache, with `add` and `incr` made atomic
across the processes of the machine (gunicorn's workers), as Redis's are. Django's file cache
reads, adds one and writes back: two workers counting one client's requests at once both
wrote the same number and the throttles let more through than their limit. Here both hold
a lock file of the cache folder while they read and write; `incr` keeps the entry's expiry
(Django's sets the default timeout again)."""

from __future__ import annotations

import os
import pickle
import time
import zlib
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.core.files import locks


class LockedFileBasedCache(FileBasedCache):
    # FileBasedCache's own helpers, which its stubs leave out.
    _dir: str
    _createdir: Callable[[], None]
    _key_to_file: Callable[..., str]

    lock_name = "counters.lock"  # not a cache file: neither culled nor cleared

    @contextmanager
    def _locked(self):
        self._createdir()
        with open(os.path.join(self._dir, self.lock_name), "ab") as lock:
            locks.lock(lock, locks.LOCK_EX)
            try:
                yield
            finally:
                locks.unlock(lock)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        with self._locked():
            return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        with self._locked():
            fname = self._key_to_file(key, version)
            try:
                with open(fname, "rb") as f:
                    expiry = pickle.load(f)
                    value = pickle.loads(zlib.decompress(f.read()))
            except (FileNotFoundError, EOFError):
                raise ValueError(f"Key '{key}' not found.") from None
            now = time.time()
            if expiry is not None and expiry < now:
                raise ValueError(f"Key '{key}' not found.")
            new_value = value + delta
            self.set(key, new_value, None if expiry is None else expiry - now, version)
            return new_value


class _ReusingRedisCacheClient(RedisCacheClient):
    """Django's Redis client, keeping one `redis.Redis` per server instead of building one
    (its ~170 response callbacks) for every cache call: a redis-py client is safe to share
    between threads, its connections come from the pool either way."""

    # RedisCacheClient's own helpers, which its stubs leave out.
    _get_connection_pool_index: Callable[[bool], int]
    _get_connection_pool: Callable[[bool], Any]
    _client: Callable[..., Any]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._clients.setdefault(index, self._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    """The shared cache on Redis (CACHE_URL, REDIS_URL or the broker's server): Django's,
    with its clients kept (above) and a throttle counter counted in one round trip."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        # Django's __init__ sets its own client class on the instance (a class attribute
        # here would be shadowed by it, and every cache call would build a client again).
        self._class = _ReusingRedisCacheClient

    def count_in_window(self, key: str, duration: int) -> tuple[int, float]:
        """Add one to the counter `key`, creating it at 0 for `duration` seconds when it is
        missing, in one MULTI/EXEC (atomic, however many requests race). Returns the count
        and the seconds left in its window."""
        full = self.make_and_validate_key(key)
        client = self._cache.get_client(full, write=True)
        with client.pipeline(transaction=True) as pipe:
            pipe.set(full, 0, ex=duration, nx=True)
            pipe.incr(full)
            pipe.pttl(full)
            _, used, ttl_ms = pipe.execute()
        if ttl_ms < 0:
            # The counter expired between SET and INCR, and INCR made one that never
            # expires: give it its lifetime.
            client.expire(full, duration)
            ttl_ms = duration * 1000
        return int(used), ttl_ms / 1000
