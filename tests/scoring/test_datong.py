"""Datong (山西大同): a table of hands, one per hand type, per payment rule of 记分规则 and per option.

The source is 003 @0-898 (DIGEST §7): the hand types @532 (屁和, 坎和, 堆和, 坎堆和, 清一色, 一条龙, 清一色套龙,
自摸), the formula @653-898: (1) 平胡 "每个人扣一倍基本分，即10分，点炮人翻倍" @725, (2) 自摸 "每个人扣2倍基本分
即20分，胜利者加60分" @752, (3) "明杠补杠每家给一倍基本分10分，暗杠每家给2倍基本分20分" @780, (4) 连庄 @813,
(5) "碰碰胡、清一色和七对再番一倍，十三幺再番6倍" @853. The definitions of 屁和/坎和/堆和 and the values of 坎和,
堆和 and 一条龙 are common practice (rule card). Unless a case says otherwise base is 10 (the source's example), the
winner is not the dealer and wins on a discard, so the discarder pays 2 x times x 10 and the two others
times x 10. ``items`` lists every item expected (id: factor), nothing more.
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
    """A hand JSON from the compact form plus situation fields."""
    out = parse_compact(text, win).to_json()
    out.update(fields)
    return out


# 4 melds + pair with no suit of 8 tiles, won on the 5m pair: a 屁和
PLAIN = "123m456p789s111z55m"

CASES = [
    # ---- the formula ---------------------------------------------------------------------------------------
    # 平胡 on a discard: each player 1 base = 10, the discarder double = 20: 20 + 10 + 10 = 40
    Case(
        "plain_discard",
        "@725 每个人扣一倍基本分，即10分，点炮人翻倍",
        hand(PLAIN),
        {"plain_win": 1},
        1,
        payments={"discarder": 20, "each_other": 10, "total": 40},
    ),
    # 自摸: each pays 2 base = 20, "胜利者加60分": 自摸 x2
    Case(
        "plain_self_draw",
        "@752 自摸 每个人扣2倍基本分即20分，胜利者加60分",
        hand(PLAIN, self_drawn=True),
        {"plain_win": 1, "self_draw": 2},
        2,
        payments={"each_other": 20, "total": 60},
    ),
    # option discard_payers=discarder (D3): only the discarder pays his 20
    Case(
        "discarder_only",
        "@725; D3 option discard_payers",
        hand(PLAIN),
        {"plain_win": 1},
        1,
        options={"discard_payers": "discarder"},
        payments={"discarder": 20, "total": 20},
    ),
    # option base=1: the same plain discard: 2 + 1 + 1 = 4
    Case(
        "base_option",
        "@653 基本分 set per room",
        hand(PLAIN),
        {"plain_win": 1},
        1,
        options={"base": 1},
        payments={"discarder": 2, "each_other": 1, "total": 4},
    ),
    # ---- hand types (common-practice definitions) ----------------------------------------------------------
    # 坎和: 13m waits only on 2m (closed): x2: 40 + 20 + 20 = 80
    Case(
        "closed_wait",
        "@532 item 2 坎和",
        hand("13m456p789s111z55m2m"),
        {"closed_wait": 2},
        2,
        payments={"discarder": 40, "total": 80},
        notes=("坎和",),
    ),
    # 坎和 on an edge wait: 12m waits only on 3m: x2
    Case("edge_wait", "@532 item 2 坎和 (边张)", hand("12m456p789s111z55m3m"), {"closed_wait": 2}, 2),
    # a closed wait that is not the only tile waited on (1333m waits on 1m and 2m): no 坎和, 屁和 x1
    Case("closed_not_single", "@532 item 2 坎和 needs a single wait", hand("1333m456p789s111z2m"), {"plain_win": 1}, 1),
    # 堆和: eight tiles of characters: x2
    Case("suit_heap", "@532 item 3 堆和", hand("123m456m789p111z99m"), {"suit_heap": 2}, 2, notes=("eight or more",)),
    # 坎堆和: the closed 2m wait and eight characters: x4 (replaces both): 80 + 40 + 40
    Case(
        "closed_wait_heap",
        "@532 item 4 坎堆和",
        hand("13m456m789p111z55m2m"),
        {"closed_wait_heap": 4},
        4,
        payments={"discarder": 80, "each_other": 40, "total": 160},
    ),
    # 清一色 x2 (source), and the 14 characters are also a 堆和 x2: x4
    Case("full_flush", "@853 清一色再番一倍", hand("123m345m678m999m11m"), {"suit_heap": 2, "full_flush": 2}, 4),
    # 一条龙 123 456 789m x2, with 堆和 (nine characters) x2: x4
    Case("dragon", "@532 item 6 一条龙", hand("123456789m234p55p"), {"suit_heap": 2, "dragon": 2}, 4),
    # 清一色套龙: 清一色 x2 and 一条龙 x2 = x4, with 堆和 x2: x8
    Case("pure_dragon", "@532 item 7 清一色套龙", hand("12345678m99m123m9m"), {"suit_heap": 2, "pure_dragon": 4}, 8),
    # 碰碰胡 x2
    Case("all_pungs", "@853 碰碰胡再番一倍", hand("111m333m555p777p11z"), {"all_pungs": 2}, 2),
    # 七对 x2 (D5: a legal shape by the scoring section)
    Case("seven_pairs", "@853 七对再番一倍; D5", hand("1122m55m66p88p11z22z"), {"seven_pairs": 2}, 2),
    # 七对 with four identical tiles (option seven_pairs_four, default true): x2
    Case("seven_pairs_four", "七对; option seven_pairs_four", hand("1111m55m66p88p11z22z"), {"seven_pairs": 2}, 2),
    Case(
        "seven_pairs_four_off",
        "七对; option seven_pairs_four=false",
        hand("1111m55m66p88p11z22z"),
        {},
        0,
        options={"seven_pairs_four": False},
        notes=("not a winning hand",),
    ),
    # 十三幺 再番6倍 read as x6 (D4 default): 120 + 60 + 60 = 240
    Case(
        "thirteen_orphans",
        "@871 十三幺再番6倍; D4",
        hand("19m19p19s1234567z1z"),
        {"thirteen_orphans": 6},
        6,
        payments={"discarder": 120, "each_other": 60, "total": 240},
        notes=("x6",),
    ),
    # read as six doublings (option thirteen_orphans=x64): 1280 + 640 + 640
    Case(
        "thirteen_orphans_x64",
        "@871; D4 option thirteen_orphans=x64",
        hand("19m19p19s1234567z1z"),
        {"thirteen_orphans": 64},
        64,
        options={"thirteen_orphans": "x64"},
        payments={"total": 2560},
    ),
    # doublings multiply (stack, default): 清一色 七对 with 堆和: 2 x 2 x 2 = 8
    Case(
        "stack",
        "@853; D3 stacking",
        hand("11m22m33m44m55m66m77m"),
        {"suit_heap": 2, "full_flush": 2, "seven_pairs": 2},
        8,
    ),
    # option stack=false: only the largest: x2
    Case(
        "no_stack",
        "D3 option stack=false",
        hand("11m22m33m44m55m66m77m"),
        {"full_flush": 2},
        2,
        options={"stack": False},
        notes=("stack=false",),
    ),
    # common-practice values are options: 坎和 kan_he=2 doublings: x4
    Case("kan_he_option", "option kan_he", hand("13m456p789s111z55m2m"), {"closed_wait": 4}, 4, options={"kan_he": 2}),
    # 堆和 read as a win completing a pung (dui_he_rule=pung): 55m 11z shanpon won on 1z: x2
    Case(
        "heap_pung_rule",
        "option dui_he_rule=pung",
        hand("123m456p789s55m11z1z"),
        {"suit_heap": 2},
        2,
        options={"dui_he_rule": "pung"},
        notes=("completed a pung",),
    ),
    # ... and then eight characters alone are no 堆和: 屁和
    Case(
        "heap_pung_rule_no_eight",
        "option dui_he_rule=pung",
        hand("123m456m789p111z99m"),
        {"plain_win": 1},
        1,
        options={"dui_he_rule": "pung"},
    ),
    # self-drawn 坎和: 2 x 2 = x4: each pays 40, 120
    Case(
        "closed_wait_self_draw",
        "@752 自摸 with 坎和",
        hand("13m456p789s111z55m2m", self_drawn=True),
        {"closed_wait": 2, "self_draw": 2},
        4,
        payments={"each_other": 40, "total": 120},
    ),
    # ---- kongs (@780) ---------------------------------------------------------------------------------------
    # 明杠 1111z (each 10 = 30), 补杠 2222z (30), 暗杠 3333z (each 20 = 60), 明杠 4444z (30): 150;
    # the hand 碰碰胡 x2: 40 + 20 + 20 = 80; total 230
    Case(
        "kongs",
        "@780 明杠补杠每家给一倍基本分，暗杠每家给2倍基本分",
        hand("55m 1111z 2222z+ [3333z] 4444z"),
        {"all_pungs": 2},
        2,
        payments={
            "discarder": 40,
            "kongs": {
                "1z_melded": {"name_zh": "明杠", "each": 10, "total": 30},
                "2z_added": {"name_zh": "补杠", "each": 10, "total": 30},
                "3z_concealed": {"name_zh": "暗杠", "each": 20, "total": 60},
                "4z_melded": {"name_zh": "明杠", "each": 10, "total": 30},
            },
            "kong_total": 150,
            "total": 230,
        },
    ),
    # ---- 连庄 (@813) ------------------------------------------------------------------------------------------
    # the dealer wins on a discard after 2 repeats: each player gives 2 x 10 more: 40 + 30 + 30 = 100
    Case(
        "streak_dealer_wins",
        "@813 庄家胡每人多给庄家10分",
        hand(PLAIN, dealer=True, dealer_streak=2),
        {"plain_win": 1},
        1,
        payments={"discarder": 40, "each_other": 30, "total": 100},
        notes=("连庄",),
    ),
    # a non-dealer self-draws against a dealer on 2 repeats: the dealer gives 20 more: 60 + 20 = 80
    Case(
        "streak_other_wins",
        "@813 闲家胡庄家多给闲家10分",
        hand(PLAIN, self_drawn=True, dealer_streak=2),
        {"plain_win": 1, "self_draw": 2},
        2,
        payments={"each_other": 20, "dealer_adds": 20, "total": 80},
    ),
    # no repeat yet (streak 0), reading one: no bonus
    Case("streak_none", "@813 连庄一次多10分", hand(PLAIN, dealer=True), {"plain_win": 1}, 1, payments={"total": 40}),
    # reading two (D7): the dealer's win carries one bonus even at streak 0: each +10: 30 + 20 + 20 = 70
    Case(
        "streak_reading_two",
        "@813; D7 option streak_reading=two",
        hand(PLAIN, dealer=True),
        {"plain_win": 1},
        1,
        options={"streak_reading": "two"},
        payments={"discarder": 30, "each_other": 20, "total": 70},
    ),
    # option streak_bonus=2 bases per repeat, streak 1: each +20: 40 + 30 + 30 = 100
    Case(
        "streak_bonus_option",
        "@813; option streak_bonus",
        hand(PLAIN, dealer=True, dealer_streak=1),
        {"plain_win": 1},
        1,
        options={"streak_bonus": 2},
        payments={"total": 100},
    ),
    # ---- chi (D1) ------------------------------------------------------------------------------------------
    # option chi=true: a chow from the player before is allowed: 屁和
    Case(
        "chi_allowed", "@475; D1 option chi", hand("456p789s111z55m 123m"), {"plain_win": 1}, 1, options={"chi": True}
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_datong_table(case: Case) -> None:
    """Each hand scores exactly the items, total, payments and notes worked out above."""
    check_table_case(case, "datong")


@pytest.mark.parametrize(
    ("h", "options", "code", "words"),
    [
        # @475 不能吃: a claimed chow is refused unless option chi
        (hand("456p789s111z55m 123m"), {}, "not_allowed", "no chi"),
        # chi only from the player before (吃上家)
        (
            {**hand("456p789s111z55m 123m"), "melds": [{"type": "chow", "tiles": ["1m", "2m", "3m"], "from": "right"}]},
            {"chi": True},
            "not_allowed",
            "player before",
        ),
        # 136 tiles: no flowers
        (hand(PLAIN, flowers=["2f"]), {}, "not_allowed", "no flowers"),
        (hand("123m456p789s111z5m"), {}, "wrong_tile_count", "14"),
    ],
)
def test_refusals(h: dict[str, Any], options: dict[str, Any], code: str, words: str) -> None:
    """A hand that cannot exist in the game is refused with the rule it breaks, never scored."""
    with pytest.raises(HandError) as info:
        scoring.score(h, "datong", options)
    assert info.value.code == code
    assert words in info.value.message


def test_not_a_winning_hand() -> None:
    """14 tiles that form no shape are not refused: the score says it is no win and why."""
    result = scoring.score(hand("123m456p789s111z57m"), "datong")
    assert not result.winning and result.total == 0 and "not a winning hand" in result.notes[0]


def test_rule_card_marks_every_option() -> None:
    """The rule card names every option and marks rules source or common practice."""
    rs = scoring.get("datong")
    card = rs.card()
    for option in rs.options:
        assert f"`{option.name}`" in card, option.name
    assert "**source**" in card and "**common practice**" in card


def test_generated_hands_are_scored_or_refused() -> None:
    """600 seeded random winning hands (tests/handgen.py, with honours): each is refused with a HandError (chows,
    flowers) or scored with total = the product of the items' factors, the discarder paying twice each other."""
    scored = 0
    for h in handgen.HandGen(7, knitted=False).hands(600):
        try:
            result = scoring.score(h, "datong")
        except HandError:
            continue
        scored += 1
        if result.winning:
            assert result.total == prod(i.value for i in result.items)
            if "discarder" in result.payments:
                bonus = 0 if not h.dealer else result.payments["discarder"] - 2 * result.total * 10
                assert result.payments["each_other"] == result.total * 10 + bonus
    assert scored > 50
