"""Tuner benchmark: a race of 40 single swaps on the sample REDLINE arsenal, played in
rounds on two processes the way two workers play a tuning run's chunks (each chunk plays
the deck as it is and every swap still racing on the same streams), with the tuner's
drop rule (`validation.sim.paired.race_step`) after each round.

Run from the repository root: ``.venv/bin/python bench/tuner.py [--max-games N]``.
Target: the answer within 60 s on two processes; the figure printed beside it is the time
one process takes for the first round, measured in the same run.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.games.redline.samples import redline_arsenal  # noqa: E402
from validation.games.redline.simulation import GOLDFISH, prepare  # noqa: E402
from validation.sim import paired  # noqa: E402
from validation.types import CardFacts, Entry  # noqa: E402

SEED = 20_240_601
PARAMS = {"turns": 12, "mulligan_lo": 2, "mulligan_hi": 4, "on_the_play": True}
METRIC = "won_by_8"
PER_CHUNK = 100_000  # deck-games per chunk, as a tuning run splits a round


def incoming() -> list[CardFacts]:
    """Four sample cards that may come in (sample data, not official cards)."""
    return [
        CardFacts(name="Supply Drop", kind="resource", attributes={"provides": 1, "basic": True}),
        CardFacts(name="Forward Depot", kind="resource", attributes={"provides": 2}),
        CardFacts(
            name="Sample Scout",
            kind="efreet",
            cost=1,
            attributes={"efreet_class": "light", "slots": ["open"], "keywords": ["Scouting"]},
        ),
        CardFacts(name="Sample Feint", kind="tactic", cost=0, attributes={"keywords": []}),
    ]


def swaps() -> list[tuple[str, str, dict]]:
    """40 swaps: each of the ten non-resource cards of the arsenal out, each incoming in."""
    base = redline_arsenal()
    out = []
    for cut in [e for e in base if e.card.kind != "resource"]:
        for card in incoming():
            rows = [Entry(e.card, e.count - (e.card.name == cut.card.name)) for e in base]
            rows = [e for e in rows if e.count]
            for i, e in enumerate(rows):
                if e.card.name == card.name:
                    rows[i] = Entry(e.card, e.count + 1)
                    break
            else:
                rows.append(Entry(card, 1))
            out.append((cut.card.name, card.name, prepare({"arsenal": rows})))
    return out[:40]


def play_chunk(task):
    base, others, index, games = task
    out_base, outs = GOLDFISH.play_many(base, others, PARAMS, SEED, index, games)
    return [paired.sums({METRIC: out_base[METRIC]}, {METRIC: o[METRIC]})[METRIC] for o in outs]


def race(pool, base, candidates, max_games: int):
    looks = paired.plan(max_games, 2_000)
    z = paired.z_value(paired.ALPHA / (len(candidates) * len(looks)))
    alive = list(range(len(candidates)))
    totals = {i: [0] * 6 for i in alive}
    done = 0
    chunk = 0
    rounds = []
    for look in looks:
        round_games = look - done
        parts = max(1, math.ceil(round_games * (1 + len(alive)) / PER_CHUNK))
        sizes = [round_games // parts + (1 if i < round_games % parts else 0) for i in range(parts)]
        others = [candidates[i][2] for i in alive]
        tasks = [(base, others, chunk + j, g) for j, g in enumerate(sizes)]
        chunk += parts
        for result in pool.map(play_chunk, tasks):
            for i, s in zip(alive, result, strict=True):
                totals[i] = [a + b for a, b in zip(totals[i], s, strict=True)]
        done = look
        rows = []
        for i in alive:
            e = paired.estimate(totals[i], z)
            gain, lo, hi = paired.gains(e, "higher")
            rows.append({"index": i, "gain": gain, "gain_low": lo, "gain_high": hi, **e})
        kept, decided = paired.race_step(rows)
        rounds.append((look, len(alive), len(kept)))
        alive = [r["index"] for r in kept]
        if not kept or decided:
            break
    best = sorted((r for r in kept if r["gain_low"] > 0), key=lambda r: -r["gain"])[:5]
    return rounds, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-games", type=int, default=50_000)
    args = parser.parse_args()
    base = prepare({"arsenal": redline_arsenal()})
    candidates = swaps()
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(play_chunk, [(base, [], 0, 100)] * 2))  # warm up: fork, imports
        play_chunk((base, [], 0, 100))  # and here: the compiled kernel loaded
        one = time.perf_counter()
        play_chunk((base, [c[2] for c in candidates], 0, 2_000))
        one = time.perf_counter() - one
        start = time.perf_counter()
        rounds, best = race(pool, base, candidates, args.max_games)
        wall = time.perf_counter() - start
    print(
        f"Tuner benchmark: {len(candidates)} swaps of the sample REDLINE arsenal, won by turn 8, "
        f"at most {args.max_games:,} games each, 2 processes"
    )
    for look, raced, left in rounds:
        print(f"  round to {look:>7,} games: {raced:>2} raced, {left:>2} left")
    for r in best:
        cut, add, _ = candidates[r["index"]]
        print(
            f"  {cut} -> {add}: {r['difference'] * 100:+.2f} points "
            f"({r['ci_low'] * 100:+.2f} to {r['ci_high'] * 100:+.2f})"
        )
    if not best:
        print("  no swap beats the deck as it is")
    print(f"  first round on one process: {one:.2f} s")
    print(f"  answered in {wall:.1f} s   [target <= 60 s on two workers]")


if __name__ == "__main__":
    main()
