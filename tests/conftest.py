"""Shared fixtures: the sample catalogue, users, a live Celery worker, dedicated workers a test
starts (with its own settings) and may kill, the browser."""

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

ROOT = Path(__file__).resolve().parent.parent

# Static files under their own names, from the source folders: the suite runs no collectstatic.
# (The test that checks hashed names and their caching collects them itself.) pytest-django has
# read the settings already: this process is switched here, and the servers and workers the
# tests start inherit the environment variable.
os.environ.setdefault("STATIC_MANIFEST", "0")
if os.environ["STATIC_MANIFEST"] == "0" and settings.configured:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
# Nothing collected is served to the suite: whitenoise reads STATIC_ROOT when a client first
# loads the middleware, and the repository's own `staticfiles` is rewritten by `make run` (and by
# the tests that start its script, each into a folder of its own) while other tests read it.
if "STATIC_ROOT" not in os.environ:
    import tempfile

    os.environ["STATIC_ROOT"] = tempfile.mkdtemp(prefix="cardsite-static-root-")
if settings.configured:
    settings.STATIC_ROOT = Path(os.environ["STATIC_ROOT"])
# Under pytest-xdist, this worker's own Redis databases, cache key prefix and queue names
# (tests/xdist_services.py).
if settings.configured:
    from tests.xdist_services import apply_to_this_worker

    apply_to_this_worker(settings)


#: Fixtures that start processes of their own (Celery workers; a PostgreSQL cluster, Redis and
#: gunicorn): a test that uses one carries the marker of the serial lane (`make test`), added
#: here when it lacks it.
SERIAL_LANE_FIXTURES = {
    "celery_worker_process": "worker",
    "dedicated_worker": "worker",
    "private_postgres": "faults",
    "private_redis": "faults",
    "faults_site": "faults",
    "configured_site": "faults",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        for fixture, marker in SERIAL_LANE_FIXTURES.items():
            if fixture in item.fixturenames and item.get_closest_marker(marker) is None:
                item.add_marker(marker)


def _test_databases_made_without_the_statement_timeout() -> None:
    """The site's statement timeout (DB_STATEMENT_TIMEOUT_MS, 5 s) is for requests: creating
    and dropping a test database may take longer on a busy machine, and a timeout there left
    the database behind for the next run to trip on."""
    from contextlib import contextmanager

    from django.db.backends.postgresql.base import DatabaseWrapper

    made = DatabaseWrapper._nodb_cursor
    if getattr(made, "without_timeout", False):
        return

    @contextmanager
    def _nodb_cursor(self):
        with made(self) as cursor:
            cursor.execute("SET statement_timeout = 0")
            yield cursor

    _nodb_cursor.without_timeout = True  # type: ignore[attr-defined]
    DatabaseWrapper._nodb_cursor = _nodb_cursor  # type: ignore[method-assign]


if settings.configured and settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
    _test_databases_made_without_the_statement_timeout()
    # A transactional test's flush: after the live server's requests in flight, by DELETE
    # (tests/database.py).
    from tests.database import flush_by_delete

    flush_by_delete()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters live in the cache: each test starts with none. (The rules core's
    tests also run without Django, with `-p no:django`: then there is no cache.)"""
    if settings.configured:
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture(autouse=True)
def _shared_data_asked_for(request):
    """A test that runs while a module's or a class's shared data is open (tests/database.py)
    without asking for it would see rows it does not expect: it fails instead."""
    from tests.database import unasked_shared_data

    unasked = unasked_shared_data(request.fixturenames)
    if unasked:
        pytest.fail(
            f"{request.node.nodeid} runs inside the shared data of {', '.join(unasked)} "
            "without asking for it: put it in a module or class of its own"
        )
    yield


@pytest.fixture(autouse=True)
def _throttle_rates_restored():
    """Tests that lower a rate set ScopedRateThrottle.THROTTLE_RATES (read once at import by
    DRF): put the configured rates back after each test, whatever it did."""
    if not settings.configured:
        yield
        return
    from rest_framework.throttling import ScopedRateThrottle

    saved = ScopedRateThrottle.THROTTLE_RATES
    yield
    ScopedRateThrottle.THROTTLE_RATES = saved


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    """Tests sign users in thousands of times: a fast hasher keeps that cheap. (Production
    keeps Django's default PBKDF2.)"""
    if settings.configured:
        request.getfixturevalue("settings").PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.MD5PasswordHasher"
        ]
    yield


def _games_registered() -> tuple:
    """Which games are registered, and which definitions (a test may stand one in)."""
    from validation.registry import registry

    return tuple((game.slug, id(game), registry.package(game.slug)) for game in registry.all())


_SAMPLE_CATALOGUE = pytest.StashKey[tuple]()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, request):
    """pytest-django's test database, with the sample catalogue loaded once and kept aside
    (tests/database.py), before any test's transaction."""
    from django.db import connection

    from tests.database import SampleCatalogue

    with django_db_blocker.unblock():
        # Kept aside on PostgreSQL (a schema of its own); elsewhere (SQLite) each test that
        # asks for it loads it itself.
        kept = SampleCatalogue.take() if connection.vendor == "postgresql" else None
        request.config.stash[_SAMPLE_CATALOGUE] = (_games_registered(), kept)
    yield


@pytest.fixture
def _sample_catalogue_snapshot(django_db_setup, request):
    return request.config.stash[_SAMPLE_CATALOGUE]


def _put_back_sample_catalogue(snapshot) -> None:
    games, catalogue = snapshot
    if catalogue is not None and _games_registered() == games:
        catalogue.put_back()
    else:
        # Not kept aside (SQLite), or a test that registered a game of its own before asking
        # (its sample data too): the load itself.
        from django.core.management import call_command

        call_command("load_sample_data", verbosity=0, stdout=open(os.devnull, "w"))


@pytest.fixture
def sample_catalogue(_sample_catalogue_snapshot, db):
    """The shipped sample data of all five games, as the importer loads it (loaded once per
    test database, put back inside each test's transaction: tests/database.py)."""
    _put_back_sample_catalogue(_sample_catalogue_snapshot)


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("alice", "alice@example.com", "a-long-pass-123")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", "a-long-pass-456")


@pytest.fixture
def staff_user(django_user_model):
    return django_user_model.objects.create_user(
        "staff", "staff@example.com", "a-long-pass-789", is_staff=True, is_superuser=True
    )


def reset_broker_connections(app) -> None:
    """Forget pooled broker connections and producers made with other settings, after a
    test changed the queue or the broker's folders."""
    from kombu import pools

    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None
    pools.reset()


def _database_url_for_test_db() -> str:
    """The URL of the test database the suite is using, for a worker in another process."""
    from django.db import connection

    from cardsite.dburl import database_url

    return database_url(connection)


def _private_queue(app, broker_dir: Path | None, prefix: str) -> str:
    """Send the app's tasks to a queue of their own (and, on the filesystem broker, to
    folders of their own under `broker_dir`); returns the queue's name."""
    if broker_dir is not None:
        for sub in ("queue", "control"):
            (broker_dir / sub).mkdir(parents=True, exist_ok=True)
        app.conf.broker_transport_options = {
            "data_folder_in": str(broker_dir / "queue"),
            "data_folder_out": str(broker_dir / "queue"),
            "control_folder": str(broker_dir / "control"),
            "polling_interval": 0.2,
        }
    queue = f"{prefix}-{uuid.uuid4().hex[:10]}"
    app.conf.task_default_queue = queue
    # Forget any pooled connection made with the old settings.
    reset_broker_connections(app)
    return queue


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, tmp_path_factory):
    """A real Celery worker, in its own process, on the broker in use (Redis/RabbitMQ when
    CELERY_BROKER_URL is set, the filesystem broker otherwise), on a queue of its own and
    against the test database."""
    from cardsite.celery import app, ensure_broker_folders

    broker_dir = None
    if settings.CELERY_BROKER_URL.startswith("filesystem"):
        broker_dir = tmp_path_factory.mktemp("celery-data") / "broker"
    else:
        ensure_broker_folders()
    queue = _private_queue(app, broker_dir, "test")
    worker = DedicatedWorker(tmp_path_factory.mktemp("celery-log"), queue, broker_dir)
    proc = worker.start(concurrency=2)
    yield proc
    worker.stop_all()


class DedicatedWorker:
    """Celery worker subprocesses on a queue of their own, each in its own process group so
    that a test can kill -9 all of it (the `celery_worker_process` and `dedicated_worker`
    fixtures start theirs with it)."""

    def __init__(self, tmp_path: Path, queue: str, broker_dir: Path | None):
        self.tmp_path = tmp_path
        self.queue = queue
        self.broker_dir = broker_dir
        self.procs: list[subprocess.Popen] = []

    def start(
        self, concurrency: int = 1, beat: bool = False, env: dict[str, str] | None = None
    ) -> subprocess.Popen:
        """A worker; with `beat`, Celery beat inside it too (the scheduled reaper), as
        `make run` starts one beside the workers; `env`, variables of its own."""
        env = {**os.environ, **(env or {})}
        env["DATABASE_URL"] = _database_url_for_test_db()
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
                    # the default queue and its control queue (the reaper, pings), as
                    # every worker serves both
                    f"{self.queue},{self.queue}.control",
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
                    # The main process only: it stops its pool (a warm shutdown); pool
                    # processes signalled too can leave it waiting on the pool's lock.
                    proc.send_signal(signal.SIGTERM)
                    proc.wait(timeout=20)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    self.kill(proc)


@pytest.fixture
def dedicated_worker(django_db_setup, tmp_path):
    """Start workers on a queue of their own; the app sends tasks there for this test."""
    from cardsite.celery import app

    saved = (app.conf.task_default_queue, app.conf.broker_transport_options)
    broker_dir = None
    if settings.CELERY_BROKER_URL.startswith("filesystem"):
        broker_dir = tmp_path / "data" / "broker"
    queue = _private_queue(app, broker_dir, "test-sim")
    worker = DedicatedWorker(tmp_path, queue, broker_dir)
    yield worker
    worker.stop_all()
    app.conf.task_default_queue, app.conf.broker_transport_options = saved
    reset_broker_connections(app)


def wait_for(
    predicate, timeout: float = 30.0, interval: float = 0.2, *, what: str = "condition", detail=None
):
    """Poll `predicate` until it returns a true value; fail naming `what`, followed by what
    `detail()` says (a log's end, say) when given."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(
        f"{what} not met within {timeout:.0f} s" + (f"\n{detail()}" if detail else "")
    )


# --- Browser tests -------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"  # Debian's Chromium; `make test` installs it when missing
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the tests' own ORM calls are
    # plain synchronous calls, which Django would otherwise refuse next to a loop.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def live_catalogue(_sample_catalogue_snapshot, transactional_db):
    """The sample data, committed, for a live server in another thread (the test's flush
    empties the tables afterwards)."""
    _put_back_sample_catalogue(_sample_catalogue_snapshot)
