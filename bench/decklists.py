"""Benchmark of the community decklists at scale: BENCH_DECKLISTS (default 100,000) published
decklists across the five games, BENCH_LIKES (1,000,000) likes and BENCH_COMMENTS (200,000)
comments, generated in bulk (COPY) from each game's sample lists with a few cards swapped,
then the p95 of:

- the popular page (`/decklists/`, every game, the first 50 by the popular score);
- a search with two included cards and one excluded card (`/api/decklists/?game=…&card=…
  &card=…&exclude_card=…`, the first 50 by popularity, with its count);
- a decklist's page (`/decklists/<id>/`: its list, legality today, reactions, chain, the
  first 50 comments), for decklists drawn at random, the most commented among them;

each against the 50 ms target, answered in-process by the site's full middleware (Django's
test client: no network, no server), on PostgreSQL. It is not a timed test: the tests assert
that each of these costs a fixed number of queries whatever the data size.

    .venv/bin/python bench/decklists.py      # BENCH_DECKLISTS=20000 for a smaller run

It runs in a throwaway PostgreSQL database (`cardsite_decklists_bench`, or BENCH_DATABASE, on the
server of DATABASE_URL, default 127.0.0.1:5432), created, migrated and dropped at the end;
BENCH_KEEP=1 keeps it, and BENCH_REUSE=1 measures again on the kept one (no new data).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import inprocess  # noqa: E402  (bench/inprocess.py, beside this script)
from inprocess import measure  # noqa: E402

SERVER = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
if urlparse(SERVER).scheme not in ("postgres", "postgresql", "pgsql"):
    sys.exit(f"bench/decklists.py needs PostgreSQL; DATABASE_URL is {SERVER!r}")
BASE = SERVER.rsplit("/", 1)[0]
DB_NAME = os.environ.get("BENCH_DATABASE", "cardsite_decklists_bench")
os.environ["DATABASE_URL"] = f"{BASE}/{DB_NAME}"
os.environ["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "0"
os.environ["AXES_ENABLED"] = "0"
os.environ["COMPRESS_RESPONSES"] = "0"
os.environ["STATIC_MANIFEST"] = "0"  # static files under their own names (no collectstatic)
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(60))
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ["CACHE_URL"] = "locmem://"
# The bench's one client asks thousands of times: no throttle in the way.
for scope in ("DECKLIST_SEARCH", "SEARCH", "COMMUNITY"):
    os.environ[f"THROTTLE_{scope}"] = "1000000/min"

DECKLISTS = int(os.environ.get("BENCH_DECKLISTS", "100000"))
LIKES = int(os.environ.get("BENCH_LIKES", str(DECKLISTS * 10)))
COMMENTS = int(os.environ.get("BENCH_COMMENTS", str(DECKLISTS * 2)))
USERS = 5_000
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "200"))
KEEP = os.environ.get("BENCH_KEEP") == "1"
REUSE = os.environ.get("BENCH_REUSE") == "1"
TARGET_MS = 50.0
SEED = 20261126


def admin():
    return inprocess.admin(BASE)


def _copy(cursor, table: str, columns: list[str], rows) -> int:
    n = 0
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            n += 1
    return n


def build(rng: random.Random) -> dict:
    """The decklists, their cards and legality, likes, favourites and comments, in bulk."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.utils import timezone

    from catalogue.models import Card, Game
    from catalogue.services import card_facts_by_names
    from decklists.from_decks import entries_as_sections  # noqa: F401 - the site's import
    from decklists.services import publish as publishing
    from decklists.services.legality import in_force_codes
    from decklists.services.popularity import freshness, score
    from validation import decklist as decklist_format
    from validation import packages
    from validation.registry import registry

    users = User.objects.bulk_create(
        [User(username=f"player{i}", email=f"player{i}@example.com") for i in range(USERS)]
    )
    user_ids = [u.pk for u in users]
    games = {g.slug: g for g in Game.objects.all()}
    codes = in_force_codes()
    # Each game's sample lists, read once: their entries, and the game's cards to swap in.
    protos = []
    for game in registry.all():
        cards = list(Card.objects.filter(game__slug=game.slug).values_list("name", "pk"))
        pks = dict(cards)
        for sample in packages.sample_lists(game.slug):
            parsed = decklist_format.parse(sample.text(), game)
            entries = []
            for line in parsed.lines:
                item = {"section": line.section, "card": line.name, "count": line.count}
                if line.placement is not None:
                    item["placement"] = list(line.placement)
                entries.append(item)
            facts = card_facts_by_names(game_slug=game.slug, names=[e["card"] for e in entries])
            faction, leader = publishing.faction_and_leader(game, sample.format, entries, facts)
            protos.append(
                (game, sample.format, entries, pks, [n for n, _ in cards], faction, leader)
            )
    now = timezone.now()
    started = time.perf_counter()
    rows, card_rows, legality_rows = [], [], []
    popularity = []
    for i in range(1, DECKLISTS + 1):
        game, fmt, entries, pks, names, faction, leader = protos[i % len(protos)]
        entries = [dict(e) for e in entries]
        # A third of the lines hold another card of the game: players' lists differ, and
        # a card is in many lists but not in all.
        for e in entries:
            if rng.random() < 0.35:
                e["card"] = rng.choice(names)
        published = now - timedelta(seconds=rng.randint(0, 365 * 86400))
        fresh = freshness(published)
        popularity.append(rng.paretovariate(1.2))
        counts: dict[int, int] = {}
        for e in entries:
            pk = pks.get(e["card"])
            if pk is not None:
                counts[pk] = counts.get(pk, 0) + int(e["count"])
        card_rows += [(i, pk, c) for pk, c in counts.items()]
        code = codes.get((games[game.slug].pk, fmt), "")
        legality_rows += [
            (i, f, True, codes.get((games[game.slug].pk, f), ""), "[]", now) for f in game.formats
        ]
        rows.append(
            [
                i, user_ids[i % USERS], games[game.slug].pk, fmt, f"Sample decklist {i}",
                "Sample description for the benchmark.", "<p>Sample description for the benchmark.</p>",
                1, 1, "", "\n".join(f"{e['count']} {e['card']}" for e in entries),
                json.dumps(entries), "{}",
                publishing.signature(game_slug=game.slug, format=fmt, entries=entries, options={}),
                faction, leader, json.dumps({"legal": True, "rule_set": code or None}), code,
                0, 0, 0, fresh, fresh, False, "", published,
            ]
        )  # fmt: skip
    # Likes and comments: each decklist's share follows its popularity (a long tail), exactly
    # LIKES and COMMENTS in all (a decklist has at most one like per user).
    likes_of = apportion(LIKES, popularity, cap=USERS)
    comments_of = apportion(COMMENTS, popularity, cap=COMMENTS)
    like_rows, favourite_rows, comment_rows = [], [], []
    for i, n in enumerate(likes_of, start=1):
        for u in rng.sample(user_ids, n):
            like_rows.append((u, i, now))
        for u in rng.sample(user_ids, min(USERS, n // 10)):
            favourite_rows.append((u, i, now))
    comment_id = 0
    for i, n in enumerate(comments_of, start=1):
        for k in range(n):
            comment_id += 1
            comment_rows.append(
                (comment_id, i, rng.choice(user_ids), f"Sample comment {k}", f"<p>Sample comment {k}</p>", False, "", now)
            )  # fmt: skip
    for i, row in enumerate(rows, start=1):
        likes = likes_of[i - 1]
        favourites = min(USERS, likes // 10)
        row[18], row[19], row[20] = likes, favourites, comments_of[i - 1]
        row[21] = score(likes=likes, fresh=row[22])
    generated = time.perf_counter() - started
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = 0")
        # The rows are consistent by construction: no foreign key trigger per row while they
        # load (the bench runs as the database's owner).
        cursor.execute("SET LOCAL session_replication_role = replica")
        raw = cursor.cursor
        columns = [
            "id", "author_id", "game_id", "format", "name", "description", "description_html",
            "version_number", "revision", "derivation", "list_text", "entries", "options",
            "signature", "faction", "leader", "published_report", "published_code",
            "likes", "favourites", "comments", "score", "freshness", "hidden", "hidden_reason",
            "published_at",
        ]  # fmt: skip
        _copy(raw, "decklists_decklist", columns, rows)
        _copy(raw, "decklists_decklistcard", ["decklist_id", "card_id", "count"], card_rows)
        _copy(
            raw,
            "decklists_decklistlegality",
            ["decklist_id", "format", "legal", "rule_set_code", "errors", "checked_at"],
            legality_rows,
        )
        _copy(raw, "decklists_like", ["user_id", "decklist_id", "created_at"], like_rows)
        _copy(raw, "decklists_favourite", ["user_id", "decklist_id", "created_at"], favourite_rows)
        _copy(
            raw,
            "decklists_comment",
            [
                "id",
                "decklist_id",
                "author_id",
                "text",
                "html",
                "hidden",
                "hidden_reason",
                "created_at",
            ],
            comment_rows,
        )
        for table in ("decklists_decklist", "decklists_comment"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 0")
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("SET statement_timeout = DEFAULT")
    return {
        "decklists": len(rows),
        "cards": len(card_rows),
        "likes": len(like_rows),
        "favourites": len(favourite_rows),
        "comments": len(comment_rows),
        "generated_s": generated,
        "loaded_s": time.perf_counter() - started - generated,
        "comments_of": comments_of,
    }


def apportion(total: int, weights: list[float], *, cap: int) -> list[int]:
    """`total` split in proportion to `weights` (largest remainders), none above `cap`."""
    out = [0] * len(weights)
    left, live = total, [i for i in range(len(weights))]
    while left > 0 and live:
        weight = sum(weights[i] for i in live)
        shares = {i: left * weights[i] / weight for i in live}
        given = 0
        for i in live:
            take = min(cap - out[i], int(shares[i]))
            out[i] += take
            given += take
        rest = left - given
        for i in sorted(live, key=lambda i: shares[i] - int(shares[i]), reverse=True):
            if rest <= 0:
                break
            if out[i] < cap:
                out[i] += 1
                rest -= 1
        left = rest
        live = [i for i in live if out[i] < cap]
    return out


def kept() -> dict:
    """What `build` made, read back from the kept database."""
    from decklists.models import Comment, Decklist, DecklistCard, Favourite, Like

    comments = dict(Decklist.objects.values_list("pk", "comments"))
    n = max(comments)
    return {
        "decklists": Decklist.objects.count(),
        "cards": DecklistCard.objects.count(),
        "likes": Like.objects.count(),
        "favourites": Favourite.objects.count(),
        "comments": Comment.objects.count(),
        "generated_s": 0.0,
        "loaded_s": 0.0,
        "comments_of": [comments.get(i, 0) for i in range(1, n + 1)],
    }


def search_cards(rng: random.Random) -> list[tuple[str, str, str]]:
    """REDLINE searches of two included cards and one excluded: cards of many lists."""
    from django.db.models import Count

    from decklists.models import DecklistCard

    common = list(
        DecklistCard.objects.filter(decklist__game__slug="redline")
        .values("card__name")
        .annotate(n=Count("pk"))
        .order_by("-n")
        .values_list("card__name", flat=True)[:12]
    )
    return [tuple(rng.sample(common, 3)) for _ in range(REQUESTS)]


def main() -> int:
    if not REUSE:
        with admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import Client

        rng = random.Random(SEED)
        if REUSE:
            built = kept()
        else:
            call_command("migrate", verbosity=0, interactive=False)
            call_command("load_sample_data", verbosity=0, stdout=open(os.devnull, "w"))
            built = build(rng)
        made = (
            "the kept database"
            if REUSE
            else f"generated in {built['generated_s']:.0f} s, loaded (COPY, ANALYZE) in "
            f"{built['loaded_s']:.0f} s"
        )
        print(
            f"Decklists at scale: {built['decklists']:,} decklists ({built['cards']:,} card rows), "
            f"{built['likes']:,} likes, {built['favourites']:,} favourites, "
            f"{built['comments']:,} comments; {made}; {REQUESTS} requests each, "
            f"in-process through the full middleware"
        )
        client = Client(HTTP_HOST="127.0.0.1")
        # The baseline, in the same run: a small answer of the site (one game's JSON, two
        # queries), the floor of the machine as loaded now.
        base_p95, base_median = measure(client, ["/api/games/redline/"] * REQUESTS)
        print(
            f"  baseline /api/games/redline/: p95 {base_p95:.1f} ms (median {base_median:.1f} ms)"
        )
        figures = []
        pages = [f"/decklists/?page={1 + i % 3}" for i in range(REQUESTS)]
        figures.append(("popular page /decklists/ (50 a page)", *measure(client, pages)))
        searches = [
            "/api/decklists/?"
            + urlencode([("game", "redline"), ("card", a), ("card", b), ("exclude_card", c)])
            for a, b, c in search_cards(rng)
        ]
        figures.append(("search: 2 cards included, 1 excluded (API)", *measure(client, searches)))
        page_searches = [
            "/decklists/redline/?" + urlencode([("cards", f"{a}\n{b}"), ("excluded", c)])
            for a, b, c in search_cards(rng)
        ]
        figures.append(("search: the same, the page", *measure(client, page_searches)))
        top = sorted(range(1, built["decklists"] + 1), key=lambda i: -built["comments_of"][i - 1])
        ids = [rng.randint(1, built["decklists"]) for _ in range(REQUESTS - 20)] + top[:20]
        rng.shuffle(ids)
        figures.append(
            ("decklist page /decklists/<id>/", *measure(client, [f"/decklists/{i}/" for i in ids]))
        )
        ok = True
        for label, p95_ms, median_ms in figures:
            met = p95_ms <= TARGET_MS
            ok &= met
            print(
                f"  {label}: p95 {p95_ms:.1f} ms (median {median_ms:.1f} ms, "
                f"{p95_ms / base_p95:.1f}x the baseline's p95) "
                f"[{'met' if met else 'MISSED'}: p95 <= {TARGET_MS:.0f} ms]"
            )
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
