"""Benchmark of a large expansion import: a 20,000-card REDLINE expansion file imported with
`manage.py import_expansion` (batches of 1,000 rows in one transaction, the statement timeout
lifted for that transaction only), then imported again (every card updated), under the
production statement timeout (DB_STATEMENT_TIMEOUT_MS=5000). Target: each < 60 s.

    .venv/bin/python bench/import_large.py      # BENCH_ROWS to change the size

It runs in a throwaway PostgreSQL database (`cardsite_import_bench` on the server of
DATABASE_URL, default 127.0.0.1:5432), created, migrated and dropped at the end.
"""

from __future__ import annotations

import io
import json
import os
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SERVER = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
if urlparse(SERVER).scheme not in ("postgres", "postgresql", "pgsql"):
    sys.exit(f"bench/import_large.py needs PostgreSQL; DATABASE_URL is {SERVER!r}")
BASE = SERVER.rsplit("/", 1)[0]
DB_NAME = "cardsite_import_bench"
os.environ["DATABASE_URL"] = f"{BASE}/{DB_NAME}"
os.environ["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(60))
os.environ["DB_STATEMENT_TIMEOUT_MS"] = "5000"  # the production default
os.environ.setdefault("LOG_LEVEL", "WARNING")

ROWS = int(os.environ.get("BENCH_ROWS", "20000"))
TARGET_S = 60.0
SYLLABLES = "ka ro mi tan vel dor ash qua bri zen lo fa ur el mon sti gar pix hul nor".split()


def admin():
    import psycopg

    return psycopg.connect(f"{BASE}/postgres", autocommit=True)


def document(rows: int, cost_shift: int = 0) -> dict:
    rng = random.Random(3)
    names: set[str] = set()
    while len(names) < rows:
        names.add(
            " ".join(
                "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3)))).capitalize()
                for _ in range(rng.choice((2, 3)))
            )
        )
    return {
        "game": "redline",
        "code": "BIG",
        "name": "The Big Box",
        "released": "2026-06-01",
        "cards": [
            {
                "name": name,
                "kind": "resource",
                "cost": (i + cost_shift) % 9,
                "number": str(i + 1),
                "rarity": "common",
                "text": f"Draw a card. {name} supplies the line.",
            }
            for i, name in enumerate(sorted(names))
        ],
    }


def timed_import(path: str) -> tuple[float, str]:
    from django.core.management import call_command
    from django.db import connection

    timings: dict[str, list[float]] = {}

    def timed(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            key = " ".join(sql.split())[:70]
            timings.setdefault(key, []).append(time.perf_counter() - started)

    out = io.StringIO()
    started = time.perf_counter()
    profile = None
    if os.environ.get("BENCH_PROFILE") == "2":
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    with connection.execute_wrapper(timed):
        call_command("import_expansion", path, stdout=out)
    if profile is not None:
        import pstats

        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(18)
    elapsed = time.perf_counter() - started
    if os.environ.get("BENCH_PROFILE") == "1":
        for key, times in sorted(timings.items(), key=lambda kv: -sum(kv[1]))[:5]:
            print(f"    {sum(times):6.1f} s in {len(times):>4} x {key}")
    return elapsed, out.getvalue()


def main() -> int:
    with admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from catalogue.models import Card

        call_command("migrate", verbosity=0, interactive=False)
        ok = True
        with tempfile.TemporaryDirectory() as folder:
            for label, shift in (("first import", 0), ("re-import (every card updated)", 1)):
                path = Path(folder) / "big.json"
                path.write_text(json.dumps(document(ROWS, shift)))
                seconds, out = timed_import(str(path))
                progress = [line for line in out.splitlines() if "written" in line]
                met = seconds < TARGET_S
                ok &= met
                print(
                    f"  {label}: {ROWS:,} rows in {seconds:.1f} s "
                    f"[{'met' if met else 'MISSED'}: < {TARGET_S:.0f} s]; "
                    f"{len(progress)} progress lines, last: {progress[-1].strip() if progress else '-'}"
                )
        count = Card.objects.filter(game__slug="redline").count()
        print(f"  cards in the catalogue: {count:,} (expected {ROWS:,})")
        return 0 if ok and count == ROWS else 1
    finally:
        from django.db import connections

        connections.close_all()
        with admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
