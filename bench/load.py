"""Load benchmark: many concurrent clients against the served site.

For LOAD_SECONDS (60) seconds, LOAD_CLIENTS (50) clients each send one request after another, a
mix of browse pages (a game's card list, a card page, a search page), the search API and the
validate API (a sample deck list of every game). It runs twice in one go, on the same database:

1. against the server `make run` starts (scripts/run.sh, with the production profile), and
2. against Django's development server (`manage.py runserver`) as the baseline,

and prints, for each, the requests served, errors (any status >= 400 or a failed connection),
p50/p95/p99 latency and the ratio of the two. Targets on a 2-core machine: 0 errors and
p95 <= 300 ms for the first.

Both use PostgreSQL and Redis: DATABASE_URL (default a database `cardsite_load` on
127.0.0.1:5432, created when missing) and CELERY_BROKER_URL (default Redis db 9, also the cache
and so the shared throttles). The API throttles are raised for the run (the clients all come from
127.0.0.1, which the real limits would rightly refuse); everything else is production settings.

Run: .venv/bin/python bench/load.py   (or `make bench`; LOAD_CLIENTS / LOAD_SECONDS to change)
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(Path(sys.executable))
CLIENTS = int(os.environ.get("LOAD_CLIENTS", "50"))
SECONDS = float(os.environ.get("LOAD_SECONDS", "60"))
HOST = "127.0.0.1"
DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cardsite_load")
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/9")


def server_env(port: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_ENV="production",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=DATABASE_URL,
        CELERY_BROKER_URL=BROKER_URL,
        HOST=HOST,
        PORT=str(port),
        PY=PY,
        THROTTLE_VALIDATE="1000000/min",
        THROTTLE_DECK_WRITE="1000000/min",
        THROTTLE_SIMULATE="1000000/min",
        THROTTLE_BULK="1000000/min",
        THROTTLE_SEARCH="1000000/min",
        AXES_ENABLED="0",
    )
    return env


def ensure_database() -> None:
    import psycopg

    base, _, name = DATABASE_URL.rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not found:
            conn.execute(f'CREATE DATABASE "{name}"')


def wait_until_up(port: int, proc: subprocess.Popen, limit: float = 240.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server on port {port} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/cards/", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1)
    raise SystemExit(f"the server on port {port} did not answer within {limit:.0f} s")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def request_mix(port: int) -> list[tuple[str, str, bytes | None]]:
    """(method, path, JSON body) requests, read from the API of the running site."""
    base = f"http://{HOST}:{port}"
    with urllib.request.urlopen(f"{base}/api/games/", timeout=10) as response:
        games = json.load(response)
    if isinstance(games, dict):
        games = games["results"]
    mix: list[tuple[str, str, bytes | None]] = []
    for game in games:
        slug = game["slug"]
        with urllib.request.urlopen(f"{base}/api/cards/?game={slug}", timeout=10) as response:
            cards = json.load(response)["results"]
        mix.append(("GET", f"/cards/{slug}/", None))
        for card in cards[:6]:
            mix.append(("GET", f"/cards/{slug}/card/{card['id']}/", None))
            word = card["name"].split()[0][:5]
            mix.append(("GET", f"/cards/{slug}/?q={urllib.request.quote(word)}", None))
            mix.append(("GET", f"/api/cards/?game={slug}&q={urllib.request.quote(word)}", None))
        for deck in sorted((ROOT / "catalogue/sample_data" / slug / "decks").glob("*.txt")):
            body = {"game": slug, "format": deck.stem, "list": deck.read_text()}
            payload = json.dumps(body).encode()
            mix.extend([("POST", "/api/validate/", payload)] * 3)
    return mix


async def one_request(port: int, method: str, path: str, body: bytes | None) -> int:
    reader, writer = await asyncio.open_connection(HOST, port)
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close"]
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
    await writer.drain()
    status_line = await reader.readline()
    while await reader.read(65536):
        pass
    writer.close()
    return int(status_line.split()[1]) if status_line else 0


async def client(port, mix, deadline, latencies, errors, rng) -> None:
    while time.monotonic() < deadline:
        method, path, body = rng.choice(mix)
        start = time.perf_counter()
        try:
            status = await asyncio.wait_for(one_request(port, method, path, body), 30)
        except (TimeoutError, OSError, ValueError, IndexError):
            status = 0
        latencies.append(time.perf_counter() - start)
        if status == 0 or status >= 400:
            errors[status] = errors.get(status, 0) + 1


async def drive(port: int, mix) -> dict:
    latencies: list[float] = []
    errors: dict[int, int] = {}
    deadline = time.monotonic() + SECONDS
    started = time.monotonic()
    await asyncio.gather(
        *(client(port, mix, deadline, latencies, errors, random.Random(i)) for i in range(CLIENTS))
    )
    elapsed = time.monotonic() - started
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    return {
        "requests": len(latencies),
        "rate": len(latencies) / elapsed,
        "errors": sum(errors.values()),
        "by_status": errors,
        "p50": cuts[49] * 1000,
        "p95": cuts[94] * 1000,
        "p99": cuts[98] * 1000,
    }


def run_against(label: str, command: list[str], port: int) -> dict:
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env=server_env(port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_until_up(port, proc)
        mix = request_mix(port)
        result = asyncio.run(drive(port, mix))
    finally:
        stop(proc)
    errors = ", ".join(f"{k or 'conn'}: {v}" for k, v in sorted(result["by_status"].items()))
    print(
        f"  {label:<28} {result['requests']:>7,} requests ({result['rate']:,.0f}/s)  "
        f"errors {result['errors']}{' (' + errors + ')' if errors else ''}  "
        f"p50 {result['p50']:.0f} ms  p95 {result['p95']:.0f} ms  p99 {result['p99']:.0f} ms"
    )
    return result


def main() -> None:
    ensure_database()
    print(
        f"Load: {CLIENTS} clients for {SECONDS:.0f} s each, PostgreSQL + Redis, production profile"
    )
    served = run_against("make run (scripts/run.sh)", ["bash", "scripts/run.sh"], 8731)
    baseline = run_against(
        "runserver (baseline)", [PY, "manage.py", "runserver", "--noreload", f"{HOST}:8732"], 8732
    )
    print(
        f"  ratio p95 runserver / make run: {baseline['p95'] / max(served['p95'], 1e-9):.1f}x; "
        f"throughput make run / runserver: {served['rate'] / max(baseline['rate'], 1e-9):.1f}x"
    )
    print(
        f"  targets for make run: 0 errors [{'met' if served['errors'] == 0 else 'MISSED'}], "
        f"p95 <= 300 ms [{'met' if served['p95'] <= 300 else 'MISSED'}]"
    )


if __name__ == "__main__":
    main()
