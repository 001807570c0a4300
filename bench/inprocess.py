"""What the in-process benches share (bench/collection.py, bench/decklists.py): the
server's admin connection for their throwaway database, and the p95 and median of requests
answered through the site's whole middleware by Django's test client."""

from __future__ import annotations

import statistics
import time


def admin(base: str):
    """An autocommit connection to the server's `postgres` database (`base`: the server's
    address without a database), to create and drop a bench's database."""
    import psycopg

    return psycopg.connect(f"{base}/postgres", autocommit=True)


def p95(times: list[float]) -> float:
    """The 95th percentile of `times` (one time: itself)."""
    return statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]


def measure(
    client, urls: list[str], headers: dict | None = None, warm: int = 10
) -> tuple[float, float]:
    """GET each of `urls` (the first `warm` of them once before, untimed): the p95 and the
    median in milliseconds. An answer other than 200 stops the bench, naming its address."""
    headers = headers or {}
    for url in urls[:warm]:
        client.get(url, **headers)
    times = []
    for url in urls:
        t = time.perf_counter()
        response = client.get(url, **headers)
        times.append((time.perf_counter() - t) * 1000)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: {response.status_code} {response.content[:300]!r}")
    return p95(times), statistics.median(times)
