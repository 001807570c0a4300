"""Concurrent writers on the embedded default (SQLite): WRITERS processes, each a player whose
builder autosaves their own deck (decks.services.deck_autosave, the builder's write) as fast as
it can for SECONDS seconds, on one SQLite file with the site's own settings.

Prints one JSON line: saves answered, errors (with a few samples) and saves missing from the
database afterwards. tests/faults/test_sqlite_writers.py runs it for a few seconds; run it by
hand for the figure of the operations doc:

    python tests/faults/sqlite_writers.py --writers 20 --seconds 30

It makes a fresh database in a temporary folder (CARDSITE_DATA_DIR), whatever DATABASE_URL says.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setup(data_dir: str) -> None:
    os.environ["CARDSITE_DATA_DIR"] = data_dir
    os.environ["DATABASE_URL"] = f"sqlite:///{data_dir}/cardsite.sqlite3"
    os.environ["CELERY_BROKER_URL"] = "filesystem://"
    os.environ.pop("CACHE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _writer(index: int, deck_pk: int, start_at: float, seconds: float, out) -> None:
    from django.db import connections

    from decks import services
    from decks.models import Deck

    connections.close_all()  # never share the parent's connection
    deck = Deck.objects.select_related("game", "owner", "current_version").get(pk=deck_pk)
    sections = services.entries_as_sections(list(deck.current_version.entries))
    number = deck.current_version.number
    saves, errors = 0, []
    while time.time() < start_at:
        time.sleep(0.01)
    deadline = start_at + seconds
    while time.time() < deadline:
        try:
            version = services.deck_autosave(
                deck=deck,
                author=deck.owner,
                sections=sections,
                based_on=number,
                revision=None,
            )
        except Exception as exc:  # noqa: BLE001 - counted and reported
            errors.append(f"{exc.__class__.__name__}: {exc}")
            continue
        number = version.number
        saves += 1
    out.put((index, saves, errors))


def run(writers: int, seconds: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="sqlite-writers-") as data_dir:
        _setup(data_dir)
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connections

        from decks import services
        from decks.models import DeckVersion

        call_command("migrate", verbosity=0)
        call_command("load_sample_data", verbosity=0, stdout=open(os.devnull, "w"))
        from validation.packages import sample_list

        text = sample_list("redline", "standard").text()
        decks = []
        for i in range(writers):
            owner = get_user_model().objects.create_user(f"writer{i}", password=None)
            deck = services.deck_create(
                owner=owner, game_slug="redline", format="standard", name=f"w{i}", text=text
            )
            decks.append(deck.pk)
        connections.close_all()
        ctx = multiprocessing.get_context("fork")
        out = ctx.Queue()
        start_at = time.time() + 1.0
        procs = [
            ctx.Process(target=_writer, args=(i, pk, start_at, seconds, out))
            for i, pk in enumerate(decks)
        ]
        for p in procs:
            p.start()
        results = [out.get(timeout=seconds + 120) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        saves = sum(r[1] for r in results)
        errors = [e for r in results for e in r[2]]
        by_writer = {r[0]: r[1] for r in results}
        missing = 0
        for i, pk in enumerate(decks):
            stored = DeckVersion.objects.filter(deck_id=pk).count() - 1  # less version 1
            missing += max(0, by_writer[i] - stored)
        options = settings.DATABASES["default"].get("OPTIONS", {})
        return {
            "writers": writers,
            "seconds": seconds,
            "saves": saves,
            "fewest_saves_of_a_writer": min(by_writer.values()),
            "errors": len(errors),
            "error_samples": sorted(set(errors))[:5],
            "missing": missing,
            "transaction_mode": options.get("transaction_mode"),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    print(json.dumps(run(args.writers, args.seconds)))


if __name__ == "__main__":
    main()
