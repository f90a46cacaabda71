"""Differential check of the riichi scorer against the reference library ``mahjong``.

    python scripts/diff_riichi.py [--hands 50000] [--seed 2024] [--random-options] [--show 10]

Scores seeded random hands (``tests/handgen_riichi.py``: open and closed hands, kongs of every kind, red
fives, dora and ura dora, every situation flag) with both and compares winning, han, fu, points.main and
points.additional. By default every hand uses the issue's options (the rule set's defaults); with
``--random-options`` each hand draws its own option values, which also exercises the non-default rules.
Prints how often each yaku, limit, meld kind and flag came up, and the disagreements grouped: each known
difference (a rule on which we differ from the reference on purpose, ``KNOWN_DIFFERENCES``) with its reason,
and the unexplained ones hand by hand. Exit status 1 when any hand disagrees for an unexplained reason.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

from scoring.errors import ScoringError  # noqa: E402
from scoring.rules.riichi import RULESET  # noqa: E402
from tests.handgen_riichi import KNOWN_DIFFERENCES, compare, known_difference, random_hand, reference  # noqa: E402

FLAGS = (
    "self_drawn",
    "riichi",
    "double_riichi",
    "ippatsu",
    "last_tile",
    "kong_replacement",
    "robbing_kong",
    "heavenly_win",
    "earthly_win",
    "human_win",
)


def _random_options(rng: random.Random) -> dict[str, object]:
    return {o.name: rng.random() < 0.5 if o.kind == "bool" else rng.choice(o.choices) for o in RULESET.options}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=50000)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--random-options", action="store_true", help="draw the option values for each hand")
    p.add_argument("--show", type=int, default=10, help="disagreeing hands printed in full (default 10)")
    args = p.parse_args(argv)
    if args.hands < 1:
        p.error("--hands must be at least 1")

    rng = random.Random(args.seed)
    defaults = RULESET.resolve_options({})
    seen: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    shown: list[str] = []
    for i in tqdm(range(args.hands), desc="hands", unit="hand", file=sys.stderr):
        hand = random_hand(rng)
        options = RULESET.resolve_options(_random_options(rng)) if args.random_options else defaults
        try:
            ours = RULESET.score(hand, options).to_json()
        except ScoringError as exc:
            ours = None
            problem = f"refused a generated hand: {exc.code}"
        else:
            ref = reference(hand, options)
            problem = compare(ours, ref)
            known = known_difference(hand, options, ours, ref) if problem else None
            if known:
                problem = f"known: {known}"
        if ours is not None:
            seen.update(item["id"] for item in ours["items"])
            seen["limit " + str(ours["points"]["limit"])] += ours["winning"]
            seen["not winning"] += not ours["winning"]
        seen.update(
            "meld " + ("open " if m.open else "concealed ") + ("added " if m.added else "") + m.type for m in hand.melds
        )
        seen.update("flag " + f for f in FLAGS if getattr(hand, f))
        seen.update(
            ["closed hand" if not hand.is_open else "open hand"]
            + (["red five"] if any(t[0] == "0" for t in hand.all_tiles) else [])
            + (["dora indicators"] if hand.dora_indicators else [])
            + (["ura dora indicators"] if hand.ura_dora_indicators else [])
        )
        if problem:
            groups[problem if problem.startswith(("known", "refused")) else "unexplained"] += 1
            if len(shown) < args.show and not problem.startswith("known"):
                shown.append(f"hand {i}: {problem}\n  options {options}\n  {hand.to_json()}")

    mode = "random options per hand" if args.random_options else "the issue's options (defaults)"
    total = sum(groups.values())
    print(f"{args.hands} hands, seed {args.seed}, {mode}: {args.hands - total} agree, {total} disagree")
    print("came up:", ", ".join(f"{k} {v}" for k, v in sorted(seen.items(), key=lambda kv: -kv[1])))
    for key, n in groups.most_common():
        reason = KNOWN_DIFFERENCES.get(key.removeprefix("known: "), "")
        print(f"  {n:>6}  {key}" + (f": {reason}" if reason else ""))
    for text in shown:
        print(text)
    return 1 if groups["unexplained"] or any(k.startswith("refused") for k in groups) else 0


if __name__ == "__main__":
    raise SystemExit(main())
