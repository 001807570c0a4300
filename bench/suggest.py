"""Benchmark of a list with unknown names: the cost of reading a valid 60-card REDLINE list
with 0, 1 and 5 misspelt names when the game has 1,000 and then 100,000 cards.

An unknown name is looked up in the name index (the nearest cards, a LIMIT a name), never by
loading the game: the time should not grow with the catalogue. Printed: the median time of
`list_check` (the work of POST /api/validate/) per case and size, and the ratio 100k / 1k per
case. Target: every ratio <= 2 (about 1).

    .venv/bin/python bench/suggest.py

It runs in a throwaway PostgreSQL database (`cardsite_suggest_bench` on the server of
DATABASE_URL, default 127.0.0.1:5432), created, migrated and dropped at the end.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from validation.packages import sample_list  # noqa: E402

SERVER = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
if urlparse(SERVER).scheme not in ("postgres", "postgresql", "pgsql"):
    sys.exit(f"bench/suggest.py needs PostgreSQL; DATABASE_URL is {SERVER!r}")
BASE = SERVER.rsplit("/", 1)[0]
DB_NAME = "cardsite_suggest_bench"
os.environ["DATABASE_URL"] = f"{BASE}/{DB_NAME}"
os.environ["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(60))
os.environ["DB_STATEMENT_TIMEOUT_MS"] = "0"

SIZES = (1_000, 100_000)
TYPOS = (0, 1, 5)
RUNS = int(os.environ.get("BENCH_RUNS", "30"))
TARGET = 2.0
SYLLABLES = "ka ro mi tan vel dor ash qua bri zen lo fa ur el mon sti gar pix hul nor".split()


def admin():
    import psycopg

    return psycopg.connect(f"{BASE}/postgres", autocommit=True)


def with_typos(text: str, n: int) -> str:
    out, done = [], 0
    for line in text.splitlines():
        m = re.match(r"^(\d+) (.+)$", line)
        if m and done < n:
            name = m.group(2)
            out.append(f"{m.group(1)} {name[:3]}{name[2:]}")  # a letter doubled
            done += 1
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def grow_to(size: int, taken: set[str], rng: random.Random) -> None:
    from django.db import connection

    from catalogue.models import Card, Game

    game = Game.objects.get(slug="redline")
    missing = size - Card.objects.filter(game=game).count()
    batch = []
    while missing > 0:
        words = [
            "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3)))).capitalize()
            for _ in range(rng.choice((1, 2, 2, 3)))
        ]
        name = " ".join(words)
        if name.lower() in taken:
            continue
        taken.add(name.lower())
        batch.append(Card(game=game, name=name, kind="resource", cost=rng.randint(0, 8)))
        missing -= 1
        if len(batch) == 5000:
            Card.objects.bulk_create(batch)
            batch = []
    Card.objects.bulk_create(batch)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE catalogue_card")


def measure(text: str) -> float:
    from decks.lists import ListInvalid, list_check

    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        try:
            list_check(game_slug="redline", format="standard", text=text)
        except ListInvalid:
            pass
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def show_statements(text: str) -> None:
    """The statements of one check at the largest size, with their times."""
    from django.db import connection

    from decks.lists import ListInvalid, list_check

    timings: list[tuple[float, str]] = []

    def timed(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            timings.append(((time.perf_counter() - started) * 1000, " ".join(sql.split())))

    with connection.execute_wrapper(timed):
        try:
            list_check(game_slug="redline", format="standard", text=text)
        except ListInvalid:
            pass
    print(f"  statements of one check with 1 unknown name at {SIZES[-1]:,} cards:")
    for ms, sql in timings:
        print(f"    {ms:6.1f} ms  {sql[:110]}")


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
        call_command("load_sample_data", verbosity=0, stdout=open(os.devnull, "w"))
        sample = sample_list("redline", "standard").text()
        taken = {n.lower() for n in Card.objects.values_list("name", flat=True)}
        rng = random.Random(11)
        results: dict[tuple[int, int], float] = {}
        print(f"A 60-card REDLINE list, median of {RUNS} runs of list_check:")
        for size in SIZES:
            grow_to(size, taken, rng)
            for typos in TYPOS:
                text = with_typos(sample, typos)
                measure(text)  # warm up
                results[size, typos] = measure(text)
                print(
                    f"  {size:>7,} cards, {typos} unknown name(s): {results[size, typos]:7.1f} ms"
                )
        show_statements(with_typos(sample, 1))
        ok = True
        for typos in TYPOS:
            ratio = results[SIZES[-1], typos] / max(results[SIZES[0], typos], 1e-9)
            met = ratio <= TARGET
            ok &= met
            print(
                f"  ratio {SIZES[-1]:,} / {SIZES[0]:,} cards, {typos} unknown: {ratio:.2f}x "
                f"[{'met' if met else 'MISSED'}: <= {TARGET:.0f}x]"
            )
        return 0 if ok else 1
    finally:
        from django.db import connections

        connections.close_all()
        with admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
