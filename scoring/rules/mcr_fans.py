"""The 81 fan of Chinese Official mahjong as data: one ``Fan`` per pattern, with its exclusions and one predicate.

Each fan has its DIGEST §2.4 item number, Chinese and standard English names (the 2006 rulebook's, as the
tournament software pymahjonggb prints them), its value, and ``test(facts, reading)``, which returns the
instances of the pattern: one tuple of tile kinds per time it counts (empty: absent). A ``hand`` fan depends only
on the tiles and the situation and is asked once per hand; a ``reading`` fan depends on the arrangement; a
``sets`` fan is a pattern of sets (``mcr_reading.set_fans``), asked only when that pattern was found.

``excludes`` lists the fans not counted with this one (不计) in both editions, ``excludes_1998`` and
``excludes_2006`` those of one edition only; ``reduces_2006`` takes a number of instances off a fan. A fan excludes
only when it is itself counted, and fans are counted from the highest down, so an excluded fan excludes nothing.

``CHOICES`` is the one place where the readings of the 1998 text that it leaves open (DIGEST §2.8 M1-M9) are
decided; ``EXCLUSION_CHOICE`` ties each exclusion that comes from such a reading to its choice, so that a result
names the choice in its notes whenever it changed the score.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.decompose import KNITTED_HONOURS, KNITTED_STRAIGHT, SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS
from scoring.rules.mcr_reading import (
    DRAGON_SET,
    GREEN,
    HONOURS,
    REVERSIBLE,
    TERMINALS,
    TERMINALS_AND_HONOURS,
    WIND_SET,
    Facts,
    Instances,
    Reading,
)

HAND, READING, SETS, SPECIAL = "hand", "reading", "sets", "special"
EDITIONS = ("1998", "2006")


@dataclass(frozen=True, slots=True)
class Fan:
    """One fan: see the module docstring."""

    number: int
    id: str
    zh: str
    en: str
    value: int
    scope: str
    test: Callable[[Facts, Reading | None], Instances]
    excludes: tuple[str, ...] = ()
    excludes_1998: tuple[str, ...] = ()
    excludes_2006: tuple[str, ...] = ()
    reduces_2006: tuple[tuple[str, int], ...] = ()
    editions: tuple[str, ...] = EDITIONS
    #: 1998: the pattern is defined with sets (pungs, chows), so a seven-pairs hand does not make it (M4)
    sets_only_1998: bool = False

    def excluded(self, edition: str) -> tuple[str, ...]:
        """Every fan this one excludes under an edition."""
        return self.excludes + (self.excludes_1998 if edition == "1998" else self.excludes_2006)


# ---- helpers the predicates share ----------------------------------------------------------------------


def _whole(f: Facts) -> Instances:
    return (f.tiles,)


def _when(cond: bool, f: Facts) -> Instances:
    return (f.tiles,) if cond else ()


def _win(cond: bool, f: Facts) -> Instances:
    return ((f.win,),) if cond else ()


def _suits(f: Facts) -> set[int]:
    return {k // 9 for k in f.present if k < 27}


def _has_honour(f: Facts) -> bool:
    return f.present[-1] >= 27


def _all_types(f: Facts) -> bool:
    """The three suits, a wind and a dragon."""
    present = set(f.present)
    return len(_suits(f)) == 3 and bool(WIND_SET & present) and bool(DRAGON_SET & present)


def _ranks_within(f: Facts, low: int, high: int) -> bool:
    """Only number tiles, all of rank low..high."""
    return not _has_honour(f) and all(low <= k % 9 + 1 <= high for k in f.present)


def _sets(name: str) -> Callable[[Facts, Reading | None], Instances]:
    def test(f: Facts, r: Reading | None) -> Instances:
        assert r is not None
        return r.set_fans.get(name, ())

    return test


def _pungs_of(r: Reading, kinds: frozenset[int] | set[int]) -> Instances:
    return tuple((k,) * (4 if kong else 3) for k, _, kong in r.pungs if k in kinds)


def _kong_tiles(f: Facts, concealed: bool | None = None) -> tuple[int, ...]:
    return tuple(
        k for t, ks, is_open in f.declared if t == "kong" and (concealed is None or concealed != is_open) for k in ks
    )


def _kongs(f: Facts) -> int:
    return f.melded_kongs + f.concealed_kongs


def _knitted_all(r: Reading) -> tuple[int, ...]:
    return r.arr.singles or tuple(t for b in r.arr.blocks for t in b.tiles)


def _big_pung_set(r: Reading, first: str, kinds: frozenset[int]) -> Instances:
    """小四喜 / 小三元: the three-wind (two-dragon) pattern with a pair of the fourth wind (third dragon)."""
    if r.pair in kinds and first in r.set_fans:
        return (tuple(t for p in _pungs_of(r, kinds) for t in p) + (r.pair, r.pair),)  # type: ignore[operator]
    return ()


def _terminal_or_wind_pungs(f: Facts, r: Reading) -> Instances:
    """幺九刻: pungs of terminals, and of winds that no wind fan already takes (a pung of the round or seat
    wind, or the wind pungs of 三风刻 / 小四喜 / 大四喜). A dragon pung scores 箭刻 instead."""
    winds = [p for p in r.pungs if p[0] in WIND_SET]
    out = []
    for k, _, kong in r.pungs:
        if k in TERMINALS or (k in WIND_SET and k != f.seat and k != f.round and len(winds) < 3):
            out.append((k,) * (4 if kong else 3))
    return tuple(out)


def _blocks_all(r: Reading, cond: Callable[[tuple[int, ...]], bool]) -> Instances:
    """Every set and the pair of a standard arrangement satisfy ``cond``."""
    if r.shape != STANDARD:
        return ()
    blocks = [b.tiles for b in r.arr.blocks]
    return (tuple(t for b in blocks for t in b),) if all(cond(b) for b in blocks) else ()


def _all_chows(f: Facts, r: Reading | None) -> Instances:
    assert r is not None
    if r.pair is None or r.pair >= 27:
        return ()
    chow_like = len(r.chows) == 4 or (r.shape == KNITTED_STRAIGHT and len(r.chows) == 1)
    return (tuple(t for b in r.arr.blocks for t in b.tiles),) if chow_like and not r.pungs else ()


def _nine_gates(f: Facts, r: Reading | None) -> Instances:
    """1112345678999 of one suit held concealed (no meld), winning on any tile of that suit."""
    if f.declared or f.win >= 27:
        return ()
    s = f.win // 9 * 9
    c = f.concealed13
    if sum(c) != sum(c[s : s + 9]) or c[s : s + 9] != [3, 1, 1, 1, 1, 1, 1, 1, 3]:
        return ()
    return _whole(f)


def _shifted_pairs(f: Facts, r: Reading | None) -> Instances:
    assert r is not None
    if r.shape != SEVEN_PAIRS:
        return ()
    kinds = [b.first for b in r.arr.blocks]
    first = kinds[0]
    ok = first < 27 and kinds == list(range(first, first + 7)) and first // 9 == (first + 6) // 9
    return _whole(f) if ok else ()


def _wait(name: str) -> Callable[[Facts, Reading | None], Instances]:
    def test(f: Facts, r: Reading | None) -> Instances:
        assert r is not None
        return ((f.win,),) if r.wait == name else ()

    return test


def _r(fn: Callable[[Facts, Reading], Instances]) -> Callable[[Facts, Reading | None], Instances]:
    """A reading predicate (the reading is always given)."""

    def test(f: Facts, r: Reading | None) -> Instances:
        assert r is not None
        return fn(f, r)

    return test


def _h(fn: Callable[[Facts], Instances]) -> Callable[[Facts, Reading | None], Instances]:
    """A hand predicate (no reading needed)."""
    return lambda f, r: fn(f)


_CONCEALED = ("concealed_hand", "fully_concealed_hand")
_CONCEALED_SHAPE = (*_CONCEALED, "single_wait")

# fmt: off
FANS: tuple[Fan, ...] = (
    # ---- 88 ---------------------------------------------------------------------------------------------
    Fan(1, "big_four_winds", "大四喜", "Big Four Winds", 88, SETS, _sets("big_four_winds"),
        excludes=("big_three_winds", "all_pungs", "prevalent_wind", "seat_wind", "pung_of_terminals_or_honors")),
    Fan(2, "big_three_dragons", "大三元", "Big Three Dragons", 88, SETS, _sets("big_three_dragons"),
        excludes=("dragon_pung", "two_dragons_pungs")),
    Fan(3, "all_green", "绿一色", "All Green", 88, HAND, _h(lambda f: _when(all(k in GREEN for k in f.present), f)),
        excludes=("half_flush", "one_voided_suit"), sets_only_1998=True),
    Fan(4, "nine_gates", "九莲宝灯", "Nine Gates", 88, HAND, _nine_gates,
        excludes=("full_flush", *_CONCEALED, "no_honors", "one_voided_suit"),
        reduces_2006=(("pung_of_terminals_or_honors", 1),)),
    Fan(5, "four_kongs", "四杠", "Four Kongs", 88, HAND, _h(lambda f: ((_kong_tiles(f),) if _kongs(f) == 4 else ())),
        excludes=("all_pungs", "single_wait")),
    Fan(6, "seven_shifted_pairs", "连七对", "Seven Shifted Pairs", 88, READING, _shifted_pairs,
        excludes=("seven_pairs", "full_flush", *_CONCEALED_SHAPE, "no_honors", "one_voided_suit")),
    Fan(7, "thirteen_orphans", "十三幺", "Thirteen Orphans", 88, READING,
        _r(lambda f, r: _whole(f) if r.shape == THIRTEEN_ORPHANS else ()),
        excludes=("all_types", *_CONCEALED_SHAPE, "all_terminals_and_honors")),
    # ---- 64 ---------------------------------------------------------------------------------------------
    Fan(8, "all_terminals", "清幺九", "All Terminals", 64, HAND,
        _h(lambda f: _when(all(k in TERMINALS for k in f.present), f)),
        excludes=("all_terminals_and_honors", "all_pungs", "outside_hand", "pung_of_terminals_or_honors",
                  "no_honors", "double_pung"),
        excludes_1998=("triple_pung",), sets_only_1998=True),
    Fan(9, "little_four_winds", "小四喜", "Little Four Winds", 64, READING,
        _r(lambda f, r: _big_pung_set(r, "big_three_winds", WIND_SET)),
        excludes=("big_three_winds", "pung_of_terminals_or_honors")),
    Fan(10, "little_three_dragons", "小三元", "Little Three Dragons", 64, READING,
        _r(lambda f, r: _big_pung_set(r, "two_dragons_pungs", DRAGON_SET)),
        excludes=("dragon_pung", "two_dragons_pungs")),
    Fan(11, "all_honors", "字一色", "All Honors", 64, HAND,
        _h(lambda f: _when(all(k in HONOURS for k in f.present), f)),
        excludes=("all_terminals_and_honors", "all_pungs", "outside_hand", "pung_of_terminals_or_honors",
                  "one_voided_suit"), sets_only_1998=True),
    Fan(12, "four_concealed_pungs", "四暗刻", "Four Concealed Pungs", 64, READING,
        _r(lambda f, r: _pungs_all(r, concealed=True) if r.concealed_pungs == 4 else ()),
        excludes=("all_pungs", *_CONCEALED)),
    Fan(13, "pure_terminal_chows", "一色双龙会", "Pure Terminal Chows", 64, SETS, _sets("pure_terminal_chows"),
        excludes=("seven_pairs", "full_flush", "all_chows", "no_honors", "one_voided_suit")),
    # ---- 48 ---------------------------------------------------------------------------------------------
    Fan(14, "quadruple_chow", "一色四同顺", "Quadruple Chow", 48, SETS, _sets("quadruple_chow"),
        excludes=("tile_hog",)),
    Fan(15, "four_pure_shifted_pungs", "一色四节高", "Four Pure Shifted Pungs", 48, SETS,
        _sets("four_pure_shifted_pungs"), excludes=("all_pungs",)),
    # ---- 32 ---------------------------------------------------------------------------------------------
    Fan(16, "four_pure_shifted_chows", "一色四步高", "Four Pure Shifted Chows", 32, SETS,
        _sets("four_pure_shifted_chows")),
    Fan(17, "three_kongs", "三杠", "Three Kongs", 32, HAND,
        _h(lambda f: ((_kong_tiles(f),) if _kongs(f) == 3 else ()))),
    Fan(18, "all_terminals_and_honors", "混幺九", "All Terminals and Honors", 32, HAND,
        _h(lambda f: _when(all(k in TERMINALS_AND_HONOURS for k in f.present), f)),
        excludes=("all_pungs", "outside_hand", "pung_of_terminals_or_honors"), sets_only_1998=True),
    # ---- 24 ---------------------------------------------------------------------------------------------
    Fan(19, "seven_pairs", "七对", "Seven Pairs", 24, READING,
        _r(lambda f, r: _whole(f) if r.shape == SEVEN_PAIRS else ()),
        excludes=_CONCEALED_SHAPE),
    Fan(20, "greater_honors_and_knitted_tiles", "七星不靠", "Greater Honors and Knitted Tiles", 24, READING,
        _r(lambda f, r: _whole(f) if r.shape == KNITTED_HONOURS and HONOURS <= set(f.present) else ()),
        excludes=("lesser_honors_and_knitted_tiles", "all_types", *_CONCEALED_SHAPE)),
    Fan(21, "all_even_pungs", "全双刻", "All Even Pungs", 24, READING,
        _r(lambda f, r: () if r.chows else _blocks_all(r, lambda b: b[0] < 27 and b[0] % 9 % 2 == 1)),
        excludes=("all_pungs", "all_simples", "no_honors")),
    Fan(22, "full_flush", "清一色", "Full Flush", 24, HAND,
        _h(lambda f: _when(len(_suits(f)) == 1 and not _has_honour(f), f)), excludes=("no_honors",)),
    Fan(23, "pure_triple_chow", "一色三同顺", "Pure Triple Chow", 24, SETS, _sets("pure_triple_chow")),
    Fan(24, "pure_shifted_pungs", "一色三节高", "Pure Shifted Pungs", 24, SETS, _sets("pure_shifted_pungs")),
    Fan(25, "upper_tiles", "全大", "Upper Tiles", 24, HAND, _h(lambda f: _when(_ranks_within(f, 7, 9), f)),
        excludes=("upper_four", "no_honors"), sets_only_1998=True),
    Fan(26, "middle_tiles", "全中", "Middle Tiles", 24, HAND, _h(lambda f: _when(_ranks_within(f, 4, 6), f)),
        excludes=("all_simples", "no_honors"), sets_only_1998=True),
    Fan(27, "lower_tiles", "全小", "Lower Tiles", 24, HAND, _h(lambda f: _when(_ranks_within(f, 1, 3), f)),
        excludes=("lower_four", "no_honors"), sets_only_1998=True),
    # ---- 16 ---------------------------------------------------------------------------------------------
    Fan(28, "pure_straight", "清龙", "Pure Straight", 16, SETS, _sets("pure_straight")),
    Fan(29, "three_suited_terminal_chows", "三色双龙会", "Three-Suited Terminal Chows", 16, SETS,
        _sets("three_suited_terminal_chows"), excludes=("all_chows", "no_honors")),
    Fan(30, "pure_shifted_chows", "一色三步高", "Pure Shifted Chows", 16, SETS, _sets("pure_shifted_chows")),
    Fan(31, "all_five", "全带五", "All Five", 16, READING,
        _r(lambda f, r: _blocks_all(r, lambda b: any(k < 27 and k % 9 == 4 for k in b))),
        excludes=("all_simples", "no_honors")),
    Fan(32, "triple_pung", "三同刻", "Triple Pung", 16, SETS, _sets("triple_pung")),
    Fan(33, "three_concealed_pungs", "三暗刻", "Three Concealed Pungs", 16, READING,
        _r(lambda f, r: _pungs_all(r, concealed=True) if r.concealed_pungs == 3 else ())),
    # ---- 12 ---------------------------------------------------------------------------------------------
    Fan(34, "lesser_honors_and_knitted_tiles", "全不靠", "Lesser Honors and Knitted Tiles", 12, READING,
        _r(lambda f, r: _whole(f) if r.shape == KNITTED_HONOURS else ()),
        excludes=("all_types", *_CONCEALED_SHAPE)),
    Fan(35, "knitted_straight", "组合龙", "Knitted Straight", 12, READING, _r(lambda f, r: _knitted(r))),
    Fan(36, "upper_four", "大于五", "Upper Four", 12, HAND, _h(lambda f: _when(_ranks_within(f, 6, 9), f)),
        excludes=("no_honors",), sets_only_1998=True),
    Fan(37, "lower_four", "小于五", "Lower Four", 12, HAND, _h(lambda f: _when(_ranks_within(f, 1, 4), f)),
        excludes=("no_honors",), sets_only_1998=True),
    Fan(38, "big_three_winds", "三风刻", "Big Three Winds", 12, SETS, _sets("big_three_winds")),
    # ---- 8 ----------------------------------------------------------------------------------------------
    Fan(39, "mixed_straight", "花龙", "Mixed Straight", 8, SETS, _sets("mixed_straight")),
    Fan(40, "reversible_tiles", "推不倒", "Reversible Tiles", 8, HAND,
        _h(lambda f: _when(all(k in REVERSIBLE for k in f.present), f)), excludes=("one_voided_suit",)),
    Fan(41, "mixed_triple_chow", "三色三同顺", "Mixed Triple Chow", 8, SETS, _sets("mixed_triple_chow")),
    Fan(42, "mixed_shifted_pungs", "三色三节高", "Mixed Shifted Pungs", 8, SETS, _sets("mixed_shifted_pungs")),
    Fan(43, "chicken_hand", "无番和", "Chicken Hand", 8, SPECIAL, lambda f, r: ()),
    Fan(44, "last_tile_draw", "妙手回春", "Last Tile Draw", 8, HAND,
        _h(lambda f: _win(f.last_tile and f.self_drawn, f)), excludes=("self_drawn",)),
    Fan(45, "last_tile_claim", "海底捞月", "Last Tile Claim", 8, HAND,
        _h(lambda f: _win(f.last_tile and not f.self_drawn, f))),
    Fan(46, "out_with_replacement_tile", "杠上开花", "Out with Replacement Tile", 8, HAND,
        _h(lambda f: _win(f.kong_replacement, f)), excludes=("self_drawn",)),
    Fan(47, "robbing_the_kong", "抢杠和", "Robbing The Kong", 8, HAND, _h(lambda f: _win(f.robbing_kong, f)),
        excludes=("last_tile",)),
    # ---- 6 ----------------------------------------------------------------------------------------------
    Fan(48, "all_pungs", "碰碰和", "All Pungs", 6, READING,
        _r(lambda f, r: _pungs_all(r) if len(r.pungs) == 4 else ())),
    Fan(49, "half_flush", "混一色", "Half Flush", 6, HAND,
        _h(lambda f: _when(len(_suits(f)) == 1 and _has_honour(f), f))),
    Fan(50, "mixed_shifted_chows", "三色三步高", "Mixed Shifted Chows", 6, SETS, _sets("mixed_shifted_chows")),
    Fan(51, "all_types", "五门齐", "All Types", 6, HAND,
        _h(lambda f: _when(_all_types(f), f))),
    Fan(52, "melded_hand", "全求人", "Melded Hand", 6, HAND,
        _h(lambda f: _when(f.open_melds == 4 and not f.self_drawn, f)), excludes=("single_wait",)),
    Fan(53, "two_concealed_kongs", "双暗杠", "Two Concealed Kongs", 6, HAND,
        _h(lambda f: ((_kong_tiles(f, True),) if _kongs(f) == 2 and f.concealed_kongs == 2 else ())),
        excludes=("two_concealed_pungs",)),
    Fan(54, "two_dragons_pungs", "双箭刻", "Two Dragons Pungs", 6, SETS, _sets("two_dragons_pungs"),
        excludes=("dragon_pung",)),
    Fan(0, "concealed_kong_and_melded_kong", "明暗杠", "Concealed Kong and Melded Kong", 5, HAND,
        _h(lambda f: ((_kong_tiles(f),) if _kongs(f) == 2 and f.concealed_kongs == 1 else ())),
        excludes=("melded_kong", "concealed_kong"), editions=("2006",)),
    # ---- 4 ----------------------------------------------------------------------------------------------
    Fan(55, "outside_hand", "全带幺", "Outside Hand", 4, READING,
        _r(lambda f, r: _blocks_all(r, lambda b: any(k in TERMINALS_AND_HONOURS for k in b)))),
    Fan(56, "fully_concealed_hand", "不求人", "Fully Concealed Hand", 4, HAND,
        _h(lambda f: _when(f.open_melds == 0 and f.self_drawn, f)), excludes=("self_drawn",)),
    Fan(57, "two_melded_kongs", "双明杠", "Two Melded Kongs", 4, HAND,
        _h(lambda f: ((_kong_tiles(f, False),) if _kongs(f) == 2 and f.melded_kongs == 2 else ()))),
    Fan(58, "last_tile", "和绝张", "Last Tile", 4, HAND, _h(lambda f: _win(f.fourth_tile, f))),
    # ---- 2 ----------------------------------------------------------------------------------------------
    Fan(59, "dragon_pung", "箭刻", "Dragon Pung", 2, READING, _r(lambda f, r: _pungs_of(r, DRAGON_SET))),
    Fan(60, "prevalent_wind", "圈风刻", "Prevalent Wind", 2, READING, _r(lambda f, r: _pungs_of(r, {f.round}))),
    Fan(61, "seat_wind", "门风刻", "Seat Wind", 2, READING, _r(lambda f, r: _pungs_of(r, {f.seat}))),
    Fan(62, "concealed_hand", "门前清", "Concealed Hand", 2, HAND,
        _h(lambda f: _when(f.open_melds == 0 and not f.self_drawn, f))),
    Fan(63, "all_chows", "平和", "All Chows", 2, READING, _all_chows, excludes=("no_honors",)),
    Fan(64, "tile_hog", "四归一", "Tile Hog", 2, HAND, _h(lambda f: _tile_hogs(f))),
    Fan(65, "double_pung", "双同刻", "Double Pung", 2, SETS, _sets("double_pung")),
    Fan(66, "two_concealed_pungs", "双暗刻", "Two Concealed Pungs", 2, READING,
        _r(lambda f, r: _pungs_all(r, concealed=True) if r.concealed_pungs == 2 else ())),
    Fan(67, "concealed_kong", "暗杠", "Concealed Kong", 2, HAND,
        _h(lambda f: ((_kong_tiles(f, True),) if f.concealed_kongs == 1 and _kongs(f) <= 2 else ()))),
    Fan(68, "all_simples", "断幺", "All Simples", 2, HAND,
        _h(lambda f: _when(not any(k in TERMINALS_AND_HONOURS for k in f.present), f)), excludes=("no_honors",)),
    # ---- 1 ----------------------------------------------------------------------------------------------
    Fan(69, "pure_double_chow", "一般高", "Pure Double Chow", 1, SETS, _sets("pure_double_chow")),
    Fan(70, "mixed_double_chow", "喜相逢", "Mixed Double Chow", 1, SETS, _sets("mixed_double_chow")),
    Fan(71, "short_straight", "连六", "Short Straight", 1, SETS, _sets("short_straight")),
    Fan(72, "two_terminal_chows", "老少副", "Two Terminal Chows", 1, SETS, _sets("two_terminal_chows")),
    Fan(73, "pung_of_terminals_or_honors", "幺九刻", "Pung of Terminals or Honors", 1, READING,
        _r(_terminal_or_wind_pungs)),
    Fan(74, "melded_kong", "明杠", "Melded Kong", 1, HAND,
        _h(lambda f: ((_kong_tiles(f, False),) if f.melded_kongs == 1 and _kongs(f) <= 2 else ()))),
    Fan(75, "one_voided_suit", "缺一门", "One Voided Suit", 1, HAND, _h(lambda f: _when(len(_suits(f)) == 2, f))),
    Fan(76, "no_honors", "无字", "No Honors", 1, HAND, _h(lambda f: _when(not _has_honour(f), f))),
    Fan(77, "edge_wait", "边张", "Edge Wait", 1, READING, _wait("edge")),
    Fan(78, "closed_wait", "坎张", "Closed Wait", 1, READING, _wait("closed")),
    Fan(79, "single_wait", "单钓将", "Single Wait", 1, READING, _wait("single")),
    Fan(80, "self_drawn", "自摸", "Self-Drawn", 1, HAND, _h(lambda f: _win(f.self_drawn, f))),
    Fan(81, "flower_tiles", "花牌", "Flower Tiles", 1, SPECIAL, lambda f, r: ()),
)
# fmt: on


def _pungs_all(r: Reading, concealed: bool = False) -> Instances:
    return (tuple(t for k, hidden, kong in r.pungs if hidden or not concealed for t in (k,) * (4 if kong else 3)),)


def _tile_hogs(f: Facts) -> Instances:
    kongs = {ks[0] for t, ks, _ in f.declared if t == "kong"}
    return tuple((k,) * 4 for k in f.present if f.counts[k] == 4 and k not in kongs)


def _knitted(r: Reading) -> Instances:
    """组合龙: the knitted straight of a knitted-straight hand, or the nine number tiles of 全不靠 when they are
    a whole knitted straight."""
    if r.shape == KNITTED_STRAIGHT:
        return (r.knitted,)
    if r.shape == KNITTED_HONOURS:
        numbers = tuple(k for k in _knitted_all(r) if k < 27)
        return (numbers,) if len(numbers) == 9 else ()
    return ()


BY_ID: dict[str, Fan] = {f.id: f for f in FANS}
#: a fan's place in the table (the order in which fans are counted and listed)
INDEX: dict[str, int] = {f.id: i for i, f in enumerate(FANS)}
HAND_FANS: dict[str, tuple[Fan, ...]] = {
    e: tuple(f for f in FANS if f.scope == HAND and e in f.editions) for e in EDITIONS
}
#: the fans that depend on the arrangement; the patterns of sets are asked through ``Reading.set_fans``
READING_FANS: dict[str, tuple[Fan, ...]] = {
    e: tuple(f for f in FANS if f.scope == READING and e in f.editions) for e in EDITIONS
}


# ---- the readings of the 1998 text, decided in one place (DIGEST §2.8) -------------------------------------

CHOICES: dict[str, str] = {
    "M1": "M1: 绿一色 is not counted with 混一色 (1998 text); 清一色 still counts when the hand has no 发",
    "M2": (
        "M2: an exclusion the 1998 table does not list is applied where the pattern itself implies the "
        "excluded fan (不重复原则), e.g. 大四喜 takes its 幺九刻 and 圈风刻/门风刻, 双箭刻 its 箭刻, a concealed "
        "shape (七对, 十三幺, 全不靠, 连七对, 四暗刻, 九莲宝灯) takes 门前清 and 不求人"
    ),
    "M3": "M3: 不求人 includes the self-draw, so 自摸 is not counted with it (不重复原则)",
    "M4a": "M4: 清幺九 is not counted with 双同刻 nor 三同刻 (the 1998 text's 不计同刻 read as both)",
    "M4b": (
        "M4: in seven-pairs form 绿一色, 清幺九, 字一色, 混幺九, 全大, 全中, 全小, 大于五 and 小于五 are not "
        "counted: the 1998 text defines them with pungs and chows"
    ),
    "M5": (
        "M5: 组合龙 + one set + a pair is a legal win (the 1998 list of shapes omits it, though 组合龙 is a fan); "
        "七星不靠 is not counted with 全不靠"
    ),
    "M6": (
        "M6: a pung of the round or seat wind scores 圈风刻/门风刻 and not also 幺九刻, and a dragon pung scores "
        "箭刻 (不重复原则)"
    ),
    "M7": "M7: 一色四节高 is not counted with 碰碰和 (the 1998 text's truncated '不计…碰' read as 碰碰和)",
    "wait": (
        "边张, 坎张 and 单钓将 count only when the hand waited on that one tile (1998 text: 12345 winning on 3 is "
        "not 边张); a tile whose four copies are all in the hand is not waited on"
    ),
    "knitted_wait": "a winning tile that completes the knitted straight (组合龙) is not an edge, closed or single wait",
    "nine_gates": (
        "九莲宝灯 is 1112345678999 of one suit held concealed; it is not counted with 清一色 (1998 text) nor "
        "with 门前清, 不求人, 无字, 缺一门 (不重复原则)"
    ),
    "kongs": (
        "the kongs that make 三杠 or 四杠 are not split to score 双明杠, 双暗杠, 明杠 or 暗杠 (不拆移原则); one "
        "melded and one concealed kong score 明杠 + 暗杠"
    ),
}

#: (fan, excluded fan) -> the choice that made the exclusion, for the notes of a 1998 result
EXCLUSION_CHOICE: dict[tuple[str, str], str] = {
    ("all_green", "half_flush"): "M1",
    ("big_four_winds", "pung_of_terminals_or_honors"): "M2",
    ("big_three_dragons", "two_dragons_pungs"): "M2",
    ("little_three_dragons", "two_dragons_pungs"): "M2",
    ("little_four_winds", "pung_of_terminals_or_honors"): "M2",
    ("all_honors", "pung_of_terminals_or_honors"): "M2",
    ("all_honors", "outside_hand"): "M2",
    ("all_terminals", "outside_hand"): "M2",
    ("all_terminals", "pung_of_terminals_or_honors"): "M2",
    ("all_terminals_and_honors", "outside_hand"): "M2",
    ("all_terminals_and_honors", "pung_of_terminals_or_honors"): "M2",
    ("fully_concealed_hand", "self_drawn"): "M3",
    ("all_terminals", "double_pung"): "M4a",
    ("all_terminals", "triple_pung"): "M4a",
    ("greater_honors_and_knitted_tiles", "lesser_honors_and_knitted_tiles"): "M5",
    ("four_pure_shifted_pungs", "all_pungs"): "M7",
    **{
        (s, c): "M2"
        for s in (
            "seven_pairs",
            "thirteen_orphans",
            "seven_shifted_pairs",
            "lesser_honors_and_knitted_tiles",
            "greater_honors_and_knitted_tiles",
            "four_concealed_pungs",
        )
        for c in _CONCEALED
    },
    **{("nine_gates", x): "nine_gates" for x in BY_ID["nine_gates"].excludes},
}
