"""Answers travel small and are cached as a production site's are: pages and JSON compressed
when the client accepts it, static files under hashed names with immutable caching, and a
client's connection kept open between requests (gunicorn as `make run` serves it)."""

from __future__ import annotations

import gzip
import http.client
import os
import re
import signal
import subprocess
import sys

import pytest

from tests.conftest import ROOT, _database_url_for_test_db
from tests.site.test_serving import _free_port, _wait_up


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/", "/cards/redline/", "/api/games/", "/api/cards/?game=redline"]
)
def test_pages_and_json_are_compressed_when_the_client_accepts_it(client, sample_catalogue, path):
    plain = client.get(path)
    packed = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    unpacked = gzip.decompress(packed.content)
    if path.startswith("/api/"):
        assert unpacked == plain.content
    else:  # a page carries a per-request CSRF token and CSP nonce: the same page all the same
        assert unpacked.startswith(b"<!doctype html>") and unpacked.rstrip().endswith(b"</html>")
        assert abs(len(unpacked) - len(plain.content)) < 200
    assert len(packed.content) < len(plain.content) / 2


@pytest.mark.django_db
def test_two_compressed_answers_of_one_page_differ_in_length_breach_mitigation(client):
    """Django's GZipMiddleware pads every compressed answer with a random number of bytes, so
    an attacker cannot read a secret off the compressed length."""
    lengths = {
        len(client.get("/api/games/", HTTP_ACCEPT_ENCODING="gzip").content) for _ in range(8)
    }
    assert len(lengths) > 1


@pytest.fixture(scope="module")
def served_with_hashed_static(tmp_path_factory, django_db_setup):
    """gunicorn with the site's own configuration, static files collected under hashed names."""
    static_root = tmp_path_factory.mktemp("static")
    env = dict(
        os.environ,
        DATABASE_URL=_database_url_for_test_db(),
        STATIC_MANIFEST="1",
        DEBUG="0",  # with DEBUG on, Django writes static addresses under their own names
        SECRET_KEY="test-only-key-for-a-served-site-" + "x" * 40,
        STATIC_ROOT=str(static_root),
        AXES_ENABLED="0",
        WEB_CONCURRENCY="1",
        WEB_THREADS="2",
    )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    port = _free_port()
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    proc = subprocess.Popen(
        [
            gunicorn,
            "-c",
            "python:cardsite.gunicorn_conf",
            "cardsite.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait_up(port, proc)
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


@pytest.mark.django_db(transaction=True)
def test_static_files_carry_hashed_names_and_immutable_caching(served_with_hashed_static):
    port = served_with_hashed_static
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/", headers={"Accept-Encoding": "gzip"})
    home = conn.getresponse()
    html = gzip.decompress(home.read()).decode()
    assert home.status == 200
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert assets, "the home page links no static file"
    for asset in assets:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", asset), f"{asset} has no hashed name"
    script = next(a for a in assets if a.endswith(".js"))
    # The same connection serves the next request: it was kept alive.
    conn.request("GET", script, headers={"Accept-Encoding": "gzip"})
    answer = conn.getresponse()
    body = answer.read()
    assert answer.status == 200
    cache_control = answer.getheader("Cache-Control")
    assert "immutable" in cache_control
    assert int(re.search(r"max-age=(\d+)", cache_control).group(1)) >= 31536000
    assert answer.getheader("Content-Encoding") == "gzip"
    assert body[:2] == b"\x1f\x8b"
    conn.close()


@pytest.mark.django_db(transaction=True)
def test_the_server_keeps_a_connection_alive_between_requests(served_with_hashed_static):
    port = served_with_hashed_static
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    sockets = set()
    for _ in range(3):
        conn.request("GET", "/health/")
        answer = answer_read = conn.getresponse()
        answer_read.read()
        assert answer.status == 200
        assert (answer.getheader("Connection") or "").lower() != "close"
        sockets.add(id(conn.sock))
    assert len(sockets) == 1, "each request opened a new connection"
    conn.close()
