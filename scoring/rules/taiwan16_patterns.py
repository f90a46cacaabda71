"""The tai items of 十六張台灣麻將 as data: one ``Pattern`` per item (names, tai, exclusions) and one predicate.

The items are those of the source's 計台名堂 table (DIGEST §1.5, source 000 @183-2722), in its order. A
predicate reads a ``Facts`` (what holds for the whole hand: tiles, flowers, situation, options) and a
``Reading`` (one arrangement of the decomposition engine, its sets, chows and pairs). It returns None when the
item does not apply, else a ``Hit``: how many times it counts and the tiles that made it.

``excludes`` lists the items this one is "not counted with" (不計 ...) or that always co-exist with it, so
that only the higher counts (台數計算準則, source @2722). Exclusions are applied once, over all the items
found: an item is dropped when any item found excludes it. Dealer tai (作莊, 連N拉N) are not hand items:
they are settled only between the dealer and the other party (``scoring.rules.taiwan16_settle``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.decompose import CHOW, PAIR, PAIRS_AND_PUNG, STANDARD, Arrangement
from scoring.tiles import DRAGONS, WINDS, is_honour, suit

#: how many times an item counts, and the kinds (tiles or flowers) that made it
Hit = tuple[int, tuple[int, ...]]

_WIND_SET = frozenset(WINDS)
_DRAGON_SET = frozenset(DRAGONS)
#: flower kinds 34-37 are plum, orchid, chrysanthemum, bamboo (1f-4f); 38-41 spring .. winter (5f-8f)
FLOWER_COLOURS = (tuple(range(34, 38)), tuple(range(38, 42)))

EIGHT_IMMORTALS, SEVEN_ROB_ONE = "eight_immortals", "seven_rob_one"


@dataclass(frozen=True, slots=True)
class Facts:
    """What holds for the whole hand, whatever the arrangement.

    seat: the kind of the seat wind (開門序: East for the 開門位, then counter-clockwise); seat_number its
    flower number 1-4. round: the kind of the round wind (圈序). standing: concealed tiles held without the
    winning tile (全求 / 半求 need 1). flowers: the flower kinds whose tai this hand counts (七搶一 way 2
    leaves out the robbed one); flowers_held: any flower at all (平胡 needs none, choice A6). flower_win:
    None, ``eight_immortals`` or ``seven_rob_one``. single_wait: 獨聽, the winning tile is the only tile
    that completes the hand.
    """

    options: dict[str, Any]
    seat: int
    seat_number: int
    round: int
    self_drawn: bool
    is_open: bool
    all_open: bool
    standing: int
    kinds: tuple[int, ...]
    win: int
    flowers: tuple[int, ...]
    flowers_held: bool
    flower_win: str | None
    single_wait: bool
    robbing_kong: bool
    kong_replacement: bool
    last_tile: bool
    heavenly_ready: bool
    earthly_ready: bool
    heavenly_win: bool
    earthly_win: bool
    human_win: bool


@dataclass(frozen=True, slots=True)
class Triplet:
    """A pung or kong (a triplet, 坎) of a reading: its kind, whether it counts as concealed (暗坎), its tiles."""

    kind: int
    concealed: bool
    tiles: tuple[int, ...]


class Reading:
    """One arrangement seen the way the tai items need it.

    sets: the pungs and kongs; a pung completed by a discard is not concealed (choice A5). chows: the
    chows' tiles. pair: the pair's kind in a 5 melds + pair hand, None in 嚦咕嚦咕 (seven pairs).
    """

    __slots__ = ("arr", "shape", "sets", "chows", "pair")

    def __init__(self, arr: Arrangement, self_drawn: bool) -> None:
        self.arr = arr
        self.shape = arr.shape
        sets: list[Triplet] = []
        chows: list[tuple[int, ...]] = []
        pairs: list[int] = []
        for i, b in enumerate(arr.blocks):
            if b.type == CHOW:
                chows.append(b.tiles)
            elif b.type == PAIR:
                pairs.append(b.first)
            else:
                sets.append(Triplet(b.first, b.concealed and (self_drawn or i != arr.win_block), b.tiles))
        self.sets = tuple(sets)
        self.chows = tuple(chows)
        self.pair = pairs[0] if arr.shape == STANDARD else None

    def sets_of(self, kinds: frozenset[int]) -> tuple[Triplet, ...]:
        return tuple(s for s in self.sets if s.kind in kinds)

    @property
    def completed_by_discard(self) -> Triplet | None:
        """The set the winning tile completed on a discard (A5: it is not concealed), if there is one."""
        b = self.arr.blocks[self.arr.win_block] if self.arr.win_block is not None else None
        if b is None or not b.is_set or b.declared:
            return None
        return next((s for s in self.sets if s.kind == b.first and not s.concealed), None)


Test = Callable[[Facts, Reading], Hit | None]


@dataclass(frozen=True)
class Pattern:
    """One tai item: ``value`` tai per count; ``item`` the number in the source's table (DIGEST §1.5)."""

    id: str
    name_en: str
    name_zh: str
    value: int
    item: str
    test: Test
    excludes: tuple[str, ...] = ()


# ---- helpers -------------------------------------------------------------------------------------------


def _one(tiles: tuple[int, ...]) -> Hit:
    return (1, tiles)


def _sets_hit(sets: tuple[Triplet, ...]) -> Hit | None:
    return (len(sets), tuple(k for s in sets for k in s.tiles)) if sets else None


def _if(cond: bool, tiles: tuple[int, ...]) -> Hit | None:
    return _one(tiles) if cond else None


def _whole(f: Facts) -> tuple[int, ...]:
    return tuple(sorted(f.kinds))


def _suits(f: Facts) -> set[int]:
    return {suit(k) for k in f.kinds if not is_honour(k)}


def _has_honour(f: Facts) -> bool:
    return any(is_honour(k) for k in f.kinds)


def big_four_winds(r: Reading) -> bool:
    return len(r.sets_of(_WIND_SET)) == 4


def little_four_winds(r: Reading) -> bool:
    return len(r.sets_of(_WIND_SET)) == 3 and r.pair in _WIND_SET


def big_three_dragons(r: Reading) -> bool:
    return len(r.sets_of(_DRAGON_SET)) == 3


def little_three_dragons(r: Reading) -> bool:
    return len(r.sets_of(_DRAGON_SET)) == 2 and r.pair in _DRAGON_SET


def _winds_dragons_tiles(r: Reading, kinds: frozenset[int]) -> tuple[int, ...]:
    pair = (r.pair, r.pair) if r.pair in kinds else ()
    return tuple(k for s in r.sets_of(kinds) for k in s.tiles) + pair


def _concealed_sets(r: Reading, n: int) -> Hit | None:
    sets = tuple(s for s in r.sets if s.concealed)
    return _one(tuple(k for s in sets for k in s.tiles)) if len(sets) >= n else None


def own_flowers(f: Facts) -> tuple[int, ...]:
    """The flowers numbered like the seat (A8: 1f-4f and 5f-8f are each numbered 1-4) in incomplete colours."""
    out = []
    for colour in FLOWER_COLOURS:
        own = colour[f.seat_number - 1]
        if own in f.flowers and not all(k in f.flowers for k in colour):
            out.append(own)
    return tuple(out)


def _flower_sets(f: Facts) -> Hit | None:
    full = [colour for colour in FLOWER_COLOURS if all(k in f.flowers for k in colour)]
    return (len(full), tuple(k for c in full for k in c)) if full else None


def plain_hand_shape(f: Facts, r: Reading) -> bool:
    """平胡 without its 無花 condition: a pair, no honours, no sets, not 獨聽, not self-drawn (item 7)."""
    return r.shape == STANDARD and not r.sets and not _has_honour(f) and not f.single_wait and not f.self_drawn


def _round_wind_pung(f: Facts, r: Reading) -> Hit | None:
    return _sets_hit(r.sets_of(frozenset((f.round,))))


def _dragon_round(f: Facts, r: Reading) -> Hit | None:
    return _sets_hit(r.sets_of(_DRAGON_SET)) if f.options["dragon_round_tai"] else None


def _three_dragons_round(f: Facts, r: Reading) -> Hit | None:
    on = f.options["dragon_round_tai"] and (big_three_dragons(r) or little_three_dragons(r))
    return _if(on, _winds_dragons_tiles(r, _DRAGON_SET))


def _all_honours_deduction(f: Facts, r: Reading) -> Hit | None:
    if not all(is_honour(k) for k in f.kinds):
        return None
    found = big_four_winds(r) or little_four_winds(r) or big_three_dragons(r) or little_three_dragons(r)
    return _if(found, _whole(f))


_FLOWER_ITEMS = ("own_flower", "flower_set", "all_flowers")

#: Every tai item in the source's order (item numbers of DIGEST §1.5). 作莊 (9) and 連N拉N (10) are settled
#: with the dealer only, and 花胡 (27) / 配牌花胡 (28) are forms of 八仙過海 and 七搶一: see taiwan16_settle.
PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        "seat_wind_pung",
        "Seat Wind Triplet",
        "風字坎(合開門序)",
        1,
        "1",
        lambda f, r: _sets_hit(r.sets_of(frozenset((f.seat,)))),
    ),
    Pattern("round_wind_pung", "Round Wind Triplet", "風字坎(合圈序)", 1, "1", _round_wind_pung),
    Pattern("dragon_pung", "Dragon Triplet", "箭字坎", 1, "2", lambda f, r: _sets_hit(r.sets_of(_DRAGON_SET))),
    Pattern("dragon_pung_round", "Dragon Triplet, Round Tai (A1)", "箭字坎合圈序", 1, "2", _dragon_round),
    Pattern("concealed_hand", "Concealed Hand", "門清", 1, "3", lambda f, r: _if(not f.is_open, _whole(f))),
    Pattern(
        "concealed_self_draw",
        "Concealed Self-Draw",
        "不求.自摸",
        2,
        "4",
        lambda f, r: _if(not f.is_open and f.self_drawn, (f.win,)),
        excludes=("self_draw",),
    ),
    Pattern(
        "fully_melded",
        "Fully Melded Hand",
        "全求",
        2,
        "5",
        lambda f, r: _if(f.standing == 1 and f.all_open and not f.self_drawn, (f.win,)),
    ),
    Pattern(
        "half_melded_self_draw",
        "Half-Melded Self-Draw",
        "半求",
        1,
        "6",
        lambda f, r: _if(f.standing == 1 and f.is_open and f.self_drawn, (f.win,)),
    ),
    Pattern(
        "plain_hand",
        "Plain Hand",
        "平胡",
        2,
        "7",
        lambda f, r: _if(plain_hand_shape(f, r) and not f.flowers_held, _whole(f)),
    ),
    Pattern(
        "all_pungs",
        "All Triplets",
        "對對胡",
        4,
        "8",
        lambda f, r: _if(r.shape == STANDARD and not r.chows, _whole(f)),
    ),
    Pattern("single_wait", "Single Wait", "獨聽", 1, "11", lambda f, r: _if(f.single_wait, (f.win,))),
    Pattern("robbing_kong", "Robbing the Kong", "搶槓", 1, "12", lambda f, r: _if(f.robbing_kong, (f.win,))),
    Pattern(
        "all_honours",
        "All Honours",
        "字一色",
        16,
        "13",
        lambda f, r: _if(all(is_honour(k) for k in f.kinds), _whole(f)),
        excludes=("all_pungs",),
    ),
    Pattern("all_honours_deduction", "All Honours Deduction", "字一色減4台", -4, "13", _all_honours_deduction),
    Pattern(
        "full_flush",
        "Full Flush",
        "清一色",
        12,
        "14",
        lambda f, r: _if(len(_suits(f)) == 1 and not _has_honour(f), _whole(f)),
    ),
    Pattern(
        "half_flush",
        "Half Flush",
        "湊一色",
        4,
        "15",
        lambda f, r: _if(len(_suits(f)) == 1 and _has_honour(f), _whole(f)),
    ),
    Pattern("three_concealed_pungs", "Three Concealed Triplets", "三暗坎", 2, "16", lambda f, r: _concealed_sets(r, 3)),
    Pattern(
        "four_concealed_pungs",
        "Four Concealed Triplets",
        "四暗坎",
        5,
        "17",
        lambda f, r: _concealed_sets(r, 4),
        excludes=("three_concealed_pungs",),
    ),
    Pattern(
        "five_concealed_pungs",
        "Five Concealed Triplets",
        "五暗坎",
        13,
        "18",
        lambda f, r: _concealed_sets(r, 5),
        excludes=("four_concealed_pungs", "three_concealed_pungs", "concealed_hand", "all_pungs"),
    ),
    Pattern(
        "big_four_winds",
        "Big Four Winds",
        "大四喜",
        16,
        "19",
        lambda f, r: _if(big_four_winds(r), _winds_dragons_tiles(r, _WIND_SET)),
        excludes=("seat_wind_pung", "round_wind_pung"),
    ),
    Pattern(
        "little_four_winds",
        "Little Four Winds",
        "小四喜",
        8,
        "20",
        lambda f, r: _if(little_four_winds(r), _winds_dragons_tiles(r, _WIND_SET)),
    ),
    Pattern(
        "big_three_dragons",
        "Big Three Dragons",
        "大三元",
        8,
        "21",
        lambda f, r: _if(big_three_dragons(r), _winds_dragons_tiles(r, _DRAGON_SET)),
        excludes=("dragon_pung", "dragon_pung_round"),
    ),
    Pattern(
        "little_three_dragons",
        "Little Three Dragons",
        "小三元",
        4,
        "22",
        lambda f, r: _if(little_three_dragons(r), _winds_dragons_tiles(r, _DRAGON_SET)),
        excludes=("dragon_pung", "dragon_pung_round"),
    ),
    Pattern("three_dragons_round", "Three Dragons, Round Tai (A1)", "三元合圈序", 1, "21, 22", _three_dragons_round),
    Pattern("self_draw", "Self-Draw", "自摸", 1, "23", lambda f, r: _if(f.self_drawn, (f.win,))),
    Pattern(
        "kong_replacement_win",
        "Win on a Replacement Tile",
        "槓上開花",
        1,
        "24",
        lambda f, r: _if(f.kong_replacement and f.self_drawn, (f.win,)),
    ),
    Pattern(
        "last_tile_draw",
        "Win on the Last Tile",
        "海底撈月",
        1,
        "25",
        lambda f, r: _if(f.last_tile and f.self_drawn, (f.win,)),
    ),
    Pattern(
        "own_flower",
        "Own-Seat Flower",
        "花牌(合開門序)",
        1,
        "26",
        lambda f, r: (len(own_flowers(f)), own_flowers(f)) if own_flowers(f) else None,
    ),
    Pattern("flower_set", "Same-Colour Flower Triplet", "同色花槓", 2, "26", lambda f, r: _flower_sets(f)),
    Pattern(
        "all_flowers",
        "All Eight Flowers",
        "滿花",
        8,
        "26",
        lambda f, r: _if(len(f.flowers) == 8, f.flowers),
        excludes=("own_flower", "flower_set"),
    ),
    Pattern(
        EIGHT_IMMORTALS,
        "Eight Immortals Cross the Sea",
        "八仙過海",
        8,
        "29",
        lambda f, r: _if(f.flower_win == EIGHT_IMMORTALS, f.flowers),
        excludes=_FLOWER_ITEMS,
    ),
    Pattern(
        SEVEN_ROB_ONE,
        "Seven Rob One",
        "七搶一",
        8,
        "30",
        lambda f, r: _if(f.flower_win == SEVEN_ROB_ONE, f.flowers),
        excludes=_FLOWER_ITEMS,
    ),
    Pattern(
        "heavenly_ready",
        "Heavenly Ready",
        "天聽",
        8,
        "31",
        lambda f, r: _if(f.heavenly_ready, _whole(f)),
        excludes=("concealed_hand",),
    ),
    Pattern(
        "earthly_ready",
        "Earthly Ready",
        "地聽",
        4,
        "32",
        lambda f, r: _if(f.earthly_ready, _whole(f)),
        excludes=("concealed_hand",),
    ),
    Pattern(
        "heavenly_win",
        "Heavenly Win",
        "天胡",
        16,
        "33",
        lambda f, r: _if(f.heavenly_win, _whole(f)),
        excludes=("concealed_hand", "concealed_self_draw", "self_draw"),
    ),
    Pattern(
        "earthly_win",
        "Earthly Win",
        "地胡",
        16,
        "34",
        lambda f, r: _if(f.earthly_win, _whole(f)),
        excludes=("heavenly_ready", "concealed_hand"),
    ),
    Pattern(
        "human_win",
        "Human Win",
        "人胡",
        8,
        "35",
        lambda f, r: _if(f.human_win, _whole(f)),
        excludes=("earthly_ready", "concealed_hand"),
    ),
    Pattern(
        "lugulugu",
        "Lugulugu (Eight and a Half Pairs)",
        "嚦咕嚦咕",
        8,
        "36",
        lambda f, r: _if(r.shape == PAIRS_AND_PUNG, _whole(f)),
        excludes=("concealed_hand",),
    ),
)

BY_ID: dict[str, Pattern] = {p.id: p for p in PATTERNS}


def find(f: Facts, r: Reading) -> list[tuple[Pattern, Hit]]:
    """The items that count for one reading, in the table's order, exclusions applied."""
    found = [(p, hit) for p in PATTERNS if (hit := p.test(f, r)) is not None]
    dropped = {x for p, _ in found for x in p.excludes}
    return [(p, hit) for p, hit in found if p.id not in dropped]
