"""Load benchmark: many concurrent clients against the served site.

For LOAD_SECONDS (60) seconds, LOAD_CLIENTS (50) clients each send one request after another, a
mix of browse pages (a game's card list, a card page, a search page), the search API and the
validate API (a sample deck list of every game). It runs twice in one go, on the same database:

1. against the server `make run` starts (scripts/run.sh, with the production profile), and
2. against Django's development server (`manage.py runserver`) as the baseline,

and prints, for each, the requests served, errors (any status >= 400 or a failed connection),
p50/p95/p99 latency and the ratio of the two. Each client keeps its connection alive between
its requests, as a browser or an API client does (LOAD_KEEPALIVE=0: one connection a request).
Targets on a 2-core machine: 0 errors and p95 <= 200 ms for the first.

Then the capacity of one core: the same server pinned to one core (2 gunicorn workers,
LOAD_CAPACITY_WORKERS) and the clients to the other, with 1, 2, 4, ... clients
(LOAD_CAPACITY_STEPS) for LOAD_CAPACITY_SECONDS (15) each, until the p95 passes the target; it
prints the requests/s one core serves with the p95 <= 200 ms, the figure docs/operations.md
sizes a deployment by (LOAD_CAPACITY=0 skips it).

Against the first it then runs again with LOAD_ATTACKERS (8) attackers beside the ordinary
clients, each from an address of its own, sending one after another: searches of 999-letter
words (page and API), lists of 300 unknown card names to the validate API, and the bulk
download of a game. It prints the ordinary clients' p95 without and with the attackers (the
same server, one after the other) and their ratio (target <= 2x), and what the attackers'
requests were answered (by status).

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
sys.path.insert(0, str(ROOT))

from validation.packages import sample_lists  # noqa: E402

PY = str(Path(sys.executable))
CLIENTS = int(os.environ.get("LOAD_CLIENTS", "50"))
SECONDS = float(os.environ.get("LOAD_SECONDS", "60"))
HOST = "127.0.0.1"
ATTACKERS = int(os.environ.get("LOAD_ATTACKERS", "8"))
# The first of the four ports the servers listen on (LOAD_PORT, +1, +2, +3).
PORT = int(os.environ.get("LOAD_PORT", "8731"))
# LOAD_BASELINE=0 skips the runserver baseline (the attackers' comparison needs none).
BASELINE = os.environ.get("LOAD_BASELINE", "1") != "0"
# Each ordinary client keeps its connection alive between requests, as a browser or an API
# client does (LOAD_KEEPALIVE=0: a new connection a request, closed after the answer). The
# attackers open a connection a request.
KEEP_ALIVE = os.environ.get("LOAD_KEEPALIVE", "1") != "0"
# LOAD_CAPACITY=0 skips the one-core capacity run: the server pinned to one core, the clients
# to the other, stepping the number of clients (LOAD_CAPACITY_STEPS) for LOAD_CAPACITY_SECONDS
# each, to find the requests/s one core serves with the p95 at or under P95_TARGET_MS.
CAPACITY = os.environ.get("LOAD_CAPACITY", "1") != "0"
CAPACITY_SECONDS = float(os.environ.get("LOAD_CAPACITY_SECONDS", "15"))
CAPACITY_STEPS = [
    int(n) for n in os.environ.get("LOAD_CAPACITY_STEPS", "1,2,4,6,8,12,16,24").split(",")
]
P95_TARGET_MS = 200.0
# How long a server may take to start (migrate, sample data, the goldfish warmed) on a busy machine.
START_SECONDS = float(os.environ.get("LOAD_START_SECONDS", "240"))
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
        # The bulk download keeps its production rate: only the attackers ask for it.
        THROTTLE_BULK=os.environ.get("THROTTLE_BULK", "30/min"),
        THROTTLE_SEARCH="1000000/min",
        AXES_ENABLED="0",
        # Each client sends X-Forwarded-For with an address of its own: the throttles count
        # per client, as behind a load balancer.
        TRUSTED_PROXY_COUNT="1",
    )
    return env


def ensure_database() -> None:
    import psycopg

    base, _, name = DATABASE_URL.rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not found:
            conn.execute(f'CREATE DATABASE "{name}"')


def wait_until_up(port: int, proc: subprocess.Popen, limit: float = START_SECONDS) -> None:
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
        for deck in sample_lists(slug):
            body = {"game": slug, "format": deck.format, "list": deck.text()}
            payload = json.dumps(body).encode()
            mix.extend([("POST", "/api/validate/", payload)] * 3)
    return mix


def attack_mix(port: int) -> list[tuple[str, str, bytes | None]]:
    """The attackers' requests: 999-letter search words, lists of many unknown names, the
    bulk download."""
    base = f"http://{HOST}:{port}"
    with urllib.request.urlopen(f"{base}/api/games/", timeout=10) as response:
        games = json.load(response)
    if isinstance(games, dict):
        games = games["results"]
    mix: list[tuple[str, str, bytes | None]] = []
    rng = random.Random(99)
    for game in games:
        slug = game["slug"]
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(999))
        mix.append(("GET", f"/api/cards/?game={slug}&q={word}", None))
        mix.append(("GET", f"/cards/{slug}/?q={word}", None))
        fmt = sample_lists(slug)[0]
        unknown = "".join(
            f"1 {''.join(rng.choice('abcdefghij') for _ in range(12))} {i}\n" for i in range(300)
        )
        body = {"game": slug, "format": fmt.format, "list": unknown}
        mix.append(("POST", "/api/validate/", json.dumps(body).encode()))
        mix.append(("GET", f"/api/games/{slug}/bulk/", None))
    return mix


async def one_request(
    port: int, method: str, path: str, body: bytes | None, address: str = "10.0.0.1"
) -> int:
    """One request on a connection of its own (closed after the answer)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(_request_bytes(method, path, body, address, keep_alive=False))
        await writer.drain()
        status_line = await reader.readline()
        while await reader.read(65536):
            pass
    finally:
        writer.close()
    return int(status_line.split()[1]) if status_line else 0


def _request_bytes(
    method: str, path: str, body: bytes | None, address: str, *, keep_alive: bool
) -> bytes:
    head = [
        f"{method} {path} HTTP/1.1",
        f"Host: {HOST}",
        "Accept-Encoding: gzip",
        f"Connection: {'keep-alive' if keep_alive else 'close'}",
        f"X-Forwarded-For: {address}",
    ]
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + (body or b"")


class Connection:
    """A client's connection kept alive between its requests, as a browser's or an API
    client's is (gunicorn's threaded workers keep it open, cardsite/gunicorn_conf.py); opened
    again when the server closed it."""

    def __init__(self, port: int, address: str) -> None:
        self.port = port
        self.address = address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes | None) -> int:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        self.writer.write(_request_bytes(method, path, body, self.address, keep_alive=True))
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            self.close()
            raise ConnectionResetError("the server closed the connection")
        headers: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                await self.reader.readexactly(size + 2)
            await self.reader.readline()
        else:  # an answer that ends with its connection
            while await self.reader.read(65536):
                pass
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return int(status_line.split()[1])

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def client(port, mix, deadline, latencies, errors, rng, address="10.0.0.1") -> None:
    connection = Connection(port, address) if KEEP_ALIVE else None
    while time.monotonic() < deadline:
        method, path, body = rng.choice(mix)
        start = time.perf_counter()
        try:
            if connection is not None:
                status = await asyncio.wait_for(connection.request(method, path, body), 30)
            else:
                status = await asyncio.wait_for(one_request(port, method, path, body, address), 30)
        except (TimeoutError, OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            status = 0
            if connection is not None:
                connection.close()
        latencies.append(time.perf_counter() - start)
        if status == 0 or status >= 400:
            errors[status] = errors.get(status, 0) + 1
    if connection is not None:
        connection.close()


async def attacker(port, mix, deadline, answered, rng, address) -> None:
    while time.monotonic() < deadline:
        method, path, body = rng.choice(mix)
        try:
            status = await asyncio.wait_for(one_request(port, method, path, body, address), 30)
        except (TimeoutError, OSError, ValueError, IndexError):
            status = 0
        answered[status] = answered.get(status, 0) + 1


async def drive(
    port: int, mix, attacks=None, answered=None, clients: int = CLIENTS, seconds: float = SECONDS
) -> dict:
    latencies: list[float] = []
    errors: dict[int, int] = {}
    deadline = time.monotonic() + seconds
    started = time.monotonic()
    ordinary = [
        client(
            port, mix, deadline, latencies, errors, random.Random(i), f"10.1.{i // 250}.{i % 250}"
        )
        for i in range(clients)
    ]
    hostile = [
        attacker(port, attacks, deadline, answered, random.Random(1000 + i), f"10.66.0.{i + 1}")
        for i in range(ATTACKERS if attacks else 0)
    ]
    await asyncio.gather(*ordinary, *hostile)
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


def _line(label: str, result: dict) -> None:
    errors = ", ".join(f"{k or 'conn'}: {v}" for k, v in sorted(result["by_status"].items()))
    print(
        f"  {label:<28} {result['requests']:>7,} requests ({result['rate']:,.0f}/s)  "
        f"errors {result['errors']}{' (' + errors + ')' if errors else ''}  "
        f"p50 {result['p50']:.0f} ms  p95 {result['p95']:.0f} ms  p99 {result['p99']:.0f} ms"
    )


def run_with_attackers(command: list[str], port: int) -> None:
    """The ordinary clients alone, then beside the attackers, on one server."""
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env=server_env(port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    answered: dict[int, int] = {}
    try:
        wait_until_up(port, proc)
        mix = request_mix(port)
        attacks = attack_mix(port)
        calm = asyncio.run(drive(port, mix))
        stormy = asyncio.run(drive(port, mix, attacks, answered))
    finally:
        stop(proc)
    print(f"Attackers: {ATTACKERS} beside the {CLIENTS} ordinary clients (make run)")
    _line("ordinary clients alone", calm)
    _line("ordinary, with attackers", stormy)
    ratio = stormy["p95"] / max(calm["p95"], 1e-9)
    shown = ", ".join(f"{k or 'conn'}: {v}" for k, v in sorted(answered.items()))
    print(f"  attackers' requests answered: {shown}")
    print(
        f"  ratio of the ordinary clients' p95 with / without attackers: {ratio:.2f}x "
        f"[{'met' if ratio <= 2 else 'MISSED'}: <= 2x]"
    )


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


def run_capacity(port: int) -> None:
    """The requests/s one core serves at a p95 at or under the target: `make run`'s server
    (gunicorn, its Celery worker and beat) pinned to the machine's last core and the clients
    to its first, the number of clients stepped up until the p95 passes the target. The
    database and Redis run where the system puts them."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        print(
            "One-core capacity: skipped (it needs two cores: one for the server, one for the clients)"
        )
        return
    server_core, client_cores = cores[-1], set(cores[:-1])
    env = server_env(port)
    env["WEB_CONCURRENCY"] = os.environ.get("LOAD_CAPACITY_WORKERS", "2")
    proc = subprocess.Popen(
        ["bash", "scripts/run.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {server_core}),
    )
    mine = os.sched_getaffinity(0)
    rows: list[tuple[int, dict]] = []
    try:
        wait_until_up(port, proc)
        mix = request_mix(port)
        os.sched_setaffinity(0, client_cores)
        for clients in CAPACITY_STEPS:
            result = asyncio.run(drive(port, mix, clients=clients, seconds=CAPACITY_SECONDS))
            rows.append((clients, result))
            if result["p95"] > P95_TARGET_MS * 1.5:
                break
    finally:
        os.sched_setaffinity(0, mine)
        stop(proc)
    print(
        f"One core (the server pinned to core {server_core}, {env['WEB_CONCURRENCY']} gunicorn "
        f"workers; the clients on the others), {CAPACITY_SECONDS:.0f} s a step"
    )
    for clients, result in rows:
        _line(f"{clients} clients", result)
    within = [r for _, r in rows if r["p95"] <= P95_TARGET_MS and r["errors"] == 0]
    best = max((r["rate"] for r in within), default=0.0)
    print(
        f"  requests/s one core serves with p95 <= {P95_TARGET_MS:.0f} ms: {best:,.0f} "
        "(scale by the web cores of a machine: docs/operations.md)"
    )


def main() -> None:
    ensure_database()
    print(
        f"Load: {CLIENTS} clients for {SECONDS:.0f} s each, PostgreSQL + Redis, production "
        f"profile, connections {'kept alive' if KEEP_ALIVE else 'closed after each answer'}; "
        f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    served = run_against("make run (scripts/run.sh)", ["bash", "scripts/run.sh"], PORT)
    print(
        f"  targets for make run: 0 errors [{'met' if served['errors'] == 0 else 'MISSED'}], "
        f"p95 <= {P95_TARGET_MS:.0f} ms [{'met' if served['p95'] <= P95_TARGET_MS else 'MISSED'}]"
    )
    if BASELINE:
        baseline = run_against(
            "runserver (baseline)",
            [PY, "manage.py", "runserver", "--noreload", f"{HOST}:{PORT + 1}"],
            PORT + 1,
        )
        print(
            f"  ratio p95 runserver / make run: {baseline['p95'] / max(served['p95'], 1e-9):.1f}x; "
            f"throughput make run / runserver: {served['rate'] / max(baseline['rate'], 1e-9):.1f}x"
        )
    if CAPACITY:
        run_capacity(PORT + 3)
    if ATTACKERS:
        run_with_attackers(["bash", "scripts/run.sh"], PORT + 2)


if __name__ == "__main__":
    main()
