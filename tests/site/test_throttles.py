"""The throttles: one counter per client shared by a page and its API route, atomic under
concurrent requests (32 clients at once through four gunicorn workers get exactly the limit
through), and a cache that cannot be reached lets requests through instead of a 500."""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import urllib.error
import urllib.request
import uuid

import pytest
import redis
from django.core.cache import cache, caches
from django.test import override_settings
from rest_framework.throttling import ScopedRateThrottle

from cardsite.cache import RedisCache
from tests.conftest import _database_url_for_test_db
from tests.decks.conftest import sample_list
from tests.site.test_serving import _free_port, _start_gunicorn, _wait_up

SHORT_LIST = "General:\n1 General Jeffrey Moore"
DOWN_CACHE = {
    "default": {
        "BACKEND": "cardsite.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
    }
}


def _rates(**changes):
    ScopedRateThrottle.THROTTLE_RATES = dict(ScopedRateThrottle.THROTTLE_RATES, **changes)


def _validate_api(client):
    body = {"game": "redline", "format": "standard", "list": SHORT_LIST}
    return client.post("/api/validate/", body, content_type="application/json").status_code


def _check_page(client):
    data = {"game": "redline", "format": "standard", "list": sample_list("redline", "standard")}
    return client.post("/check/", data).status_code


@pytest.mark.django_db
def test_the_check_page_and_the_validate_api_share_one_counter(client, sample_catalogue):
    _rates(validate="3/min")
    assert [_check_page(client), _validate_api(client), _check_page(client)] == [200, 200, 200]
    # The limit is spent, whichever door the next request takes.
    assert _validate_api(client) == 429
    assert _check_page(client) == 429


@pytest.mark.django_db
def test_a_signed_in_user_has_one_counter_on_the_page_and_the_api(
    client, user, other_user, sample_catalogue
):
    _rates(validate="2/min")
    client.force_login(user)
    assert [_validate_api(client), _check_page(client)] == [200, 200]
    assert _check_page(client) == 429 and _validate_api(client) == 429
    client.force_login(other_user)  # another user, same address: a counter of their own
    assert _check_page(client) == 200


@pytest.mark.django_db
def test_a_refused_request_says_when_to_come_back(client, sample_catalogue):
    _rates(validate="1/hour")
    assert _validate_api(client) == 200
    body = {"game": "redline", "format": "standard", "list": SHORT_LIST}
    refused = client.post("/api/validate/", body, content_type="application/json")
    assert refused.status_code == 429
    assert 3500 <= int(refused["Retry-After"]) <= 3601


@pytest.mark.django_db
def test_a_throttled_request_costs_one_cache_round_trip(client, sample_catalogue, monkeypatch):
    """On Redis the counter is added to, created with its lifetime and its time left read in
    one MULTI (was: add, incr's EXISTS and INCR, the window's start: four or five), and the
    RateLimit headers need no other call."""
    assert isinstance(caches["default"], RedisCache)
    _rates(validate="5/min")
    sent: list[bytes] = []
    real = redis.connection.Connection.send_packed_command

    def counted(self, command, check_health=True):
        sent.append(command)
        return real(self, command, check_health)

    monkeypatch.setattr(redis.connection.Connection, "send_packed_command", counted)
    for n in range(5):
        body = {"game": "redline", "format": "standard", "list": SHORT_LIST}
        response = client.post("/api/validate/", body, content_type="application/json")
        assert response.status_code == 200
        assert response["RateLimit-Remaining"] == str(4 - n)
        assert 55 <= int(response["RateLimit-Reset"]) <= 60
    assert len(sent) == 5
    assert _validate_api(client) == 429


def test_the_redis_cache_keeps_its_clients_between_calls(monkeypatch):
    """One `redis.Redis` a server for the process's cache calls (building one costs its ~170
    response callbacks, on every throttled request and every cached read): two hundred calls
    build none after the first."""
    backend = caches["default"]
    assert isinstance(backend, RedisCache)
    backend.get("warm")
    built = []
    real_init = redis.Redis.__init__

    def counted(self, *args, **kwargs):
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counted)
    key = f"reuse-{uuid.uuid4().hex}"
    for n in range(100):
        backend.set(f"{key}-{n}", n, 30)
        assert backend.get(f"{key}-{n}") == n
    assert backend.count_in_window(f"{key}-window", 30)[0] == 1
    assert built == []
    reader = backend._cache.get_client()
    assert backend._cache.get_client() is reader
    assert backend._cache.get_client(write=True) is backend._cache.get_client(write=True)


@pytest.mark.django_db
def test_with_the_cache_down_throttled_routes_let_requests_through(
    client, user, sample_catalogue, caplog, monkeypatch
):
    """Validate (API and page), a deck write, a simulation start and a play tool's run, each
    over a limit of 1, with no cache: every request is served (the throttle is skipped, with
    a warning in the log), none answers 500."""
    from cardsite.tasks import run_job_chunk

    monkeypatch.setattr(run_job_chunk, "delay", lambda *a: None)
    _rates(validate="1/min", deck_write="1/min", simulate="1/min")
    client.force_login(user)
    with override_settings(CACHES=DOWN_CACHE), caplog.at_level(logging.WARNING):
        assert [_validate_api(client) for _ in range(2)] == [200, 200]
        assert [_check_page(client) for _ in range(2)] == [200, 200]
        created = [
            client.post(
                "/api/decks/",
                {
                    "game": "redline",
                    "format": "standard",
                    "name": f"d{i}",
                    "list": sample_list("redline", "standard"),
                },
                content_type="application/json",
            )
            for i in range(2)
        ]
        assert [r.status_code for r in created] == [201, 201], created[0].content
        deck = created[0].json()["id"]
        started = [
            client.post(
                f"/api/decks/{deck}/simulations/",
                {"kind": "redline-goldfish", "params": {"games": 100, "turns": 4}},
                content_type="application/json",
            ).status_code
            for _ in range(2)
        ]
        assert started == [202, 202]
        form = {"kind": "redline-goldfish", "version": "1", "games": "100", "turns": "4"}
        assert client.post(f"/simulations/decks/{deck}/start/", form).status_code == 302
    warnings = [r for r in caplog.records if "throttle cache unavailable" in r.getMessage()]
    assert warnings and {r.scope for r in warnings} >= {"validate", "deck_write", "simulate"}


@pytest.mark.django_db(transaction=True)
def test_32_concurrent_clients_get_no_more_than_the_limit(live_catalogue):
    """32 requests at once from one client through four gunicorn workers, with a limit of 10
    an hour: exactly 10 pass. (DRF's read-append-write throttle let 20, then 14, through.)"""
    env = dict(
        os.environ,
        DATABASE_URL=_database_url_for_test_db(),
        THROTTLE_VALIDATE="10/hour",
        AXES_ENABLED="0",
    )
    cache.clear()
    port = _free_port()
    proc = _start_gunicorn(port, env, workers=4, threads=8)
    codes: list[int] = []
    try:
        _wait_up(port, proc)
        cache.clear()  # the health check counted nothing, but start from zero all the same
        body = json.dumps({"game": "redline", "format": "standard", "list": SHORT_LIST}).encode()
        barrier = threading.Barrier(32)
        lock = threading.Lock()

        def client():
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/validate/",
                data=body,
                headers={"Content-Type": "application/json"},
            )
            barrier.wait()
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    code = response.status
            except urllib.error.HTTPError as exc:
                code = exc.code
            with lock:
                codes.append(code)

        threads = [threading.Thread(target=client) for _ in range(32)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    assert sorted(codes) == [200] * 10 + [429] * 22, sorted(codes)


def _count_in_file_cache(location: str, rounds: int) -> None:
    from cardsite.cache import LockedFileBasedCache

    counters = LockedFileBasedCache(location, {})
    for _ in range(rounds):
        counters.add("hits", 0, 600)
        counters.incr("hits")


def test_the_embedded_file_cache_counts_every_increment_of_concurrent_processes(tmp_path):
    """The embedded default's cache (make run: four gunicorn workers, no Redis): eight
    processes adding one 100 times each to one counter leave it at 800. (Django's file cache
    reads, adds and writes back: concurrent increments were lost.) Its expiry is kept."""
    import multiprocessing
    import time

    from cardsite.cache import LockedFileBasedCache

    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_count_in_file_cache, args=(str(tmp_path), 100)) for _ in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    counters = LockedFileBasedCache(str(tmp_path), {})
    assert counters.get("hits") == 800
    counters.add("short", 0, 1)
    counters.incr("short")
    time.sleep(1.2)
    assert counters.get("short") is None  # incr kept the one-second lifetime
