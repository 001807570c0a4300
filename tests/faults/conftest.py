"""The fault suite's services: a PostgreSQL cluster and a Redis of its own (started once per
test session, on free ports, in temporary folders), which the tests stop and start under load
(the shared services of the machine are never touched), and the site served by gunicorn
against them as in production (scripts/run.sh's command; DEBUG off, so persistent database
connections), each site on a database of its own copied from one prepared once a session
(migrated, with the sample data and the test account: `prepared_database`).

The suite's fourth fault lives beside the code it exercises: a worker killed mid-run
(tests/simulations/test_worker.py, test_a_worker_killed_during_a_run_does_not_lose_it, marked
`faults` too), so that `pytest -m faults` runs them all; tests/decks/test_worker.py has the
catalogue's task through a real worker. test_worker_restart.py starts `make run`'s script
itself, on the embedded defaults (none of these services). `make test` runs every one
(testpaths)."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
CSRF_SECRET = "f" * 32
PREPARE = """
import django
django.setup()
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("load_sample_data", verbosity=0)
user = User.objects.create_user("faults")
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print(session.session_key)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name) or ""]
    if not found[-1]:
        pytest.fail(f"the fault suite needs PostgreSQL's server programs ({name}) installed")
    return found[-1]


class PrivatePostgres:
    """A PostgreSQL cluster of the test session's own: initdb in a temporary folder, then
    `pg_ctl start`/`stop` at will. As root, it runs as the postgres user."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="cardsite-faults-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.log = self.root / "server.log"
        self.as_postgres: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self.as_postgres = ["runuser", "-u", "postgres", "--"]
        self._run(_pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "-E", "UTF8", "--no-sync")  # fmt: skip
        self.start()

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [*self.as_postgres, *command], capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed:\n{done.stdout}\n{done.stderr}")

    @property
    def url(self) -> str:
        return self.database_url("cardsite")

    def database_url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def createdb(self, database: str, *options: str) -> None:
        subprocess.run(
            [_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
             *options, database],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.log),
                  "-w", "start")  # fmt: skip

    def stop(self) -> None:
        self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def close(self) -> None:
        try:
            self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        except RuntimeError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)


class PrivateRedis:
    """A redis-server of the test session's own (no persistence), stopped and started by pid."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port),
             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("the private redis-server did not start")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)

    close = stop


@pytest.fixture(scope="session")
def private_postgres():
    pg = PrivatePostgres()
    try:
        yield pg
    finally:
        pg.close()


@pytest.fixture(scope="session")
def private_redis():
    redis = PrivateRedis()
    try:
        yield redis
    finally:
        redis.close()


def site_environment(pg: PrivatePostgres, redis: PrivateRedis, tmp: Path) -> dict[str, str]:
    """The environment of the site against the private services (its database: `cardsite`)."""
    return {
        **os.environ,
        "DATABASE_URL": pg.url,
        "CACHE_URL": f"redis://127.0.0.1:{redis.port}/1",
        "CELERY_QUEUE": f"faults-{os.getpid()}",
        "CARDSITE_DATA_DIR": str(tmp / "data"),
        "DJANGO_SETTINGS_MODULE": "cardsite.settings",
        "DEBUG": "0",
        "SECRET_KEY": "faults-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "AXES_ENABLED": "0",
        "THROTTLE_VALIDATE": "10000/min",
        "THROTTLE_DECK_WRITE": "10000/min",
        "THROTTLE_SEARCH": "10000/min",
        # test_cache_outage_lets_a_throttled_client_through's route; no other test uses it
        "THROTTLE_BULK": "3/hour",
    }


#: The database each site's own is copied from (CREATE DATABASE … TEMPLATE): migrated, with the
#: sample data and the test account, made once a session by `prepared_database`.
PREPARED_DATABASE = "cardsite_prepared"


@pytest.fixture(scope="session")
def prepared_database(private_postgres, private_redis, tmp_path_factory) -> str:
    """Migrate, load the sample data and make the test account in one process, once; returns
    the key of a session signed in as it (no password to hash at each sign-in), which every
    copy of the database holds."""
    private_postgres.createdb(PREPARED_DATABASE)
    env = site_environment(private_postgres, private_redis, tmp_path_factory.mktemp("prepare"))
    env["DATABASE_URL"] = private_postgres.database_url(PREPARED_DATABASE)
    done = subprocess.run(
        [sys.executable, "-c", PREPARE], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"preparing the database failed:\n{done.stderr[-3000:]}")
    return done.stdout.strip().splitlines()[-1]


class Site:
    """The site under gunicorn against the private services, and a signed-in client."""

    def __init__(
        self, pg: PrivatePostgres, redis: PrivateRedis, tmp: Path, prepared_session: str
    ) -> None:
        self.pg = pg
        self.redis = redis
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "gunicorn.log"
        self.env = site_environment(pg, redis, tmp)
        self.prepared_session = prepared_session
        self.session_key = self._prepare()
        self.proc: subprocess.Popen | None = None

    def _prepare(self) -> str:
        """Its database, a copy of the prepared one; returns the key of the test account's
        session there."""
        self.pg.createdb(self.env["DATABASE_URL"].rsplit("/", 1)[1], "-T", PREPARED_DATABASE)
        return self.prepared_session

    def start(self) -> None:
        """gunicorn as scripts/run.sh starts it (three sync workers here; --preload, to start
        quicker: the workers are forked from a process that imported the site)."""
        with open(self.log, "a") as out:
            self.proc = subprocess.Popen(
                [str(Path(sys.executable).parent / "gunicorn"), "cardsite.wsgi:application",
                 "--bind", f"127.0.0.1:{self.port}", "--workers", "3", "--timeout", "30", "--preload",
                 "--access-logfile", "-", "--error-logfile", "-"],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 90
        while True:
            try:
                if requests.get(f"{self.base}/health/", timeout=5).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn did not start:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.3)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=30)

    def signed_in(self) -> requests.Session:
        """A client signed in as the test account, sending the CSRF token on writes."""
        session = requests.Session()
        session.cookies.set("sessionid", self.session_key, domain="127.0.0.1")
        session.cookies.set("csrftoken", CSRF_SECRET, domain="127.0.0.1")
        session.headers["X-CSRFToken"] = CSRF_SECRET
        return session


@pytest.fixture(scope="session")
def faults_site(private_postgres, private_redis, prepared_database, tmp_path_factory):
    site = Site(
        private_postgres, private_redis, tmp_path_factory.mktemp("faults-site"), prepared_database
    )
    site.start()
    try:
        yield site
    finally:
        site.stop()


class ConfiguredSite(Site):
    """The site under gunicorn as `make run` starts it (scripts/run.sh: `-c
    python:cardsite.gunicorn_conf`, threaded workers keeping connections alive), on a database
    of its own in the private cluster: one worker of two threads."""

    DATABASE = "cardsite_edge"

    def _prepare(self) -> str:
        self.env["DATABASE_URL"] = self.pg.database_url(self.DATABASE)
        self.env["CACHE_URL"] = f"redis://127.0.0.1:{self.redis.port}/2"
        self.env["WEB_CONCURRENCY"] = "1"
        self.env["WEB_THREADS"] = "2"
        return super()._prepare()

    def start(self) -> None:
        with open(self.log, "a") as out:
            self.proc = subprocess.Popen(
                [str(Path(sys.executable).parent / "gunicorn"), "-c",
                 "python:cardsite.gunicorn_conf", "cardsite.wsgi:application",
                 "--bind", f"127.0.0.1:{self.port}"],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 90
        while True:
            try:
                if requests.get(f"{self.base}/health/", timeout=5).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn did not start:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.3)


@pytest.fixture(scope="session")
def configured_site(private_postgres, private_redis, prepared_database, tmp_path_factory):
    site = ConfiguredSite(
        private_postgres, private_redis, tmp_path_factory.mktemp("edge-site"), prepared_database
    )
    site.start()
    try:
        yield site
    finally:
        site.stop()
