"""The riichi yaku as data: one ``Yaku`` per pattern (names, closed and open han, exclusions) and one predicate.

A predicate reads a ``Facts`` (what is true of the whole hand: tiles, situation, options) and, for the
patterns that depend on how the hand is read, a ``Reading`` (one arrangement of the decomposition engine with
its sets, chows and pair). It returns False when the pattern is absent, True when it is present (its tiles
are then shown as ``Yaku.shows`` says), or the indexes of the blocks that make it. ``needs`` is a mask of
features (the bits below) that the hand, and the reading for the patterns that read one, must all show for the
pattern to count: a cheap necessary condition, so that each hand and each reading asks only the few patterns
that can apply (``hand_asks``, ``reading_asks``); the predicate decides. (The closed-only chow patterns need
a closed hand: open they would be worth nothing.)

Values are han: ``closed`` for a closed hand, ``open`` for an open one (0: not allowed open). A yakuman has
``yakuman`` = 1 (13 han) or 2 (a double yakuman, 26 han, when the ``double_yakuman`` option is on).
``excludes`` lists the patterns this one replaces (not counted together with it). The rule card
``scoring/docs/riichi.md`` gives the source of each value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from scoring.decompose import (
    CHOW,
    PAIR,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    THIRTEEN_SIDED,
    TWO_SIDED,
    Arrangement,
)
from scoring.hand import Hand
from scoring.tiles import DRAGONS, EAST, HONOURS, NORTH, SOUTH, TERMINALS, TERMINALS_AND_HONOURS, WEST, WINDS, code_of

TERMINAL_OR_HONOUR: Final = frozenset(TERMINALS_AND_HONOURS)
TERMINAL_KINDS: Final = frozenset(TERMINALS)
HONOUR_KINDS: Final = frozenset(HONOURS)
#: 2 3 4 6 8 bamboo and the green dragon: the tiles of ryuuiisou
GREEN: Final = frozenset((19, 20, 21, 23, 25, 32))
_DRAGON_SET: Final = frozenset(DRAGONS)
_WIND_SET: Final = frozenset(WINDS)


def _mask(kinds: frozenset[int]) -> int:
    """A set of kinds as bits: bit k for kind k."""
    return sum(1 << k for k in kinds)


TERMINAL_OR_HONOUR_MASK: Final = _mask(TERMINAL_OR_HONOUR)
_HONOUR_MASK: Final = _mask(HONOUR_KINDS)
_GREEN_MASK: Final = _mask(GREEN)
_SUIT_MASK: Final = 0x1FF  # the nine kinds of a suit, shifted by 9 x suit
_MIDDLE_MASK: Final = _mask(frozenset(s + r for s in (0, 9, 18) for r in (3, 4, 5)))  # the 4, 5 and 6 of each suit
_BIT: Final = tuple(1 << k for k in range(34))
_RED_FIVES: Final = (("0m", 4), ("0p", 13), ("0s", 22))

#: the kind of every code (red fives included), looked up instead of parsed in the hot paths
KIND: Final[dict[str, int]] = {code_of(k): k for k in range(34)} | {"0m": 4, "0p": 13, "0s": 22}
_WIND_KIND: Final = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
_VALUED: Final = {(seat, round_): _DRAGON_SET | {seat, round_} for seat in WINDS for round_ in WINDS}

# ---- features: what a hand or a reading shows, as bits; ``Yaku.needs`` is a mask of them ---------------------

#: hand features (``Facts.features``)
RIICHI_ANY: Final = 1 << 0  # riichi, double riichi or ippatsu declared
TSUMO: Final = 1 << 1
LUCK: Final = 1 << 2  # rinshan, chankan or the last tile
BLESSING: Final = 1 << 3  # tenhou, chiihou or renhou
CLOSED: Final = 1 << 4  # no open meld
ONLY_SIMPLES: Final = 1 << 5
ONLY_TERMINALS_HONOURS: Final = 1 << 6
OUTSIDE_TILES: Final = 1 << 7  # a terminal or honour and no 4, 5 or 6: every block can hold a terminal or honour
ONE_SUIT: Final = 1 << 8  # the number tiles are of one suit
ONLY_GREEN: Final = 1 << 9
THREE_KONGS: Final = 1 << 10  # three kongs or more
FULL_SUIT: Final = 1 << 11  # 1 to 9 of a suit
THREE_SUIT_RUN: Final = 1 << 12  # three consecutive ranks in each of the three suits
THREE_SUIT_RANK: Final = 1 << 13  # one rank in each of the three suits
DRAGON_TRIPLET: Final = 1 << 14  # three or more copies of a dragon
WIND_TRIPLET: Final = 1 << 15  # three or more copies of a wind
#: three or more copies of this honour
TRIPLET_OF: Final = {k: 1 << (16 + k - 27) for k in HONOURS}
_ALL_DRAGON_TRIPLETS: Final = sum(TRIPLET_OF[k] for k in DRAGONS)
_ALL_WIND_TRIPLETS: Final = sum(TRIPLET_OF[k] for k in WINDS)
#: reading features (``Reading.features``): at least n chows, at least n pungs or kongs, the shape
CHOWS_AT_LEAST: Final = (0, 1 << 23, 1 << 24, 1 << 25, 1 << 26)
SETS_AT_LEAST: Final = (0, 1 << 27, 1 << 28, 1 << 29, 1 << 30)
SEVEN_PAIRS_SHAPE: Final = 1 << 31
THIRTEEN_ORPHANS_SHAPE: Final = 1 << 32
_READING_FEATURES: Final = sum(CHOWS_AT_LEAST) | sum(SETS_AT_LEAST) | SEVEN_PAIRS_SHAPE | THIRTEEN_ORPHANS_SHAPE
_SHAPE_FEATURES: Final = {SEVEN_PAIRS: SEVEN_PAIRS_SHAPE, THIRTEEN_ORPHANS: THIRTEEN_ORPHANS_SHAPE}
#: the reading features of 0-4 chows and 0-4 sets
_CHOW_BITS: Final = tuple(sum(CHOWS_AT_LEAST[: n + 1]) for n in range(5))
_SET_BITS: Final = tuple(sum(SETS_AT_LEAST[: n + 1]) for n in range(5))


class Facts:
    """What holds for the whole hand, whatever the arrangement: computed once per hand.

    hand: the hand itself (its situation flags are read from it). closed_counts: the concealed tiles with the
    winning tile (34 counts); counts: every tile, kongs as 4. riichi: riichi or double riichi declared.
    mask: the kinds held, as bits; reds: the red five codes among the hand's tiles; features: the hand
    features (the bits above) that ``Yaku.needs`` is checked against.
    """

    __slots__ = (
        "hand",
        "options",
        "is_open",
        "tsumo",
        "seat",
        "round",
        "dealer",
        "riichi",
        "mask",
        "suit",
        "honours",
        "closed_counts",
        "counts",
        "win",
        "declared",
        "kongs",
        "reds",
        "valued",
        "features",
    )

    def __init__(self, hand: Hand, options: dict[str, Any]) -> None:
        self.hand = hand
        self.options = options
        closed = [0] * 34
        mask = 0
        for code in hand.concealed:
            k = KIND[code]
            closed[k] += 1
            mask |= _BIT[k]
        self.win = win = KIND[hand.win_tile or ""]
        closed[win] += 1
        mask |= _BIT[win]
        counts = list(closed)
        declared = []
        kongs = 0
        is_open = False
        for m in hand.melds:
            ks = tuple(sorted([KIND[t] for t in m.tiles]))  # a chow may be written in any order
            for k in ks:
                counts[k] += 1
                mask |= _BIT[k]
            declared.append((m.type, ks, m.open))
            kongs += len(ks) == 4
            is_open = is_open or m.open
        self.closed_counts = closed
        self.counts = counts
        self.declared = declared
        self.kongs = kongs
        self.is_open = is_open
        self.mask = mask
        self.reds = (
            [red for red, five in _RED_FIVES if counts[five] and _holds(hand, red)]
            if counts[4] or counts[13] or counts[22]
            else []
        )
        man, pin, sou = mask & _SUIT_MASK, mask >> 9 & _SUIT_MASK, mask >> 18 & _SUIT_MASK
        #: the suit (0-2) when every number tile is of one suit, else -1
        if man:
            self.suit = -1 if pin or sou else 0
        elif pin:
            self.suit = -1 if sou else 1
        else:
            self.suit = 2 if sou else -1
        self.honours = bool(mask & _HONOUR_MASK)
        self.tsumo = tsumo = hand.self_drawn
        self.seat = seat = _WIND_KIND[hand.seat_wind]
        self.round = round_ = _WIND_KIND[hand.round_wind]
        self.dealer = hand.dealer or hand.seat_wind == "E"
        self.riichi = hand.riichi or hand.double_riichi
        #: kinds whose pair scores fu and whose set is yakuhai: the dragons, the seat and round winds
        self.valued = _VALUED[seat, round_]
        features = 0 if is_open else CLOSED
        if self.riichi or hand.ippatsu:
            features |= RIICHI_ANY
        if tsumo:
            features |= TSUMO
        if hand.kong_replacement or hand.robbing_kong or hand.last_tile:
            features |= LUCK
        if hand.heavenly_win or hand.earthly_win or hand.human_win:
            features |= BLESSING
        if mask & TERMINAL_OR_HONOUR_MASK:
            if not mask & ~TERMINAL_OR_HONOUR_MASK:
                features |= ONLY_TERMINALS_HONOURS
            if not mask & _MIDDLE_MASK:
                features |= OUTSIDE_TILES
            if mask & _HONOUR_MASK and max(counts[27:]) >= 3:
                for k in HONOURS:
                    if counts[k] >= 3:
                        features |= TRIPLET_OF[k] | (DRAGON_TRIPLET if k in _DRAGON_SET else WIND_TRIPLET)
        else:
            features |= ONLY_SIMPLES
        if self.suit >= 0:
            features |= ONE_SUIT
        if man == _SUIT_MASK or pin == _SUIT_MASK or sou == _SUIT_MASK:
            features |= FULL_SUIT
        if man and pin and sou:
            common = man & pin & sou  # the ranks held in all three suits
            if common:
                features |= THREE_SUIT_RANK
                if common & common >> 1 & common >> 2:
                    features |= THREE_SUIT_RUN
        if not mask & ~_GREEN_MASK:
            features |= ONLY_GREEN
        if kongs >= 3:
            features |= THREE_KONGS
        self.features = features


def _holds(hand: Hand, code: str) -> bool:
    """True when ``code`` is among the concealed tiles, the winning tile or the melds' tiles."""
    return code in hand.concealed or code == hand.win_tile or any(code in m.tiles for m in hand.melds)


class Reading:
    """One arrangement seen the way the riichi patterns need it.

    sets: (block index, kind, is_kong, concealed) for each pung or kong; a pung completed by a discard (ron)
    is not concealed. chows: (block index, first kind). pair: the pair's kind. All three are empty (None)
    outside the four-sets-and-a-pair shape. features: the reading features (how many chows and sets, the shape).
    """

    __slots__ = ("arr", "shape", "sets", "chows", "pair", "pair_index", "wait", "concealed_sets", "features")

    def __init__(self, arr: Arrangement, tsumo: bool) -> None:
        self.arr = arr
        self.shape = arr.shape
        self.wait = arr.wait
        sets: list[tuple[int, int, bool, bool]] = []
        chows: list[tuple[int, int]] = []
        pair = None
        pair_index = -1
        concealed_sets = 0
        if arr.shape == STANDARD:
            win_block = arr.win_block
            for i, b in enumerate(arr.blocks):
                t = b.type
                if t == CHOW:
                    chows.append((i, b.tiles[0]))
                elif t == PAIR:
                    pair = b.tiles[0]
                    pair_index = i
                else:
                    concealed = b.concealed and (tsumo or i != win_block)
                    concealed_sets += concealed
                    sets.append((i, b.tiles[0], len(b.tiles) == 4, concealed))
            self.features = _CHOW_BITS[len(chows)] | _SET_BITS[len(sets)]
        else:
            self.features = _SHAPE_FEATURES.get(arr.shape, 0)
        self.sets = sets
        self.chows = chows
        self.pair = pair
        self.pair_index = pair_index
        self.concealed_sets = concealed_sets


#: A pattern's predicate: (facts, reading) -> False, True or the indices of the blocks that show it. The
#: reading is a ``Reading`` for the patterns asked of each reading and None for those asked once per hand, so
#: it is typed Any: each predicate's own signature says which it takes.
Test = Callable[[Facts, Any], Any]


@dataclass(frozen=True, slots=True)
class Yaku:
    """One riichi pattern. ``needs``: the features (bits above) that must all be shown for the pattern to be
    asked. A pattern that needs a reading feature (chows, sets, a shape) is asked of each reading; the others
    read only Facts and are asked once per hand."""

    id: str
    name_en: str
    name_ja: str
    closed: int
    open: int
    test: Test
    needs: int
    yakuman: int = 0
    excludes: tuple[str, ...] = ()
    #: which tiles an item shows when the predicate answers True: "hand", "win" (the winning tile) or "none"
    shows: str = "hand"

    @property
    def per_reading(self) -> bool:
        """True when the pattern depends on how the hand is read (asked of each reading)."""
        return bool(self.needs & _READING_FEATURES)

    def han(self, is_open: bool, double_yakuman: bool) -> int:
        """The han this pattern is worth in a hand (0: it does not count in such a hand)."""
        if self.yakuman:
            return 13 * (self.yakuman if double_yakuman else 1)
        return self.open if is_open else self.closed


# ---- predicates on the whole hand ------------------------------------------------------------------------


def _all_in(allowed: frozenset[int]) -> Callable[[Facts, Reading | None], bool]:
    outside = ~_mask(allowed)
    return lambda f, r: not f.mask & outside


def _honitsu(f: Facts, r: Reading | None) -> bool:
    return f.suit >= 0 and f.honours


def _chinitsu(f: Facts, r: Reading | None) -> bool:
    return f.suit >= 0 and not f.honours


def _tanyao(f: Facts, r: Reading | None) -> bool:
    return not f.mask & TERMINAL_OR_HONOUR_MASK and (not f.is_open or f.options["open_tanyao"])


def _chuuren(f: Facts, r: Reading | None) -> bool:
    """Nine gates: a closed hand without kongs holding 1112345678999 of one suit plus any tile of it."""
    if f.declared or not _chinitsu(f, r):
        return False
    s = f.suit * 9
    c = f.closed_counts[s : s + 9]
    return c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c[1:8])


def _junsei_chuuren(f: Facts, r: Reading | None) -> bool:
    """The pure nine gates: the 13 tiles before the win were exactly 1112345678999 (a nine-sided wait)."""
    return _chuuren(f, r) and f.closed_counts[f.win] in (2, 4)


# ---- predicates on a reading ------------------------------------------------------------------------------


def pinfu_shape(f: Facts, r: Reading) -> bool:
    """Closed, four chows, a pair that scores no fu and a two-sided wait: a hand with no fu at all."""
    return not f.is_open and len(r.chows) == 4 and r.pair not in f.valued and r.wait == TWO_SIDED


def _pinfu(f: Facts, r: Reading) -> bool:
    return pinfu_shape(f, r) and not (f.tsumo and f.options["pinfu_tsumo_fu"])


def _twin_chows(r: Reading) -> list[tuple[int, int]]:
    """Pairs of identical chows (block indexes), each chow used once."""
    by_first: dict[int, list[int]] = {}
    for i, first in r.chows:
        by_first.setdefault(first, []).append(i)
    return [(ix[2 * j], ix[2 * j + 1]) for ix in by_first.values() for j in range(len(ix) // 2)]


def _iipeikou(f: Facts, r: Reading) -> tuple[int, ...] | bool:
    twins = _twin_chows(r) if len(r.chows) >= 2 else []
    return twins[0] if twins else False


def _ryanpeikou(f: Facts, r: Reading) -> tuple[int, ...] | bool:
    twins = _twin_chows(r) if len(r.chows) == 4 else []
    return twins[0] + twins[1] if len(twins) >= 2 else False


def _set_of(kind: int) -> Callable[[Facts, Reading], tuple[int, ...] | bool]:
    def test(f: Facts, r: Reading) -> tuple[int, ...] | bool:
        for i, k, _, _ in r.sets:
            if k == kind:
                return (i,)
        return False

    return test


def _wind_set(wind: int, attr: str) -> Callable[[Facts, Reading], tuple[int, ...] | bool]:
    found = _set_of(wind)
    return lambda f, r: getattr(f, attr) == wind and found(f, r)  # reading_yaku() asks only the hand's winds


def _outside(f: Facts, r: Reading, honours: bool) -> bool:
    """Every block holds a terminal or honour, with at least one chow (chanta: with honours; junchan: without)."""
    if not r.chows:
        return False
    for b in r.arr.blocks:
        t = b.tiles
        if t[0] not in TERMINAL_OR_HONOUR and t[-1] not in TERMINAL_OR_HONOUR:
            return False
    return f.honours == honours


def _ittsu(f: Facts, r: Reading) -> tuple[int, ...] | bool:
    if len(r.chows) < 3:
        return False
    firsts = {first: i for i, first in r.chows}
    for s in (0, 9, 18):
        if s in firsts and s + 3 in firsts and s + 6 in firsts:
            return firsts[s], firsts[s + 3], firsts[s + 6]
    return False


def _sanshoku(f: Facts, r: Reading) -> tuple[int, ...] | bool:
    if len(r.chows) < 3:
        return False
    firsts = {first: i for i, first in r.chows}
    for first in firsts:
        if first < 9 and first + 9 in firsts and first + 18 in firsts:
            return firsts[first], firsts[first + 9], firsts[first + 18]
    return False


def _sanshoku_doukou(f: Facts, r: Reading) -> tuple[int, ...] | bool:
    if len(r.sets) < 3:
        return False
    kinds = {k: i for i, k, _, _ in r.sets}
    for k in kinds:
        if k < 9 and k + 9 in kinds and k + 18 in kinds:
            return kinds[k], kinds[k + 9], kinds[k + 18]
    return False


def _toitoi(f: Facts, r: Reading) -> bool:
    return len(r.sets) == 4


def _concealed_sets(n: int) -> Callable[[Facts, Reading], tuple[int, ...] | bool]:
    def test(f: Facts, r: Reading) -> tuple[int, ...] | bool:
        if r.concealed_sets != n:
            return False
        return tuple(s[0] for s in r.sets if s[3])

    return test


def _suuankou(f: Facts, r: Reading) -> bool:
    return r.concealed_sets == 4


def _suuankou_tanki(f: Facts, r: Reading) -> bool:
    return r.concealed_sets == 4 and r.arr.win_block == r.pair_index


def _kongs(n: int) -> Callable[[Facts, Reading | None], bool]:
    return lambda f, r: f.kongs == n


def _group_sets(kinds: frozenset[int], n_sets: int, pair: bool) -> Callable[[Facts, Reading], tuple[int, ...] | bool]:
    """n_sets pungs/kongs of the given kinds, and (if pair) the pair of one of them."""

    def test(f: Facts, r: Reading) -> tuple[int, ...] | bool:
        found = tuple(s[0] for s in r.sets if s[1] in kinds)
        if len(found) != n_sets or (r.pair in kinds) != pair:
            return False
        return (*found, r.pair_index) if pair else found

    return test


def _always(f: Facts, r: Reading) -> bool:
    """For the patterns that are their shape (seven pairs, thirteen orphans): asked only of that shape."""
    return True


def _thirteen_sided(f: Facts, r: Reading) -> bool:
    return r.wait == THIRTEEN_SIDED


def _renhou(as_yakuman: bool) -> Callable[[Facts, Reading | None], bool]:
    return lambda f, r: f.hand.human_win and f.options["renhou_yakuman"] == as_yakuman


_WIND_NAMES: Final = {EAST: ("east", "東"), SOUTH: ("south", "南"), WEST: ("west", "西"), NORTH: ("north", "北")}

C1: Final = CHOWS_AT_LEAST[1]
C2: Final = CHOWS_AT_LEAST[2]
C3: Final = CHOWS_AT_LEAST[3]
C4: Final = CHOWS_AT_LEAST[4]
S1: Final = SETS_AT_LEAST[1]
S2: Final = SETS_AT_LEAST[2]
S3: Final = SETS_AT_LEAST[3]
S4: Final = SETS_AT_LEAST[4]
P7: Final = SEVEN_PAIRS_SHAPE
P13: Final = THIRTEEN_ORPHANS_SHAPE

#: Every pattern, in the order items are listed. The rule card gives the source of each value.
YAKU: Final[tuple[Yaku, ...]] = (
    # situation (read from the hand's flags)
    Yaku("riichi", "Riichi", "立直", 1, 0, lambda f, r: f.hand.riichi, RIICHI_ANY, shows="none"),
    Yaku(
        "double_riichi",
        "Double Riichi",
        "ダブル立直",
        2,
        0,
        lambda f, r: f.hand.double_riichi,
        RIICHI_ANY,
        excludes=("riichi",),
        shows="none",
    ),
    Yaku("ippatsu", "Ippatsu", "一発", 1, 0, lambda f, r: f.hand.ippatsu, RIICHI_ANY, shows="win"),
    Yaku(
        "menzen_tsumo",
        "Menzen Tsumo",
        "門前清自摸和",
        1,
        0,
        lambda f, r: f.tsumo and not f.is_open,
        TSUMO | CLOSED,
        shows="win",
    ),
    Yaku("rinshan", "Rinshan Kaihou", "嶺上開花", 1, 1, lambda f, r: f.hand.kong_replacement, LUCK, shows="win"),
    Yaku("chankan", "Chankan", "槍槓", 1, 1, lambda f, r: f.hand.robbing_kong, LUCK, shows="win"),
    Yaku(
        "haitei",
        "Haitei Raoyue",
        "海底摸月",
        1,
        1,
        lambda f, r: f.hand.last_tile and f.tsumo,
        LUCK | TSUMO,
        shows="win",
    ),
    Yaku("houtei", "Houtei Raoyui", "河底撈魚", 1, 1, lambda f, r: f.hand.last_tile and not f.tsumo, LUCK, shows="win"),
    Yaku("renhou", "Renhou", "人和", 5, 0, _renhou(False), BLESSING),
    # one han
    Yaku("pinfu", "Pinfu", "平和", 1, 0, _pinfu, C4 | CLOSED),
    Yaku("tanyao", "Tanyao", "断幺九", 1, 1, _tanyao, ONLY_SIMPLES),
    Yaku("iipeikou", "Iipeikou", "一盃口", 1, 0, _iipeikou, C2 | CLOSED),
    Yaku("yakuhai_haku", "Yakuhai (haku)", "役牌 白", 1, 1, _set_of(31), S1 | TRIPLET_OF[31]),
    Yaku("yakuhai_hatsu", "Yakuhai (hatsu)", "役牌 發", 1, 1, _set_of(32), S1 | TRIPLET_OF[32]),
    Yaku("yakuhai_chun", "Yakuhai (chun)", "役牌 中", 1, 1, _set_of(33), S1 | TRIPLET_OF[33]),
    *(
        Yaku(
            f"yakuhai_seat_{en}",
            f"Yakuhai (seat wind {en})",
            f"自風 {ja}",
            1,
            1,
            _wind_set(w, "seat"),
            S1 | TRIPLET_OF[w],
        )
        for w, (en, ja) in _WIND_NAMES.items()
    ),
    *(
        Yaku(
            f"yakuhai_round_{en}",
            f"Yakuhai (round wind {en})",
            f"場風 {ja}",
            1,
            1,
            _wind_set(w, "round"),
            S1 | TRIPLET_OF[w],
        )
        for w, (en, ja) in _WIND_NAMES.items()
    ),
    # two han
    Yaku("chiitoitsu", "Chiitoitsu", "七対子", 2, 0, _always, P7),
    Yaku("chanta", "Chanta", "混全帯幺九", 2, 1, lambda f, r: _outside(f, r, True), C1 | OUTSIDE_TILES),
    Yaku("ittsu", "Ittsu", "一気通貫", 2, 1, _ittsu, C3 | FULL_SUIT),
    Yaku("sanshoku", "Sanshoku Doujun", "三色同順", 2, 1, _sanshoku, C3 | THREE_SUIT_RUN),
    Yaku("sanshoku_doukou", "Sanshoku Doukou", "三色同刻", 2, 2, _sanshoku_doukou, S3 | THREE_SUIT_RANK),
    Yaku("sankantsu", "Sankantsu", "三槓子", 2, 2, _kongs(3), THREE_KONGS),
    Yaku("toitoi", "Toitoi", "対々和", 2, 2, _toitoi, S4),
    Yaku("sanankou", "Sanankou", "三暗刻", 2, 2, _concealed_sets(3), S3),
    Yaku("shousangen", "Shousangen", "小三元", 2, 2, _group_sets(_DRAGON_SET, 2, True), S2 | DRAGON_TRIPLET),
    Yaku("honroutou", "Honroutou", "混老頭", 2, 2, _all_in(TERMINAL_OR_HONOUR), ONLY_TERMINALS_HONOURS),
    # three han and more
    Yaku("ryanpeikou", "Ryanpeikou", "二盃口", 3, 0, _ryanpeikou, C4 | CLOSED, excludes=("iipeikou",)),
    Yaku("junchan", "Junchan", "純全帯幺九", 3, 2, lambda f, r: _outside(f, r, False), C1 | OUTSIDE_TILES),
    Yaku("honitsu", "Honitsu", "混一色", 3, 2, _honitsu, ONE_SUIT),
    Yaku("chinitsu", "Chinitsu", "清一色", 6, 5, _chinitsu, ONE_SUIT),
    # yakuman
    Yaku("tenhou", "Tenhou", "天和", 13, 0, lambda f, r: f.hand.heavenly_win, BLESSING, yakuman=1),
    Yaku("chiihou", "Chiihou", "地和", 13, 0, lambda f, r: f.hand.earthly_win, BLESSING, yakuman=1),
    Yaku("renhou_yakuman", "Renhou (yakuman)", "人和", 13, 0, _renhou(True), BLESSING, yakuman=1),
    Yaku("kokushi", "Kokushi Musou", "国士無双", 13, 0, _always, P13, yakuman=1),
    Yaku("kokushi_13", "Kokushi Musou Juusanmen", "国士無双十三面待ち", 13, 0, _thirteen_sided, P13, 2, ("kokushi",)),
    Yaku("suuankou", "Suuankou", "四暗刻", 13, 0, _suuankou, S4, yakuman=1),
    Yaku("suuankou_tanki", "Suuankou Tanki", "四暗刻単騎", 13, 0, _suuankou_tanki, S4, 2, ("suuankou",)),
    Yaku(
        "daisangen",
        "Daisangen",
        "大三元",
        13,
        13,
        _group_sets(_DRAGON_SET, 3, False),
        S3 | _ALL_DRAGON_TRIPLETS,
        yakuman=1,
    ),
    Yaku("shousuushii", "Shousuushii", "小四喜", 13, 13, _group_sets(_WIND_SET, 3, True), S3 | WIND_TRIPLET, yakuman=1),
    Yaku(
        "daisuushii",
        "Daisuushii",
        "大四喜",
        13,
        13,
        _group_sets(_WIND_SET, 4, False),
        S4 | _ALL_WIND_TRIPLETS,
        yakuman=2,
    ),
    Yaku("tsuuiisou", "Tsuuiisou", "字一色", 13, 13, _all_in(HONOUR_KINDS), ONLY_TERMINALS_HONOURS, yakuman=1),
    Yaku("ryuuiisou", "Ryuuiisou", "緑一色", 13, 13, _all_in(GREEN), ONLY_GREEN, yakuman=1),
    Yaku("chinroutou", "Chinroutou", "清老頭", 13, 13, _all_in(TERMINAL_KINDS), ONLY_TERMINALS_HONOURS, yakuman=1),
    Yaku("chuuren", "Chuuren Poutou", "九蓮宝燈", 13, 0, _chuuren, ONE_SUIT | CLOSED, yakuman=1),
    Yaku(
        "junsei_chuuren",
        "Junsei Chuuren Poutou",
        "純正九蓮宝燈",
        13,
        0,
        _junsei_chuuren,
        ONE_SUIT | CLOSED,
        yakuman=2,
        excludes=("chuuren",),
    ),
    Yaku("suukantsu", "Suukantsu", "四槓子", 13, 13, _kongs(4), THREE_KONGS, yakuman=1),
)

BY_ID: Final[dict[str, Yaku]] = {y.id: y for y in YAKU}
#: the han of every pattern by (open hand, double yakuman option): ``Yaku.han`` looked up
HAN: Final[dict[tuple[bool, bool], dict[str, int]]] = {
    (is_open, double): {y.id: y.han(is_open, double) for y in YAKU}
    for is_open in (False, True)
    for double in (False, True)
}
#: the place of each pattern in YAKU: items are listed in this order
ORDER: Final[dict[str, int]] = {y.id: i for i, y in enumerate(YAKU)}
HAND_YAKU: Final[tuple[Yaku, ...]] = tuple(y for y in YAKU if not y.per_reading)
_READING_YAKU: Final[tuple[Yaku, ...]] = tuple(y for y in YAKU if y.per_reading)
_SEAT_YAKU: Final = {w: f"yakuhai_seat_{en}" for w, (en, _) in _WIND_NAMES.items()}
_ROUND_YAKU: Final = {w: f"yakuhai_round_{en}" for w, (en, _) in _WIND_NAMES.items()}
_WIND_YAKU: Final = set(_SEAT_YAKU.values()) | set(_ROUND_YAKU.values())


@cache
def hand_asks(features: int) -> tuple[Yaku, ...]:
    """The patterns of the whole hand worth asking of a hand with these features (``Facts.features``)."""
    return tuple(y for y in HAND_YAKU if not y.needs & ~features)


@cache
def reading_asks(seat: int, round_: int, features: int) -> tuple[Yaku, ...]:
    """The patterns worth asking of a reading with these features (the hand's and the reading's together);
    the wind yakuhai only for this seat and round."""
    keep = {_SEAT_YAKU[seat], _ROUND_YAKU[round_]}
    return tuple(y for y in _READING_YAKU if not y.needs & ~features and (y.id not in _WIND_YAKU or y.id in keep))
