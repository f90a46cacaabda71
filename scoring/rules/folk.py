"""The folk fan table 常用麻将算番规则表 ("commonly used fan table", DIGEST §10b, source 003 @15015-15736).

The source is a table only: 26 items from 天胡 30 down to 五门齐 5, each with its fan and the items it is
not counted with (不算 ...). It breaks off after 五门齐, so the items below 5 fan that its exclusions name
(门清, 缺门, 单调, 断幺, 五将, 缺字) are lost, and it has no tile set, procedure or payments. Every item the
table lists is scored here with its value and its exclusions; what the table lacks (the shapes' details it
leaves open, 全幺九's value, payments) is common practice and an option. The rule card is
``scoring/docs/folk.md``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from scoring.decompose import (
    KNITTED_HONOURS,
    KNITTED_STRAIGHT,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    Arrangement,
    Shapes,
    arrangements,
)
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.rules.folk_reading import (
    DRAGON_SET,
    WIND_SET,
    Hit,
    Pattern,
    Reading,
    all_honours,
    all_pungs,
    big_four_winds,
    big_three_dragons,
    check_situation,
    find,
    full_flush,
    half_flush,
    honour_tiles,
    item,
    little_four_winds,
    little_three_dragons,
    payments,
    terminal_or_honour,
    when,
)
from scoring.ruleset import PRACTICE, SOURCE, Option, RuleSet
from scoring.tiles import DRAGONS, WINDS, code_of, counts_of, is_honour, rank, suit


class Facts:
    """The hand (its situation flags) and the winning tile, for the predicates."""

    __slots__ = ("hand", "win")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.win = () if hand.win_kind is None else (hand.win_kind,)


def _blocks(r: Reading) -> list[tuple[int, ...]]:
    """The tiles of every chow, set and pair of a blocks reading (melds + pair, seven pairs)."""
    return [b.tiles for b in r.arr.blocks] if r.shape in (STANDARD, SEVEN_PAIRS) else []


def _outside(r: Reading) -> bool:
    """全带幺: every chow, pung and pair holds a 1, a 9 or an honour (winds and dragons are allowed)."""
    blocks = _blocks(r)
    return bool(blocks) and all(any(terminal_or_honour(k) for k in b) for b in blocks)


def _outside_hand(f: Facts, r: Reading) -> Hit | None:
    return when(_outside(r) and not (r.shape == STANDARD and not r.chows), r.kinds)


def _terminal_pungs(f: Facts, r: Reading) -> Hit | None:
    """全幺九: 全带幺 with every set a pung (the source: "全是碰（坎）即全幺九")."""
    return when(_outside(r) and r.shape == STANDARD and not r.chows, r.kinds)


def _knitted_complete(r: Reading) -> bool:
    """十三不靠 as option ``thirteen_unrelated`` reads it: all nine of 147/258/369 ("凑齐") and honours, as 14
    single tiles (``singles``) or as the knitted straight + a meld + an honour pair (``honour_pair``)."""
    if r.shape == KNITTED_HONOURS:
        return sum(1 for k in r.kinds if not is_honour(k)) == 9
    return r.shape == KNITTED_STRAIGHT and r.pair is not None and is_honour(r.pair)


def _kou_ting(f: Facts, r: Reading) -> Hit | None:
    """扣听: the dealer declared ready with his first discard (``dealer`` and ``earthly_ready``), or a non-dealer
    declared ready at the dealer's first discard without winning on it (``heavenly_ready``)."""
    h = f.hand
    return when((h.dealer and h.earthly_ready) or (not h.dealer and h.heavenly_ready), r.kinds)


def _three_sisters(f: Facts, r: Reading) -> Hit | None:
    """三姐妹: three identical chows of one suit."""
    same = [c for c, n in Counter(r.chows).items() if n >= 3]
    return when(bool(same), [k for c in same[:1] for _ in range(3) for k in c])


def _three_concealed_self_drawn(f: Facts, r: Reading) -> Hit | None:
    """三箱次: three concealed pungs (a concealed kong counts as one) and a self-draw ("自摸三副坎")."""
    hidden = [s for s in r.sets if s.concealed]
    return when(f.hand.self_drawn and len(hidden) >= 3, [k for s in hidden for k in s.tiles])


def _pure_straight(f: Facts, r: Reading) -> Hit | None:
    """一条龙: the chows 123, 456, 789 of one suit."""
    for s in range(3):
        starts = [s * 9, s * 9 + 3, s * 9 + 6]
        if all(any(c[0] == k for c in r.chows) for k in starts):
            return (1, tuple(k for start in starts for k in range(start, start + 3)))
    return None


def _below_or_above_five(below: bool) -> Any:
    def test(f: Facts, r: Reading) -> Hit | None:
        ok = all(not is_honour(k) and (rank(k) < 5 if below else rank(k) > 5) for k in r.kinds)
        return when(ok and r.shape in (STANDARD, SEVEN_PAIRS), r.kinds)

    return test


def _mixed_triple(f: Facts, r: Reading) -> Hit | None:
    """喜相逢: a chow of the same numbers in each of 万, 条 and 饼, or a pung of the same number in each."""
    chow_starts = {c[0] for c in r.chows}
    for first in range(7):
        if all(s * 9 + first in chow_starts for s in range(3)):
            return (1, tuple(s * 9 + first + i for s in range(3) for i in range(3)))
    set_kinds = {t.kind for t in r.sets}
    for n in range(9):
        if all(s * 9 + n in set_kinds for s in range(3)):
            return (1, tuple(s * 9 + n for s in range(3) for _ in range(3)))
    return None


def _all_fives(f: Facts, r: Reading) -> Hit | None:
    """全带五: every chow, pung and the pair hold a 5."""
    blocks = _blocks(r)
    ok = r.shape == STANDARD and all(any(not is_honour(k) and rank(k) == 5 for k in b) for b in blocks)
    return when(ok, r.kinds)


def _five_types(f: Facts, r: Reading) -> Hit | None:
    """五门齐: 万, 条, 饼, a dragon and a wind, each in some chow, pung or the pair."""
    kinds = {k for b in _blocks(r) for k in b} if r.shape == STANDARD else set()
    types = {suit(k) for k in kinds if not is_honour(k)} | {"dragon" for k in kinds if k in DRAGONS}
    types |= {"wind" for k in kinds if k in WINDS}
    return when(len(types) == 5, r.kinds)


_HEAVENLY, _EARTHLY = "heavenly_win", "earthly_win"

#: The table in the source's order (003 @15015). ``excludes``: the table's 不算 (only items the table lists;
#: the lost ones are named in the rule card). ``implies``: items always contained, left out only with the
#: option implied=drop.
PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        _HEAVENLY,
        "Heavenly Win",
        "天胡",
        30,
        lambda f, r: when(f.hand.heavenly_win, r.kinds),
        "§10b, 003 @15038 庄家起牌即胡 ... 不算不求人",
        excludes=("concealed_self_draw",),
    ),
    Pattern(
        _EARTHLY,
        "Earthly Win",
        "地胡",
        30,
        lambda f, r: when(f.hand.earthly_win, r.kinds),
        "§10b, 003 @15063 庄打一张非庄即胡 ... 不算门清",
    ),
    Pattern(
        "thirteen_orphans",
        "Thirteen Orphans",
        "十三幺",
        30,
        lambda f, r: when(r.shape == THIRTEEN_ORPHANS, r.kinds),
        "§10b, 003 @15089",
    ),
    Pattern(
        "all_honour_pairs",
        "Seven Pairs of Honours",
        "全风七对",
        30,
        lambda f, r: when(r.shape == SEVEN_PAIRS and all_honours(r), r.kinds),
        "§10b, 003 @15128 全是箭、风的七对 ... 不算不求人、门清、缺门、单调、全带幺",
        excludes=("concealed_self_draw", "outside_hand"),
        implies=("seven_pairs",),
    ),
    Pattern(
        "all_honour_pungs",
        "All Honour Pungs",
        "全风对对胡",
        25,
        lambda f, r: when(all_pungs(r) and all_honours(r), r.kinds),
        "§10b, 003 @15162 有四喜、三元另加番",
        implies=("all_pungs",),
    ),
    Pattern(
        "declared_ready_first",
        "Ready at the First Discard",
        "扣听",
        25,
        _kou_ting,
        "§10b, 003 @15197 庄打一张报听，或庄打一张时非庄未胡报听 ... 不算门清",
    ),
    Pattern(
        "big_four_winds",
        "Big Four Winds",
        "大四喜",
        25,
        lambda f, r: when(big_four_winds(r), honour_tiles(r, WIND_SET)),
        "§10b, 003 @15234 不算对对胡。全风、混一色另加番",
        excludes=("all_pungs",),
    ),
    Pattern(
        "big_three_dragons",
        "Big Three Dragons",
        "大三元",
        20,
        lambda f, r: when(big_three_dragons(r), honour_tiles(r, DRAGON_SET)),
        "§10b, 003 @15267",
    ),
    Pattern(
        "little_four_winds",
        "Little Four Winds",
        "小四喜",
        20,
        lambda f, r: when(little_four_winds(r), honour_tiles(r, WIND_SET)),
        "§10b, 003 @15282 其它番另算",
    ),
    Pattern(
        "thirteen_unrelated",
        "Thirteen Unrelated",
        "十三不靠",
        15,
        lambda f, r: when(_knitted_complete(r), r.kinds),
        "§10b, 003 @15310 147、258、369凑齐，以字作将。不算不求人，门清",
        excludes=("concealed_self_draw",),
    ),
    Pattern(
        "little_three_dragons",
        "Little Three Dragons",
        "小三元",
        15,
        lambda f, r: when(little_three_dragons(r), honour_tiles(r, DRAGON_SET)),
        "§10b, 003 @15349",
    ),
    Pattern("full_flush", "Full Flush", "清一色", 15, lambda f, r: when(full_flush(r), r.kinds), "§10b, 003 @15366"),
    Pattern("all_fives", "All Fives", "全带五", 15, _all_fives, "§10b, 003 @15390 不算断幺、五将、缺字"),
    Pattern(
        "seven_pairs",
        "Seven Pairs",
        "七对",
        10,
        lambda f, r: when(r.shape == SEVEN_PAIRS, r.kinds),
        "§10b, 003 @15423 够七对即胡",
    ),
    Pattern("three_sisters", "Three Identical Chows", "三姐妹", 10, _three_sisters, "§10b, 003 @15446"),
    Pattern(
        "three_concealed_pungs_self_drawn",
        "Three Concealed Pungs, Self-Drawn",
        "三箱次",
        10,
        _three_concealed_self_drawn,
        "§10b, 003 @15469 自摸三副坎。暗扛算暗坎",
    ),
    Pattern("pure_straight", "Pure Straight", "一条龙", 8, _pure_straight, "§10b, 003 @15487"),
    Pattern("half_flush", "Half Flush", "混一色", 8, lambda f, r: when(half_flush(r), r.kinds), "§10b, 003 @15516"),
    Pattern(
        "concealed_self_draw",
        "Concealed Self-Draw",
        "不求人",
        7,
        lambda f, r: when(not f.hand.is_open and f.hand.self_drawn, f.win),
        "§10b, 003 @15549 门清自摸胡牌",
    ),
    Pattern("all_pungs", "All Pungs", "对对胡", 7, lambda f, r: when(all_pungs(r), r.kinds), "§10b, 003 @15561"),
    Pattern("all_below_five", "All Below Five", "小于五", 7, _below_or_above_five(True), "§10b, 003 @15572"),
    Pattern("all_above_five", "All Above Five", "大于五", 7, _below_or_above_five(False), "§10b, 003 @15599"),
    Pattern("mixed_triple", "Mixed Triple", "喜相逢", 5, _mixed_triple, "§10b, 003 @15641"),
    Pattern("outside_hand", "Outside Hand", "全带幺", 5, _outside_hand, "§10b, 003 @15666"),
    Pattern(
        "terminal_pungs",
        "All Terminal and Honour Pungs",
        "全幺九",
        5,
        _terminal_pungs,
        "§10b, 003 @15699 全是碰（坎）即全幺九 (no value given: option all_terminal_pungs)",
    ),
    Pattern("five_types", "All Five Types", "五门齐", 5, _five_types, "§10b, 003 @15703"),
)

#: 穷胡 (003 @15626): a win with no other item; counted after the others
PLAIN_WIN = Pattern(
    "plain_win", "Plain Win", "穷胡", 7, lambda f, r: when(True, r.kinds), "§10b, 003 @15626 胡牌后算不出一番牌来"
)


class Folk(RuleSet):
    """The folk fan table 常用麻将算番规则表: 26 items from the source with their exclusions."""

    name = "folk"
    title = "Folk fan table (常用麻将算番规则表)"
    unit = "fan"
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "implied",
            "count",
            "an item a bigger one always contains and the table does not exclude (七对 in 全风七对, 对对胡 in "
            "全风对对胡): count = counted, as the table is written; drop = not counted again",
            "str",
            ("count", "drop"),
            origin=SOURCE,
        ),
        Option(
            "thirteen_unrelated",
            "singles",
            '十三不靠 ("147、258、369凑齐，以字作将"): singles = the nine knitted tiles and five different '
            "honours, 14 single tiles; honour_pair = the nine knitted tiles + a set + an honour pair",
            "str",
            ("singles", "honour_pair"),
            origin=PRACTICE,
        ),
        Option(
            "seven_pairs_four",
            True,
            "four identical tiles count as two pairs of 七对 (the table says only '够七对即胡')",
            "bool",
            origin=PRACTICE,
        ),
        Option(
            "all_terminal_pungs",
            5,
            "fan of 全幺九 (全带幺 with every set a pung; the table names it without a value): 5 = as 全带幺",
            "int",
            origin=PRACTICE,
            minimum=0,
        ),
        Option(
            "base",
            0,
            "the base stake (底) added to every payment (each payer pays base + fan); the table has no payments",
            "int",
            origin=PRACTICE,
            minimum=0,
        ),
    )
    situation = (
        "self_drawn",
        "dealer",
        "heavenly_win",
        "earthly_win",
        "heavenly_ready",
        "earthly_ready",
        "kong_replacement",
        "robbing_kong",
        "last_tile",
        "flowers",
    )
    completeness = (
        "partial: the 26 items of the source table with their values and exclusions; the table breaks off "
        "after 五门齐 5, so its items under 5 fan are lost, and it has no tile set or payments (common practice)"
    )
    summary = (
        "4 sets + a pair, seven pairs, 十三幺 and 十三不靠; the 26 listed items (天胡 30 ... 五门齐 5) added up "
        "with the table's exclusions, 穷胡 7 when none applies; each payer pays base + fan"
    )

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """13 tiles + the winning tile and a situation that can happen (天胡 the dealer's, 地胡 on a discard)."""
        hand.validate(hand_size=self.hand_size)
        check_situation(hand)

    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """The reading worth the most fan, the table's exclusions applied."""
        shapes = Shapes(
            seven_pairs=True,
            seven_pairs_four=options["seven_pairs_four"],
            thirteen_orphans=True,
            knitted=True,
        )
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        wanted = KNITTED_HONOURS if options["thirteen_unrelated"] == "singles" else KNITTED_STRAIGHT
        arrs = [
            a
            for a in arrangements(counts_of(hand.closed_kinds), declared, hand.win_kind, shapes)
            if _folk_shape(a, wanted)
        ]
        notes = _notes(hand)
        if not arrs:
            notes.insert(0, "not a winning hand: the 14 tiles form no 4 sets + a pair, seven pairs, 十三幺 or 十三不靠")
            return Score(self.name, dict(options), False, self.unit, 0, notes=notes)
        facts = Facts(hand)
        drop = options["implied"] == "drop"
        scored = []
        for a in arrs:
            r = Reading(a, hand.self_drawn)
            found = find(PATTERNS, facts, r, drop) or [(PLAIN_WIN, (1, r.kinds))]
            items = [
                item(p, hit, options["all_terminal_pungs"] if p.id == "terminal_pungs" else None) for p, hit in found
            ]
            scored.append((r, items))
        best, items = max(scored, key=lambda ri: sum(i.points for i in ri[1]))
        total = sum(i.points for i in items)
        notes.extend(_item_notes(items, options))
        arrangement = [[code_of(k) for k in g] for g in best.arr.tile_groups()]
        return Score(
            self.name,
            dict(options),
            True,
            self.unit,
            total,
            items,
            arrangement,
            payments(total, hand.self_drawn, options["base"]),
            notes,
        )


def _folk_shape(a: Arrangement, knitted: str) -> bool:
    """The arrangements the table knows: 十三不靠 only in the reading of option thirteen_unrelated."""
    if a.shape in (KNITTED_HONOURS, KNITTED_STRAIGHT):
        return a.shape == knitted and _knitted_complete(Reading(a, False))
    return True


def _notes(hand: Hand) -> list[str]:
    notes = []
    if hand.flowers:
        notes.append("the table has no flower items: the flowers are not counted")
    if hand.kong_replacement or hand.robbing_kong or hand.last_tile:
        notes.append("the table has no item for 杠上开花, 抢杠 or 海底 (its items under 5 fan are lost)")
    return notes


def _item_notes(items: list[Item], options: dict[str, Any]) -> list[str]:
    ids = {i.id for i in items}
    notes = []
    if ids == {"plain_win"}:
        notes.append(
            "穷胡: no listed item applies; the table's items under 5 fan are lost (the source breaks off after "
            "五门齐), so a hand that had one of them is scored as 穷胡 here"
        )
    if "seven_pairs" in ids and "all_honour_pairs" in ids:
        notes.append("七对 is counted inside 全风七对: the table does not exclude it (option implied=count)")
    if "all_pungs" in ids and "all_honour_pungs" in ids:
        notes.append("对对胡 is counted inside 全风对对胡: the table does not exclude it (option implied=count)")
    if "terminal_pungs" in ids:
        notes.append(f"全幺九: the table gives no value; {options['all_terminal_pungs']} (option all_terminal_pungs)")
    notes.append(f"payments: the table has none; each payer pays base {options['base']} + fan (common practice)")
    return notes


RULESET = Folk()
