"""Shanxi Datong mahjong (山西麻将规则大同篇): 136 tiles, no chi, payments in multiples of the room's base.

Source: DIGEST §7, 003 @0-898 "大同麻将玩法介绍" (an online game): the tiles, no chi (@475 "不能吃，只能碰、杠牌"),
nine hand types named without values (@532: 屁和, 坎和, 堆和, 坎堆和, 清一色, 一条龙, 清一色套龙, 自摸, 截胡) and the
scoring formula of 三、记分规则 (@653): a discard win costs each player 1 base and the discarder double, a
self-draw 2 base from each, 碰碰胡 / 清一色 / 七对 double again, 十三幺 "再番6倍", kongs 1 or 2 base from each,
连庄 +10 per repeat. The hand types the source only names are defined from common practice (rule card
``scoring/docs/datong.md``): 坎和 a closed or edge single wait, 堆和 eight tiles of one suit, 一条龙 a 1-9 straight.

The unit is ``times``: the hand's multiple of the base, the product of its items' factors (屁和 1, each
doubling 2, 十三幺 6). Each other player pays that many bases (the discarder twice as many); kongs and the
dealer streak are paid on top. Hand fields read: ``self_drawn``, ``dealer``, ``dealer_streak`` and the melds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import prod
from typing import Any, ClassVar

from scoring.decompose import (
    CHOW,
    CLOSED,
    DUAL_PUNG,
    EDGE,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    Arrangement,
    Shapes,
    arrangements,
    winning_kinds,
)
from scoring.errors import HandError
from scoring.hand import Hand, Meld
from scoring.result import Item, Score
from scoring.ruleset import PRACTICE, Option, RuleSet
from scoring.tiles import code_of, counts_of, kind, normal, suit


@dataclass(frozen=True, slots=True)
class Facts:
    """What holds for the whole hand. kinds: every tile (a kong's four included); single_wait: the 13 tiles
    wait on the winning tile only."""

    options: dict[str, Any]
    kinds: tuple[int, ...]
    win: int
    single_wait: bool
    self_drawn: bool


#: a predicate: does the hand type apply to the facts and one arrangement
Test = Callable[[Facts, Arrangement], bool]


@dataclass(frozen=True)
class HandType:
    """One hand type. Its factor is 2^(doublings + the options named in ``option``): the source's doublings and
    the common-practice ones. ``excludes``: the items it replaces."""

    id: str
    name_en: str
    name_zh: str
    test: Test
    doublings: int = 0
    option: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    cite: str = ""

    def factor(self, options: dict[str, Any]) -> int:
        """The item's factor (十三幺: option thirteen_orphans, x6 or x64)."""
        if self.id == "thirteen_orphans":
            return 6 if options["thirteen_orphans"] == "x6" else 64
        return 2 ** (self.doublings + sum(int(options[o]) for o in self.option))


def _kan(f: Facts, a: Arrangement) -> bool:
    """坎和: the winning tile filled a closed (嵌张) or edge (边张) wait and is the only tile the hand waited on."""
    return a.wait in (CLOSED, EDGE) and f.single_wait


def _dui(f: Facts, a: Arrangement) -> bool:
    """堆和: eight or more tiles of one suit (option dui_he_rule=eight_of_a_suit), or the winning tile completed
    a pung (dui_he_rule=pung)."""
    if f.options["dui_he_rule"] == "pung":
        return a.wait == DUAL_PUNG
    return max(sum(1 for k in f.kinds if k < 27 and suit(k) == s) for s in range(3)) >= 8


def _flush(f: Facts, a: Arrangement) -> bool:
    return all(k < 27 for k in f.kinds) and len({suit(k) for k in f.kinds}) == 1


def _dragon(f: Facts, a: Arrangement) -> bool:
    """一条龙: chows 123, 456 and 789 of one suit."""
    firsts = {b.first for b in a.blocks if b.type == CHOW}
    return any({s * 9, s * 9 + 3, s * 9 + 6} <= firsts for s in range(3))


def _all_pungs(f: Facts, a: Arrangement) -> bool:
    return a.shape == STANDARD and not any(b.type == CHOW for b in a.blocks)


#: the hand types, in the source's order (@532), with the shapes of the scoring section (@853)
HAND_TYPES: tuple[HandType, ...] = (
    HandType("closed_wait", "Closed or Edge Wait", "坎和", _kan, option=("kan_he",), cite="@532 item 2"),
    HandType("suit_heap", "Eight of a Suit", "堆和", _dui, option=("dui_he",), cite="@532 item 3"),
    HandType(
        "closed_wait_heap",
        "Closed Wait and Eight of a Suit",
        "坎堆和",
        lambda f, a: _kan(f, a) and _dui(f, a),
        option=("kan_he", "dui_he"),
        excludes=("closed_wait", "suit_heap"),
        cite="@532 item 4",
    ),
    HandType("full_flush", "Full Flush", "清一色", _flush, 1, cite="@532 item 5; @853 再番一倍"),
    HandType("dragon", "Pure Straight", "一条龙", _dragon, option=("yi_tiao_long",), cite="@532 item 6"),
    HandType(
        "pure_dragon",
        "Full Flush with a Straight",
        "清一色套龙",
        lambda f, a: _flush(f, a) and _dragon(f, a),
        1,
        option=("yi_tiao_long",),
        excludes=("full_flush", "dragon"),
        cite="@532 item 7",
    ),
    HandType("all_pungs", "All Pungs", "碰碰胡", _all_pungs, 1, cite="@853 再番一倍"),
    HandType("seven_pairs", "Seven Pairs", "七对", lambda f, a: a.shape == SEVEN_PAIRS, 1, cite="@853 再番一倍"),
    HandType("thirteen_orphans", "Thirteen Orphans", "十三幺", lambda f, a: a.shape == THIRTEEN_ORPHANS, cite="@871"),
)
SELF_DRAW = HandType("self_draw", "Self-Drawn", "自摸", lambda f, a: f.self_drawn, 1, cite="@576; @752 每个人扣2倍")


class Datong(RuleSet):
    """Datong: the hand types of @532, the formula of 记分规则 (@653), kong payments and the dealer streak."""

    name = "datong"
    title = "Shanxi Datong (山西大同麻将)"
    unit = "times"
    hand_size = 13
    options: ClassVar[tuple[Option, ...]] = (
        Option("base", 10, "the room's base stake (基本分; the source's example is 10)", "int", minimum=0),
        Option(
            "chi",
            False,
            "chi allowed (only from the player before you); the source says 不能吃 and also gives a chi priority "
            "rule (D1): default no chi, the rule stated outright",
            "bool",
        ),
        Option(
            "discard_payers",
            "all",
            "a win on a discard: all = each player pays 1 base x the hand, the discarder double (the literal "
            "每个人扣一倍基本分，点炮人翻倍, D3); discarder = only the discarder pays his double share",
            "str",
            choices=("all", "discarder"),
        ),
        Option(
            "thirteen_orphans",
            "x6",
            "十三幺 再番6倍 (D4): x6 = six times, x64 = six doublings",
            "str",
            choices=("x6", "x64"),
        ),
        Option(
            "stack",
            True,
            "the doublings of one hand multiply (清一色 + 七对 = x4); false: only the largest hand type counts "
            "(D3: the source does not say)",
            "bool",
            origin=PRACTICE,
        ),
        Option("kan_he", 1, "doublings of 坎和 (closed or edge single wait)", "int", origin=PRACTICE, minimum=0),
        Option("dui_he", 1, "doublings of 堆和 (eight tiles of one suit)", "int", origin=PRACTICE, minimum=0),
        Option(
            "dui_he_rule",
            "eight_of_a_suit",
            "what 堆和 is: eight_of_a_suit = 8 or more tiles of one suit; pung = the winning tile completed a pung",
            "str",
            choices=("eight_of_a_suit", "pung"),
            origin=PRACTICE,
        ),
        Option("yi_tiao_long", 1, "doublings of 一条龙 (1-9 straight in one suit)", "int", origin=PRACTICE, minimum=0),
        Option(
            "seven_pairs_four",
            True,
            "七对 may hold four identical tiles as two pairs",
            "bool",
            origin=PRACTICE,
        ),
        Option(
            "streak_bonus",
            1,
            "连庄: bases per repeat of the dealer (the source's 10 at base 10), paid to a winning dealer by each "
            "player, or by the dealer to a winner",
            "int",
            minimum=0,
        ),
        Option(
            "streak_reading",
            "one",
            "D7: one = '庄家胡每人多给庄家10分…' explains '连庄一次多10分' (one bonus per repeat); two = it is a "
            "second bonus of one streak_bonus on every win the dealer is part of",
            "str",
            choices=("one", "two"),
        ),
    )
    situation = ("self_drawn", "dealer", "dealer_streak")
    completeness = (
        "partial: the payment formula is the source's; 屁和, 坎和, 堆和, 坎堆和, 一条龙 and 清一色套龙 are named "
        "there without definition or value (common practice, options)"
    )
    summary = (
        "136 tiles, no chi; 坎和, 堆和, 一条龙 (options), 碰碰胡/清一色/七对 x2, 十三幺 x6; each player pays the "
        "hand x base, the discarder double; kongs 1 or 2 base; 连庄 bonus"
    )

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """The common checks with 13 tiles + the winning tile, then no flowers and no chi (option chi)."""
        hand.validate(hand_size=self.hand_size)
        if hand.flowers:
            raise HandError("not_allowed", "Datong has no flowers (136 tiles, 003 @33): remove 'flowers'")
        for i, m in enumerate(hand.melds):
            if m.type != "chow":
                continue
            where = f"meld {i + 1} ({' '.join(m.tiles)}) is a chow"
            if not options["chi"]:
                raise HandError(
                    "not_allowed",
                    f"{where}: Datong has no chi (@475 不能吃，只能碰、杠牌; option chi=true allows it)",
                )
            if m.from_ not in (None, "left"):
                raise HandError("not_allowed", f"{where} from {m.from_}: chi only from the player before (吃上家)")

    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Score a valid hand: the best reading's factors, then the payments of 记分规则."""
        win = hand.win_kind
        if win is None:
            raise HandError("bad_win_tile", "the hand has no winning tile (win_tile)")
        shapes = Shapes(seven_pairs=True, seven_pairs_four=options["seven_pairs_four"], thirteen_orphans=True)
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        arrs = arrangements(counts_of(hand.closed_kinds), declared, win, shapes)
        if not arrs:
            return Score(
                rules=self.name,
                options=dict(options),
                winning=False,
                unit=self.unit,
                total=0,
                notes=["not a winning hand: the 14 tiles form no 4 melds + a pair, seven pairs or 十三幺"],
            )
        waits = winning_kinds(counts_of(kind(t) for t in hand.concealed), len(hand.melds), shapes)
        facts = Facts(
            options=options,
            kinds=tuple(kind(t) for t in hand.all_tiles),
            win=win,
            single_wait=waits == [win],
            self_drawn=hand.self_drawn,
        )
        arr, items, times = max((_reading(facts, a, options) for a in arrs), key=lambda r: r[2])
        notes = _notes(hand, options, items, facts)
        pays, pay_notes = payments(hand, options, times)
        return Score(
            rules=self.name,
            options=dict(options),
            winning=True,
            unit=self.unit,
            total=times,
            items=items,
            arrangement=[[code_of(k) for k in g] for g in arr.tile_groups()],
            payments=pays,
            notes=notes + pay_notes,
        )


def _reading(facts: Facts, a: Arrangement, options: dict[str, Any]) -> tuple[Arrangement, list[Item], int]:
    """One arrangement's items and its multiple of the base."""
    found = [t for t in HAND_TYPES if t.test(facts, a)]
    dropped = {x for t in found for x in t.excludes}
    found = [t for t in found if t.id not in dropped]
    if found and not options["stack"]:
        # ties go to a hand type the source values (清一色 before a common-practice 堆和)
        found = [max(found, key=lambda t: (t.factor(options), not t.option))]
    items = [_item(t, facts, options) for t in found]
    if not items:
        items = [Item("plain_win", "Plain Win", 1, 1, [], {"name_zh": "屁和"})]
    if facts.self_drawn:
        items.append(_item(SELF_DRAW, facts, options))
    return a, items, prod(i.value for i in items)


def _item(t: HandType, facts: Facts, options: dict[str, Any]) -> Item:
    tiles = [code_of(facts.win)] if t.id in ("closed_wait", "self_draw") else [code_of(k) for k in facts.kinds]
    return Item(t.id, t.name_en, t.factor(options), 1, tiles, {"name_zh": t.name_zh})


def _notes(hand: Hand, options: dict[str, Any], items: list[Item], facts: Facts) -> list[str]:
    ids = {i.id for i in items}
    notes = ["the total is the hand's multiple of the base: the product of the items' factors (倍)"]
    if ids & {"closed_wait", "closed_wait_heap"}:
        notes.append("坎和: the winning tile filled a closed or edge wait and was the only tile waited on")
    if ids & {"suit_heap", "closed_wait_heap"}:
        rule = options["dui_he_rule"]
        notes.append(
            "堆和: eight or more tiles of one suit (option dui_he_rule=eight_of_a_suit)"
            if rule == "eight_of_a_suit"
            else "堆和: the winning tile completed a pung (option dui_he_rule=pung)"
        )
    if "thirteen_orphans" in ids:
        notes.append(f"十三幺 再番6倍 read as {options['thirteen_orphans']} (D4, option thirteen_orphans)")
    if not options["stack"]:
        notes.append("option stack=false: only the largest hand type counts (D3)")
    return notes


def _streak_bonus(hand: Hand, options: dict[str, Any]) -> tuple[int, str | None]:
    """The 连庄 bonus per payment involving the dealer (@813), in points, and a note."""
    base, streak = options["base"], hand.dealer_streak
    bases = options["streak_bonus"] * (streak + (1 if options["streak_reading"] == "two" else 0))
    if not bases or (options["streak_reading"] == "one" and streak == 0):
        return 0, None
    who = "each player pays the dealer" if hand.dealer else "the dealer pays the winner"
    return (
        bases * base,
        f"连庄 (dealer_streak {streak}, reading {options['streak_reading']}): {who} {bases * base} more",
    )


def _kong_kind(m: Meld) -> str:
    return "concealed" if not m.open else "added" if m.added else "melded"


def payments(hand: Hand, options: dict[str, Any], times: int) -> tuple[dict[str, Any], list[str]]:
    """The payments of 记分规则 (@653) for a hand worth ``times`` bases per payer; the discarder pays double.

    Keys: ``discarder`` and ``each_other`` (the two who did not discard) on a discard win, ``each_other`` on a
    self-draw; ``dealer_adds`` (the dealer's streak bonus to a non-dealer winner); ``kongs`` and ``kong_total``
    (明杠 / 补杠 1 base, 暗杠 2 base from each other player); ``total``, what the winner receives.
    """
    base = options["base"]
    each = times * base
    bonus, bonus_note = _streak_bonus(hand, options)
    notes = [bonus_note] if bonus_note else []
    to_dealer = bonus if hand.dealer else 0
    if hand.self_drawn:
        pays: dict[str, Any] = {"each_other": each + to_dealer}
        win_total = 3 * (each + to_dealer)
        notes.append(f"self-drawn: each of the three pays {times} x base (@752 每个人扣2倍基本分 for a plain hand)")
    elif options["discard_payers"] == "all":
        pays = {"discarder": 2 * each + to_dealer, "each_other": each + to_dealer}
        win_total = 4 * each + 3 * to_dealer
        notes.append(f"on a discard each player pays {times} x base and the discarder double (@725, D3 literal)")
    else:
        pays = {"discarder": 2 * each + to_dealer}
        win_total = 2 * each + to_dealer
        notes.append("on a discard only the discarder pays, double (option discard_payers=discarder, D3)")
    if bonus and not hand.dealer:
        pays["dealer_adds"] = bonus
        win_total += bonus
    kongs = {
        f"{normal(m.tiles[0])}_{_kong_kind(m)}": {
            "name_zh": {"concealed": "暗杠", "added": "补杠", "melded": "明杠"}[_kong_kind(m)],
            "each": (1 if m.open else 2) * base,
            "total": 3 * (1 if m.open else 2) * base,
        }
        for m in hand.melds
        if m.is_kong
    }
    if kongs:
        pays["kongs"] = kongs
        pays["kong_total"] = sum(k["total"] for k in kongs.values())
        win_total += pays["kong_total"]
        notes.append("kongs (@780): 明杠 and 补杠 1 base, 暗杠 2 base from each other player")
    pays["total"] = win_total
    return pays, notes


RULESET = Datong()
