"""Benchmark of collections across decks (issue 36): one user owning 10,000 cards across 40
products (BENCH_PRODUCTS × BENCH_PRINTINGS printings, the sets reprinting one another) plus
loose cards, with BENCH_DECKS (300) decks of which BENCH_BUILT (60) are built; then the p95
of:

- a deck's availability (`/api/decks/<id>/availability/`: per card owned, in the other built
  decks, free, short);
- the builder's per-card figures (its search, 40 cards a page, owned · in your built decks ·
  free on each) and its "only what is free" search;
- a card's page (`/cards/<game>/card/<id>/`: your decks using it, your copies, the public
  decks' count);

each against the 50 ms target and as a ratio of an in-run baseline (a small answer of the
site), answered in-process by the site's full middleware (Django's test client) on
PostgreSQL. Not a timed test: the tests assert that each costs a fixed number of queries.
It also checks that marking a deck built changes the next availability at once.

    .venv/bin/python bench/collection.py

It runs in a throwaway PostgreSQL database on the server of DATABASE_URL, named after its
database with "_collection_bench" added (`cardsite_collection_bench` without DATABASE_URL),
created, migrated and dropped at the end (BENCH_KEEP=1 keeps it).
"""

from __future__ import annotations

import os
import random
import secrets
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import inprocess  # noqa: E402  (bench/inprocess.py, beside this script)
from inprocess import measure  # noqa: E402

SERVER = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
if urlparse(SERVER).scheme not in ("postgres", "postgresql", "pgsql"):
    sys.exit(f"bench/collection.py needs PostgreSQL; DATABASE_URL is {SERVER!r}")
BASE, _OWN = SERVER.rsplit("/", 1)
# Named after DATABASE_URL's database: two databases on one server bench without clashing.
DB_NAME = f"{_OWN.split('?')[0] if os.environ.get('DATABASE_URL') else 'cardsite'}_collection_bench"
os.environ["DATABASE_URL"] = f"{BASE}/{DB_NAME}"
os.environ["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "0"
os.environ["AXES_ENABLED"] = "0"
os.environ["COMPRESS_RESPONSES"] = "0"
os.environ["STATIC_MANIFEST"] = "0"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(60))
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ["CACHE_URL"] = "locmem://"
for scope in ("SEARCH", "DECK_WRITE", "COMMUNITY", "EXPORT", "VALIDATE"):
    os.environ[f"THROTTLE_{scope}"] = "1000000/min"

PRODUCTS = int(os.environ.get("BENCH_PRODUCTS", "40"))
PRINTINGS = int(os.environ.get("BENCH_PRINTINGS", "250"))  # 40 × 250 = 10,000 owned
CARDS = int(os.environ.get("BENCH_CARDS", "4000"))
DECKS = int(os.environ.get("BENCH_DECKS", "300"))
BUILT = int(os.environ.get("BENCH_BUILT", "60"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "200"))
KEEP = os.environ.get("BENCH_KEEP") == "1"
TARGET_MS = 50.0
SEED = 20261127


def admin():
    return inprocess.admin(BASE)


def build(rng: random.Random) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from catalogue.models import Card, Expansion, Game, Printing
    from collection.models import CollectionEntry, OwnedProduct
    from decks import services
    from decks.models import Deck
    from validation import packages

    started = time.perf_counter()
    game = Game.objects.get(slug="redline")
    real = list(Card.objects.filter(game=game))
    Card.objects.bulk_create(
        [
            Card(
                game=game,
                name=f"Bench Card {i:05d}",
                kind=(t := real[i % len(real)]).kind,
                faction=t.faction,
                cost=t.cost,
                attributes=t.attributes,
            )
            for i in range(CARDS)
        ]
    )
    cards = list(Card.objects.filter(game=game).values_list("pk", flat=True))
    expansions = Expansion.objects.bulk_create(
        [Expansion(game=game, code=f"B{i:02d}", name=f"Bench set {i}") for i in range(PRODUCTS)]
    )
    # Each set prints PRINTINGS cards drawn from the whole game: many are reprints of cards
    # another owned set prints too, every one of them counted.
    Printing.objects.bulk_create(
        [
            Printing(card_id=pk, expansion=e, number=str(n))
            for e in expansions
            for n, pk in enumerate(rng.sample(cards, PRINTINGS), start=1)
        ]
    )
    user = get_user_model().objects.create_user("collector", "c@example.com", "a-long-pass-1")
    OwnedProduct.objects.bulk_create([OwnedProduct(owner=user, expansion=e) for e in expansions])
    CollectionEntry.objects.bulk_create(
        [
            CollectionEntry(owner=user, card_id=pk, count=rng.randint(1, 3))
            for pk in rng.sample(cards, 500)
        ]
    )
    text = packages.sample_list("redline", "standard").text()
    first = services.deck_create(
        owner=user, game_slug="redline", format="standard", name="Deck 000", text=text
    )
    for i in range(1, DECKS):
        services.deck_clone(deck=first, owner=user, name=f"Deck {i:03d}")
    ids = list(Deck.objects.filter(owner=user).order_by("pk").values_list("pk", flat=True))
    Deck.objects.filter(pk__in=ids[:BUILT]).update(built=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return {"user": user, "decks": ids, "seconds": time.perf_counter() - started}


def main() -> int:
    with admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import Client

        from catalogue.models import Card
        from decks.models import Deck

        rng = random.Random(SEED)
        call_command("migrate", verbosity=0, interactive=False)
        call_command("load_sample_data", verbosity=0, stdout=open(os.devnull, "w"))
        built = build(rng)
        print(
            f"Collections across decks: {PRODUCTS} products × {PRINTINGS} printings "
            f"({PRODUCTS * PRINTINGS:,} owned cards) + 500 loose, {DECKS} decks, {BUILT} built; "
            f"made in {built['seconds']:.0f} s; {REQUESTS} requests each, in-process"
        )
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(built["user"])
        base_p95, base_median = measure(client, ["/api/games/redline/"] * REQUESTS)
        print(
            f"  baseline /api/games/redline/: p95 {base_p95:.1f} ms (median {base_median:.1f} ms)"
        )
        decks = built["decks"]
        htmx = {"HTTP_HX_REQUEST": "true"}
        deck = decks[-1]
        names = list(
            Card.objects.filter(game__slug="redline")
            .exclude(name__startswith="Bench")
            .values_list("pk", flat=True)
        )
        figures = [
            (
                "availability /api/decks/<id>/availability/",
                *measure(
                    client,
                    [f"/api/decks/{rng.choice(decks)}/availability/" for _ in range(REQUESTS)],
                ),
            ),
            (
                "builder search with per-card figures",
                *measure(
                    client,
                    [f"/decks/{deck}/build/search/?q=&page={1 + i % 3}" for i in range(REQUESTS)],
                    htmx,
                ),
            ),
            (
                "builder search, only what is free",
                *measure(
                    client,
                    [f"/decks/{deck}/build/search/?q=&free=1" for _ in range(REQUESTS)],
                    htmx,
                ),
            ),
            (
                "card page with your decks using it",
                *measure(
                    client, [f"/cards/redline/card/{rng.choice(names)}/" for _ in range(REQUESTS)]
                ),
            ),
        ]
        ok = True
        for label, p95_ms, median_ms in figures:
            met = p95_ms <= TARGET_MS
            ok &= met
            print(
                f"  {label}: p95 {p95_ms:.1f} ms (median {median_ms:.1f} ms, "
                f"{p95_ms / base_p95:.1f}x the baseline's p95) "
                f"[{'met' if met else 'MISSED'}: p95 <= {TARGET_MS:.0f} ms]"
            )
        # No stale numbers: unbuilding a built deck frees its cards in the very next answer.
        before = client.get(f"/api/decks/{deck}/availability/").json()
        client.patch(f"/api/decks/{decks[0]}/", {"built": False}, content_type="application/json")
        after = client.get(f"/api/decks/{deck}/availability/").json()
        # Every built deck holds the same list: with 59 of them, the cards they share stay
        # spoken for, so what must move is the copies held (all the unbuilt deck's).
        released = sum(b["in_built_decks"] for b in before) - sum(
            a["in_built_decks"] for a in after
        )
        freed = sum(a["free"] for a in after) - sum(b["free"] for b in before)
        held = sum(b["needed"] for b in before)
        print(
            f"  unbuilding one deck took its {released} copies out of the built decks' at once "
            f"(of {held}; free copies +{freed}; built now: "
            f"{Deck.objects.filter(built=True).count()})"
        )
        ok &= released == held
        print(f"  1-minute load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        return 0 if ok else 1
    finally:
        from django.db import connections

        connections.close_all()
        if not KEEP:
            with admin() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
