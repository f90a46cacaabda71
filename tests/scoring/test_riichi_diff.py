"""Riichi against the reference library ``mahjong`` (test-only dependency): 2,000 seeded random hands.

The issue: same winning, han, fu, points.main and points.additional on every hand, under the issue's options
(the rule set's defaults). The hands (``tests/handgen_riichi.py``) are open and closed, with kongs of every
kind, red fives, dora and ura dora and every situation flag; the coverage test below checks that they are.
``scripts/diff_riichi.py`` runs the same comparison on 50,000 hands.
"""

from __future__ import annotations

import random
from collections import Counter

from scoring.rules.riichi import RULESET
from tests.handgen_riichi import compare, known_difference, random_hand, reference

HANDS = 2000
SEED = 20240601


def _hands(n: int, seed: int) -> list:
    rng = random.Random(seed)
    return [random_hand(rng) for _ in range(n)]


def test_every_hand_agrees_with_mahjong_under_the_issue_options():
    options = RULESET.resolve_options({})
    problems = []
    for i, hand in enumerate(_hands(HANDS, SEED)):
        ours = RULESET.score(hand, options).to_json()
        problem = compare(ours, reference(hand, options))
        if problem:
            problems.append(f"hand {i}: {problem}\n  {hand.to_json()}")
    assert not problems, f"{len(problems)} of {HANDS} hands disagree:\n" + "\n".join(problems[:5])


def test_with_random_options_only_the_known_differences_remain():
    # each hand draws its own option values; a disagreement must be one the rule card lists (KNOWN_DIFFERENCES)
    rng = random.Random(SEED + 1)
    unexplained = []
    for i, hand in enumerate(_hands(500, SEED + 2)):
        given = {o.name: rng.random() < 0.5 if o.kind == "bool" else rng.choice(o.choices) for o in RULESET.options}
        options = RULESET.resolve_options(given)
        ours = RULESET.score(hand, options).to_json()
        ref = reference(hand, options)
        problem = compare(ours, ref)
        if problem and not known_difference(hand, options, ours, ref):
            unexplained.append(f"hand {i} {given}: {problem}")
    assert not unexplained, "\n".join(unexplained[:5])


def test_the_generated_hands_cover_what_the_issue_asks():
    # open and closed hands, kongs of every kind, red fives, dora and ura dora, all situation flags
    seen: Counter[str] = Counter()
    for hand in _hands(HANDS, SEED):
        seen["open" if hand.is_open else "closed"] += 1
        for m in hand.melds:
            seen["concealed kong" if m.concealed_kong else "added kong" if m.added else f"open {m.type}"] += 1
        seen["red five"] += any(t[0] == "0" for t in hand.all_tiles)
        seen["dora"] += bool(hand.dora_indicators)
        seen["ura dora"] += bool(hand.ura_dora_indicators and hand.riichi)
        for flag in (
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
        ):
            seen[flag] += getattr(hand, flag)
        seen["honba"] += hand.honba > 0
        seen["riichi sticks"] += hand.riichi_sticks > 0
    wanted = {"open", "closed", "open chow", "open pung", "open kong", "added kong", "concealed kong"}
    wanted |= {"red five", "dora", "ura dora", "honba", "riichi sticks", "self_drawn", "riichi", "double_riichi"}
    wanted |= {"ippatsu", "last_tile", "kong_replacement", "robbing_kong", "heavenly_win", "earthly_win", "human_win"}
    assert {k for k, v in seen.items() if v} == wanted, seen
