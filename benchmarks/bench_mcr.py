"""Chinese Official scoring speed: hands scored per second by mjscan and by pymahjonggb, in one run, and
mjscan's median time per hand.

    python benchmarks/bench_mcr.py [--hands 5000] [--seed 7] [--edition 2006]

The hands are seeded random winning hands of every shape (``tests/handgen.py``). mjscan is timed on the whole
public path, ``scoring.score(hand, "mcr", options)``: validation, every arrangement, the fans and the result
object. pymahjonggb (C++, test extra) is timed on its call alone, with its arguments prepared beforehand. Both run
in this one process on one core. Before timing, a different set of hands warms both up (imports, caches), so
that no hand timed has been scored before. Target (issue 2): mjscan's median under 1 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import scoring  # noqa: E402
from tests.handgen import HandGen, pymahjonggb_args  # noqa: E402

TARGET_MS = 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands timed (default 5000)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the hand generator (default 7)")
    parser.add_argument("--edition", choices=("1998", "2006"), default="2006", help="mjscan edition (default 2006)")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    from MahjongGB import MahjongFanCalculator

    options = {"edition": args.edition}
    for hand in HandGen(args.seed + 1_000_003).hands(500):  # warm-up on other hands
        scoring.score(hand, "mcr", options)
        MahjongFanCalculator(**pymahjonggb_args(hand), verbose=True)

    hands = list(HandGen(args.seed).hands(args.hands))
    calls = [pymahjonggb_args(h) for h in hands]
    ours: list[float] = []
    for hand in tqdm(hands, desc="mjscan", unit="hand"):
        t = time.perf_counter()
        scoring.score(hand, "mcr", options)
        ours.append(time.perf_counter() - t)
    theirs: list[float] = []
    for call in tqdm(calls, desc="pymahjonggb", unit="hand"):
        t = time.perf_counter()
        MahjongFanCalculator(**call, verbose=True)
        theirs.append(time.perf_counter() - t)

    def line(name: str, times: list[float]) -> str:
        per_s = len(times) / sum(times)
        qs = statistics.quantiles(times, n=100)
        return (
            f"{name:12s} {per_s:10.0f} hands/s   median {statistics.median(times) * 1e3:7.3f} ms   "
            f"p90 {qs[89] * 1e3:7.3f} ms   p99 {qs[98] * 1e3:7.3f} ms   max {max(times) * 1e3:7.2f} ms"
        )

    print(f"\n{args.hands} hands, seed {args.seed}, mjscan edition {args.edition}, one process")
    print(line("mjscan", ours))
    print(line("pymahjonggb", theirs))
    median_ms = statistics.median(ours) * 1e3
    verdict = "meets" if median_ms < TARGET_MS else "misses"
    print(f"mjscan median {median_ms:.3f} ms per hand: {verdict} the {TARGET_MS:g} ms target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
