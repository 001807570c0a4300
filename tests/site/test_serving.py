"""Served as in production: health for a load balancer, staff-only worker ping, throttles
that a forged X-Forwarded-For does not escape and that hold across gunicorn workers (the
cache is Redis), the expensive pages throttled as their API routes are, offline API docs,
the Content-Security-Policy, uploaded media and the log lines."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.throttling import ScopedRateThrottle

from cardsite.workers import note_worker_alive
from tests.conftest import _database_url_for_test_db
from tests.decks.conftest import sample_list

ROOT = Path(__file__).resolve().parents[2]


def _rates(**changes):
    rates = dict(ScopedRateThrottle.THROTTLE_RATES, **changes)
    ScopedRateThrottle.THROTTLE_RATES = rates  # restored by the conftest after each test
    return rates


# --- Health -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_health_answers_ok_with_every_service_reachable(client):
    note_worker_alive()  # a worker took a task just now
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "broker": "ok",
        "worker": {"status": "ok", "last_seen_seconds": 0, "oldest_queued_seconds": None},
    }
    assert response["Cache-Control"] == "no-store"
    assert client.post("/health/").status_code == 405  # read-only


@pytest.mark.django_db
def test_health_says_which_service_is_down(client):
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://127.0.0.1:1/0",
            }
        }
    ):
        response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unhealthy" and body["cache"].startswith("unreachable")
    assert body["database"] == "ok"
    assert body["down"] == ["cache"] and body["message"] == "cache down"


@pytest.mark.django_db
def test_the_worker_ping_is_for_staff_only(client, user):
    assert client.post("/health/worker/").status_code == 403
    assert client.get("/health/worker/?id=1").status_code == 403
    client.force_login(user)
    assert client.post("/health/worker/").status_code == 403


# --- Throttles ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_forged_forwarded_for_does_not_escape_the_api_throttle(client, sample_catalogue):
    _rates(validate="2/min")
    body = {"game": "redline", "format": "standard", "list": "General:\n1 General Jeffrey Moore"}
    codes = [
        client.post(
            "/api/validate/",
            body,
            content_type="application/json",
            HTTP_X_FORWARDED_FOR=f"10.0.0.{i}",
        ).status_code
        for i in range(4)
    ]
    assert codes == [200, 200, 429, 429]


@pytest.mark.django_db
@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_one_proxy_the_address_it_saw_is_the_client(rf):
    from cardsite.clientip import client_ip

    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9", REMOTE_ADDR="10.0.0.1")
    assert client_ip(request) == "203.0.113.9"  # the forged first hop is ignored
    assert client_ip(rf.get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"
    with override_settings(TRUSTED_PROXY_COUNT=0):
        assert client_ip(request) == "10.0.0.1"


@pytest.mark.django_db
def test_the_check_page_is_throttled_like_the_validate_api(client, sample_catalogue):
    _rates(validate="2/min")
    data = {"game": "redline", "format": "standard", "list": sample_list("redline", "standard")}
    codes = [
        client.post("/check/", data, HTTP_X_FORWARDED_FOR=f"10.1.0.{i}").status_code
        for i in range(3)
    ]
    assert codes[:2] != [429, 429] and codes[2] == 429
    response = client.post("/check/", data)
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert "Too many requests" in response.content.decode()
    # An htmx request gets the message as a fragment for its result panel.
    fragment = client.post("/check/", data, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 429 and "<html" not in fragment.content.decode()
    # The page's GET is never throttled.
    assert client.get("/check/").status_code == 200


@pytest.mark.django_db
def test_close_combat_and_the_goldfish_page_are_throttled(client, user, sample_catalogue):
    _rates(simulate="1/min")
    client.force_login(user)
    data = {"unit_a": "Infantry", "unit_b": "Armored", "games": 10, "max_rounds": 5}
    first = client.post("/play/tactical-assault/close-combat/", data)
    assert first.status_code != 429
    assert client.post("/play/tactical-assault/close-combat/", data).status_code == 429
    assert client.post("/play/red-mittens/goldfish/", {"games": 1}).status_code == 429
    # A live tool's page is a GET, never throttled.
    assert client.get("/play/red-code/crew/").status_code == 200


@pytest.mark.django_db
def test_the_bulk_download_is_throttled(client, sample_catalogue):
    _rates(bulk="2/min")
    codes = [client.get("/api/games/hex-skirmish/bulk/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_gunicorn(
    port: int, env: dict, workers: int = 1, threads: int = 1, *, config: bool = False
) -> subprocess.Popen:
    """gunicorn serving the site on `port`; with `config`, read from the site's own
    configuration as `make run` starts it (`-c python:cardsite.gunicorn_conf`)."""
    gunicorn = Path(sys.executable).parent / "gunicorn"
    return subprocess.Popen(
        [
            str(gunicorn),
            *(["-c", "python:cardsite.gunicorn_conf"] if config else []),
            "cardsite.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _wait_up(port: int, proc: subprocess.Popen, *, any_answer: bool = False) -> None:
    """Until the health page answers 200 (with `any_answer`, answers at all)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=5)
            return
        except OSError as exc:
            if any_answer and isinstance(exc, urllib.error.HTTPError):
                return
            if time.monotonic() > deadline or proc.poll() is not None:
                raise
            time.sleep(0.3)


@pytest.mark.django_db(transaction=True)
def test_two_gunicorn_workers_share_one_limit(live_catalogue):
    """Ten requests alternating between two gunicorn processes (separate memories, as two
    workers or two machines) with a limit of three: three pass in all, because the counter is
    in the shared cache (Redis when configured, else the file cache of the data folder)."""
    env = dict(
        os.environ,
        DATABASE_URL=_database_url_for_test_db(),
        THROTTLE_VALIDATE="3/min",
        AXES_ENABLED="0",
    )
    cache.clear()
    ports = [_free_port(), _free_port()]
    procs = [_start_gunicorn(port, env) for port in ports]
    codes = []
    try:
        for port, proc in zip(ports, procs, strict=True):
            _wait_up(port, proc)
        body = json.dumps(
            {"game": "redline", "format": "standard", "list": "General:\n1 General Jeffrey Moore"}
        ).encode()
        for i in range(10):
            request = urllib.request.Request(
                f"http://127.0.0.1:{ports[i % 2]}/api/validate/",
                data=body,
                headers={"Content-Type": "application/json", "X-Forwarded-For": f"10.9.9.{i}"},
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    codes.append(response.status)
            except urllib.error.HTTPError as exc:
                codes.append(exc.code)
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.wait(timeout=30)
    assert codes == [200, 200, 200] + [429] * 7, codes


def test_gunicorn_makes_no_control_socket_in_the_home_folder(tmp_path):
    """Served as `make run` and production serve it (`-c python:cardsite.gunicorn_conf`),
    gunicorn writes nothing under the home folder: its control socket (on by default since
    gunicorn 25.1, made under $HOME/.gunicorn/ when there is no $XDG_RUNTIME_DIR) is off."""
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    env["HOME"] = str(tmp_path)
    port = _free_port()
    proc = _start_gunicorn(port, env, config=True)
    try:
        _wait_up(port, proc, any_answer=True)  # a worker is up: the master made what it makes
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    assert list(tmp_path.iterdir()) == []


# --- Docs, CSP, media, logs -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_docs_need_no_internet(client):
    response = client.get("/api/docs/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "drf_spectacular_sidecar" in html
    assert "https://" not in html and "http://" not in html.replace("http://testserver", "")
    assert "<script>" not in html  # the split view serves its start-up script as a file
    init = client.get("/api/docs/?script=")
    assert init.status_code == 200 and "SwaggerUIBundle" in init.content.decode()


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_script(client, sample_catalogue):
    response = client.get("/cards/redline/")
    policy = response["Content-Security-Policy"]
    assert (
        "script-src 'self'" in policy
        and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    )
    assert "frame-ancestors 'none'" in policy
    for url in ("/", "/cards/redline/", "/check/", "/play/", "/decks/public/"):
        html = client.get(url).content.decode()
        assert "<script>" not in html and "javascript:" not in html and " onsubmit=" not in html


@pytest.mark.django_db
def test_uploaded_media_are_served_safely(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "face.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 20)
    (tmp_path / "cards" / "page.html").write_text("<script>alert(1)</script>")
    (tmp_path.parent / "secret.txt").write_text("no")
    image = client.get("/media/cards/face.png")
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert image["X-Content-Type-Options"] == "nosniff" and "max-age" in image["Cache-Control"]
    other = client.get("/media/cards/page.html")
    assert other.status_code == 200 and "attachment" in other["Content-Disposition"]
    assert client.get("/media/../secret.txt").status_code == 404
    assert client.get("/media/cards/").status_code == 404
    assert client.get("/media/cards/missing.png").status_code == 404


def test_log_lines_are_structured():
    from cardsite.logs import StructuredFormatter

    record = logging.makeLogRecord(
        {"name": "catalogue", "levelname": "INFO", "msg": "import finished", "cards": 12}
    )
    line = StructuredFormatter().format(record)
    assert " INFO catalogue import finished cards=12" in line
    as_json = json.loads(StructuredFormatter(json=True).format(record))
    assert as_json["logger"] == "catalogue" and as_json["cards"] == 12


def test_every_app_has_its_logger():
    from django.conf import settings

    for app in ("cardsite", "catalogue", "decks", "simulations", "play", "validation"):
        assert app in settings.LOGGING["loggers"]
