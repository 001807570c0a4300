"""Validation benchmark.

1. In-memory validation of 60-card REDLINE arsenals (the sample standard list and random
   legal-or-not variants), decks per second on one core against the 50,000 decks/s target
   (every re-check job and the tuner run it), beside an in-run baseline: one plain pass
   over the same decks' lines (the least any check must read), so that the figure can be
   compared across machines and loads as "validation costs N plain passes". Then the same
   for every sample list of every game (100 variants of its largest section each, checked
   in the list's own format).
2. The number of SQL queries POST /api/validate/ makes for decks of 10 and 200 entries (they
   must be equal: one query fetches every named card).

Run: .venv/bin/python bench/validation.py   (uses DATABASE_URL when set; a throwaway test
database is created and dropped)
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
os.environ.setdefault("AXES_ENABLED", "0")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    setup_test_environment,
    teardown_test_environment,
)

from validation.packages import sample_list, sample_lists  # noqa: E402
from validation.runner import validate  # noqa: E402
from validation.types import Deck, Entry  # noqa: E402


def in_memory_rate(
    decks: list[Deck], seconds: float = 2.0, game: str = "redline", format: str = "standard"
) -> tuple[int, float]:
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for deck in decks:
            validate(game, format, deck)
        done += len(decks)
    return done, time.perf_counter() - start


def plain_pass_rate(decks: list[Deck], seconds: float = 2.0) -> tuple[int, float]:
    """The baseline: one pass over every line of each deck, summing its copies."""
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for deck in decks:
            total = 0
            for entries in deck.sections.values():
                for e in entries:
                    total += e.count
        done += len(decks)
    return done, time.perf_counter() - start


def variants(base: Deck, section: str, n: int = 100, seed: int = 7) -> list[Deck]:
    """`base` and n - 1 variants of it, each line of `section` one copy more or less or
    unchanged (at least 1): legal or not, as the REDLINE arsenals above."""
    rng = random.Random(seed)
    decks = [base]
    for _ in range(n - 1):
        entries = [
            Entry(e.card, max(1, e.count + rng.choice((-1, 0, 0, 1))), e.placement)
            for e in base.sections[section]
        ]
        decks.append(Deck(sections={**base.sections, section: entries}, options=base.options))
    return decks


def every_game_rates(seconds: float = 1.0) -> None:
    """The rate of each game's sample lists (and variants of its largest section), checked
    in the list's own format, beside the target and the plain pass over the same decks."""
    from decks.lists import deck_from_list
    from validation.registry import registry

    print("In-memory validation of every game's sample lists (100 variants each), one core")
    for game in registry.all():
        for found in sample_lists(game.slug):
            base, _ = deck_from_list(game_slug=game.slug, text=found.text())
            largest = max(base.sections, key=lambda s: len(base.sections[s]))
            decks = variants(base, largest)
            legal = sum(1 for d in decks if validate(game.slug, found.format, d).legal)
            n, elapsed = in_memory_rate(decks, seconds, game.slug, found.format)
            rate = n / elapsed
            b, b_elapsed = plain_pass_rate(decks, seconds)
            baseline = b / b_elapsed
            print(
                f"  {game.slug} {found.format} ({largest} varied, {legal} legal): "
                f"{rate:,.0f} decks/s   [target >= 50,000]  ratio to target: "
                f"{rate / 50_000:.2f}x; a check costs {baseline / rate:.1f} plain passes"
            )


def main() -> None:
    setup_test_environment()
    settings.DEBUG = False
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        call_command("load_sample_data", verbosity=0, stdout=open(os.devnull, "w"))
        from catalogue.models import Card, Game
        from decks.lists import deck_from_list

        text = sample_list("redline", "standard").text()
        base, _ = deck_from_list(game_slug="redline", text=text)
        rng = random.Random(7)
        arsenal = base.sections["arsenal"]
        decks = [base]
        for _ in range(99):
            entries = [Entry(e.card, max(1, e.count + rng.choice((-1, 0, 0, 1)))) for e in arsenal]
            decks.append(Deck(sections={**base.sections, "arsenal": entries}))
        print(f"  machine load (1 min): {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        n, elapsed = in_memory_rate(decks)
        rate = n / elapsed
        b, b_elapsed = plain_pass_rate(decks)
        baseline = b / b_elapsed
        legal = sum(1 for d in decks if validate("redline", "standard", d).legal)
        print(
            "In-memory validation of 60-card REDLINE arsenals (100 variants, "
            f"{legal} legal, rules of 'standard'), one core"
        )
        print(f"  {n:,} decks in {elapsed:.2f} s -> {rate:,.0f} decks/s   [target >= 50,000]")
        print(f"  ratio to target: {rate / 50_000:.2f}x")
        print(
            f"  baseline, one plain pass over the same decks' lines: {baseline:,.0f} decks/s; "
            f"a check costs {baseline / rate:.1f} plain passes"
        )
        every_game_rates()

        game = Game.objects.get(slug="red-mittens")
        unit_attrs = {
            "atk": 1, "def": 1, "classes": [], "unit_type": "", "res": 0, "raise_res": 0,
            "vs_bonus": "", "on_play": False, "priority": False, "attack_twice": False,
            "d6_bonus": False,
        }  # fmt: skip
        Card.objects.bulk_create(
            Card(game=game, name=f"Bench Unit {i:03d}", kind="unit", attributes=unit_attrs)
            for i in range(200)
        )
        client = Client()
        print("POST /api/validate/ SQL queries by deck size")
        counts = {}
        for size in (10, 200):
            body = "Units:\n" + "".join(f"1 Bench Unit {i:03d}\n" for i in range(size))
            with CaptureQueriesContext(connection) as ctx:
                response = client.post(
                    "/api/validate/",
                    {"game": "red-mittens", "format": "core", "list": body},
                    content_type="application/json",
                )
            assert response.status_code == 200, response.content
            counts[size] = len(ctx.captured_queries)
            print(f"  {size:>3} entries: {counts[size]} queries")
        print(f"  equal: {counts[10] == counts[200]}   [target: equal, at most 3]")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main()
