"""Benchmark of the re-check after a rule set import: BENCH_DECKS (default 100,000) saved
REDLINE standard decks of 2,000 owners, every one of them using the card that the imported
rule set bans (the worst case: every verdict is written and every deck's owner gets a
notice), re-checked on two Celery workers (one process each) in chunks of
RECHECK_CHUNK_DECKS, from the import until the job is done. Then the same rule set announced
again (every deck checked, nothing written, nobody told). Target: ≤ 60 s on two workers for
100,000 decks.

Prints the throughput of the re-check against the in-memory rules core alone on the same
list, measured in the same run (the baseline: what loading and writing cost on top of it).

    .venv/bin/python bench/recheck.py          # BENCH_DECKS=20000 for a smaller run

It runs in a throwaway PostgreSQL database (`cardsite_recheck_bench` on the server of
DATABASE_URL, default 127.0.0.1:5432), created, migrated and dropped at the end, and on a
queue of its own on CELERY_BROKER_URL (default redis://127.0.0.1:6379/0).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SERVER = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
if urlparse(SERVER).scheme not in ("postgres", "postgresql", "pgsql"):
    sys.exit(f"bench/recheck.py needs PostgreSQL; DATABASE_URL is {SERVER!r}")
BASE = SERVER.rsplit("/", 1)[0]
DB_NAME = "cardsite_recheck_bench"
QUEUE = f"bench-recheck-{uuid.uuid4().hex[:8]}"
os.environ["DATABASE_URL"] = f"{BASE}/{DB_NAME}"
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
os.environ["CELERY_QUEUE"] = QUEUE
os.environ["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "0"
os.environ["AXES_ENABLED"] = "0"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(60))
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ["DB_STATEMENT_TIMEOUT_MS"] = "5000"  # the production default, for the workers too

DECKS = int(os.environ.get("BENCH_DECKS", "100000"))
OWNERS = 2_000
WORKERS = 2
TARGET_S = 60.0
TARGET_DECKS = 100_000


def admin():
    import psycopg

    return psycopg.connect(f"{BASE}/postgres", autocommit=True)


def start_workers(log_dir: Path) -> list[subprocess.Popen]:
    procs = []
    for i in range(WORKERS):
        log = log_dir / f"worker-{i}.log"
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "cardsite", "worker", "-Q", QUEUE,
                 "--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle",
                 "--without-heartbeat", "-n", f"recheck{i}-{uuid.uuid4().hex[:4]}@%h"],
                cwd=ROOT, env=dict(os.environ), stdout=open(log, "w"), stderr=subprocess.STDOUT,
            )
        )  # fmt: skip
    for proc, i in zip(procs, range(WORKERS), strict=True):
        log = log_dir / f"worker-{i}.log"
        deadline = time.monotonic() + 90
        while "ready." not in log.read_text():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(log.read_text()[-2000:])
            time.sleep(0.2)
    return procs


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()


def build_decks(n: int):
    """n saved decks (one version each, with the verdict a re-check would store), in bulk."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.utils import timezone

    from catalogue.models import Game
    from decks.lists import SavedList, version_check
    from decks.services import deck_create

    text = (ROOT / "validation/games/redline/sample_data/decks/standard.txt").read_text()
    users = User.objects.bulk_create(
        [User(username=f"owner{i}", email=f"owner{i}@example.com") for i in range(OWNERS)]
    )
    proto = deck_create(
        owner=users[0], game_slug="redline", format="standard", name="Sample deck 0", text=text
    )
    version = proto.current_version
    report = version_check(SavedList.of_deck(proto, version))
    assert report["legal"], report
    game = Game.objects.get(slug="redline")
    now = timezone.now()
    batch = 2_000
    for start in range(1, n, batch):
        with transaction.atomic(), connection.cursor() as cursor:
            # Building the decks is not what is timed: no statement timeout for it.
            cursor.execute("SET LOCAL statement_timeout = 0")
            _build_batch(users, game, report, version, now, start, min(start + batch, n))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = 0")
        cursor.execute(
            "UPDATE decks_deck d SET current_version_id = v.id FROM decks_deckversion v "
            "WHERE v.deck_id = d.id AND d.current_version_id IS NULL"
        )
        cursor.execute("ANALYZE")
    return proto, version


def _build_batch(users, game, report, version, now, first: int, last: int) -> None:
    from decks.models import Deck, DeckVersion

    decks = Deck.objects.bulk_create(
        [
            Deck(
                owner=users[i % OWNERS], game=game, format="standard",
                name=f"Sample deck {i}", legal=True, report=report, validated_at=now,
                warnings_count=len(report["warnings"]),
            )
            for i in range(first, last)
        ]
    )  # fmt: skip
    DeckVersion.objects.bulk_create(
        [
            DeckVersion(
                deck=d, number=1, author_id=d.owner_id, list_text=version.list_text,
                entries=version.entries, options=version.options, report=report,
            )
            for d in decks
        ]
    )  # fmt: skip


def baseline_rate(proto, version, seconds: float = 3.0) -> float:
    """Decks per second of the rules core alone, in memory, on the same list."""
    from catalogue.services import card_facts_by_names
    from validation.runner import validate
    from validation.types import Deck, Entry

    pool = card_facts_by_names(game_slug="redline", names=[e["card"] for e in version.entries])
    sections: dict[str, list[Entry]] = {}
    for e in version.entries:
        sections.setdefault(e["section"], []).append(Entry(pool[e["card"].lower()], e["count"]))
    deck = Deck(sections=sections)
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(200):
            validate("redline", "standard", deck)
        done += 200
    return done / (time.perf_counter() - started)


def import_rule_set(*, again: bool = False) -> None:
    """The change whose re-check is timed: a REDLINE standard rule set file, in force from
    today, that bans a card every deck uses, imported as `manage.py import_rule_set` does (the
    import announces it once it commits, and the re-check goes to the workers). `again`:
    the same rule set announced a second time (a re-check that changes nothing; importing
    the identical file again writes nothing and so starts nothing)."""
    from datetime import timedelta

    from catalogue import rulesets
    from catalogue.models import RuleSet
    from catalogue.rule_set_file import rule_set_import

    if again:
        rulesets.rule_set_changed(RuleSet.objects.get(code="BENCH"))
        return
    today = rulesets.today()
    rule_set_import(
        data={
            "rule_set": 1,
            "game": "redline",
            "format": "standard",
            "code": "BENCH",
            "name": "Benchmark season",
            "announced": f"{today - timedelta(days=30):%Y-%m-%d}",
            "effective": f"{today:%Y-%m-%d}",
            "cards": [{"name": "Tigercat", "banned": True}],
            "note": "Sample data for the benchmark; not an official rule set.",
            "sample": True,
        }
    )


def timed_recheck(*, again: bool = False) -> tuple[float, object]:
    from decks.models import RecheckJob

    before = RecheckJob.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    started = time.perf_counter()
    import_rule_set(again=again)
    while True:
        job = RecheckJob.objects.filter(pk__gt=before).first()
        if job is not None and not job.is_active:
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    if job.status != "done":
        raise RuntimeError(f"re-check failed: {job.error}")
    return elapsed, job


def main() -> int:
    with admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    procs: list[subprocess.Popen] = []
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        from notices.models import Notice

        call_command("migrate", verbosity=0, interactive=False)
        call_command("load_sample_data", verbosity=0, stdout=open(os.devnull, "w"))
        t0 = time.perf_counter()
        proto, version = build_decks(DECKS)
        print(
            f"Re-check after a rule set change: {DECKS:,} saved REDLINE standard decks of "
            f"{OWNERS:,} owners (built in {time.perf_counter() - t0:.0f} s), "
            f"{len(version.entries)} lines each, chunks of {settings.RECHECK_CHUNK_DECKS:,}, "
            f"{WORKERS} workers, broker {os.environ['CELERY_BROKER_URL'].split('://')[0]}"
        )
        base = baseline_rate(proto, version)
        print(f"  baseline, the rules core alone in memory (1 process): {base:,.0f} decks/s")
        # The sample data's imports queued re-validations of their own: not part of this.
        from cardsite.celery import app

        app.control.purge()
        procs = start_workers(Path(tempfile.mkdtemp(prefix="bench-recheck-")))
        seconds, job = timed_recheck()
        notices = Notice.objects.count()
        rate = job.checked / seconds
        scaled = seconds * TARGET_DECKS / max(job.checked, 1)
        met = scaled <= TARGET_S
        per_chunk = [c["seconds"] for c in job.timings.get("chunks", {}).values()]
        print(
            f"  rule set imported: {job.checked:,} checked, {job.changed:,} verdicts written, "
            f"{notices:,} notices in {seconds:.1f} s -> {rate:,.0f} decks/s "
            f"({rate / WORKERS:,.0f} per worker; {rate / WORKERS / base:.2f}x the in-memory "
            f"baseline per process)"
        )
        print(
            f"  {TARGET_DECKS:,} decks at this rate: {scaled:.1f} s "
            f"[{'met' if met else 'MISSED'}: <= {TARGET_S:.0f} s on {WORKERS} workers]; "
            f"{len(per_chunk)} chunks of {min(per_chunk):.2f}-{max(per_chunk):.2f} s"
        )
        seconds2, again = timed_recheck(again=True)
        told = Notice.objects.count() - notices
        print(
            f"  the same rule set announced again: {again.checked:,} checked, {again.changed} written, "
            f"{told} new notices in {seconds2:.1f} s -> {again.checked / seconds2:,.0f} decks/s"
        )
        print(f"  1-minute load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        ok = met and job.changed == DECKS and notices == DECKS and told == 0
        return 0 if ok else 1
    finally:
        stop(procs)
        from django.db import connections

        connections.close_all()
        with admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
