"""Changsha: a table of hands, one per rule of the source fragment, per common big win, per initial-hand win, per
payment rule and option.

The source is 001 @1543-2076 (DIGEST §5): "小胡要2、5、8作将，大胡为乱将" (@1874), 四喜 (@1976) and 板板胡 (@2014)
"计分等同小胡自摸", 缺一色 cut off (@2056), "只有下家能吃" (@1830). Everything else (the 大胡 list, the values
小胡 1 / 小胡自摸 2 / 大胡 6, 庄闲 +1, 扎鸟) is the common Changsha practice the rule card describes. Unless a case
says otherwise the winner is not the dealer and wins on a discard; base 1. ``items`` lists every item expected
(id: points x count), nothing more.
"""

from __future__ import annotations

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


def initial(concealed: str, dealer: bool) -> dict[str, Any]:
    """An initial hand (起手胡): the dealt tiles, 14 for the dealer and 13 for the others."""
    return {"concealed": concealed, "initial_hand": True, "dealer": dealer}


SMALL = "123m345m789m234p55p"  # 4 melds + a 5p pair: a 小胡
NO_258_PAIR = "123m345m789m234p66p"  # the same with a 6p pair

CASES = [
    # ---- 小胡 (small win): 4 melds + a 2-5-8 pair (@1949 "用2、5、8作将，其余成四句话") --------------------------
    # on a discard the discarder pays 小胡 1
    Case("small_discard", "@1949 小胡", hand(SMALL), {"small_win": 1}, 1, payments={"discarder": 1, "total": 1}),
    # self-drawn: 小胡自摸 2 from each; the dealer adds 庄闲 1: dealer 3 + 2 + 2 = 7
    Case(
        "small_self_draw",
        "@1976 小胡自摸 (value common practice)",
        hand(SMALL, self_drawn=True),
        {"small_win": 2},
        2,
        payments={"dealer": 3, "each_non_dealer": 2, "total": 7},
    ),
    # the dealer wins on a discard: 1 + 庄闲 1 = 2
    Case(
        "small_dealer_wins",
        "庄闲 (common practice)",
        hand(SMALL, dealer=True),
        {"small_win": 1},
        1,
        payments={"discarder": 2},
    ),
    # the discarder (across) is the dealer (dealer_seat across): 1 + 1 = 2
    Case(
        "small_dealer_discards",
        "庄闲 (common practice)",
        hand(SMALL, discarder="across", dealer_seat="across"),
        {"small_win": 1},
        1,
        payments={"discarder": 2},
    ),
    # a non-2-5-8 pair and no big win: no win at all (@1874 小胡要2、5、8作将)
    Case("small_needs_258", "@1874 小胡要2、5、8作将", hand(NO_258_PAIR), {}, 0, notes=("pair of 2, 5 or 8",)),
    # 四句话 + 将: the tiles form no shape: no win
    Case("not_a_win", "@1874 四句话和一对将牌", hand("123m345m789m234p57p"), {}, 0, notes=("not a winning hand",)),
    # ---- 大胡 (big wins) may use any pair: 乱将 (@1874) -------------------------------------------------------
    # 碰碰胡 with a 6p pair: 6
    Case(
        "all_pungs", "@1874 大胡为乱将; 碰碰胡", hand("111m333m444m222p66p"), {"all_pungs": 6}, 6, notes=("any pair",)
    ),
    # 将将胡: every tile a 2, 5 or 8, no shape needed (option all_258_shape=any): 6
    Case(
        "all_258_no_shape",
        "将将胡 (common practice)",
        hand("22m55m88m22p55p88p2s5s"),
        {"all_258": 6},
        6,
        notes=("whatever the shape",),
    ),
    # option all_258_shape=standard: the same tiles form no shape: no win
    Case(
        "all_258_needs_shape",
        "将将胡; option all_258_shape",
        hand("22m55m88m22p55p88p2s5s"),
        {},
        0,
        options={"all_258_shape": "standard"},
    ),
    # 将将胡 and 碰碰胡 together: 222m 555m 888m 222p 55p: 6 + 6 = 12 (大胡叠加)
    Case("all_258_all_pungs", "大胡叠加", hand("222m555m888m222p55p"), {"all_pungs": 6, "all_258": 6}, 12),
    # 清一色 with a 1m pair: 6
    Case("full_flush", "清一色", hand("123m345m678m999m11m"), {"full_flush": 6}, 6),
    # 清一色 + 碰碰胡: 12
    Case("full_flush_all_pungs", "大胡叠加", hand("111m333m555m777m99m"), {"full_flush": 6, "all_pungs": 6}, 12),
    # 七小对: 6
    Case("seven_pairs", "七小对", hand("1122m55m66p88p99p4p4p"), {"seven_pairs": 6}, 6),
    # 豪华七小对: one four: 七小对 6 + 豪华 6 = 12
    Case(
        "luxury_seven_pairs",
        "豪华七小对",
        hand("1111m55m66p88p99p4p4p"),
        {"seven_pairs": 6, "luxury_seven_pairs": 6},
        12,
        notes=("豪华七小对",),
    ),
    # 双豪华七小对: two fours: 6 + 2 x 6 = 18
    Case(
        "double_luxury",
        "双豪华七小对",
        hand("1111m5555m66p88p99p"),
        {"seven_pairs": 6, "luxury_seven_pairs": 12},
        18,
        notes=("双豪华七小对",),
    ),
    # 全求人: four claimed melds, a single wait on 6p won on a discard: 6 (any pair)
    Case("all_melded", "全求人", hand("66p 123m 345m 789m 234p"), {"all_melded": 6}, 6),
    # the same self-drawn is no 全求人; with a 5p pair it is a 小胡自摸 2
    Case(
        "all_melded_self_drawn",
        "全求人 (discard only)",
        hand("55p 123m 345m 789m 234p", self_drawn=True),
        {"small_win": 2},
        2,
    ),
    # 杠上开花 with a 6p pair after the 5555p kong, self-drawn: 6 from each, the dealer 7: 19
    Case(
        "kong_flower",
        "杠上开花",
        hand("123m345m789m66p 5555s", self_drawn=True, kong_replacement=True),
        {"kong_flower": 6},
        6,
        payments={"dealer": 7, "each_non_dealer": 6, "total": 19},
    ),
    Case("kong_cannon", "杠上炮", hand(NO_258_PAIR, kong_replacement=True), {"kong_cannon": 6}, 6),
    Case("robbing_kong", "抢杠胡", hand(NO_258_PAIR, win="2p", robbing_kong=True), {"robbing_kong": 6}, 6),
    Case("last_tile_draw", "海底捞月", hand(NO_258_PAIR, self_drawn=True, last_tile=True), {"last_tile_draw": 6}, 6),
    Case("last_tile_discard", "海底炮", hand(NO_258_PAIR, last_tile=True), {"last_tile_discard": 6}, 6),
    # 天胡: the dealer's dealt tiles win; each pays 6 + 庄闲 1 = 7: 21
    Case(
        "heavenly_win",
        "天胡",
        hand(SMALL, self_drawn=True, dealer=True, heavenly_win=True),
        {"heavenly_win": 6},
        6,
        payments={"each_other": 7, "total": 21},
    ),
    Case("earthly_win", "地胡", hand(NO_258_PAIR, earthly_win=True), {"earthly_win": 6}, 6),
    # a dealer's big win on a discard: (6 + 1) per 大胡: 清一色 + 碰碰胡 = 2 x 7 = 14
    Case(
        "big_dealer",
        "庄闲 per 大胡 (common practice)",
        hand("111m333m555m777m99m", dealer=True),
        {"full_flush": 6, "all_pungs": 6},
        12,
        payments={"discarder": 14},
    ),
    # option big_win=10: 碰碰胡 10
    Case(
        "big_win_option", "option big_win", hand("111m333m444m222p66p"), {"all_pungs": 10}, 10, options={"big_win": 10}
    ),
    # option dealer_bonus=0 and base=5: the dealer's small discard win: 1 x 5 = 5
    Case(
        "no_dealer_bonus",
        "options dealer_bonus, base",
        hand(SMALL, dealer=True),
        {"small_win": 1},
        1,
        options={"dealer_bonus": 0, "base": 5},
        payments={"discarder": 5},
    ),
    # ---- 起手胡: initial-hand wins on the dealt tiles (initial_hand) ---------------------------------------------
    # 四喜: four 1m in the dealer's 14; paid as 小胡自摸: 2 + 庄闲 1 from each: 9
    Case(
        "initial_four",
        "@1976 四喜 计分等同小胡自摸",
        initial("1111m234m567p99s2s5s", dealer=True),
        {"four_of_a_kind": 2},
        2,
        payments={"each_other": 3, "total": 9},
        notes=("起手胡",),
    ),
    # 板板胡: no 2, 5 or 8 among a non-dealer's 13: the dealer pays 3, the others 2: 7
    Case(
        "initial_no_258",
        "@2014 板板胡 计分等同小胡自摸",
        initial("134679m139p1367s", dealer=False),
        {"no_258": 2},
        2,
        payments={"dealer": 3, "each_non_dealer": 2, "total": 7},
    ),
    # 缺一色: no bamboo at all: 2
    Case(
        "initial_missing_suit",
        "@2056 缺一色 (cut off)",
        initial("123456789m1234p", dealer=False),
        {"missing_suit": 2},
        2,
    ),
    # 六六顺: two triplets 111m and 333m: 2
    Case(
        "initial_two_triplets",
        "六六顺 (common practice)",
        initial("111m333m467p99s35s", dealer=False),
        {"two_triplets": 2},
        2,
    ),
    # several at once: 1111m 3333m: 四喜 x2, 板板胡 (no 2 5 8), 六六顺 -> 4 wins x 2 = 8; the dealer gets
    # (2 + 1) x 4 = 12 from each: 36
    Case(
        "initial_several",
        "@1976, @2014; each 起手胡 counts",
        initial("1111m3333m79p1346s", dealer=True),
        {"four_of_a_kind": 4, "no_258": 2, "two_triplets": 2},
        8,
        payments={"each_other": 12, "total": 36},
    ),
    Case("initial_none", "起手胡", initial("123456789m12p56s", dealer=False), {}, 0, notes=("no initial-hand win",)),
    # ---- 扎鸟 (birds, common practice) ------------------------------------------------------------------------
    # 小胡自摸 2, birds 1m (winner) and 2p (right), the dealer sits left: left (2 + 1) x (1 + 1) = 6,
    # across 2 x 2 = 4, right 2 x (1 + 2) = 6: 16
    Case(
        "birds_add",
        "扎鸟 (add)",
        hand(SMALL, self_drawn=True, birds=["1m", "2p"], dealer_seat="left"),
        {"small_win": 2},
        2,
        payments={"left": 6, "across": 4, "right": 6, "total": 16},
        notes=("扎鸟",),
    ),
    # bird_rule=double: left 3 x 2 = 6, across 2 x 2 = 4, right 2 x 2^2 = 8: 18
    Case(
        "birds_double",
        "扎鸟 (double)",
        hand(SMALL, self_drawn=True, birds=["1m", "2p"], dealer_seat="left"),
        {"small_win": 2},
        2,
        options={"bird_rule": "double"},
        payments={"left": 6, "across": 4, "right": 8, "total": 18},
    ),
    # a discard by across, birds 3m (across) and 5p (the winner): 1 x (1 + 2) = 3
    Case(
        "birds_discard",
        "扎鸟",
        hand(SMALL, discarder="across", birds=["3m", "5p"]),
        {"small_win": 1},
        1,
        payments={"discarder": 3},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_changsha_table(case: Case) -> None:
    """Each hand scores exactly the items, total, payments and notes worked out above."""
    check_table_case(case, "changsha")


@pytest.mark.parametrize(
    ("h", "code", "words"),
    [
        # @1543 不带东、南、西、北风和中、白、发: honours and flowers refused
        (hand("123m345m789m234p11z"), "not_allowed", "108 suit tiles"),
        (hand(SMALL, flowers=["5f"]), "not_allowed", "no flowers"),
        # @1830 只有下家能吃: a chow claimed from across is refused
        (
            {
                **hand("345m789m234p55p 123m"),
                "melds": [{"type": "chow", "tiles": ["1m", "2m", "3m"], "from": "across"}],
            },
            "not_allowed",
            "only the next player",
        ),
        # @1771 庄家14张牌，闲家13张: an initial hand has the dealt count
        (initial("123456789m1235p", dealer=True), "wrong_tile_count", "dealer is dealt 14"),
        (
            {**initial("123456789m1p", dealer=False), "melds": [{"type": "pung", "tiles": "222s"}]},
            "not_allowed",
            "no melds",
        ),
        # the own fields
        (hand(SMALL, discarder="behind"), "bad_field", "discarder"),
        (hand(SMALL, birds=["1z"]), "bad_field", "birds"),
        (hand(SMALL, birds=["5p", "5p", "5p"]), "too_many_copies", "5p"),
        (hand(SMALL, birds=["1m"]), "bad_field", "need 'discarder'"),
        (hand(SMALL, self_drawn=True, birds=["1m"]), "bad_field", "need 'dealer_seat'"),
        (hand(SMALL, self_drawn=True, discarder="left"), "not_allowed", "self-drawn"),
        (hand(SMALL, heavenly_win=True, self_drawn=True), "not_allowed", "dealer"),
        (hand("123m345m789m234p66p 5555p", win="6p"), "wrong_tile_count", "14"),
    ],
)
def test_refusals(h: dict[str, Any], code: str, words: str) -> None:
    """A hand that cannot exist in the game is refused with the rule it breaks, never scored."""
    with pytest.raises(HandError) as info:
        scoring.score(h, "changsha")
    assert info.value.code == code
    assert words in info.value.message


def test_chow_from_the_player_before_is_allowed() -> None:
    """@1830 只有下家能吃: a chow from the left player (上家) scores; the 5p pair makes a 小胡."""
    h = {**hand("345m789m234p55p 123m"), "melds": [{"type": "chow", "tiles": ["1m", "2m", "3m"], "from": "left"}]}
    assert scoring.score(h, "changsha").total == 1


def test_rule_card_marks_every_option() -> None:
    """The rule card names every option and marks rules source or common practice."""
    rs = scoring.get("changsha")
    card = rs.card()
    for option in rs.options:
        assert f"`{option.name}`" in card, option.name
    assert "**source**" in card and "**common practice**" in card


def test_generated_hands_are_scored_or_refused() -> None:
    """600 seeded random winning hands (tests/handgen.py): each is refused with a HandError or scored with total =
    the sum of its items; a win always has an item and a 小胡 always a 2-5-8 pair."""
    scored = 0
    for h in handgen.HandGen(6, knitted=False).hands(600):
        try:
            result = scoring.score(h, "changsha")
        except HandError:
            continue
        scored += 1
        assert result.total == sum(i.value * i.count for i in result.items)
        assert result.winning == bool(result.items)
        if [i.id for i in result.items] == ["small_win"]:
            assert any(len(g) == 2 and g[0][0] in "258" for g in result.arrangement), result.arrangement
    assert scored > 50
