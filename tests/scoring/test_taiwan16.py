"""Taiwanese 16-tile: a table of hands, at least one per tai item of DIGEST §1.5, per exclusion and per choice A1-A9.

Each case cites the item number and the source sentence (source 000, 十六張台灣麻將規則) it checks, and works out
the expected total by hand in the comment above it. Unless a case says otherwise the winner sits at 開門序 1
(seat_index 0, East, flowers 1f/5f), the round is East, the winner is not the dealer, and the hand is won on a
discard by a non-dealer. ``items`` lists every item expected (id: tai), nothing more.
"""

from __future__ import annotations

from typing import Any

import pytest

import scoring
from scoring import parse_compact
from tests.score_table import Case

ALL_FLOWERS = ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"]


def hand(text: str, win: str | None = None, **fields: Any) -> dict[str, Any]:
    """A hand JSON from the compact form (17 tiles) with the default situation of this table."""
    out = parse_compact(text, win).to_json()
    out.update({"seat_index": 0, "round_wind": "E", **fields})
    return out


# The neutral hands most cases build on: 123m 456m 789m 234p + 56p waiting on 4p/7p (two-sided) + a West pair
# (no tai for seat East, round East, and no 平胡 because of the honour pair).
CONCEALED = "123m456m789m234p56p33z7p"
OPEN = "456m789m234p56p33z7p 123m"
# 17 tiles that form no winning hand (for the flower wins, which need none)
INCOMPLETE = "123m456m789m234p57p19s1z"


CASES = [
    # ---- item 1 風字坎 "東南西北任一坎(刻子), 合開門序1台, 合圈序加1台" and choice A2
    # seat_index 1 (South), round East; a concealed South triplet, two open chows: 風字坎 seat 1 = 1
    Case(
        "1_seat_wind",
        "item 1: 合開門序1台",
        hand("222z34m678m99s5m 123p 456p", win="5m", seat_index=1),
        {"seat_wind_pung": 1},
        1,
    ),
    # seat East, round South: the South triplet matches the round only: A2 says 1 (the round's +1 alone)
    Case(
        "1_round_only_A2",
        "item 1: 合圈序加1台; A2: a round-only match scores 1",
        hand("222z34m678m99s5m 123p 456p", win="5m", round_wind="S"),
        {"round_wind_pung": 1},
        1,
        notes=("A2",),
    ),
    # seat South and round South: 1 + 1 = 2
    Case(
        "1_seat_and_round",
        "item 1: 合開門序1台, 合圈序加1台",
        hand("222z34m678m99s5m 123p 456p", win="5m", seat_index=1, round_wind="S"),
        {"seat_wind_pung": 1, "round_wind_pung": 1},
        2,
    ),
    # seat West (seat_index 2), round East: a South triplet matches neither: 0 tai, still a win (no minimum)
    Case(
        "1_no_match",
        "item 1 (0 tai when neither matches); §1.7 no minimum tai",
        hand("222z34m678m99s5m 123p 456p", win="5m", seat_index=2),
        {},
        0,
    ),
    # ---- item 2 箭字坎 "中發白任一坎, 各計1台, 合圈序加1台" and choice A1
    # a concealed Red triplet: 箭字坎 1; A1: no round-wind tai for a dragon = 1
    Case(
        "2_dragon_A1_off",
        "item 2: 各計1台; A1: dragons get no round tai",
        hand("777z34m678m99s5m 123p 456p", win="5m"),
        {"dragon_pung": 1},
        1,
        notes=("A1",),
    ),
    # option dragon_round_tai: the 合圈序加1台 is counted: 1 + 1 = 2
    Case(
        "2_dragon_A1_on",
        "item 2: 合圈序加1台 (A1 option on)",
        hand("777z34m678m99s5m 123p 456p", win="5m"),
        {"dragon_pung": 1, "dragon_pung_round": 1},
        2,
        options={"dragon_round_tai": True},
        notes=("A1",),
    ),
    # two dragon triplets (White, Green; pair Red would be 小三元, so the pair is 9s): 箭字坎 x2 = 2
    Case(
        "2_two_dragons",
        "item 2: 中發白任一坎, 各計1台",
        hand("555z666z67m99s8m 123p 456p", win="8m"),
        {"dragon_pung": 2},
        2,
    ),
    # ---- item 3 門清 "胡牌前無吃、碰、明槓, 允許暗槓"
    # the neutral concealed hand won on a discard: 門清 1
    Case("3_concealed", "item 3: 門清1台", hand(CONCEALED), {"concealed_hand": 1}, 1),
    # a concealed kong keeps the hand concealed (允許暗槓): 門清 1
    Case(
        "3_concealed_kong",
        "item 3: 允許暗槓",
        hand("123m456m234p56p33z7p [8888s]"),
        {"concealed_hand": 1},
        1,
    ),
    # an open kong (明槓) breaks it: nothing = 0
    Case("3_open_kong", "item 3: 無明槓", hand("123m456m234p56p33z7p 8888s"), {}, 0),
    # ---- item 4 不求.自摸 "無吃.碰.明槓, 並自摸. 與門清合稱'門清一摸三'" and choice A4
    # the neutral concealed hand self-drawn: 門清 1 + 不求.自摸 2 = 3; A4: 自摸 1 is not added on top
    Case(
        "4_concealed_self_draw_is_3",
        "item 4: 門清一摸三; A4",
        hand(CONCEALED, self_drawn=True),
        {"concealed_hand": 1, "concealed_self_draw": 2},
        3,
        notes=("A4",),
    ),
    # ---- item 5 全求 "手牌皆已吃碰外露, 僅剩一牌單釣胡銃 ... 加計獨聽1台, 共3台"
    # five open melds, one tile left, won on a discard of the pair tile: 全求 2 + 獨聽 1 = 3
    Case(
        "5_fully_melded",
        "item 5: 加計獨聽1台, 共3台",
        hand("99s 123m 456m 789m 234p 567p"),
        {"fully_melded": 2, "single_wait": 1},
        3,
    ),
    # ---- item 6 半求 "暗牌剩1張並自摸, 含獨聽.自摸共3台"
    # the same hand self-drawn: 半求 1 + 獨聽 1 + 自摸 1 = 3
    Case(
        "6_half_melded",
        "item 6: 含獨聽.自摸共3台",
        hand("99s 123m 456m 789m 234p 567p", self_drawn=True),
        {"half_melded_self_draw": 1, "single_wait": 1, "self_draw": 1},
        3,
    ),
    # ---- item 7 平胡 "有將、無花、無字、無坎、非獨聽、非自摸. 允許門清加1台" and choice A6
    # open chow 123m, all chows, 99s pair, 56p two-sided, discard: 平胡 2
    Case("7_plain", "item 7: 平胡2台", hand("456m789m234p56p99s7p 123m"), {"plain_hand": 2}, 2),
    # the same all concealed: 平胡 2 + 門清 1 = 3
    Case(
        "7_plain_concealed",
        "item 7: 允許門清加1台",
        hand("123m456m789m234p56p99s7p"),
        {"plain_hand": 2, "concealed_hand": 1},
        3,
    ),
    # A6: one flower (2f, not the seat's own) is enough to lose 平胡: 0
    Case(
        "7_plain_flower_A6",
        "item 7: 無花; A6",
        hand("456m789m234p56p99s7p 123m", flowers=["2f"]),
        {},
        0,
        notes=("A6", "A8"),
    ),
    # self-drawn: no 平胡 (非自摸), 自摸 1 = 1
    Case(
        "7_plain_not_self_drawn",
        "item 7: 非自摸",
        hand("456m789m234p56p99s7p 123m", self_drawn=True),
        {"self_draw": 1},
        1,
    ),
    # 8p waits in 79p only (closed wait): 獨聽 1, no 平胡 (非獨聽) = 1
    Case(
        "7_plain_not_single_wait",
        "item 7: 非獨聽; item 11 中洞",
        hand("456m789m234p79p99s8p 123m"),
        {"single_wait": 1},
        1,
    ),
    # a triplet: 555s instead of a chow: no 平胡 (無坎) = 0
    Case("7_plain_no_pung", "item 7: 無坎", hand("456m789m555s56p99s7p 123m"), {}, 0),
    # ---- item 8 對對胡 "除將牌外全為坎子(刻子)"
    # open pungs 111m 999p 333p, concealed 222s, 555s completed by a discard (dual wait with 77s; A5: not
    # concealed): 對對胡 4, one concealed triplet only = 4
    Case(
        "8_all_pungs",
        "item 8: 除將牌外全為坎子; A5",
        hand("222s55s77s5s 111m 999p 333p", win="5s"),
        {"all_pungs": 4},
        4,
        notes=("A5",),
    ),
    # ---- items 9 作莊 "胡放皆加計1台" and 10 連N拉N "莊家連N閒家一律拉N" 2N台
    # the dealer wins the neutral concealed hand on a discard: hand 門清 1; the discarder pays 1 base + 1 + 作莊 1 = 3
    Case(
        "9_dealer_wins",
        "item 9: 胡放皆加計1台 (胡)",
        hand(CONCEALED, dealer=True),
        {"concealed_hand": 1},
        1,
        payments={"discarder": 3, "total": 3},
    ),
    # a non-dealer wins on the dealer's discard: 門清 1; the dealer pays 1 + 1 + 作莊 1 = 3
    Case(
        "9_dealer_deals_in",
        "item 9: 胡放皆加計1台 (放)",
        hand(CONCEALED, discarder_is_dealer=True),
        {"concealed_hand": 1},
        1,
        payments={"discarder": 3, "total": 3},
    ),
    # a non-dealer wins on another non-dealer's discard, the dealer on his 2nd repeat: no dealer tai (the
    # streak is settled only with the dealer): 1 + 1 = 2
    Case(
        "9_dealer_not_involved",
        "§1.7 dealer tai only in payments involving the dealer",
        hand(CONCEALED, dealer_streak=2),
        {"concealed_hand": 1},
        1,
        payments={"discarder": 2, "total": 2},
    ),
    # the dealer on his 2nd repeat self-draws: 門清一摸三 3; each pays 1 + 3 + 作莊 1 + 連2拉2 4 = 9, 27 in all
    Case(
        "10_streak_dealer_self_draw",
        "item 10: 連N拉N 2N台; A9",
        hand(CONCEALED, self_drawn=True, dealer=True, dealer_streak=2),
        {"concealed_hand": 1, "concealed_self_draw": 2},
        3,
        payments={"each_non_dealer": 9, "total": 27},
        notes=("A4", "A9"),
    ),
    # a non-dealer self-draws while the dealer is on his 1st repeat: 3 tai; the dealer pays 1 + 3 + 1 + 2 = 7,
    # the other two 1 + 3 = 4 each: 15 in all
    Case(
        "10_streak_non_dealer_self_draw",
        "item 10: 莊家連N閒家一律拉N; A9",
        hand(CONCEALED, self_drawn=True, dealer_streak=1),
        {"concealed_hand": 1, "concealed_self_draw": 2},
        3,
        payments={"dealer": 7, "each_non_dealer": 4, "total": 15},
        notes=("A9",),
    ),
    # ---- item 11 獨聽 "只聽一洞, 例如中洞(卡張)、站壁(邊獨)、單釣(單騎)"
    # 站壁: 12p waits on 3p only: 獨聽 1 (no 平胡) = 1
    Case("11_edge", "item 11: 站壁(邊獨)", hand("456m789m234s12p99s3p 123m"), {"single_wait": 1}, 1),
    # 單釣: 123p 456p 789p ... + 9s alone: 獨聽 1 = 1
    Case("11_pair", "item 11: 單釣(單騎)", hand("456m789m234p567p9s9s 123m"), {"single_wait": 1}, 1),
    # 5557p waits on 6p (55 + 567) and 7p (555 + 77): won on 6p in a closed shape but not 只聽一洞: no 獨聽,
    # so 平胡 counts (pair 55p, all chows, not self-drawn) = 2
    Case(
        "11_two_tiles_not_single",
        "item 11: 只聽一洞 (computed from the hand); item 7",
        hand("789m234s5557p6p 123m 456m", win="6p"),
        {"plain_hand": 2},
        2,
    ),
    # ---- item 12 搶槓 "他人加槓已碰之坎子恰為本家成胡"
    # open hand with a West pair robs 7p: 搶槓 1; the kong-adder pays as the discarder 1 + 1 = 2
    Case(
        "12_robbing_kong",
        "item 12: 搶槓1台",
        hand(OPEN, robbing_kong=True),
        {"robbing_kong": 1},
        1,
        payments={"discarder": 2, "total": 2},
    ),
    # ---- item 13 字一色 and choice A3 "全為字牌, 不計對對胡 ... 累計台數後減除4台"
    # 東東東 南南南 西西西 北北 中中中 發發發, concealed, won on 發 from a discard (dual wait 北/發).
    # 字一色 16 (對對胡 not counted) + 小四喜 8 + 東 seat 1 + 東 round 1 + 箭字坎 中, 發 2 + 門清 1
    # + 四暗坎 5 (東南西中; 發 completed by the discard, A5) - 4 (A3, no 小三元 in this hand) = 30
    Case(
        "13_all_honours_little_four_winds_A3",
        "item 13: 累計台數後減除4台; A3 (the counter-example without 小三元)",
        hand("111z222z333z44z777z66z6z", win="6z"),
        {
            "seat_wind_pung": 1,
            "round_wind_pung": 1,
            "dragon_pung": 2,
            "concealed_hand": 1,
            "all_honours": 16,
            "all_honours_deduction": -4,
            "four_concealed_pungs": 5,
            "little_four_winds": 8,
        },
        30,
        notes=("A1", "A3", "A5"),
    ),
    # 東東東 南南南 西西西 中中中 發發發 白白, self-drawn on 白 (單釣). 字一色 16 + 小三元 4 (箭字坎 not added)
    # + 東 seat 1 + 東 round 1 + 五暗坎 13 (門清 and 對對胡 not counted) + 不求.自摸 2 (五暗坎 "如為自摸, 加計不求")
    # + 獨聽 1 - 4 (A3) = 34
    Case(
        "13_all_honours_little_three_dragons_A3",
        "item 13: 如包含 ... 大/小三元應累計台數後減除4台; item 18; A3",
        hand("111z222z333z777z666z55z", win="5z", self_drawn=True),
        {
            "seat_wind_pung": 1,
            "round_wind_pung": 1,
            "concealed_self_draw": 2,
            "single_wait": 1,
            "all_honours": 16,
            "all_honours_deduction": -4,
            "five_concealed_pungs": 13,
            "little_three_dragons": 4,
        },
        34,
        notes=("A1", "A3", "A4"),
    ),
    # ---- item 14 清一色 "全為一種花色且無字牌"
    # open pung 111m, concealed 456m 789m 234m 55m 67m + 8m: all characters: 清一色 12; no 平胡 (a triplet) = 12
    Case("14_full_flush", "item 14: 清一色12台", hand("456m789m234m55m67m8m 111m"), {"full_flush": 12}, 12),
    # ---- item 15 湊一色 "除字牌外全為一種花色"
    # the same with a West pair for 55m: characters + honours: 湊一色 4 = 4
    Case("15_half_flush", "item 15: 湊一色4台", hand("456m789m234m33z67m8m 111m"), {"half_flush": 4}, 4),
    # ---- items 16-18 三/四/五暗坎 "配得或摸得之坎子(包含暗槓)" and choice A5
    # 222m 555m 888s concealed, open chows 123p 456p, won on West (單釣; a 9s would also wait on 7s with 888s):
    # 三暗坎 2 + 獨聽 1 = 3
    Case(
        "16_three_concealed",
        "item 16: 三副配得或摸得之坎子",
        hand("222m555m888s3z3z 123p 456p"),
        {"three_concealed_pungs": 2, "single_wait": 1},
        3,
    ),
    # A5: waiting on 8s/9s, the 8s triplet completed by a discard is not concealed: 2 concealed, nothing = 0
    Case(
        "16_discard_pung_A5",
        "item 16: 配得或摸得 (A5: a triplet completed by a discard is not concealed)",
        hand("222m555m88s99s8s 123p 456p", win="8s"),
        {},
        0,
        notes=("A5",),
    ),
    # the same self-drawn: the 8s triplet is drawn (摸得): 三暗坎 2 + 自摸 1 = 3
    Case(
        "16_drawn_pung",
        "item 16: 摸得之坎子",
        hand("222m555m88s99s8s 123p 456p", win="8s", self_drawn=True),
        {"three_concealed_pungs": 2, "self_draw": 1},
        3,
    ),
    # a concealed kong counts (包含暗槓): [2222m] 555m 888s + open chows: 三暗坎 2 + 獨聽 1 = 3
    Case(
        "16_concealed_kong_counts",
        "item 16: 包含暗槓",
        hand("555m888s3z3z [2222m] 123p 456p"),
        {"three_concealed_pungs": 2, "single_wait": 1},
        3,
    ),
    # 四暗坎 (三暗坎 not counted: only the higher of items that always co-exist): 5 + 獨聽 1 = 6
    Case(
        "17_four_concealed",
        "item 17: 四副配得或摸得之坎子; 台數計算準則 (only the higher)",
        hand("222m555m888s444p3z3z 123p"),
        {"four_concealed_pungs": 5, "single_wait": 1},
        6,
    ),
    # all five concealed, won on a discard on the pair: 五暗坎 13 (not 門清, 對對胡, 四暗坎) + 獨聽 1 = 14
    Case(
        "18_five_concealed",
        "item 18: 不計門清.對對胡",
        hand("222m555m888s444p777p3z3z"),
        {"five_concealed_pungs": 13, "single_wait": 1},
        14,
    ),
    # self-drawn: + 不求.自摸 2 ("如為自摸, 加計不求"): 13 + 2 + 1 = 16
    Case(
        "18_five_concealed_self_drawn",
        "item 18: 如為自摸, 加計不求",
        hand("222m555m888s444p777p3z3z", self_drawn=True),
        {"five_concealed_pungs": 13, "concealed_self_draw": 2, "single_wait": 1},
        16,
        notes=("A4",),
    ),
    # ---- item 19 大四喜 "東南西北四坎全齊, 圈序與開門序不另計台"
    # four open wind pungs, 123m + 5m single: 大四喜 16 (no 風字坎 for East) + 湊一色 4 + 獨聽 1 = 21
    Case(
        "19_big_four_winds",
        "item 19: 圈序與開門序不另計台",
        hand("123m5m5m 111z 222z 333z 444z"),
        {"big_four_winds": 16, "half_flush": 4, "single_wait": 1},
        21,
    ),
    # ---- item 20 小四喜 "東南西北組成之坎子與將牌, 合圈序加1台, 合開門序加1台(因不必然並存)"
    # open 東 南 西 pungs, 北 pair, 123m, 45p + 6p; seat East, round South: 小四喜 8 + 東 seat 1 + 南 round 1
    # (A2: South matches the round only) = 10
    Case(
        "20_little_four_winds",
        "item 20: 合圈序加1台, 合開門序加1台",
        hand("44z123m45p6p 111z 222z 333z", round_wind="S"),
        {"little_four_winds": 8, "seat_wind_pung": 1, "round_wind_pung": 1},
        10,
        notes=("A2",),
    ),
    # ---- item 21 大三元 "中發白三坎全齊, 合圈序加1台, 箭字坎不另計台"
    # open 白 發 中 pungs, 123m 45m + 6m, 99p pair: 大三元 8, no 箭字坎 = 8
    Case(
        "21_big_three_dragons",
        "item 21: 箭字坎不另計台; A1",
        hand("123m45m99p6m 555z 666z 777z"),
        {"big_three_dragons": 8},
        8,
        notes=("A1",),
    ),
    # A1 option on: + 合圈序 1 = 9
    Case(
        "21_big_three_dragons_A1_on",
        "item 21: 合圈序加1台 (A1 option on)",
        hand("123m45m99p6m 555z 666z 777z"),
        {"big_three_dragons": 8, "three_dragons_round": 1},
        9,
        options={"dragon_round_tai": True},
    ),
    # ---- item 22 小三元 "中發白組成之坎子與將牌, 合圈序加1台, 箭字坎不另計台"
    # open 白 發 pungs, 中 pair, 123m 456m 78p + 9p: 小三元 4, no 箭字坎 = 4
    Case(
        "22_little_three_dragons",
        "item 22: 箭字坎不另計台",
        hand("77z123m456m78p9p 555z 666z"),
        {"little_three_dragons": 4},
        4,
    ),
    # A1 option on: 4 + 1 = 5 (the 箭字坎合圈序 of the two triplets is not added either)
    Case(
        "22_little_three_dragons_A1_on",
        "item 22: 合圈序加1台 (A1 option on)",
        hand("77z123m456m78p9p 555z 666z"),
        {"little_three_dragons": 4, "three_dragons_round": 1},
        5,
        options={"dragon_round_tai": True},
    ),
    # ---- item 23 自摸 "胡牌之牌張自己摸得" and choice A9
    # the neutral open hand self-drawn: 自摸 1; A9: each of the three pays 1 + 1, the dealer + 作莊 1: 3 + 2 + 2 = 7
    Case(
        "23_self_draw",
        "item 23: 自摸1台; A9",
        hand(OPEN, self_drawn=True),
        {"self_draw": 1},
        1,
        payments={"dealer": 3, "each_non_dealer": 2, "total": 7},
        notes=("A9",),
    ),
    # ---- item 24 槓上開花 "於槓尾補牌而成胡, 加計自摸1台"
    # concealed kong [2222s] and an open chow, won on the replacement: 槓上開花 1 + 自摸 1 = 2
    Case(
        "24_kong_replacement",
        "item 24: 加計自摸1台",
        hand("456m789m56p33z7p [2222s] 123m", self_drawn=True, kong_replacement=True),
        {"self_draw": 1, "kong_replacement_win": 1},
        2,
    ),
    # ---- item 25 海底撈月 "摸海底牌而成胡, 加計自摸1台"
    # the neutral open hand self-drawn on the last tile: 海底撈月 1 + 自摸 1 = 2
    Case(
        "25_last_tile",
        "item 25: 加計自摸1台",
        hand(OPEN, self_drawn=True, last_tile=True),
        {"self_draw": 1, "last_tile_draw": 1},
        2,
    ),
    # won on the last tile's discard: 海底撈月 is for drawing it, so nothing = 0
    Case("25_last_discard", "item 25: 摸海底牌", hand(OPEN, last_tile=True), {}, 0),
    # ---- item 26 花牌 "合開門序1台, 持同色花槓改計2台, 持滿花(8花牌)改計8台" and choice A8
    # seat_index 2 (開門序 3): 3f and 7f are its own (A8: both colours numbered 1-4), 1f is not: 1 + 1 = 2
    Case(
        "26_own_flowers_A8",
        "item 26: 合開門序1台; A8",
        hand(OPEN, flowers=["1f", "3f", "7f"], seat_index=2),
        {"own_flower": 2},
        2,
        notes=("A8",),
    ),
    # 1f-4f (a same-colour set) and 7f, seat_index 2: 同色花槓 2 instead of 3f's 1, + 7f 1 = 3
    Case(
        "26_flower_set",
        "item 26: 持同色花槓改計2台",
        hand(OPEN, flowers=["1f", "2f", "3f", "4f", "7f"], seat_index=2),
        {"flower_set": 2, "own_flower": 1},
        3,
    ),
    # all eight flowers and a complete hand won on a discard: 滿花 8 instead = 8; the discarder pays 9
    Case(
        "26_all_flowers",
        "item 26: 持滿花(8花牌)改計8台; item 27: 滿花 ... 而後如胡牌時亦仍計8台",
        hand(OPEN, flowers=ALL_FLOWERS),
        {"all_flowers": 8},
        8,
        payments={"discarder": 9, "total": 9},
    ),
    # ---- item 27 花胡 "花牌齊集時不論手牌成胡與否可立即胡牌"
    # all eight flowers and 17 tiles that do not win: a win all the same, 八仙過海 8
    Case(
        "27_flower_win_any_tiles",
        "item 27: 不論手牌成胡與否; item 29",
        hand(INCOMPLETE, self_drawn=True, kong_replacement=True, flowers=ALL_FLOWERS),
        {"eight_immortals": 8},
        8,
        payments={"dealer": 10, "each_non_dealer": 9, "total": 28},
    ),
    # ---- item 28 配牌花胡 "起手配牌本家得 ... 7花他人1花 ... 摸第1張牌(手牌足17張)時得胡 ... 七搶一"
    # the dealer was dealt 7 flowers, another player 1; on his first draw he robs it: 七搶一 8; the robbed
    # player pays as the discarder 1 base + 8 + 作莊 1 = 10
    Case(
        "28_dealt_flowers",
        "item 28: 得7花他人1花 ... 得胡七搶一",
        hand(INCOMPLETE, dealer=True, flowers=ALL_FLOWERS, robbed_flower="4f"),
        {"seven_rob_one": 8},
        8,
        payments={"discarder": 10, "total": 10},
    ),
    # ---- item 29 八仙過海 "三家賠付, 計八仙過海8台1底 ... 莊連拉之台數照算" and A9
    # incomplete tiles, all 8 flowers, the dealer on his 1st repeat: 8 tai; the dealer pays 1 + 8 + 1 + 2 = 12,
    # the others 1 + 8 = 9: 30 in all
    Case(
        "29_eight_immortals",
        "item 29: 三家賠付 ... 8台1底, 莊連拉之台數照算; A9",
        hand(INCOMPLETE, self_drawn=True, kong_replacement=True, flowers=ALL_FLOWERS, dealer_streak=1),
        {"eight_immortals": 8},
        8,
        payments={"dealer": 12, "each_non_dealer": 9, "total": 30},
        notes=("A9",),
    ),
    # the replacement completes the neutral concealed hand (槓上開花): 門清 1 + 不求.自摸 2 + 槓上開花 1 +
    # 滿花/八仙過海 8 (counted once: they always co-exist) = 12; each pays 1 + 12, the dealer + 1: 14 + 13 + 13
    Case(
        "29_eight_immortals_kong_replacement",
        "item 29: 如補得之牌恰為槓上開花, 牌面台數照算加計八仙過海8台(底注只計1底)",
        hand(CONCEALED, self_drawn=True, kong_replacement=True, flowers=ALL_FLOWERS),
        {"concealed_hand": 1, "concealed_self_draw": 2, "kong_replacement_win": 1, "all_flowers": 8},
        12,
        payments={"dealer": 14, "each_non_dealer": 13, "total": 40},
    ),
    # ---- item 30 七搶一
    # way 1: the robbed player (the dealer, on his 2nd repeat) pays as the discarder: 1 + 8 + 1 + 4 = 14
    Case(
        "30_seven_rob_one",
        "item 30.1: 視同被搶花者放銃, 計七搶一8台1底, 涉莊連拉台數照算",
        hand(INCOMPLETE, flowers=ALL_FLOWERS, robbed_flower="8f", discarder_is_dealer=True, dealer_streak=2),
        {"seven_rob_one": 8},
        8,
        payments={"discarder": 14, "total": 14},
    ),
    # way 1 with 槓上開花 on the neutral concealed hand: 門清 1 + 不求.自摸 2 + 槓上開花 1 + 七搶一 8 = 12;
    # still paid by the robbed player alone: 1 + 12 = 13
    Case(
        "30_seven_rob_one_kong_replacement",
        "item 30.1: 牌面台數照算加計七搶一8台(底注只計1底), 仍視同被搶花者放銃",
        hand(CONCEALED, self_drawn=True, kong_replacement=True, flowers=ALL_FLOWERS, robbed_flower="8f"),
        {"concealed_hand": 1, "concealed_self_draw": 2, "kong_replacement_win": 1, "seven_rob_one": 8},
        12,
        payments={"discarder": 13, "total": 13},
    ),
    # way 2 with 槓上開花: a self-draw; the hand without the robbed 8f: 門清 1 + 不求.自摸 2 + 槓上開花 1 +
    # 同色花槓 1f-4f 2 + own 5f 1 = 7, paid by all three (1 + 7, the dealer + 1): 9 + 8 + 8; the robbed player
    # alone also pays 七搶一 8: 33 in all; total 7 + 8 = 15
    Case(
        "30_seven_rob_one_way2",
        "item 30.2: 視同自摸, 三家賠付, 牌面台數照算(不含搶得之花牌), 但花牌台數被搶花者應單獨計七搶一8台",
        hand(
            CONCEALED,
            self_drawn=True,
            kong_replacement=True,
            flowers=ALL_FLOWERS,
            robbed_flower="8f",
            robbed_flower_held=True,
        ),
        {
            "concealed_hand": 1,
            "concealed_self_draw": 2,
            "kong_replacement_win": 1,
            "own_flower": 1,
            "flower_set": 2,
            "seven_rob_one": 8,
        },
        15,
        payments={"dealer": 9, "each_non_dealer": 8, "robbed_player_adds": 8, "total": 33},
    ),
    # way 2 without 槓上開花: the robbed player pays 8台1底 = 9
    Case(
        "30_seven_rob_one_way2_plain",
        "item 30.2: 被搶花者賠付, 計七搶一8台1底",
        hand(INCOMPLETE, flowers=ALL_FLOWERS, robbed_flower="8f", robbed_flower_held=True),
        {"seven_rob_one": 8},
        8,
        payments={"discarder": 9, "total": 9},
    ),
    # ---- item 31 天聽 "閒家配牌補花後即宣佈聽牌 ... 不計門清, 如自摸則加計不求.自摸2台"
    # the neutral concealed hand on a discard: 天聽 8 (門清 not counted) = 8
    Case("31_heavenly_ready", "item 31: 不計門清", hand(CONCEALED, heavenly_ready=True), {"heavenly_ready": 8}, 8),
    # self-drawn: 8 + 不求.自摸 2 = 10
    Case(
        "31_heavenly_ready_self_drawn",
        "item 31: 如自摸則加計不求.自摸2台",
        hand(CONCEALED, heavenly_ready=True, self_drawn=True),
        {"heavenly_ready": 8, "concealed_self_draw": 2},
        10,
    ),
    # ---- item 32 地聽 "打出第1張牌即宣佈聽牌, 本身須門清 ... 不計門清, 如自摸則加計不求.自摸2台"
    Case("32_earthly_ready", "item 32: 不計門清", hand(CONCEALED, earthly_ready=True), {"earthly_ready": 4}, 4),
    # the dealer may declare it too (註: 莊家打出第1張牌即宣佈聽牌, 視為地聽); self-drawn: 4 + 2 = 6
    Case(
        "32_earthly_ready_dealer_self_drawn",
        "item 32: 如自摸則加計不求.自摸2台; 註 (dealer)",
        hand(CONCEALED, earthly_ready=True, self_drawn=True, dealer=True),
        {"earthly_ready": 4, "concealed_self_draw": 2},
        6,
        payments={"each_non_dealer": 8, "total": 24},
    ),
    # ---- item 33 天胡 "莊家於配牌補花後即胡牌 ... 不計門清一摸三"
    # 天胡 16 (no 門清, 不求.自摸, 自摸); each pays 1 + 16 + 作莊 1 = 18
    Case(
        "33_heavenly_win",
        "item 33: 不計門清一摸三; A4",
        hand(CONCEALED, dealer=True, heavenly_win=True, self_drawn=True),
        {"heavenly_win": 16},
        16,
        payments={"each_non_dealer": 18, "total": 54},
        notes=("A4",),
    ),
    # ---- item 34 地胡 "閒家起牌天聽摸第1張牌自摸, 或胡各家打出其第一張牌 ... 不計天聽, 門清" and choice A7
    # self-draw branch after 天聽: 地胡 16 + 不求.自摸 2 (天聽 and 門清 not counted) = 18
    Case(
        "34_earthly_win_self_drawn",
        "item 34: 不計天聽, 門清, 如自摸則加計不求.自摸2台",
        hand(CONCEALED, heavenly_ready=True, earthly_win=True, self_drawn=True),
        {"earthly_win": 16, "concealed_self_draw": 2},
        18,
    ),
    # discard branch without a prior 天聽 (A7): 地胡 16 = 16
    Case(
        "34_earthly_win_discard_A7",
        "item 34: 或胡各家打出其第一張牌; A7",
        hand(CONCEALED, earthly_win=True),
        {"earthly_win": 16},
        16,
        notes=("A7",),
    ),
    # ---- item 35 人胡 "宣告地聽後 ... 胡各家打出宣告後第一張牌或摸次1張牌自摸 ... 不計地聽, 門清"
    Case(
        "35_human_win",
        "item 35: 不計地聽, 門清",
        hand(CONCEALED, earthly_ready=True, human_win=True),
        {"human_win": 8},
        8,
    ),
    Case(
        "35_human_win_self_drawn",
        "item 35: 如自摸則加計不求.自摸2台",
        hand(CONCEALED, earthly_ready=True, human_win=True, self_drawn=True),
        {"human_win": 8, "concealed_self_draw": 2},
        10,
    ),
    # ---- item 36 嚦咕嚦咕 (選用) "由七個對子與一個刻子組成必須門清. 其中刻子如為有價字牌, 台數加計 ..."
    # 11m 33m 55m 77m 99m 22p 44p + 888s completed by a discard: 嚦咕嚦咕 8 (門清 not counted: it always
    # co-exists); 8 tiles wait (any pair can become the triplet), so no 獨聽 = 8
    Case(
        "36_lugulugu",
        "item 36: 由七個對子與一個刻子組成必須門清",
        hand("1133557799m2244p88s8s"),
        {"lugulugu": 8},
        8,
        options={"lugulugu": True},
    ),
    # pairs of 11 22 33 55 66 88 99m + a Red triplet self-drawn: 嚦咕嚦咕 8 + 箭字坎 1 (有價字牌) + 湊一色 4 +
    # 不求.自摸 2 = 15
    Case(
        "36_lugulugu_honour_flush",
        "item 36: 刻子如為有價字牌, 台數加計. 如符合湊一色 ... 應予加計",
        hand("11223355668899m77z7z", self_drawn=True),
        {"lugulugu": 8, "dragon_pung": 1, "half_flush": 4, "concealed_self_draw": 2},
        15,
        options={"lugulugu": True},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_table(case: Case) -> None:
    result = scoring.score(case.hand, "taiwan16", case.options)
    assert result.winning
    assert {i.id: i.points for i in result.items} == case.items
    assert result.total == case.total == sum(case.items.values())
    if case.payments is not None:
        assert result.payments == case.payments
    for choice in case.notes:
        assert any(n.startswith(choice + ":") for n in result.notes), (choice, result.notes)


def test_every_item_has_a_case() -> None:
    """Every tai item of the table (items 1-36 but 9, 10, 27, 28, which have cases of their own) is checked."""
    from scoring.rules.taiwan16_patterns import PATTERNS

    expected = {i for c in CASES for i in c.items}
    assert {p.id for p in PATTERNS} <= expected
    numbers = {c.id.split("_")[0] for c in CASES}
    assert numbers >= {str(n) for n in range(1, 37)}
