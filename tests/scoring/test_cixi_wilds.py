"""The wild-tile search of the decomposition engine (``decompose.wild_arrangements``), used by Cixi (DIGEST §6.2:
the wild 龙 "可以当任何牌", stands in for any tile).

The search is checked against the plain engine: a hand with k wilds has exactly the readings that the plain
``arrangements`` finds for the natural tiles plus some k kinds, over every choice of those k kinds.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import pytest

from scoring.decompose import (
    SEVEN_PAIRS,
    SINGLE,
    STANDARD,
    THIRTEEN_ORPHANS,
    THIRTEEN_SIDED,
    Shapes,
    arrangements,
    wild_arrangements,
)
from scoring.tiles import NUM_KINDS, counts_of, kind, parse_tiles
from tests import handgen

SHAPES = Shapes(seven_pairs=True, seven_pairs_four=True, thirteen_orphans=True)


def c(text: str) -> list[int]:
    return counts_of(kind(t) for t in parse_tiles(text))


def readings(natural, wilds, declared=(), win=None, shapes=SHAPES, win_is_wild=False):
    """The readings as comparable keys: shape, sorted blocks (type, tiles), and the substitutes."""
    out = set()
    for wr in wild_arrangements(natural, wilds, declared, win, shapes, win_is_wild):
        a = wr.arrangement
        out.add((a.shape, tuple(sorted((b.type, b.tiles) for b in a.blocks)), a.singles, wr.substitutes))
    return out


def brute_force(natural, wilds, declared=(), shapes=SHAPES):
    """Every reading of natural + k substitutes, the substitutes tried over all 34 kinds."""
    out = set()
    for subs in combinations_with_replacement(range(NUM_KINDS), wilds):
        counts = list(natural)
        for k in subs:
            counts[k] += 1
        for a in arrangements(counts, declared, None, shapes):
            out.add((a.shape, tuple(sorted((b.type, b.tiles) for b in a.blocks)), a.singles, tuple(sorted(subs))))
    return out


def test_one_wild_completes_the_only_missing_tile():
    # 12345678m 11p 999s + 1 wild: the wild is 3m, 6m or 9m (a chow each way), nothing else
    found = readings(c("12345678m11p999s"), 1)
    assert {r[3] for r in found} == {(kind("3m"),), (kind("6m"),), (kind("9m"),)}
    assert all(r[0] == STANDARD for r in found)


def test_a_wild_may_stand_for_its_own_kind_and_for_a_fifth_copy():
    # four natural 5p and a wild as a fifth 5p: 555p 55p 123m 456m 789m is a reading
    found = readings(c("5555p123m456m789m"), 1)
    assert any(r[3] == (kind("5p"),) for r in found)


def test_wilds_alone_form_any_block():
    # 123m 456p 789s 11z + 3 wilds: the wilds are one more meld, any pung (34 kinds) or chow (21)
    natural = c("123m456p789s11z")
    found = readings(natural, 3, shapes=Shapes())
    alone = {r[3] for r in found if len(set(r[3])) == 1 or r[3][2] - r[3][0] == 2}
    assert len(alone) >= 34 + 21
    assert found == brute_force(natural, 3, shapes=Shapes())


def test_seven_pairs_and_thirteen_orphans_with_wilds():
    # 112233m 4455p 7z + 3 wilds: seven pairs with 7z completed by one wild and a free pair of the other two
    pairs = [r for r in readings(c("112233m4455p7z"), 3) if r[0] == SEVEN_PAIRS]
    assert pairs and all(kind("7z") in r[3] for r in pairs)
    assert len(pairs) == 34  # the free pair of any kind (a third 1m pair makes four 1m: two pairs)
    # thirteen orphans missing 9s and the pair: 2 wilds; the wild winning tile as the pair is thirteen-sided
    wrs = wild_arrangements(c("19m19p1s1234567z"), 2, [], None, SHAPES, win_is_wild=True)
    orphans = [w for w in wrs if w.arrangement.shape == THIRTEEN_ORPHANS]
    assert orphans and all(kind("9s") in w.substitutes for w in orphans)
    assert {w.arrangement.wait for w in orphans} == {SINGLE, THIRTEEN_SIDED}


def test_the_winning_tile_position_and_wait():
    # natural win 5m in 34m + 5m: two-sided; with the 5m a wild it may stand for 2m or 5m
    natural = c("34m5m111p222p333p99s")
    (wr,) = [w for w in wild_arrangements(natural, 0, [], kind("5m")) if w.arrangement.win_block is not None][:1]
    assert wr.arrangement.wait == "two_sided" and wr.win_as == kind("5m")
    wild_win = wild_arrangements(c("34m111p222p333p99s"), 1, [], None, Shapes(), win_is_wild=True)
    assert {w.win_as for w in wild_win} >= {kind("2m"), kind("5m")}


def test_declared_melds_only_take_the_standard_shape():
    # 11p + 2 wilds + three declared pungs: the concealed part is a pung and a pair, never seven pairs
    declared = [("pung", (27, 27, 27), True), ("pung", (28, 28, 28), True), ("pung", (29, 29, 29), True)]
    found = readings(c("11p"), 3, declared)
    assert found and all(r[0] == STANDARD for r in found)
    assert found == brute_force(c("11p"), 3, declared)


def test_unsupported_shapes_are_refused():
    with pytest.raises(ValueError):
        wild_arrangements(c("123m"), 1, [], None, Shapes(knitted=True))
    with pytest.raises(ValueError):
        wild_arrangements(c("123m456p789s11z"), 0, [], None, win_is_wild=True)


@pytest.mark.parametrize("wilds", [1, 2])
def test_the_search_equals_trying_every_kind(wilds):
    """Random winning hands from the shared generator with 1 or 2 concealed tiles turned into wilds: the search
    finds exactly the readings of the brute force over all 34 kinds (seven pairs and thirteen orphans too)."""
    rng = random.Random(20240 + wilds)
    gen = handgen.HandGen(7 + wilds, knitted=False, flowers=False)
    checked = 0
    for hand in gen.hands(70):
        closed = hand.closed_kinds
        if len(closed) <= wilds:
            continue
        rng.shuffle(closed)
        natural = counts_of(closed[wilds:])
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        assert readings(natural, wilds, declared) == brute_force(natural, wilds, declared), hand.to_json()
        checked += 1
    assert checked >= 50
