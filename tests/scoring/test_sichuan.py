"""Sichuan 血战到底: a table of hands, one per fan of each table (S-A, S-B, common), per rule and per option.

Each case cites the rule it checks: S-A = source 001 @3116 四川麻将-血战到底规则 (rule number or 二.N for the fan
table), S-B = source 003 @10492 四川麻将番数算法 (rule number), DIGEST §4. The expected fan and payment are worked
out in the comment above each case. Unless a case says otherwise the hand is won on a discard, the void suit is
bamboo (``void_suit: s``), the table is S-A and the base is 1, so the discarder pays 2^fan.
``items`` lists every item expected (id: fan x count), nothing more.
"""

from __future__ import annotations

from math import prod
from typing import Any

import pytest

import scoring
from scoring import HandError, parse_compact
from tests import handgen
from tests.score_table import Case, check_table_case


def hand(text: str, win: str | None = None, **fields: Any) -> dict[str, Any]:
    """A hand JSON from the compact form with the default situation of this table (void suit bamboo)."""
    out = parse_compact(text, win).to_json()
    out.update({"void_suit": "s", **fields})
    return out


# S-A 二.1 example "123 345 789万 234 66筒"
PLAIN = "123m345m789m234p66p"

CASES = [
    # ---- the S-A table (default) ----------------------------------------------------------------------------
    # 平胡 "普通的四个搭子一对将 ... 无番1块": 0 fan, the discarder pays 2^0 = 1 (rule 6: only the discarder)
    Case("sa_plain", "S-A 二.1 平胡 无番1块; rule 6", hand(PLAIN), {"plain_win": 0}, 0, payments={"discarder": 1}),
    # 自摸 "三家都给 (1番2块)": 1 fan; each of the three pays 2^1 = 2, the winner gets 6
    Case(
        "sa_self_draw",
        "S-A 二.2 自摸 三家都给 1番2块",
        hand(PLAIN, self_drawn=True),
        {"plain_win": 0, "self_draw": 1},
        1,
        payments={"each_other": 2, "payers": 3, "total": 6},
    ),
    # 大对子 example "111 333 444万 222 66筒": 2 fan, 4
    Case(
        "sa_all_pungs",
        "S-A 二.2 大对子 2番4块",
        hand("111m333m444m222p66p"),
        {"all_pungs": 2},
        2,
        payments={"discarder": 4},
    ),
    # 清一色 example "111 234 345 666 88万": 3 fan, 8 (void: dots or bamboo; void_suit s)
    Case(
        "sa_full_flush",
        "S-A 二.3 清一色 3番8块",
        hand("111m234m345m666m88m"),
        {"full_flush": 3},
        3,
        payments={"discarder": 8},
    ),
    # 七对: the source's example has 5 pairs (SC6); seven pairs 11 22 55万 66 88 99 44筒: 4 fan, 16
    Case(
        "sa_seven_pairs",
        "S-A 二.4 七对 4番16块",
        hand("1122m55m66p88p99p4p4p"),
        {"seven_pairs": 4},
        4,
        payments={"discarder": 16},
    ),
    # 清大对 = 清一色碰碰胡, value cut off: option qing_da_dui default 5 (3 + 2), replaces both: 2^5 = 32
    Case(
        "sa_pure_all_pungs",
        "S-A 二.5 清大对 清一色碰碰胡 (cut off)",
        hand("111m222m555m777m99m"),
        {"pure_all_pungs": 5},
        5,
        payments={"discarder": 32},
        notes=("qing_da_dui",),
    ),
    # the same with option qing_da_dui=6: 6 fan, 64
    Case(
        "sa_pure_all_pungs_option",
        "S-A 二.5; option qing_da_dui",
        hand("111m222m555m777m99m"),
        {"pure_all_pungs": 6},
        6,
        options={"qing_da_dui": 6},
    ),
    # 清七对 under S-A: 清一色 3 + 七对 4 = 7 (every fan added, rule 8 "有其余番数不再累加" above the cap only)
    Case(
        "sa_pure_seven_pairs",
        "S-A 二.3 + 二.4, fans added",
        hand("11m22m33m55m66m88m99m"),
        {"full_flush": 3, "seven_pairs": 4},
        7,
    ),
    # 杠: an exposed kong of 5p on a 平胡: 0 + 1 = 1 fan, 2
    Case(
        "sa_kong",
        "S-A rule 5 每1杠/根1番",
        hand("123m345m789m66p 5555p"),
        {"plain_win": 0, "kong": 1},
        1,
        payments={"discarder": 2},
    ),
    # 根: four 2m held (a pung and a run), no kong: 1 fan
    Case("sa_root", "S-A rule 5 根; S-C 带归", hand("222m234m789m234p66p"), {"plain_win": 0, "root": 1}, 1),
    # 龙七对 (S-C): seven pairs with four 1m: 七对 4 + 根 1 = 5
    Case(
        "sa_dragon_seven_pairs",
        "S-A 二.4 + rule 5; S-C 龙七对",
        hand("1111m55m66p88p99p4p4p"),
        {"seven_pairs": 4, "root": 1},
        5,
        notes=("龙七对",),
    ),
    # two kongs and a root: 大对子 2 + 杠 2 + 根 ... 2222m kong, [3333p] concealed kong, pungs 555m 777m, 99m:
    # 大对子 2 + 杠 x2 = 4 fan, 16
    Case(
        "sa_two_kongs",
        "S-A rule 5, each kong",
        hand("555m777m99m 2222m [3333p]"),
        {"all_pungs": 2, "kong": 2},
        4,
    ),
    # cap: 1111m 2222m 33m 55m 77m self-drawn: 清一色 3 + 七对 4 + 根 2 + 自摸 1 = 10 -> 9 (rule 8), each pays 512
    Case(
        "sa_cap",
        "S-A rule 8 9番封顶",
        hand("11112222m33m55m77m", self_drawn=True),
        {"self_draw": 1, "full_flush": 3, "seven_pairs": 4, "root": 2},
        9,
        payments={"each_other": 512, "total": 1536},
        notes=("capped: 10 fan",),
    ),
    # option cap=0: no cap, 10 fan, each pays 1024
    Case(
        "sa_no_cap",
        "S-A rule 8; option cap=0",
        hand("11112222m33m55m77m", self_drawn=True),
        {"self_draw": 1, "full_flush": 3, "seven_pairs": 4, "root": 2},
        10,
        options={"cap": 0},
        payments={"each_other": 1024},
    ),
    # 黄庄加倍: two drawn hands before this one: +1 fan each: 大对子 2 + 2 = 4
    Case(
        "sa_draw_doubling",
        "S-A rule 9 黄庄加倍（1番），再黄再加",
        hand("111m333m444m222p66p", consecutive_draws=2),
        {"all_pungs": 2, "draw_doubling": 2},
        4,
    ),
    # option draw_doubling=false: the draws do not count: 2
    Case(
        "sa_draw_doubling_off",
        "S-A rule 9; option draw_doubling",
        hand("111m333m444m222p66p", consecutive_draws=2),
        {"all_pungs": 2},
        2,
        options={"draw_doubling": False},
    ),
    # 连庄: dealer_streak 1 is the dealer's 2nd hand in a row: no doubling; 0 fan
    Case(
        "sa_streak_second",
        "S-A rule 10 三连庄时，第三局开始加倍",
        hand(PLAIN, dealer=True, dealer_streak=1),
        {"plain_win": 0},
        0,
    ),
    # dealer_streak 2 = the 3rd hand: x2 = +1 fan
    Case(
        "sa_streak_third",
        "S-A rule 10 第三局开始加倍（乘2）",
        hand(PLAIN, dealer=True, dealer_streak=2),
        {"plain_win": 0, "dealer_streak": 1},
        1,
    ),
    # dealer_streak 4 = the 5th hand: x8 = +3 fan
    Case(
        "sa_streak_fifth",
        "S-A rule 10 第五局乘8",
        hand(PLAIN, dealer=True, dealer_streak=4),
        {"plain_win": 0, "dealer_streak": 3},
        3,
        payments={"discarder": 8},
    ),
    # ---- S-B: only the largest fan type counts (option table=sb) --------------------------------------------
    # 清七对: 清一色 3 and 七对 4 -> only 七对 4 counts: 16
    Case(
        "sb_largest",
        "S-B 基本番 以下番型均不重复计算，只按最大番算",
        hand("11m22m33m55m66m88m99m"),
        {"seven_pairs": 4},
        4,
        options={"table": "sb"},
        notes=("table sb",),
    ),
    # self-drawn 大对子: 自摸 1 and 大对子 2 -> 2; the kong still adds (S-A rule 5): 2 + 1 = 3
    Case(
        "sb_kong_still_adds",
        "S-B 只按最大番算; S-A rule 5",
        hand("111m333m222p66p 4444m", self_drawn=True),
        {"all_pungs": 2, "kong": 1},
        3,
        options={"table": "sb"},
    ),
    # ---- the common 血战到底 table (option table=common) -------------------------------------------------------
    Case("common_plain", "common table 平胡 x1", hand(PLAIN), {"plain_win": 0}, 0, options={"table": "common"}),
    # 对对胡 x2 = 1 fan
    Case(
        "common_all_pungs",
        "common table 对对胡 x2",
        hand("111m333m444m222p66p"),
        {"all_pungs": 1},
        1,
        options={"table": "common"},
    ),
    # 清一色 x4 = 2 fan
    Case(
        "common_full_flush",
        "common table 清一色 x4",
        hand("111m234m345m666m88m"),
        {"full_flush": 2},
        2,
        options={"table": "common"},
    ),
    # 七对 x4 = 2
    Case(
        "common_seven_pairs",
        "common table 七对 x4",
        hand("1122m55m66p88p99p4p4p"),
        {"seven_pairs": 2},
        2,
        options={"table": "common"},
    ),
    # 龙七对 x8 = 七对 2 + 根 1 = 3
    Case(
        "common_dragon_seven_pairs",
        "common table 龙七对 x8",
        hand("1111m55m66p88p99p4p4p"),
        {"seven_pairs": 2, "root": 1},
        3,
        options={"table": "common"},
        notes=("龙七对",),
    ),
    # 清龙七对 x32 = 清一色 2 + 七对 2 + 根 1 = 5
    Case(
        "common_pure_dragon_seven_pairs",
        "common table 清龙七对 x32",
        hand("1111m22m33m55m66m88m"),
        {"full_flush": 2, "seven_pairs": 2, "root": 1},
        5,
        options={"table": "common"},
        notes=("清龙七对",),
    ),
    # 带幺九 x4 = 2: 123m 789m 111p 999p 11m, every set and the pair with a 1 or 9
    Case(
        "common_outside",
        "common table 带幺九 x4",
        hand("123m789m111p999p11m"),
        {"outside": 2},
        2,
        options={"table": "common"},
        notes=("带幺九",),
    ),
    # 清对 x8: 清一色 2 + 对对胡 1 = 3
    Case(
        "common_pure_pungs",
        "common table 清对 x8",
        hand("111m333m444m777m99m"),
        {"full_flush": 2, "all_pungs": 1},
        3,
        options={"table": "common"},
        notes=("清对",),
    ),
    # 将对 x8: 对对胡 1 + 将对 2 = 3 (every tile 2, 5 or 8)
    Case(
        "common_258_pungs",
        "common table 将对 x8",
        hand("222m555m888m222p55p"),
        {"all_pungs": 1, "pure_258": 2},
        3,
        options={"table": "common"},
        notes=("将对",),
    ),
    # 金钩钓 x4: four declared pungs, single wait on 9m: 对对胡 1 + 金钩钓 1 = 2
    Case(
        "common_golden_hook",
        "common table 金钩钓 x4",
        hand("99m 111m 333m 222p 666p", win="9m"),
        {"all_pungs": 1, "golden_hook": 1},
        2,
        options={"table": "common"},
        notes=("金钩钓",),
    ),
    # 十八罗汉 x64: four kongs and a single wait: 对对胡 1 + 金钩钓 1 + 4 根 = 6; 2^6 = 64
    Case(
        "common_eighteen_arhats",
        "common table 十八罗汉 x64",
        hand("99m 1111m 3333m+ [2222p] 6666p"),
        {"all_pungs": 1, "golden_hook": 1, "root": 4},
        6,
        options={"table": "common"},
        payments={"discarder": 64},
        notes=("十八罗汉",),
    ),
    # 自摸 x2 (自摸加番): 平胡 + 自摸 1; each of three pays 2
    Case(
        "common_self_draw_fan",
        "common table 自摸 x2",
        hand(PLAIN, self_drawn=True),
        {"plain_win": 0, "self_draw": 1},
        1,
        options={"table": "common"},
        payments={"each_other": 2},
    ),
    # 自摸加底 (option self_draw_bonus=base): 0 fan, each pays 2^0 + 1 = 2
    Case(
        "common_self_draw_base",
        "common practice 自摸加底",
        hand(PLAIN, self_drawn=True),
        {"plain_win": 0},
        0,
        options={"table": "common", "self_draw_bonus": "base"},
        payments={"each_other": 2, "total": 6},
        notes=("自摸加底",),
    ),
    # 杠上花 x2: self-drawn on the replacement after the 5555p kong: 根 1 + 杠上花 1 + 自摸 1 = 3
    Case(
        "common_kong_flower",
        "common table 杠上花 x2",
        hand("123m345m789m66p 5555p", self_drawn=True, kong_replacement=True),
        {"plain_win": 0, "root": 1, "kong_flower": 1, "self_draw": 1},
        3,
        options={"table": "common"},
    ),
    # 杠上炮 x2: won on the tile discarded after another player's kong: 1
    Case(
        "common_kong_cannon",
        "common table 杠上炮 x2",
        hand(PLAIN, kong_replacement=True),
        {"plain_win": 0, "kong_cannon": 1},
        1,
        options={"table": "common"},
        notes=("杠上炮",),
    ),
    # 抢杠胡 x2: 1; the robbed player pays
    Case(
        "common_robbing_kong",
        "common table 抢杠胡 x2",
        hand(PLAIN, win="2p", robbing_kong=True),
        {"plain_win": 0, "robbing_kong": 1},
        1,
        options={"table": "common"},
        payments={"discarder": 2},
        notes=("robbed",),
    ),
    # 海底捞月 x2: the last tile drawn: 自摸 1 + 海底捞月 1 = 2
    Case(
        "common_last_draw",
        "common table 海底捞月 x2",
        hand(PLAIN, self_drawn=True, last_tile=True),
        {"plain_win": 0, "self_draw": 1, "last_tile_draw": 1},
        2,
        options={"table": "common"},
    ),
    # 海底炮 x2: the last discard: 1
    Case(
        "common_last_discard",
        "common table 海底炮 x2",
        hand(PLAIN, last_tile=True),
        {"plain_win": 0, "last_tile_discard": 1},
        1,
        options={"table": "common"},
    ),
    # 天胡 x32: the dealer's dealt 14 tiles, self-drawn: 5 + 自摸 1 = 6
    Case(
        "common_heavenly",
        "common table 天胡 x32",
        hand(PLAIN, self_drawn=True, dealer=True, heavenly_win=True),
        {"plain_win": 0, "heavenly_win": 5, "self_draw": 1},
        6,
        options={"table": "common"},
    ),
    # 地胡 x32: 5
    Case(
        "common_earthly",
        "common table 地胡 x32",
        hand(PLAIN, earthly_win=True),
        {"plain_win": 0, "earthly_win": 5},
        5,
        options={"table": "common"},
    ),
    # the S-A table ignores the ways of winning (not in its table) and says so: 杠上花 self-drawn: 自摸 1 + 杠 1
    Case(
        "sa_no_kong_flower",
        "S-A 二 (no 杠上花 in the table)",
        hand("123m345m789m66p 5555p", self_drawn=True, kong_replacement=True),
        {"plain_win": 0, "self_draw": 1, "kong": 1},
        2,
        notes=("not in the S-A table",),
    ),
    # ---- payments: 刮风下雨 (S-B rule 6) and who pays a self-draw in 血战 ---------------------------------------
    # a direct kong 5555p fed by the left player: 1 base from him; an added kong 2222m: 1 base from each of the
    # 3 still in; a concealed kong [7777m]: 2 base from each: 1 + 3 + 6 = 10. The win: 对对胡? no: 66p pair,
    # 999m pung: 大对子 2 + 杠 3 = 5 fan, the discarder pays 32; total 42
    Case(
        "kong_payments",
        "S-B rule 6 直杠 1倍 引杠者, 面下杠 1倍 其他未胡者, 下雨 2倍",
        {
            **hand("999m66p 2222m+ [7777m]", win="6p"),
            "melds": [
                {"type": "kong", "tiles": ["5p"] * 4, "open": True, "from": "left"},
                {"type": "kong", "tiles": ["2m"] * 4, "open": True, "added": True},
                {"type": "kong", "tiles": ["7m"] * 4, "open": False},
            ],
        },
        {"all_pungs": 2, "kong": 3},
        5,
        payments={
            "discarder": 32,
            "kongs": {
                "5p_direct": {"name_zh": "直杠 (刮风)", "paid_by": "left", "payers": 1, "each": 1, "total": 1},
                "2m_added": {
                    "name_zh": "面下杠 (刮风)",
                    "paid_by": "each other player still in",
                    "payers": 3,
                    "each": 1,
                    "total": 3,
                },
                "7m_concealed": {
                    "name_zh": "暗杠 (下雨)",
                    "paid_by": "each other player still in",
                    "payers": 3,
                    "each": 2,
                    "total": 6,
                },
            },
            "kong_total": 10,
            "total": 42,
        },
    ),
    # 血战: one player has won already, 2 are still in (opponents_left 2); a self-drawn 大对子 with a concealed
    # kong, base 5: 自摸 1 + 大对子 2 + 杠 1 = 4 fan, each of the 2 pays 2^4 x 5 = 80 (160); the kong was made
    # while all 3 were in (kong_opponents_left [3]): 2 x 5 from each of 3 = 30; total 190
    Case(
        "blood_battle_payers",
        "S-B rule 6 其他未胡者; rule 8 血战到底; S-A 自摸 三家都给",
        hand("111m333m222p66p [4444m]", self_drawn=True, opponents_left=2, kong_opponents_left=[3]),
        {"self_draw": 1, "all_pungs": 2, "kong": 1},
        4,
        options={"base": 5},
        payments={"each_other": 80, "payers": 2, "kong_total": 30, "total": 190},
    ),
    # ---- the void suit (定缺) --------------------------------------------------------------------------------
    # the declared void suit is characters but the hand holds 1m-9m: no win (S-A rule 4), a 花猪
    Case(
        "void_declared_held",
        "S-A rule 4 定缺 必须缺一门，不能更改",
        hand(PLAIN, void_suit="m"),
        {},
        0,
        notes=("declared void suit", "花猪"),
    ),
    # S-B's rule only asks that one suit be missing: with void_rule=any_suit the same hand wins (no bamboo)
    Case(
        "void_any_suit",
        "S-B rule 3 胡牌的时候不能有三种花色的牌",
        hand(PLAIN, void_suit="m"),
        {"plain_win": 0},
        0,
        options={"void_rule": "any_suit"},
        notes=("void_rule=any_suit",),
    ),
    # no void suit given: taken from the hand (it lacks bamboo) and said so
    Case(
        "void_inferred",
        "S-A rule 4",
        {**hand(PLAIN), "void_suit": None},
        {"plain_win": 0},
        0,
        notes=("void_suit not given",),
    ),
    # a third suit: all three suits held -> no win (S-B rule 3), whatever the rule
    Case(
        "third_suit",
        "S-B rule 3 不能有三种花色",
        {**hand("123m345m789m234p6s6s"), "void_suit": None},
        {},
        0,
        notes=("all three suits",),
    ),
    Case(
        "third_suit_any",
        "S-B rule 3",
        {**hand("123m345m789m234p6s6s"), "void_suit": None},
        {},
        0,
        options={"void_rule": "any_suit"},
        notes=("all three suits",),
    ),
    # not a winning shape at all
    Case("not_a_win", "§4.3 winning shapes", hand("123m345m789m234p67p"), {}, 0, notes=("not a winning hand",)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_sichuan_table(case: Case) -> None:
    """Each hand scores exactly the items, total, payments and notes worked out above."""
    check_table_case(case, "sichuan")


def test_payment_is_two_to_the_fan() -> None:
    """§4.4 "payment in 块 = 2^fan": the multiplier reported is 2^total and the discarder pays it times base."""
    result = scoring.score(hand("111m333m444m222p66p"), "sichuan", {"base": 3})
    assert result.extra["multiplier"] == 4
    assert result.payments["discarder"] == 12


@pytest.mark.parametrize(
    ("text", "fields", "code", "words"),
    [
        # S-A rule 1 无风牌及花牌: honours and flowers are refused
        ("123m345m789m234p11z", {}, "not_allowed", "108 suit tiles"),
        ("123m345m789m234p66p", {"flowers": ["1f"]}, "not_allowed", "no flowers"),
        # S-A rule 2 不能吃: a claimed chow is refused
        ("345m789m234p66p 123m", {}, "not_allowed", "no chi"),
        # the common count check: 13 tiles + the winning one
        ("123m345m789m234p6p", {}, "wrong_tile_count", "14"),
        # the own fields
        (PLAIN, {"opponents_left": 4}, "bad_field", "opponents_left"),
        ("123m345m789m66p 5555p", {"kong_opponents_left": [3, 3]}, "bad_field", "kong_opponents_left"),
        (PLAIN, {"consecutive_draws": -1}, "bad_field", "consecutive_draws"),
        # situations that cannot happen together
        (PLAIN, {"robbing_kong": True, "self_drawn": True}, "not_allowed", "抢杠"),
        (PLAIN, {"kong_replacement": True, "self_drawn": True}, "not_allowed", "杠上花"),
        (PLAIN, {"heavenly_win": True, "self_drawn": True}, "not_allowed", "dealer"),
        (PLAIN, {"earthly_win": True, "dealer": True}, "not_allowed", "non-dealer"),
        ("123m345m789m234p66p", {"robbing_kong": True, "win_tile": "3m"}, "not_allowed", "three copies"),
    ],
)
def test_refusals(text: str, fields: dict[str, Any], code: str, words: str) -> None:
    """A hand that cannot exist in the game is refused with the rule it breaks, never scored."""
    h = hand(text, **fields)
    if "win_tile" in fields:
        h["concealed"] = parse_compact(text, fields["win_tile"]).concealed
    with pytest.raises(HandError) as info:
        scoring.score(h, "sichuan")
    assert info.value.code == code
    assert words in info.value.message


def test_rule_card_marks_every_option() -> None:
    """The rule card names every option and marks rules source or common practice."""
    rs = scoring.get("sichuan")
    card = rs.card()
    for option in rs.options:
        assert f"`{option.name}`" in card, option.name
    assert "**source**" in card and "**common practice**" in card


def test_generated_hands_are_scored_or_refused() -> None:
    """600 seeded random winning hands (tests/handgen.py): each is refused with a HandError (honours, flowers,
    chows, impossible situations) or scored with total = min(sum of the items, cap) and the payment 2^total."""
    scored = 0
    for h in handgen.HandGen(5, knitted=False).hands(600):
        try:
            result = scoring.score(h, "sichuan")
        except HandError:
            continue
        scored += 1
        if result.winning:
            fan = sum(i.value * i.count for i in result.items)
            assert result.total == min(fan, 9) and result.extra["fan_before_cap"] == fan
            per = result.payments.get("discarder", result.payments.get("each_other"))
            assert per == prod([2] * result.total)
    assert scored > 50
