"""Goldfish experiments benchmark: what a paired comparison costs, and what common random
numbers save.

Run from the repository root: ``.venv/bin/python bench/experiments.py [--games N]``.
Times are CPU time of this process (``time.process_time``: other work on the machine does
not skew the ratio). Targets, each a ratio measured in this run:

* a paired comparison of N games (both decks, the paired sums of every metric) costs at most
  2.2x one run of N games of one deck (the goldfish's ordinary chunk);
* for the same interval width on "won by turn 8", the paired comparison of a single swap
  (one tactic out, one resource in) needs at least 3x fewer games than two independent
  runs: games needed scale with the variance of the difference, so the ratio is
  Var(independent) / Var(paired), both measured here on N games.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.games.redline.samples import redline_arsenal  # noqa: E402
from validation.games.redline.simulation import GOLDFISH, prepare  # noqa: E402
from validation.sim import paired  # noqa: E402
from validation.sim.inputs import entries_json  # noqa: E402

SEED = 20_240_601
PARAMS = {"turns": 12, "mulligan_lo": 2, "mulligan_hi": 4, "on_the_play": True}


def decks():
    a = prepare({"arsenal": redline_arsenal()})
    b = {"arsenal": entries_json(redline_arsenal()), "missions": None}
    b["arsenal"][0]["count"] += 1  # one more Supply Drop
    b["arsenal"][-1]["count"] -= 1  # one Orbital Strike fewer
    return a, b


def best_of(repeats: int, fn):
    best = float("inf")
    out = None
    for _ in range(repeats):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n = args.games
    a, b = decks()
    params = {**PARAMS, "games": n}
    GOLDFISH.run_chunk(a, {**params, "games": 2_000}, 1, 0, 1)  # warm up
    GOLDFISH.play_pair(a, b, params, 1, 0, 2_000)

    def pair():
        out_a, out_b = GOLDFISH.play_pair(a, b, params, SEED, 0, n)
        return paired.sums(out_a, out_b)

    one = two = float("inf")
    crn = None
    for _ in range(args.repeats):  # interleaved, best of n: the host's noise hits both
        t, _ = best_of(1, lambda: GOLDFISH.run_chunk(a, params, SEED, 0, 1))
        one = min(one, t)
        t, crn = best_of(1, pair)
        two = min(two, t)
    print(f"REDLINE paired comparison benchmark ({n:,} games, 12 turns, sample arsenal)")
    print(f"  one run of {n:,} games (one deck)       : {one:.3f} s (best of {args.repeats})")
    print(f"  paired comparison of {n:,} games (A, B) : {two:.3f} s (best of {args.repeats})")
    print(f"  cost ratio paired / one run: {two / one:.2f}x   [target <= 2.2x]")

    out_a, out_b = GOLDFISH.play_pair(a, b, params, SEED, 0, n, independent=True)
    ind = paired.sums(out_a, out_b)
    z = paired.z_value(0.05)
    e_crn = paired.estimate(crn["won_by_8"], z)
    e_ind = paired.estimate(ind["won_by_8"], z)
    ratio = (e_ind["se"] / e_crn["se"]) ** 2
    width = 2 * z * e_crn["se"]
    print("Common random numbers: one Orbital Strike out, one Supply Drop in; won by turn 8")
    print(
        f"  paired (same streams) : difference {e_crn['difference'] * 100:+.2f} points, "
        f"95% interval width {width * 100:.2f} points on {n:,} games"
    )
    print(
        f"  independent runs      : difference {e_ind['difference'] * 100:+.2f} points, "
        f"95% interval width {2 * z * e_ind['se'] * 100:.2f} points on {n:,} games"
    )
    print(
        f"  games for the paired width: paired {n:,}, independent runs "
        f"{round(n * ratio):,} (each deck)"
    )
    print(f"  games ratio independent / paired: {ratio:.1f}x   [target >= 3x]")


if __name__ == "__main__":
    main()
