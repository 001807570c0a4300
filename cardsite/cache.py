"""The embedded default's cache: Django's file cache, with `add` and `incr` made atomic
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

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
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
