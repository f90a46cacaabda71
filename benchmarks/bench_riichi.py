"""Riichi scoring speed: hands per second, ours and the reference library ``mahjong``'s, in one run.

    python benchmarks/bench_riichi.py [--hands 3000] [--rounds 6] [--slice 300] [--seed 1]
    MJSCAN_PURE_PYTHON=1 python benchmarks/bench_riichi.py --profile   # where the time goes (plain Python)

The scoring modules run compiled when the install built them (``setup.py``; the output says so);
``MJSCAN_PURE_PYTHON=1`` runs the same code as plain Python, for comparison.

The hands are the seeded random riichi hands of ``tests/handgen_riichi.py`` (open and closed, kongs, red
fives, dora, every situation flag). Both sides get their input ready-made: ours a ``scoring.Hand``, the
reference its 136-format tiles, ``Meld`` objects and ``HandConfig`` (built before the clock starts, which
favours the reference). Nothing is cached across hands but the pieces of one suit (the decomposition's
per-suit splits), a few small tables and the resolved options; ``mahjong`` keeps its last 128 decompositions.
Before timing, both sides score ``--warm`` other hands (a running service has seen hands before). Timed:

- ``mjscan score``: ``RULESET.score`` = option check + hand validation (copies, melds, indicators,
  situations) + scoring; what a user of the library or the API gets: the headline figure (issue 3's target:
  at least 3x mahjong);
- ``mjscan evaluate``: scoring alone on validated hands, the work the reference does (it validates nothing);
- ``mahjong``: ``HandCalculator.estimate_hand_value``;
- and, to show where the time of ``mjscan score`` goes, three of its steps timed alone: ``Hand.validate``
  (the checks every rule set makes), ``riichi validate`` (``RULESET.validate``: Hand.validate, then riichi's
  own checks and the facts of the hand) and ``arrangements`` (the shared decomposition).

The hands are timed in slices (``--slice`` hands); every side runs each slice once per round, the rounds
interleaved (ours, reference, ours, ...) and each side in turn the first to run on a slice (the first pays for
bringing the slice's hands into the processor's cache), and each side's time is the sum over the slices of its
best round, so that a burst of load from other processes on the machine is dropped from both sides alike.
The rounds after the first meet hands already seen (their suits are in the per-suit memo), so the first round
is also reported alone: every hand new to both sides, one try each.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from tqdm import tqdm  # noqa: E402

from scoring import compiled_modules  # noqa: E402
from scoring._native import MODULES  # noqa: E402
from scoring.decompose import arrangements  # noqa: E402
from scoring.hand import Hand  # noqa: E402
from scoring.rules import riichi  # noqa: E402
from scoring.rules.riichi import RULESET, SHAPES, Riichi  # noqa: E402
from scoring.rules.riichi_points import fu  # noqa: E402
from scoring.rules.riichi_yaku import YAKU, Facts, Reading  # noqa: E402
from tests.handgen_riichi import random_hand, reference_arguments  # noqa: E402

TARGET = 3.0  # issue 3: mjscan score at least 3 times as fast as mahjong


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=3000, help="hands (default 3000)")
    p.add_argument("--rounds", type=int, default=6, help="interleaved rounds; the best of each side is kept")
    p.add_argument("--slice", type=int, default=300, help="hands timed together (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--warm", type=int, default=20000, help="other hands scored by both sides first (default 20000)")
    p.add_argument("--profile", action="store_true", help="instead: where the time of mjscan score goes (cProfile)")
    args = p.parse_args(argv)
    if args.hands < 1 or args.rounds < 1 or args.slice < 1 or args.warm < 0:
        p.error("--hands, --rounds and --slice must be at least 1, --warm at least 0")
    if args.profile and compiled_modules():
        p.error("--profile reads cProfile, which does not see inside compiled code: set MJSCAN_PURE_PYTHON=1")

    options = RULESET.resolve_options({})
    warm = random.Random(args.seed + 1_000_003)
    for _ in tqdm(range(args.warm), desc="warming up on other hands", unit="hand", file=sys.stderr):
        h = random_hand(warm)
        RULESET.score(h, options)
        HandCalculator.estimate_hand_value(**reference_arguments(h, options))
    rng = random.Random(args.seed)
    hands = [random_hand(rng) for _ in range(args.hands)]
    reference = [reference_arguments(h, options) for h in hands]
    facts = []
    for h in hands:
        RULESET.validate(h, options)
        facts.append(Facts(h, options))
    if args.profile:
        _profile(hands, options)
        return 0

    def ours_score(part: range) -> None:
        for i in part:
            RULESET.score(hands[i], options)

    def ours_evaluate(part: range) -> None:
        for i in part:
            RULESET.evaluate(hands[i], options)

    def theirs(part: range) -> None:
        for i in part:
            HandCalculator.estimate_hand_value(**reference[i])

    def foundation_validate(part: range) -> None:
        for i in part:
            hands[i].validate(hand_size=RULESET.hand_size)

    def riichi_validate(part: range) -> None:
        for i in part:
            RULESET.validate(hands[i], options)

    def foundation_arrangements(part: range) -> None:
        for i in part:
            f = facts[i]
            arrangements(f.closed_counts, f.declared, f.win, SHAPES)

    sides: dict[str, Callable[[range], None]] = {
        "mjscan score": ours_score,
        "mjscan evaluate": ours_evaluate,
        "mahjong": theirs,
        "  Hand.validate": foundation_validate,
        "  riichi validate": riichi_validate,
        "  arrangements": foundation_arrangements,
    }
    parts = [range(i, min(i + args.slice, args.hands)) for i in range(0, args.hands, args.slice)]
    best, first = _time(sides, parts, args.rounds)

    ref = best["mahjong"]
    print(f"{args.hands} hands (seed {args.seed}), {len(parts)} slices, best of {args.rounds} interleaved rounds each")
    compiled = compiled_modules()
    print(
        f"scoring modules compiled with mypyc: {len(compiled)} of {len(MODULES)}"
        + ("" if compiled else " (plain Python: no build, a stale build or MJSCAN_PURE_PYTHON)")
    )
    print("(the indented lines are steps inside 'mjscan score', timed alone)")
    for name, seconds in best.items():
        per_hand = seconds / args.hands * 1e6
        print(
            f"  {name:<18} {args.hands / seconds:>9.0f} hands/s  {per_hand:7.1f} us/hand  {ref / seconds:5.2f}x mahjong"
        )
    ours, reference_first = first["mjscan score"] / args.hands, first["mahjong"] / args.hands
    print(
        f"first sight (round 1 alone: every hand new to both, {args.warm} other hands scored before): "
        f"mjscan score {ours * 1e6:.1f} us/hand, mahjong {reference_first * 1e6:.1f}: {reference_first / ours:.2f}x"
    )
    ratio = ref / best["mjscan score"]
    verdict = "met" if ratio >= TARGET else "not met"
    print(f"target: mjscan score at least {TARGET:.1f}x mahjong; it is {ratio:.2f}x: {verdict}")
    return 0


def _profile(hands: Sequence[Hand], options: dict[str, object]) -> None:
    """Print the share of ``mjscan score``'s time spent in each step, from cProfile's cumulative times (the
    profiler's own cost per call inflates the steps made of many small calls)."""
    for h in hands:  # the per-suit memo and the other caches filled, as in a running service
        RULESET.score(h, options)
    profiler = cProfile.Profile()
    profiler.enable()
    for h in hands:
        RULESET.score(h, options)
    profiler.disable()
    stats = pstats.Stats(profiler).stats

    def cumulative(*functions: Callable[..., object]) -> float:
        codes = {f.__code__ for f in functions}
        return sum(
            row[3]
            for (file, line, name), row in stats.items()
            if any((c.co_filename, c.co_firstlineno, c.co_name) == (file, line, name) for c in codes)
        )

    total = cumulative(Riichi.score)
    steps = [
        ("options (resolved once, then looked up)", cumulative(Riichi._options)),
        ("Hand.validate (the checks every rule set makes)", cumulative(Hand.validate)),
        ("riichi's own checks (situations, indicators)", cumulative(Riichi._refuse) - cumulative(Facts.__init__)),
        ("facts of the hand (counts, masks, features)", cumulative(Facts.__init__)),
        ("arrangements (the shared decomposition)", cumulative(arrangements)),
        ("readings (sets, chows, pair of each arrangement)", cumulative(Reading.__init__)),
        ("yaku predicates", cumulative(*(y.test for y in YAKU))),
        ("fu", cumulative(fu)),
        ("dora, ura dora, red fives", cumulative(riichi._dora)),
        ("the Score: items, fu details, points, notes", cumulative(Riichi._result, Riichi._not_winning)),
    ]
    steps.append(("the rest: choosing the best reading, calls", total - sum(t for _, t in steps)))
    print(f"where the time of mjscan score goes ({len(hands)} hands, cProfile, share of the whole):")
    for name, seconds in steps:
        print(f"  {name:<50} {seconds / total * 100:5.1f} %")


def _time(
    sides: dict[str, Callable[[range], None]], parts: Sequence[range], rounds: int
) -> tuple[dict[str, float], dict[str, float]]:
    """Each side's time over all hands: per slice the best of ``rounds`` interleaved rounds, summed; and its time
    in the first round alone (the hands seen for the first time)."""
    best: dict[str, list[float]] = {name: [float("inf")] * len(parts) for name in sides}
    first: dict[str, float] = dict.fromkeys(sides, 0.0)
    order = list(sides.items())
    for r in tqdm(range(rounds), desc="rounds", unit="round", file=sys.stderr):
        turn = order[r % len(order) :] + order[: r % len(order)]  # each side in turn runs first on a slice
        for j, part in enumerate(parts):
            for name, run in turn:
                start = time.perf_counter()
                run(part)
                seconds = time.perf_counter() - start
                best[name][j] = min(best[name][j], seconds)
                if r == 0:
                    first[name] += seconds
    return {name: sum(times) for name, times in best.items()}, first


if __name__ == "__main__":
    raise SystemExit(main())
