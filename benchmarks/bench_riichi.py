"""Riichi scoring speed: hands per second, ours and the reference library ``mahjong``'s, in one run.

    python benchmarks/bench_riichi.py [--hands 3000] [--rounds 5] [--seed 1]

The hands are the seeded random riichi hands of ``tests/handgen_riichi.py`` (open and closed, kongs, red
fives, dora, every situation flag). Both sides get their input ready-made: ours a ``scoring.Hand``, the
reference its 136-format tiles, ``Meld`` objects and ``HandConfig`` (built before the clock starts, which
favours the reference). Three figures are timed:

- ``mjscan score``: ``RULESET.score`` = option check + hand validation (copies, melds, indicators,
  situations) + scoring; what a user of the library or the API gets;
- ``mjscan evaluate``: scoring alone on validated hands, the work the reference does (it validates nothing);
- ``mahjong``: ``HandCalculator.estimate_hand_value``;
- and, to show where the time goes, the two steps of the shared foundation that ``mjscan score`` runs:
  ``Hand.validate`` (the checks every rule set makes) and ``decompose.arrangements`` (the decomposition).

The rounds are interleaved (ours, reference, ours, ...) and the best round of each is kept, so that load from
other processes on the machine shifts both sides alike.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from tqdm import tqdm  # noqa: E402

from scoring.decompose import arrangements  # noqa: E402
from scoring.rules.riichi import RULESET, SHAPES  # noqa: E402
from scoring.rules.riichi_yaku import Facts  # noqa: E402
from tests.handgen_riichi import random_hand, reference_arguments  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=3000, help="hands per round (default 3000)")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the best of each side is kept")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.hands < 1 or args.rounds < 1:
        p.error("--hands and --rounds must be at least 1")

    rng = random.Random(args.seed)
    options = RULESET.resolve_options({})
    hands = [random_hand(rng) for _ in range(args.hands)]
    reference = [reference_arguments(h, options) for h in hands]
    for h in hands:
        RULESET.validate(h, options)

    def ours_score() -> None:
        for h in hands:
            RULESET.score(h, options)

    def ours_evaluate() -> None:
        for h in hands:
            RULESET.evaluate(h, options)

    def theirs() -> None:
        for kwargs in reference:
            HandCalculator.estimate_hand_value(**kwargs)

    facts = [Facts(h, options) for h in hands]

    def foundation_validate() -> None:
        for h in hands:
            h.validate(hand_size=RULESET.hand_size)

    def foundation_arrangements() -> None:
        for f in facts:
            arrangements(f.closed_counts, f.declared, f.win, SHAPES)

    sides: dict[str, Callable[[], None]] = {
        "mjscan score": ours_score,
        "mjscan evaluate": ours_evaluate,
        "mahjong": theirs,
        "  Hand.validate": foundation_validate,
        "  arrangements": foundation_arrangements,
    }
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in tqdm(range(args.rounds), desc="rounds", unit="round", file=sys.stderr):
        for name, run in sides.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)

    ref = min(times["mahjong"])
    print(f"{args.hands} hands (seed {args.seed}), best of {args.rounds} interleaved rounds")
    print("(the two indented lines are the shared foundation's steps inside 'mjscan score', timed alone)")
    for name in sides:
        best = min(times[name])
        rate = args.hands / best
        print(f"  {name:<16} {rate:>9.0f} hands/s  {best / args.hands * 1e6:7.1f} us/hand  {ref / best:5.2f}x mahjong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
