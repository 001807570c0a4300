"""`make run` on the embedded defaults (SQLite and the filesystem broker in its data folder):
the Celery worker killed with SIGKILL is started again by scripts/run.sh, a goldfish run
queued while it was dead finishes, the health page sees the new worker answer, and a SIGTERM
to the process group stops everything, the new worker included (it runs in a session of its
own, out of the group's reach: the script must stop it)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import wait_for
from tests.faults.conftest import ROOT, free_port

pytestmark = [pytest.mark.faults, pytest.mark.slow]

#: The demo account scripts/run.sh makes (manage.py ensure_demo_user's defaults).
DEMO = {"username": "demo", "password": "demo-cards-2026"}
#: Celery's line when a worker is ready to take tasks.
READY = re.compile(r"celery@\S+ ready\.")
#: The environment a person's shell passes on; nothing of the suite's own (its database, broker,
#: cache, queue names, settings) reaches the script, which uses the embedded defaults.
PASSED_ON = ("PATH", "HOME", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR")
BOOT_SECONDS = 300  # migrations, the sample data, the goldfish's compilation, on SQLite
WAIT_SECONDS = 120


def wait_until(what: str, predicate, timeout: float, log: Path, interval: float = 0.3):
    """Poll `predicate` until it returns a true value; fail naming `what`, with the log's end."""

    def tail() -> str:
        text = log.read_text(errors="replace")[-4000:] if log.exists() else ""
        return f"the script's output ends:\n{text}"

    return wait_for(predicate, timeout, interval, what=what, detail=tail)


# --- Processes, read from /proc --------------------------------------------------------------


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time) of a process; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[19])


def _argv(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def descendants(root: int) -> dict[int, tuple[int, int]]:
    """Every living process below `root`: pid → (parent pid, start time)."""
    parents: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] != "Z":
                parents[int(entry.name)] = (stat[1], stat[2])
    found: dict[int, tuple[int, int]] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, started) in parents.items():
            if ppid == parent and pid not in found:
                found[pid] = (ppid, started)
                frontier.append(pid)
    return found


def _is_celery_worker(pid: int) -> bool:
    argv = _argv(pid)
    return "worker" in argv and any(Path(arg).name == "celery" for arg in argv)


def worker_main(script: int) -> tuple[int, int] | None:
    """The Celery worker's main process below the script (pid, start time): the topmost
    `celery … worker` process, whose pool processes are its children."""
    below = descendants(script)
    for pid, (ppid, started) in sorted(below.items()):
        if _is_celery_worker(pid) and not _is_celery_worker(ppid):
            return pid, started
    return None


def alive(process: tuple[int, int]) -> bool:
    """Whether this process (pid, start time) still runs (a zombie has ended; a pid used
    again by another process is not it)."""
    stat = _stat(process[0])
    return stat is not None and stat[0] != "Z" and stat[2] == process[1]


def group_members(pgid: int) -> dict[int, list[str]]:
    """The living processes of a process group (zombies have ended): pid → argv."""
    members = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            if fields[0] != "Z" and int(fields[2]) == pgid:
                members[int(entry.name)] = _argv(int(entry.name))
    return members


# --- The test ---------------------------------------------------------------------------------


def test_make_run_starts_the_killed_worker_again(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "run.log"
    env = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
    env.update(
        CARDSITE_DATA_DIR=str(tmp_path / "data"),
        STATIC_ROOT=str(tmp_path / "static"),  # never the suite's own (tests/conftest.py)
        HOST="127.0.0.1",
        PORT=str(port),
        PY=".venv/bin/python",  # as the Makefile passes it
        WEB_CONCURRENCY="2",  # fewer web processes than the default 4 on a loaded machine
    )
    seen: dict[int, tuple[int, int]] = {}  # every process the script started, for the end

    def note_processes() -> None:
        seen.update(descendants(script.pid))

    def ready_lines() -> int:
        return len(READY.findall(log.read_text(errors="replace"))) if log.exists() else 0

    # `setsid make run`: the script leads a process group of its own.
    with open(log, "wb") as out:
        script = subprocess.Popen(
            ["scripts/run.sh"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        session = requests.Session()

        def home_page() -> bool:
            try:
                return session.get(f"{base}/", timeout=10).status_code == 200
            except requests.RequestException:
                return False

        def booted() -> bool:
            assert script.poll() is None, f"scripts/run.sh ended (exit {script.returncode})"
            return ready_lines() >= 1 and home_page()

        wait_until("the home page (200) and the worker's ready line", booted, BOOT_SECONDS, log)
        note_processes()

        # Signed in as the demo account, through the sign-in form.
        r = session.get(f"{base}/accounts/login/", timeout=30)
        assert r.status_code == 200
        r = session.post(
            f"{base}/accounts/login/",
            data={**DEMO, "csrfmiddlewaretoken": session.cookies["csrftoken"]},
            allow_redirects=False,
            timeout=30,
        )
        assert r.status_code == 302, r.text[:500]
        session.headers["X-CSRFToken"] = session.cookies["csrftoken"]
        decks = session.get(f"{base}/api/decks/?game=redline", timeout=30).json()["results"]
        deck = next(d for d in decks if d["owner"] == DEMO["username"])

        first = worker_main(script.pid)
        assert first is not None, f"no Celery worker below the script: {descendants(script.pid)}"
        first_pool = {
            pid: started
            for pid, (ppid, started) in descendants(first[0]).items()
            if ppid == first[0]
        }
        assert first_pool, "the worker has no pool processes"
        others_before = {
            pid: started
            for pid, (_, started) in descendants(script.pid).items()
            if pid != first[0] and pid not in first_pool
        }

        # kill -9 the worker's main process, nothing else.
        os.kill(first[0], signal.SIGKILL)
        killed_at = time.time()

        # A goldfish run queued while the worker is dead (or just starting again).
        r = session.post(
            f"{base}/api/decks/{deck['id']}/simulations/",
            json={"kind": "redline-goldfish", "params": {"games": 2000, "turns": 8}, "seed": 7},
            timeout=30,
        )
        assert r.status_code == 202, r.text[:500]
        run = r.json()
        assert run["status"] == "queued"

        # The script says so and starts a new worker, which comes up ready.
        wait_until(
            "the script's note that the worker stopped",
            lambda: (
                "the Celery worker stopped (exit 137); starting it again in 2 s"
                in log.read_text(errors="replace")
            ),
            WAIT_SECONDS,
            log,
        )
        wait_until("the worker's second ready line", lambda: ready_lines() >= 2, WAIT_SECONDS, log)
        second = worker_main(script.pid)
        assert second is not None and second != first
        note_processes()
        # The old worker's pool went with it; the site, beat and the script itself did not.
        wait_until(
            "the killed worker's pool processes' end",
            lambda: not any(alive(p) for p in first_pool.items()),
            WAIT_SECONDS,
            log,
        )
        assert all(alive((pid, started)) for pid, started in others_before.items())
        assert script.poll() is None

        def run_finished() -> str | None:
            answer = session.get(f"{base}/api/simulations/{run['id']}/", timeout=30).json()
            return answer["status"] if answer["status"] in ("done", "failed") else None

        assert wait_until("the run's end", run_finished, WAIT_SECONDS, log, interval=0.5) == "done"
        done = session.get(f"{base}/api/simulations/{run['id']}/", timeout=30).json()
        assert done["progress"] == 1.0 and done["chunks_done"] == done["n_chunks"]

        # The health page: a worker answered after the kill, and answers a ping now.
        health = session.get(f"{base}/health/", timeout=30)
        assert health.status_code == 200, health.text
        worker = health.json()["worker"]
        assert worker["status"] == "ok"
        assert worker["last_seen_seconds"] <= time.time() - killed_at
        r = session.post(f"{base}/health/worker/", timeout=30)
        assert r.status_code == 202
        ping = r.json()["id"]
        wait_until(
            "the worker's answer to the health page's ping",
            lambda: session.get(f"{base}/health/worker/?id={ping}", timeout=30).json()["answered"],
            WAIT_SECONDS,
            log,
        )
        note_processes()
    finally:
        # Stop it as CI does: SIGTERM to the process group, all gone within 30 s.
        if script.poll() is None:
            note_processes()
        if group_members(script.pid):
            os.killpg(script.pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
            script.poll() is None
            or group_members(script.pid)
            or any(alive((p, s)) for p, (_, s) in seen.items())
        ):
            time.sleep(0.3)
        left = {p: _argv(p) for p, (_, s) in seen.items() if alive((p, s))}
        group_left = group_members(script.pid)
        # Whatever is left is killed, so that nothing outlives the test.
        if group_left:
            os.killpg(script.pid, signal.SIGKILL)
        for pid, (_, started) in seen.items():
            if alive((pid, started)):
                os.kill(pid, signal.SIGKILL)
        script.wait(timeout=30)
    assert not group_left, f"the process group still ran 30 s after SIGTERM: {group_left}"
    assert not left, f"still running 30 s after SIGTERM: {left}"
    # The new worker stopped its pool itself (a warm shutdown), as at every stop.
    output = log.read_text(errors="replace")
    assert "Warm shutdown" in output.split("the Celery worker stopped", 1)[1]
    assert not re.search(r"ForkPoolWorker-\d+' pid:\d+ exited with 'signal", output)
