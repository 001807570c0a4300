"""PostgreSQL restarted and Redis (the cache) stopped under a load of ordinary requests to the
site served by gunicorn: no request answers 500 (only 200s, 201s, 302s and 503s), after the
service is back the next requests answer as usual, and every write the site confirmed is in
the database.

Before: the requests in flight during the restart and the next ones on stale persistent
connections answered 500; with the cache down every throttled route answered 500."""

from __future__ import annotations

import collections
import threading
import time
import uuid

import psycopg
import pytest
import requests

pytestmark = [pytest.mark.faults, pytest.mark.slow]

SAMPLE_LIST = "General:\n1 General Jeffrey Moore"
OK = {200, 201, 302}


class Load:
    """Ordinary clients in background threads, each looping over: the home page, a card
    search page, a card list of the API, the list check (API, throttled), a new deck (API
    write, throttled) and the check page (POST, throttled). Records every answer; a deck the
    site confirmed (201) is remembered by name."""

    def __init__(self, site, clients: int = 3) -> None:
        self.site = site
        self.clients = clients
        self.codes: collections.Counter = collections.Counter()
        self.by_route: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.failures: list[str] = []
        self.confirmed: list[str] = []
        self.refused: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def __enter__(self):
        sessions = [self.site.signed_in() for _ in range(self.clients)]
        for session in sessions:
            thread = threading.Thread(target=self._run, args=(session,), daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def __exit__(self, *exc):
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)

    def _record(self, route: str, response: requests.Response) -> None:
        with self._lock:
            self.codes[response.status_code] += 1
            self.by_route[route][response.status_code] += 1
            if response.status_code >= 500 and response.status_code != 503:
                self.failures.append(f"{route}: {response.status_code} {response.text[:300]}")

    def one_round(self, session: requests.Session) -> dict[str, int]:
        base = self.site.base
        answers = {}
        requests_ = [
            ("home", lambda: session.get(f"{base}/", timeout=30)),
            ("search", lambda: session.get(f"{base}/cards/redline/?q=t:efreet", timeout=30)),
            ("cards api", lambda: session.get(f"{base}/api/cards/?game=redline", timeout=30)),
            (
                "validate api",
                lambda: session.post(
                    f"{base}/api/validate/",
                    json={"game": "redline", "format": "standard", "list": SAMPLE_LIST},
                    timeout=30,
                ),
            ),
            (
                "check page",
                lambda: session.post(
                    f"{base}/check/",
                    data={"game": "redline", "format": "standard", "list": SAMPLE_LIST},
                    headers={"Referer": f"{base}/check/"},
                    allow_redirects=False,
                    timeout=30,
                ),
            ),
        ]
        for route, call in requests_:
            response = call()
            self._record(route, response)
            answers[route] = response.status_code
        name = f"load-{uuid.uuid4().hex[:12]}"
        response = session.post(
            f"{base}/api/decks/",
            json={"game": "redline", "format": "standard", "name": name, "list": SAMPLE_LIST},
            timeout=30,
        )
        self._record("deck write", response)
        answers["deck write"] = response.status_code
        with self._lock:
            (self.confirmed if response.status_code == 201 else self.refused).append(name)
        return answers

    def _run(self, session: requests.Session) -> None:
        while not self._stop.is_set():
            try:
                self.one_round(session)
            except requests.RequestException as exc:  # the server must keep answering
                with self._lock:
                    self.failures.append(f"no answer: {exc!r}")


def _health(site) -> tuple[int, dict]:
    response = requests.get(f"{site.base}/health/", timeout=10)
    return response.status_code, response.json()


def _stored_deck_names(pg) -> set[str]:
    with psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres dbname=cardsite") as conn:
        rows = conn.execute("SELECT name FROM decks_deck WHERE name LIKE 'load-%'").fetchall()
    return {name for (name,) in rows}


def _after_recovery(site, load: Load) -> None:
    """Two rounds per gunicorn worker and client thread, right after the service is back:
    every request answers as usual (a worker's stale connection is replaced before use)."""
    session = site.signed_in()
    for _ in range(6):
        answers = load.one_round(session)
        assert set(answers.values()) <= OK, answers


def test_postgresql_restart_under_load(faults_site):
    site, pg = faults_site, faults_site.pg
    with Load(site) as load:
        time.sleep(2)  # ordinary traffic; every worker holds a persistent connection
        pg.stop()
        down_since = time.monotonic()
        status, body = _health(site)
        assert status == 503 and body["down"] == ["database"], body
        assert body["message"] == "database down" and body["cache"] == "ok"
        # A request while it is down: 503 with a retry hint, JSON under /api/, else a page.
        api = requests.get(f"{site.base}/api/cards/?game=redline", timeout=30)
        assert api.status_code == 503 and int(api.headers["Retry-After"]) > 0
        assert "database is unavailable" in api.json()["detail"]
        page = requests.get(f"{site.base}/", timeout=30)
        assert page.status_code == 503 and "Back in a moment" in page.text
        time.sleep(max(0.0, 3 - (time.monotonic() - down_since)))
        pg.start()
        time.sleep(1)
    assert load.failures == [], load.failures[:5]
    assert set(load.codes) <= OK | {503}, load.codes
    assert load.codes[503] > 0, "the database was never seen down: the test proved nothing"
    assert _health(site)[0] == 200
    _after_recovery(site, load)
    stored = _stored_deck_names(pg)
    assert set(load.confirmed) <= stored, "a deck the site confirmed is missing"
    print(f"\nPostgreSQL restart: {dict(load.codes)}; {len(load.confirmed)} decks confirmed")


def test_cache_outage_under_load(faults_site):
    site, redis = faults_site, faults_site.redis
    with Load(site) as load:
        time.sleep(1)
        redis.stop()
        try:
            status, body = _health(site)
            assert status == 503 and body["down"] == ["cache"], body
            assert body["message"] == "cache down" and body["database"] == "ok"
            time.sleep(3)
            # With the cache down, a client over its limit is let through (unthrottled).
            during = dict(load.codes)
        finally:
            redis.start()
        time.sleep(1)
    assert load.failures == [], load.failures[:5]
    assert set(load.codes) <= OK, load.codes  # nothing needs the cache to answer
    assert sum(during.values()) > 0
    assert _health(site)[0] == 200
    _after_recovery(site, load)
    assert set(load.confirmed) <= _stored_deck_names(site.pg)
    assert load.refused == []
    print(f"\nRedis outage: {dict(load.codes)}; {len(load.confirmed)} decks confirmed")


def test_cache_outage_lets_a_throttled_client_through(faults_site):
    """A client over its limit (429; the bulk download, 3 an hour here) is served while the
    cache is down, and throttled again once it is back."""
    site, redis = faults_site, faults_site.redis
    session = site.signed_in()

    def bulk() -> int:
        return session.get(f"{site.base}/api/games/hex-skirmish/bulk/", timeout=30).status_code

    assert [bulk() for _ in range(4)] == [200, 200, 200, 429]
    redis.stop()
    try:
        assert [bulk() for _ in range(5)] == [200] * 5
    finally:
        redis.start()
    # The restarted Redis kept nothing (no persistence): a fresh window, throttled again.
    assert [bulk() for _ in range(4)] == [200, 200, 200, 429]
