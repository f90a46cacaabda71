"""The shared decomposition engine: melds + pair, seven pairs, thirteen orphans, knitted shapes, waits."""

from scoring.decompose import (
    CLOSED,
    DUAL_PUNG,
    EDGE,
    KNITTED_HONOURS,
    KNITTED_STRAIGHT,
    SEVEN_PAIRS,
    SINGLE,
    THIRTEEN_ORPHANS,
    THIRTEEN_SIDED,
    TWO_SIDED,
    Shapes,
    arrangements,
    split_melds_pair,
    winning_kinds,
)
from scoring.tiles import counts_of, kind, parse_tiles

ALL = Shapes(seven_pairs=True, seven_pairs_four=True, thirteen_orphans=True, knitted=True)


def c(text):
    return counts_of(kind(t) for t in parse_tiles(text))


def waits(text, win, declared=(), shapes=None):
    return sorted({a.wait for a in arrangements(c(text), declared, kind(win), shapes or Shapes())})


def test_every_split_is_found_once():
    # 111222333m: three pungs or three chows; with a pair of 9p
    splits = split_melds_pair(c("111222333m99p"))
    assert len(splits) == 2
    assert all(sum(1 for t, _ in s if t == "pair") == 1 for s in splits)


def test_a_broken_hand_has_no_split():
    assert split_melds_pair(c("124m")) == []
    assert arrangements(c("12345m11p"), [], kind("5m")) == []


def test_nine_gates_waits_on_every_tile_of_its_suit():
    # DIGEST 2.4 #4 and 002 @19735: 1112345678999 is the hand that wins on any tile of its suit
    assert winning_kinds(c("1112345678999m"), 0) == list(range(9))


def test_thirteen_orphans_thirteen_sided_and_single():
    singles = "19m19p19s1234567z"
    assert winning_kinds(c(singles), 0, ALL) == [kind(t) for t in parse_tiles(singles)]
    assert waits(singles + "1m", "1m", shapes=ALL) == [THIRTEEN_SIDED]
    (arr,) = arrangements(c("19m19p19s1234567z9p"), [], kind("1m"), ALL)
    assert arr.shape == THIRTEEN_ORPHANS and arr.wait == SINGLE


def test_seven_pairs_with_and_without_four_of_a_kind():
    four = c("1111m22p33p44s55s66z")
    assert [a.shape for a in arrangements(four, [], kind("6z"), ALL)] == [SEVEN_PAIRS]
    assert arrangements(four, [], kind("6z"), Shapes(seven_pairs=True)) == []


def test_knitted_straight_with_meld_and_pair():
    # 组合龙 147m 258p 369s + 123m... here 789m chow + 11z pair
    arrs = arrangements(c("147m258p369s789m11z"), [], kind("1z"), ALL)
    assert {a.shape for a in arrs} == {KNITTED_STRAIGHT}


def test_honours_and_knitted_singles():
    # 全不靠: 14 singles from one knitted straight plus honours
    arrs = arrangements(c("147m258p3s1234567z"), [], kind("7z"), ALL)
    assert [a.shape for a in arrs] == [KNITTED_HONOURS]
    assert arrangements(c("147m258p3s1234567z"), [], kind("7z"), Shapes()) == []


def test_wait_shapes_edge_closed_two_sided_single_dual():
    # DIGEST 2.4 #77/#78: 12+3 and 89+7 are edge waits, 4_6 closed, 45+3 two-sided
    rest = "456p789s111z99p"
    assert waits("123m" + rest, "3m") == [EDGE]
    assert waits("789m" + rest, "7m") == [EDGE]
    assert waits("456m" + rest, "5m") == [CLOSED]
    assert waits("345m" + rest, "3m") == [TWO_SIDED]
    assert waits("123m" + rest, "9p") == [SINGLE]
    assert waits("123m" + rest, "1z") == [DUAL_PUNG]


def test_one_winning_tile_can_fill_several_waits():
    # 1233m + 3m: 12+3 edge with pair 33, or 123 with 3+3 single: #77 "1233 winning on 3" counts as edge
    assert waits("12333m456p789s111z", "3m") == [EDGE, SINGLE]
    # 4556m + 5m: 4_6 closed with pair 55: #78 "4556 winning on 5 counts"
    assert CLOSED in waits("45556m123p789s111z", "5m")


def test_declared_melds_join_every_arrangement():
    declared = [("pung", (kind("7z"),) * 3, True)]
    arrs = arrangements(c("123m456p789s11z"), declared, kind("1z"))
    assert arrs and all(a.blocks[-1].declared and not a.blocks[-1].concealed for a in arrs)
    # declared melds rule out seven pairs and thirteen orphans
    assert arrangements(c("1122m3344p55s66z"), [("pung", (0, 0, 0), True)], kind("6z"), ALL) == []


def test_taiwan_sized_hand_five_melds_and_pair():
    assert arrangements(c("123456789m123p555s11z"), [], kind("5s")) != []
