"""Stopping `make run` (scripts/run.sh) while people use the site: Ctrl-C (SIGINT to the
process group, as a terminal sends it) or a SIGTERM to the group, with requests in flight
(clients that sent half a request, a form whose body never finishes arriving) and idle
kept-alive connections open. Every process the script started is gone within 30 s and the
port can be bound again: no web worker outlives its master holding the port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.faults.conftest import ROOT, free_port
from tests.faults.test_worker_restart import (
    BOOT_SECONDS,
    PASSED_ON,
    READY,
    _argv,
    alive,
    descendants,
    group_members,
    wait_until,
)

pytestmark = [pytest.mark.faults, pytest.mark.slow]

STOP_SECONDS = 30


def _reset_stop_signals() -> None:
    # A job started in the background by a non-interactive shell inherits SIGINT and SIGQUIT
    # ignored; a terminal's Ctrl-C reaches a process that handles them.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def processes_of(data_dir: Path) -> dict[int, tuple[int, int]]:
    """Every living process started with this data folder in its environment (the script and
    all it started, whatever their process group or parent now): pid → (parent, start)."""
    marker = f"CARDSITE_DATA_DIR={data_dir}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            text = (entry / "stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if marker in environ and fields[0] != "Z":
            found[int(entry.name)] = (int(fields[1]), int(fields[19]))
    return found


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _read_response(sock: socket.socket) -> bytes:
    """One whole response (headers and a Content-Length body), the connection left open."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection: {data[:300]!r}"
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk
        body += chunk
    return head


def open_traffic(port: int) -> list[socket.socket]:
    """Requests in flight and idle kept-alive connections, on every web worker likely."""
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    socks = []
    # Idle kept-alive connections: a page answered, the connection kept for the next request.
    for _ in range(6):
        sock = _connect(port)
        sock.sendall(b"GET /cards/ HTTP/1.1\r\n" + host + b"\r\n")
        head = _read_response(sock)
        assert head.startswith(b"HTTP/1.1 200"), head
        assert b"connection: close" not in head.lower()
        socks.append(sock)
    # Half a request: a worker thread waits for the rest of its headers.
    for _ in range(6):
        sock = _connect(port)
        sock.sendall(b"GET /decklists/ HTTP/1.1\r\n" + host + b"Accept: text/html\r\n")
        socks.append(sock)
    # A form whose body is announced longer than it comes: the view waits reading it.
    for _ in range(6):
        sock = _connect(port)
        sock.sendall(
            b"POST /accounts/login/ HTTP/1.1\r\n"
            + host
            + b"Content-Type: application/x-www-form-urlencoded\r\n"
            + b"Content-Length: 100000\r\n\r\nusername=demo&pass"
        )
        socks.append(sock)
    return socks


def port_free(port: int) -> bool:
    """Whether a new server could listen on the port (as gunicorn binds: SO_REUSEADDR, so
    that connections the old one closed, in TIME_WAIT, do not count)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            s.listen()
        except OSError:
            return False
        return True


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_to_the_group_stops_everything_with_requests_open(tmp_path, signum):
    port = free_port()
    data_dir = tmp_path / "data"
    log = tmp_path / "run.log"
    env = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
    env.update(
        CARDSITE_DATA_DIR=str(data_dir),
        STATIC_ROOT=str(tmp_path / "static"),  # never the suite's own (tests/conftest.py)
        HOST="127.0.0.1",
        PORT=str(port),
        PY=".venv/bin/python",
        WEB_CONCURRENCY="2",
        WEB_THREADS="4",
    )
    with open(log, "wb") as out:
        script = subprocess.Popen(
            ["scripts/run.sh"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_reset_stop_signals,
        )
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    socks: list[socket.socket] = []
    seen: dict[int, tuple[int, int]] = {}
    try:

        def booted() -> bool:
            assert script.poll() is None, f"scripts/run.sh ended (exit {script.returncode})"
            if not READY.search(log.read_text(errors="replace")):
                return False
            try:
                with _connect(port) as sock:
                    sock.sendall(b"GET / HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")
                    return sock.recv(16).startswith(b"HTTP/1.1 200")
            except OSError:
                return False

        wait_until("the home page and the worker's ready line", booted, BOOT_SECONDS, log)
        socks = open_traffic(port)
        time.sleep(1)  # the half-sent requests reach their threads
        seen = processes_of(data_dir) | descendants(script.pid)
        web = [pid for pid in seen if any("gunicorn" in part for part in _argv(pid)[:2])]
        assert len(web) >= 3, f"no gunicorn master and workers among {seen}"

        os.killpg(script.pid, signum)
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline and (
            script.poll() is None
            or group_members(script.pid)
            or processes_of(data_dir)
            or any(alive((p, s)) for p, (_, s) in seen.items())
        ):
            time.sleep(0.3)
        left = {p: _argv(p) for p in processes_of(data_dir)} | {
            p: _argv(p) for p, (_, s) in seen.items() if alive((p, s))
        }
        group_left = group_members(script.pid)
        free = port_free(port)
    finally:
        for sock in socks:
            sock.close()
        # Whatever is left is killed, so that nothing outlives the test.
        if group_members(script.pid):
            os.killpg(script.pid, signal.SIGKILL)
        for pid, (_, started) in (seen | processes_of(data_dir)).items():
            if alive((pid, started)):
                os.kill(pid, signal.SIGKILL)
        script.wait(timeout=30)
    name = signal.Signals(signum).name
    tail = log.read_text(errors="replace")[-3000:]
    assert not group_left, f"the process group still ran 30 s after {name}: {group_left}\n{tail}"
    assert not left, f"still running 30 s after {name}: {left}\n{tail}"
    assert free, f"port {port} still taken 30 s after {name}\n{tail}"
