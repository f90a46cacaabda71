"""Differential check of the Chinese Official scorer (edition=2006) against the reference scorer pymahjonggb.

    python scripts/diff_mcr.py [--hands 50000] [--seed 1] [--show 20] [--out disagreements.json]

Draws seeded random winning hands of every shape (``tests/handgen.py``), scores each with mjscan under
``edition=2006`` and with pymahjonggb (test extra), and compares the total and the multiset of
(name_en, value, count). Prints the agreement, the fans the hands covered, and every disagreement (grouped by what
differs); ``--out`` writes the disagreeing hands as JSON. Exit status 0 when every hand agrees, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import scoring  # noqa: E402
from scoring.tiles import to_compact  # noqa: E402
from tests.handgen import HandGen, mcr_reference  # noqa: E402


def describe(hand: scoring.Hand) -> str:
    """A hand in the compact command-line form with its situation, for reading a disagreement."""
    melds = " ".join(
        f"[{to_compact(m.tiles)}]" if not m.open else to_compact(m.tiles) + ("+" if m.added else "") for m in hand.melds
    )
    flags = [
        f for f in ("self_drawn", "last_tile", "kong_replacement", "robbing_kong", "fourth_tile") if getattr(hand, f)
    ]
    return (
        f"{to_compact([*hand.concealed, hand.win_tile or ''])} {melds} --win {hand.win_tile} seat {hand.seat_wind} "
        f"round {hand.round_wind} flowers {len(hand.flowers)} {' '.join(flags)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50000, help="how many random hands (default 50000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hand generator (default 1)")
    parser.add_argument("--show", type=int, default=20, help="disagreements printed in full (default 20)")
    parser.add_argument("--out", type=Path, help="write the disagreeing hands and both results to this JSON file")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")

    agree = 0
    kinds: Counter[tuple[tuple[Any, ...], tuple[Any, ...]]] = Counter()
    covered: Counter[str] = Counter()
    found: list[dict[str, Any]] = []
    start = time.perf_counter()
    for hand in tqdm(HandGen(args.seed).hands(args.hands), total=args.hands, desc="hands", unit="hand"):
        theirs = mcr_reference(hand)
        ours_score = scoring.score(hand, "mcr", {"edition": "2006"})
        ours = sorted((i.name_en, i.value, i.count) for i in ours_score.items)
        covered.update(name for name, _, _ in ours)
        if theirs is not None and ours == theirs:
            agree += 1
            continue
        only_ours = tuple(x for x in ours if x not in (theirs or []))
        only_theirs = tuple(x for x in (theirs or []) if x not in ours) if theirs is not None else ("not a win",)
        kinds[(only_ours, only_theirs)] += 1
        found.append({"hand": hand.to_json(), "compact": describe(hand), "mjscan": ours, "pymahjonggb": theirs})
    seconds = time.perf_counter() - start

    n = args.hands
    print(f"\n{agree} of {n} hands agree ({100 * agree / n:.3f} %), seed {args.seed}, {seconds:.0f} s")
    print(f"fans covered: {len(covered)} of 82 (flowers included)")
    rare = ", ".join(f"{name} {k}" for name, k in sorted(covered.items(), key=lambda kv: kv[1])[:8])
    print(f"rarest: {rare}")
    if found:
        print(f"\n{len(found)} disagreements, by what differs (mjscan only | pymahjonggb only):")
        for (ours_only, theirs_only), k in kinds.most_common():
            print(f"  {k:6d}  {list(ours_only)} | {list(theirs_only)}")
        for case in found[: args.show]:
            print(f"\n  {case['compact']}\n    mjscan      {case['mjscan']}\n    pymahjonggb {case['pymahjonggb']}")
    if args.out:
        args.out.write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"\nwrote {len(found)} disagreements to {args.out}")
    return 0 if not found else 1


if __name__ == "__main__":
    sys.exit(main())
