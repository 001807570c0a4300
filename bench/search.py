"""Benchmark of the card search on PostgreSQL: 100,000 synthetic cards, 20+ queries through
the API, p50/p95 per query and overall, and the speed-up of each indexed plan over a forced
sequential scan measured in the same run: the time the database spends on the search's
statements (planning and execution, from EXPLAIN ANALYZE), the same for both plans; the
ratio of the times the client sees (round trips and the decoding of the page's rows added to
both) is printed beside it.

    .venv/bin/python bench/search.py            # DATABASE_URL or the default below

DATABASE_URL must be PostgreSQL; it defaults to postgres://postgres@127.0.0.1:5432/cardsite_bench.
A database that does not exist is created, migrated, and dropped at the end; an existing one
must hold no cards (it is migrated, and the rows the bench adds are deleted at the end).
Targets: p95 <= 100 ms through the API for every query; indexed plans >= 10x faster than a
sequential scan. The exit status is 1 when a target is missed.
"""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/cardsite_bench"
DATABASE_URL = os.environ.get("DATABASE_URL") or DEFAULT_URL
if urlparse(DATABASE_URL).scheme not in ("postgres", "postgresql", "pgsql"):
    sys.exit(f"bench/search.py needs PostgreSQL; DATABASE_URL is {DATABASE_URL!r}")
os.environ["DATABASE_URL"] = DATABASE_URL
os.environ["DJANGO_SETTINGS_MODULE"] = "cardsite.settings"
os.environ["DJANGO_ENV"] = "development"
os.environ["DEBUG"] = "0"  # as in production: no query log, JSON renderer only
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(60))

TOTAL_CARDS = int(os.environ.get("BENCH_CARDS", "100000"))
RUNS = int(os.environ.get("BENCH_RUNS", "25"))
# Runs of each query's statements: the median is kept. The indexed plans take a few ms,
# where a scheduling hiccup weighs, so they run more often than the sequential scans.
SQL_RUNS = 15
SEQ_RUNS = 5
# BENCH_KEEP=1 keeps the database and its cards at the end, and reuses them on the next run
# (for tuning; without it the bench leaves nothing behind).
KEEP = os.environ.get("BENCH_KEEP") == "1"
P95_TARGET_MS = 100.0
SPEEDUP_TARGET = 10.0
SEARCH_INDEXES = (
    "card_name_trgm",
    "card_text_lower_trgm",
    "card_search_document",
    "card_attributes_path",
)
# The btree indexes of integer attributes (migration 0004): card_num_<key>.
NUMBER_INDEX = re.compile(r"\bcard_num_[a-z_]+")

# (game, query, indexed) run through /api/cards/?game=...&q=...; game None: no game parameter.
# indexed: a search index (SEARCH_INDEXES, card_num_*) must serve the query, and its speed-up
# over a sequential scan is held to the target; a plan that uses none is reported as a miss.
# The others are timed but not held to it: o:salvo and the OR of two common attributes match
# about a fifth of their game, where the planner rightly prefers a scan; cost, kind and set
# have plain btree indexes only.
QUERIES: list[tuple[str | None, str, bool]] = [
    ("redline", "tigercat", True),
    ("redline", "tigrecat", True),
    ("redline", '"supply drop"', True),
    ("redline", "hawk", True),
    ("redline", "quorvane", True),
    ("redline", "o:salvo", False),
    ("redline", "name:tiger", True),
    ("redline", "kind:efreet speed>=6 faction:une", True),
    ("redline", "slots:pilot heroic:true", True),
    ("redline", "keywords:salvo", True),
    ("redline", "efreet_class:heavy -faction:cpm", True),
    ("redline", "kind:efreet (speed>=7 or armor>=9) -faction:cpm", True),
    ("redline", "cost<=2 kind:tactic", False),
    ("redline", "set:RL3 kind:mission", False),
    ("redline", "capture_cost>=4 scorched_earth:yes", True),
    ("tactical-assault", "firepower:very_heavy protection>=heavy", True),
    ("tactical-assault", "combat_result:eliminated number<=10", True),
    ("red-code", "ship_class:submarine repairs>=3", True),
    ("red-code", "boxes:island start:true", True),
    ("red-mittens", "classes:healer atk>=3", True),
    ("red-mittens", "unit_type:undead or time:night", False),
    ("hex-skirmish", "unit_class:ranged range>=3", True),
    ("hex-skirmish", "edges:7 movement>=3", True),
    (None, "armor>=12 or tigercat", True),
]

GAME_SHARE = {
    "redline": 0.40,
    "tactical-assault": 0.12,
    "red-code": 0.14,
    "red-mittens": 0.20,
    "hex-skirmish": 0.14,
}
SET_PREFIX = {
    "redline": "RL",
    "tactical-assault": "TA",
    "red-code": "RC",
    "red-mittens": "RM",
    "hex-skirmish": "HS",
}
KIND_WEIGHTS = {
    "redline": {
        "efreet": 35,
        "equipment": 15,
        "tactic": 15,
        "resource": 8,
        "mission": 10,
        "strategy": 6,
        "general": 5,
        "critical_hit": 6,
    },
    "tactical-assault": {"unit_type": 20, "combat_card": 80},
    "red-code": {"ship": 15, "manoeuvre": 45, "order": 25, "map_card": 15},
    "red-mittens": {"unit": 50, "item": 30, "field": 20},
    "hex-skirmish": {"unit": 45, "command": 55},
}
SYLLABLES = (
    "ka ro vin tor mel sha dun gra bel qua zar ith ven lor mak tis orn phe ral sul bri cor "
    "dra fen gor hal jun kel lum mor nav oth pax rin sev tal ul vex wyr yor zen ash bor cyn "
    "del esk fal gav hek ist jor kav lir mun nes ost pir rho sko tur vor"
).split()
REDLINE_KEYWORDS = (
    "Salvo",
    "Ambush 1",
    "Ambush 2",
    "Scouting",
    "Boost",
    "Cover",
    "Stealth",
    "Precision",
    "Sharpshooter",
    "Rear Guard",
)
WORDS = {
    "abilities": ("Siegecraft", "Prepared Ground", "Data Analysis", "Efreet Salvage", "Blitz"),
    "classes": ("healer", "necromancer", "recruiter", "thief", "knight", "ranger", "bard"),
    "unit_type": ("undead", "beast", "human", "spirit", "construct", ""),
    "vs_bonus": ("", "+1 vs undead", "+2 vs beast"),
    "item_class": ("weapon", "armour", "charm", "potion"),
    "realm": ("Mitten Vale", "Mittenkeep", "Frostmarch", "Emberfall"),
    "field_class": ("river", "castle", "mountain", "forest"),
    "elemental_res": ("water", "light", "frost", "fire", "earth"),
    "action": ("Fire", "Move", "Assault", "Rally"),
    "situation": ("In cover", "In the open", "Flanked"),
    "actions": ("Move two units", "Attack with one unit", "Rally", "Draw two cards", "Charge"),
}
TEXT_PARTS = {
    "redline": (
        "Deploy this efreet to your baseline.",
        "When this efreet captures a mission, gain 1 recon.",
        "Salvo: deal 1 extra damage to the target.",
        "Ambush 2: attack first when defending a mission.",
        "Scouting: look at the top card of your arsenal.",
        "Expend 2 resources: this efreet gets +1 speed until end of turn.",
        "Equip only to an efreet with an open laser slot.",
        "Raze 2 cards from the opponent's arsenal.",
        "Supply drop: put a resource from your scrapyard into play.",
        "Counter a tactic played by your opponent.",
    ),
    "tactical-assault": (
        "Shift the result one column to the right.",
        "The target is shaken and falls back one hex.",
        "Artillery drifts toward the clock direction shown.",
        "Units in cover ignore the first hit.",
    ),
    "red-code": (
        "Move your ship up to two squares.",
        "Repair one breakdown at the cost of one crew.",
        "This manoeuvre can not be responded to.",
        "Torpedo spread: damage every ship in line of sight.",
    ),
    "red-mittens": (
        "When played, heal 2 LP.",
        "Raise an undead unit from your discard pile.",
        "This unit attacks twice each turn.",
        "Roll a d6: on 5 or more gain +2 ATK.",
    ),
    "hex-skirmish": (
        "Move one unit up to its movement.",
        "Attack an adjacent enemy from its flank.",
        "Discard two cards to draw three.",
        "Ranged units fire before melee.",
    ),
}


def pseudo_word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 2, 3))))


def make_name(rng: random.Random, game: str, taken: set[str]) -> str:
    while True:
        parts = [pseudo_word(rng).capitalize() for _ in range(rng.choice((1, 2, 2, 3)))]
        if game == "redline" and rng.random() < 0.02:
            parts.insert(rng.randrange(len(parts) + 1), "Hawk")
        name = " ".join(parts)
        if name not in taken and len(name) <= 200:
            taken.add(name)
            return name


def make_text(rng: random.Random, game: str, vocabulary: list[str]) -> str:
    parts = rng.sample(TEXT_PARTS[game], k=rng.choice((1, 2, 2, 3)))
    filler = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(4, 14)))
    return " ".join(parts) + " " + filler.capitalize() + "."


def make_attributes(rng: random.Random, schema, game: str) -> dict:
    out: dict = {}
    for a in schema.attrs:
        t = a.type
        if t == "int":
            lo = a.minimum if a.minimum is not None else 0
            hi = a.maximum if a.maximum is not None else lo + rng.choice((6, 8, 12))
            out[a.key] = rng.randint(lo, hi)
        elif t == "bool":
            out[a.key] = rng.random() < (0.08 if a.key == "heroic" else 0.3)
        elif t == "choice":
            out[a.key] = rng.choice(a.choices)
        elif t == "choice_list":
            n = a.length if a.length is not None else rng.randint(0, 3)
            out[a.key] = [rng.choice(a.choices) for _ in range(n)]
        elif t == "list":
            if a.item_type == "int":
                out[a.key] = [rng.randint(1, 7) for _ in range(a.length or 3)]
            elif a.key == "keywords":
                out[a.key] = rng.sample(REDLINE_KEYWORDS, k=rng.choice((0, 1, 1, 2)))
            else:
                pool = WORDS.get(a.key, ("Alpha", "Beta"))
                out[a.key] = rng.sample(pool, k=min(len(pool), rng.choice((0, 1, 1, 2))))
        elif t == "str":
            out[a.key] = rng.choice(WORDS.get(a.key, ("",)))
        elif t == "dict":
            if a.key == "control_bonus":
                out[a.key] = rng.choice(({}, {"recon": 1}, {"resources": 1}, {"recon": 2}))
            else:
                out[a.key] = {"move": rng.randint(0, 3)}
        elif t == "dict_list":
            out[a.key] = [
                {"name": pseudo_word(rng).capitalize(), "crew_cost": rng.randint(0, 3)}
                for _ in range(8)
            ]
    if game == "hex-skirmish" and out.get("unit_class") == "ranged":
        out["range"] = max(1, out.get("range", 1))
    return out


# --------------------------------------------------------------------------------------------
# database lifecycle


def _admin_connect():
    import psycopg

    parts = urlparse(DATABASE_URL)
    admin_url = urlunparse(parts._replace(path="/postgres"))
    return psycopg.connect(admin_url, autocommit=True), parts.path.lstrip("/")


def ensure_database() -> bool:
    """Create the database when missing; True when this run created it."""
    conn, name = _admin_connect()
    with conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists:
            return False
        conn.execute(f'CREATE DATABASE "{name}"')
        return True


def drop_database() -> None:
    conn, name = _admin_connect()
    with conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --------------------------------------------------------------------------------------------
# the catalogue


def build_catalogue(created: dict[str, list[int]]) -> None:
    from catalogue.models import Card, Expansion, Game, Printing
    from validation.registry import registry

    rng = random.Random(20241122)
    vocabulary = [pseudo_word(rng) for _ in range(3000)]
    vocabulary[0] = "quorvane"  # a rare word of rules text, for the full-text query
    for position, game_def in enumerate(registry.all()):
        game, made = Game.objects.get_or_create(
            slug=game_def.slug, defaults={"name": game_def.name, "position": position}
        )
        if made:
            created["games"].append(game.pk)
        expansions = []
        for n in range(1, 7):
            exp = Expansion.objects.create(
                game=game,
                code=f"{SET_PREFIX[game_def.slug]}{n}",
                name=f"{game_def.name} set {n}",
                released=f"202{n % 10}-0{n}-01",
            )
            created["expansions"].append(exp.pk)
            expansions.append(exp)
        count = round(TOTAL_CARDS * GAME_SHARE[game_def.slug])
        weights = KIND_WEIGHTS[game_def.slug]
        kinds = rng.choices(list(weights), weights=list(weights.values()), k=count)
        taken: set[str] = set()
        cards = []
        for i, kind in enumerate(kinds):
            if game_def.slug == "redline" and i == 0:
                name, kind = "Tigercat", "efreet"
            elif game_def.slug == "redline" and i == 1:
                name, kind = "Supply Drop", "resource"
            else:
                name = make_name(rng, game_def.slug, taken)
            factions = list(game_def.factions)
            cards.append(
                Card(
                    game=game,
                    name=name,
                    kind=kind,
                    faction=rng.choice(factions) if factions else "",
                    cost=rng.randint(0, 8),
                    text=make_text(rng, game_def.slug, vocabulary),
                    attributes=make_attributes(rng, game_def.kinds[kind], game_def.slug),
                )
            )
        Card.objects.bulk_create(cards, batch_size=5000)
        ids = list(Card.objects.filter(game=game).values_list("id", flat=True))
        created["cards"].extend(ids)
        printings = []
        for card_id in ids:
            first, second = rng.sample(expansions, 2)
            printings.append(Printing(card_id=card_id, expansion=first, number=str(card_id)))
            if rng.random() < 0.15:
                printings.append(Printing(card_id=card_id, expansion=second, number=str(card_id)))
        Printing.objects.bulk_create(printings, batch_size=5000)
        print(f"  {game_def.slug}: {len(ids)} cards, {len(printings)} printings", flush=True)


def cleanup(created: dict[str, list[int]]) -> None:
    from catalogue.models import Card, Expansion, Game, Printing

    Printing.objects.filter(card_id__in=created["cards"]).delete()
    for start in range(0, len(created["cards"]), 10000):
        Card.objects.filter(id__in=created["cards"][start : start + 10000]).delete()
    Expansion.objects.filter(id__in=created["expansions"]).delete()
    Game.objects.filter(id__in=created["games"]).delete()


# --------------------------------------------------------------------------------------------
# measuring


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def run_once(cursor, statements: list[str]) -> tuple[float, float]:
    """The statements' summed time in the database (planning and execution, as EXPLAIN
    ANALYZE reports them, per-node timing off) and, run once more, as the client sees it
    (round trips and the decoding of the rows included), in ms."""
    database = 0.0
    for sql in statements:
        cursor.execute("EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) " + sql)
        report = cursor.fetchone()[0]
        report = json.loads(report) if isinstance(report, str) else report
        database += report[0]["Planning Time"] + report[0]["Execution Time"]
    start = time.perf_counter()
    for sql in statements:
        cursor.execute(sql)
        cursor.fetchall()
    return database, (time.perf_counter() - start) * 1000


SCAN_SETTINGS = ("enable_indexscan", "enable_bitmapscan", "enable_indexonlyscan")


def time_plans(cursor, statements: list[str]) -> dict[str, float]:
    """Medians of the statements' times with the indexes (SQL_RUNS runs) and with every
    index scan off, a forced sequential scan (SEQ_RUNS runs), in ms: `db`/`seq_db` in the
    database, `client`/`seq_client` as the client sees them. The runs alternate, so that
    both see the same state of the machine."""
    indexed: list[tuple[float, float]] = []
    sequential: list[tuple[float, float]] = []
    for round_ in range(max(SQL_RUNS, 2 * SEQ_RUNS)):
        if round_ < SQL_RUNS:
            indexed.append(run_once(cursor, statements))
        if round_ % 2 == 0 and len(sequential) < SEQ_RUNS:
            for name in SCAN_SETTINGS:
                cursor.execute(f"SET {name} = off")
            try:
                sequential.append(run_once(cursor, statements))
            finally:
                for name in SCAN_SETTINGS:
                    cursor.execute(f"RESET {name}")
    return {
        "db": statistics.median(t[0] for t in indexed),
        "client": statistics.median(t[1] for t in indexed),
        "seq_db": statistics.median(t[0] for t in sequential),
        "seq_client": statistics.median(t[1] for t in sequential),
    }


def measure() -> bool:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    rows = []
    all_samples: list[float] = []
    for game, query, indexed in QUERIES:
        params = {"q": query} if game is None else {"game": game, "q": query}
        for _ in range(3):
            response = client.get("/api/cards/", params)
            assert response.status_code == 200, response.content[:500]
        samples = []
        for _ in range(RUNS):
            start = time.perf_counter()
            response = client.get("/api/cards/", params)
            samples.append((time.perf_counter() - start) * 1000)
        data = response.json()
        all_samples.extend(samples)
        with CaptureQueriesContext(connection) as ctx:
            client.get("/api/cards/", params)
        # The search's own statements: the COUNT and the page (for a dense result, the walk
        # in name order), not the prefetches of games and printings.
        statements = [
            q["sql"]
            for q in ctx.captured_queries
            if 'FROM "catalogue_card"' in q["sql"]
            and '"catalogue_printing"."card_id" IN' not in q["sql"]
        ]
        with connection.cursor() as cursor:
            plans = []
            for sql in statements:
                cursor.execute("EXPLAIN " + sql)
                plans.append("\n".join(r[0] for r in cursor.fetchall()))
            used = {ix for ix in SEARCH_INDEXES if any(ix in p for p in plans)}
            used = sorted(used | {m for p in plans for m in NUMBER_INDEX.findall(p)})
            times = time_plans(cursor, statements)
        rows.append(
            {
                "game": game or "(any)",
                "query": query,
                "count": data.get("count"),
                "problems": data.get("problems"),
                "p50": percentile(samples, 0.5),
                "p95": percentile(samples, 0.95),
                "indexes": used,
                "indexed": indexed,
                **times,
            }
        )
        print(".", end="", flush=True)
    print()

    # The share of the cards searched (the game's, or all) a query matches: an exact count
    # visits a table page per matching card, so dense queries gain least from an index.
    from django.db.models import Count

    from catalogue.models import Card

    sizes = dict(Card.objects.values_list("game__slug").annotate(n=Count("id")))
    total = sum(sizes.values())
    header = (
        f"{'game':<17} {'query':<44} {'count':>6} {'share':>6} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'db ms':>6} {'seq ms':>7} {'speed-up':>8} {'client':>7}  indexes"
    )
    print(header)
    print("-" * len(header))
    ok = True
    speedups = []
    client_speedups = []
    for r in rows:
        speed = r["seq_db"] / r["db"] if r["db"] else float("inf")
        client = r["seq_client"] / r["client"] if r["client"] else float("inf")
        mark = ""
        if r["indexed"]:
            speedups.append(speed)
            client_speedups.append(client)
            if speed < SPEEDUP_TARGET:
                mark = " <- below target"
                ok = False
            if not r["indexes"]:
                mark += " <- no search index in the plan"
                ok = False
        if r["p95"] > P95_TARGET_MS:
            mark += " <- p95 over target"
            ok = False
        if r["problems"]:
            mark += f" problems={r['problems']}"
        speed_text = f"{speed:7.1f}x" if r["indexed"] else "      - "
        client_text = f"{client:6.1f}x" if r["indexed"] else "     - "
        searched = sizes.get(r["game"], total)
        share = f"{100 * r['count'] / searched:5.1f}%" if searched else "     -"
        print(
            f"{r['game']:<17} {r['query'][:44]:<44} {r['count']:>6} {share:>6} "
            f"{r['p50']:>7.1f} {r['p95']:>7.1f} {r['db']:>6.1f} {r['seq_db']:>7.1f} "
            f"{speed_text} {client_text}  {','.join(r['indexes']) or '(btree/seq)'}{mark}"
        )
    print("-" * len(header))
    print(
        f"overall through the API: p50 {percentile(all_samples, 0.5):.1f} ms, "
        f"p95 {percentile(all_samples, 0.95):.1f} ms over {len(all_samples)} requests "
        f"(target p95 <= {P95_TARGET_MS:.0f} ms per query)"
    )
    if speedups:
        print(
            f"indexed queries: {len(speedups)}, speed-up over a forced sequential scan in the "
            f"database min {min(speedups):.1f}x, median {statistics.median(speedups):.1f}x "
            f"(target >= {SPEEDUP_TARGET:.0f}x); as the client sees it, round trips and row "
            f"decoding included, min {min(client_speedups):.1f}x, "
            f"median {statistics.median(client_speedups):.1f}x"
        )
    print("targets met" if ok else "TARGETS MISSED")
    return ok


def main() -> int:
    created_db = ensure_database()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host is allowed
    call_command("migrate", verbosity=0, interactive=False)
    from catalogue.models import Card

    reuse = KEEP and Card.objects.count() >= TOTAL_CARDS
    if not created_db and Card.objects.exists() and not reuse:
        sys.exit(
            f"{connection.settings_dict['NAME']} already holds cards; point DATABASE_URL at an "
            "empty or missing database"
        )
    created: dict[str, list[int]] = {"games": [], "expansions": [], "cards": []}
    ok = False
    try:
        if not reuse:
            print(f"building {TOTAL_CARDS} cards in {connection.settings_dict['NAME']} ...")
            start = time.perf_counter()
            build_catalogue(created)
            with connection.cursor() as cursor:
                for table in ("catalogue_card", "catalogue_printing", "catalogue_expansion"):
                    cursor.execute(f"VACUUM ANALYZE {table}")
            print(f"built and analysed in {time.perf_counter() - start:.0f} s; measuring ...")
        ok = measure()
    finally:
        if KEEP:
            print(f"kept {connection.settings_dict['NAME']} (BENCH_KEEP=1)")
        elif created_db:
            connection.close()
            drop_database()
            print("dropped the bench database")
        else:
            cleanup(created)
            print("removed the bench rows")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
