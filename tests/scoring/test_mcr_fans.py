"""One hand per fan of the Chinese Official table (DIGEST §2.4 items 1-81, and the 2006 tournament software's
明暗杠), each scored under the edition named, with every fan it makes and the total worked out in the comment.

Unless a case says otherwise the hand is won on a discard, seat and round wind East, no flowers. Compact form:
the first group is the concealed part with the winning tile, then the declared melds (``[7777z]`` a concealed
kong); 1z-4z are East South West North, 5z 6z 7z White Green Red.
"""

from __future__ import annotations

from typing import Any

import pytest

import scoring
from scoring.rules.mcr_fans import BY_ID, FANS

# (fan checked, DIGEST item, compact hand, winning tile, situation, edition, expected fans {id: count}, total)
CASES: list[tuple[str, str, str, str, dict[str, Any], str, dict[str, int], int]] = [
    # §2.4 #1 大四喜 88 (不计 三风刻 碰碰和 圈风刻 门风刻; its 幺九刻 by 不重复, M2); 9m... 55m pair: one suit
    # + honours = 混一色 6; the 13 tiles wait on 5m only = 单钓将 1. 88 + 6 + 1 = 95
    (
        "big_four_winds",
        "#1",
        "444z55m 111z 222z 333z",
        "5m",
        {},
        "1998",
        {"big_four_winds": 1, "half_flush": 1, "single_wait": 1},
        95,
    ),
    # #2 大三元 88 (不计 箭刻, 双箭刻 by M2); every set and the pair hold a terminal or an honour = 全带幺 4;
    # 12m waits on 3m alone = 边张 1; no bamboo = 缺一门 1. 88 + 4 + 1 + 1 = 94
    (
        "big_three_dragons",
        "#2",
        "123m99p777z 555z 666z",
        "3m",
        {},
        "1998",
        {"big_three_dragons": 1, "outside_hand": 1, "edge_wait": 1, "one_voided_suit": 1},
        94,
    ),
    # #3 绿一色 88 (不计 混一色, M1); 234s twice = 一般高 1; 666s 888s held = 双暗刻 2; no meld, discard =
    # 门前清 2; waits on 6z alone = 单钓将 1. 88 + 1 + 2 + 2 + 1 = 94
    (
        "all_green",
        "#3",
        "223344666888s66z",
        "6z",
        {},
        "1998",
        {"all_green": 1, "pure_double_chow": 1, "two_concealed_pungs": 1, "concealed_hand": 1, "single_wait": 1},
        94,
    ),
    # #4 九莲宝灯 88, the 002 @19735 example 1112345678999m + 5m: 111 234 55 678 999, 111 and 999 held =
    # 双暗刻 2, 幺九刻 2 x 1 (1998 excludes only 清一色; 门前清 无字 缺一门 by 不重复). 88 + 2 + 2 = 92
    (
        "nine_gates",
        "#4",
        "11123455678999m",
        "5m",
        {},
        "1998",
        {"nine_gates": 1, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 2},
        92,
    ),
    # #5 四杠 88 (单钓将 and 碰碰和 by 不重复); 1m 2p 3s pungs = 三色三节高 8; 7777z = 箭刻 2; 1111m = 幺九刻 1.
    # 88 + 8 + 2 + 1 = 99
    (
        "four_kongs",
        "#5",
        "55s 1111m 2222p 3333s [7777z]",
        "5s",
        {},
        "1998",
        {"four_kongs": 1, "mixed_shifted_pungs": 1, "dragon_pung": 1, "pung_of_terminals_or_honors": 1},
        99,
    ),
    # #6 连七对 88 (不计 清一色 不求人 单钓, 七对 门前清 无字 by 不重复); 2-8 only = 断幺 2. 88 + 2 = 90
    (
        "seven_shifted_pairs",
        "#6",
        "22334455667788p",
        "8p",
        {},
        "1998",
        {"seven_shifted_pairs": 1, "all_simples": 1},
        90,
    ),
    # #7 十三幺 88 (不计 五门齐 不求人 单钓; 门前清 by 不重复) = 88
    ("thirteen_orphans", "#7", "19m19p19s12345677z", "7z", {}, "1998", {"thirteen_orphans": 1}, 88),
    # #8 清幺九 64 (不计 碰碰和 同刻 无字; 全带幺 幺九刻 by 不重复): the two 双同刻 (1m 1s, 9s 9p) go; 111s 999s
    # held = 双暗刻 2; waits on 9m alone = 单钓将 1. 64 + 2 + 1 = 67
    (
        "all_terminals",
        "#8",
        "111s999s99m 111m 999p",
        "9m",
        {},
        "1998",
        {"all_terminals": 1, "two_concealed_pungs": 1, "single_wait": 1},
        67,
    ),
    # #9 小四喜 64 (不计 三风刻; 幺九刻 by M2); the East pung, seat and round East = 圈风刻 2 + 门风刻 2; 混一色 6;
    # 123m and the honours = 全带幺 4; 12m waits on 3m alone = 边张 1. 64 + 4 + 6 + 4 + 1 = 79
    (
        "little_four_winds",
        "#9",
        "123m333z44z 111z 222z",
        "3m",
        {},
        "1998",
        {
            "little_four_winds": 1,
            "prevalent_wind": 1,
            "seat_wind": 1,
            "half_flush": 1,
            "outside_hand": 1,
            "edge_wait": 1,
        },
        79,
    ),
    # #10 小三元 64 (不计 箭刻; 双箭刻 by M2); 混一色 6; 全带幺 4; 123p + 789p = 老少副 1; 单钓将 1.
    # 64 + 6 + 4 + 1 + 1 = 76
    (
        "little_three_dragons",
        "#10",
        "123p789p77z 555z 666z",
        "7z",
        {},
        "1998",
        {"little_three_dragons": 1, "half_flush": 1, "outside_hand": 1, "two_terminal_chows": 1, "single_wait": 1},
        76,
    ),
    # #11 字一色 64 (不计 碰碰和; 幺九刻 全带幺 by M2); white + green pungs = 双箭刻 6; East pung = 圈风刻 2 +
    # 门风刻 2; 222z 666z held = 双暗刻 2; 单钓将 1. 64 + 6 + 4 + 2 + 1 = 77
    (
        "all_honors",
        "#11",
        "222z666z44z 111z 555z",
        "4z",
        {},
        "1998",
        {
            "all_honors": 1,
            "two_dragons_pungs": 1,
            "prevalent_wind": 1,
            "seat_wind": 1,
            "two_concealed_pungs": 1,
            "single_wait": 1,
        },
        77,
    ),
    # #12 四暗刻 64 (不计 门前清 碰碰和); 单钓将 1; 111m = 幺九刻 1; 无字 1. 64 + 1 + 1 + 1 = 67
    (
        "four_concealed_pungs",
        "#12",
        "111m333p555s777s99m",
        "9m",
        {},
        "1998",
        {"four_concealed_pungs": 1, "single_wait": 1, "pung_of_terminals_or_honors": 1, "no_honors": 1},
        67,
    ),
    # #13 一色双龙会 64 (不计 平和 七对 清一色; 一般高 老少副 无字 by 不重复); 门前清 2; 单钓将 1 = 67
    (
        "pure_terminal_chows",
        "#13",
        "12312355789789p",
        "5p",
        {},
        "1998",
        {"pure_terminal_chows": 1, "concealed_hand": 1, "single_wait": 1},
        67,
    ),
    # #14 一色四同顺 48 (不计 一色三节高 一般高 四归一) beats 111 222 333 + 123 (51); 平和 2; 缺一门 1; 门前清 2;
    # 单钓将 1. 48 + 2 + 1 + 2 + 1 = 54
    (
        "quadruple_chow",
        "#14",
        "111122223333m55p",
        "5p",
        {},
        "1998",
        {"quadruple_chow": 1, "all_chows": 1, "one_voided_suit": 1, "concealed_hand": 1, "single_wait": 1},
        54,
    ),
    # #15 一色四节高 48 (不计 一色三同顺 碰碰和, M7); 333s 444s held = 双暗刻 2; 单钓将 1; 111s = 幺九刻 1;
    # 缺一门 1; 无字 1. 48 + 2 + 1 + 1 + 1 + 1 = 54
    (
        "four_pure_shifted_pungs",
        "#15",
        "333s444s66m 111s 222s",
        "6m",
        {},
        "1998",
        {
            "four_pure_shifted_pungs": 1,
            "two_concealed_pungs": 1,
            "single_wait": 1,
            "pung_of_terminals_or_honors": 1,
            "one_voided_suit": 1,
            "no_honors": 1,
        },
        54,
    ),
    # #16 一色四步高 32 (不拆移: no 一色三步高 or 连六 inside it); 平和 2; 缺一门 1; 门前清 2; 单钓将 1 = 38
    (
        "four_pure_shifted_chows",
        "#16",
        "123234345456s99m",
        "9m",
        {},
        "1998",
        {"four_pure_shifted_chows": 1, "all_chows": 1, "one_voided_suit": 1, "concealed_hand": 1, "single_wait": 1},
        38,
    ),
    # #17 三杠 32; 1m 2p 3s = 三色三节高 8; 1111m = 幺九刻 1; 单钓将 1; 无字 1. 32 + 8 + 1 + 1 + 1 = 43
    (
        "three_kongs",
        "#17",
        "456s77p 1111m 2222p [3333s]",
        "7p",
        {},
        "1998",
        {
            "three_kongs": 1,
            "mixed_shifted_pungs": 1,
            "pung_of_terminals_or_honors": 1,
            "single_wait": 1,
            "no_honors": 1,
        },
        43,
    ),
    # #18 混一色... 混幺九 32 (不计 碰碰和; 全带幺 幺九刻 by M2); East = 圈风刻 2 + 门风刻 2; 111z 999s held = 双暗刻
    # 2; 单钓将 1; m p s, East, Red = 五门齐 6; 9p 9s = 双同刻 2. 32 + 4 + 2 + 1 + 6 + 2 = 47
    (
        "all_terminals_and_honors",
        "#18",
        "111z999s77z 111m 999p",
        "7z",
        {},
        "1998",
        {
            "all_terminals_and_honors": 1,
            "prevalent_wind": 1,
            "seat_wind": 1,
            "two_concealed_pungs": 1,
            "single_wait": 1,
            "all_types": 1,
            "double_pung": 1,
        },
        47,
    ),
    # #19 七对 24 (不计 不求人 单钓; 门前清 by 不重复); 无字 1 = 25
    ("seven_pairs", "#19", "11335577m2244p66s", "6s", {}, "1998", {"seven_pairs": 1, "no_honors": 1}, 25),
    # #20 七星不靠 24 (不计 五门齐 不求人 单钓; 全不靠 M5) = 24
    (
        "greater_honors_and_knitted_tiles",
        "#20",
        "147m258p3s1234567z",
        "3s",
        {},
        "1998",
        {"greater_honors_and_knitted_tiles": 1},
        24,
    ),
    # #21 全双刻 24 (不计 碰碰和 断幺; 无字 by 不重复); 666s 888s held = 双暗刻 2; 单钓将 1 = 27
    (
        "all_even_pungs",
        "#21",
        "666s888s22s 222m 444p",
        "2s",
        {},
        "1998",
        {"all_even_pungs": 1, "two_concealed_pungs": 1, "single_wait": 1},
        27,
    ),
    # #22 清一色 24 (不计 无字); 999m = 幺九刻 1; 345m + 678m = 连六 1; the hand waits on 2m and 5m, no wait
    # fan. 24 + 1 + 1 = 26
    (
        "full_flush",
        "#22",
        "12334567822m 999m",
        "2m",
        {},
        "1998",
        {"full_flush": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1},
        26,
    ),
    # #23 一色三同顺 24 (不计 一色三节高; 一般高 inside it); 单钓将 1; no characters = 缺一门 1 = 26
    (
        "pure_triple_chow",
        "#23",
        "123p456s77z 123p 123p",
        "7z",
        {},
        "1998",
        {"pure_triple_chow": 1, "single_wait": 1, "one_voided_suit": 1},
        26,
    ),
    # #24 一色三节高 24; 111p = 幺九刻 1; 缺一门 1; 单钓将 1 = 27
    (
        "pure_shifted_pungs",
        "#24",
        "333p789s55z 111p 222p",
        "5z",
        {},
        "1998",
        {"pure_shifted_pungs": 1, "pung_of_terminals_or_honors": 1, "one_voided_suit": 1, "single_wait": 1},
        27,
    ),
    # #25 全大 24 (不计 无字; 大于五 by 不重复); 999m = 幺九刻 1; 7889s waited on 8s alone, which can sit in the
    # pair or inside 789s: a closed wait is preferred to a single one = 坎张 1. 24 + 1 + 1 = 26
    (
        "upper_tiles",
        "#25",
        "789s777p88s 888p 999m",
        "8s",
        {},
        "1998",
        {"upper_tiles": 1, "pung_of_terminals_or_honors": 1, "closed_wait": 1},
        26,
    ),
    # #26 全中 24 (不计 断幺; 无字 by 不重复); 456p + 456s = 喜相逢 1; the hand waits on 4p 6p 7p. 24 + 1 = 25
    ("middle_tiles", "#26", "456p456s666m55p 444m", "4p", {}, "1998", {"middle_tiles": 1, "mixed_double_chow": 1}, 25),
    # #27 全小 24 (不计 无字; 小于五 by 不重复); 111m = 幺九刻 1; the hand waits on 1s and 4s. 24 + 1 = 25
    (
        "lower_tiles",
        "#27",
        "123s333m11s 111m 222p",
        "1s",
        {},
        "1998",
        {"lower_tiles": 1, "pung_of_terminals_or_honors": 1},
        25,
    ),
    # #28 清龙 16; 平和 2; 门前清 2; 单钓将 1 = 21 (the contract's example total)
    (
        "pure_straight",
        "#28",
        "123456789p234s55m",
        "5m",
        {},
        "1998",
        {"pure_straight": 1, "all_chows": 1, "concealed_hand": 1, "single_wait": 1},
        21,
    ),
    # #29 三色双龙会 16 (不计 喜相逢 老少副 无字 平和); 门前清 2; 单钓将 1 = 19
    (
        "three_suited_terminal_chows",
        "#29",
        "123789m123789s55p",
        "5p",
        {},
        "1998",
        {"three_suited_terminal_chows": 1, "concealed_hand": 1, "single_wait": 1},
        19,
    ),
    # #30 一色三步高 16 (the fourth chow 678s adds nothing); 平和 2; 门前清 2; 单钓将 1 = 21
    (
        "pure_shifted_chows",
        "#30",
        "123234345p678s99m",
        "9m",
        {},
        "1998",
        {"pure_shifted_chows": 1, "all_chows": 1, "concealed_hand": 1, "single_wait": 1},
        21,
    ),
    # #31 全带五 16 (不计 断幺; 无字 by 不重复); 单钓将 1 = 17
    ("all_five", "#31", "345567s55p 555m 456p", "5p", {}, "1998", {"all_five": 1, "single_wait": 1}, 17),
    # #32 三同刻 16; 单钓将 1; 断幺 2 (不计 无字). 16 + 1 + 2 = 19
    (
        "triple_pung",
        "#32",
        "222s456m77p 222m 222p",
        "7p",
        {},
        "1998",
        {"triple_pung": 1, "single_wait": 1, "all_simples": 1},
        19,
    ),
    # #33 三暗刻 16; 111m = 幺九刻 1; 单钓将 1; 无字 1 = 19
    (
        "three_concealed_pungs",
        "#33",
        "111m444p777s99p 234m",
        "9p",
        {},
        "1998",
        {"three_concealed_pungs": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1, "no_honors": 1},
        19,
    ),
    # #34 全不靠 12 (不计 五门齐 不求人 单钓; 门前清 by 不重复); 8 number tiles, no whole 组合龙 = 12
    (
        "lesser_honors_and_knitted_tiles",
        "#34",
        "147m258p36s123456z",
        "6z",
        {},
        "1998",
        {"lesser_honors_and_knitted_tiles": 1},
        12,
    ),
    # #35 组合龙 12 (+ set + pair, M5); 门前清 2; waits on 5z alone = 单钓将 1 = 15
    (
        "knitted_straight",
        "#35",
        "147m258p369s123m55z",
        "5z",
        {},
        "1998",
        {"knitted_straight": 1, "concealed_hand": 1, "single_wait": 1},
        15,
    ),
    # #36 大于五 12 (不计 无字); 999s = 幺九刻 1; 单钓将 1 = 14
    (
        "upper_four",
        "#36",
        "678s999s66p 666m 789p",
        "6p",
        {},
        "1998",
        {"upper_four": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1},
        14,
    ),
    # #37 小于五 12 (不计 无字); 111m = 幺九刻 1; 单钓将 1 = 14
    (
        "lower_four",
        "#37",
        "123s444s33p 111m 234p",
        "3p",
        {},
        "1998",
        {"lower_four": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1},
        14,
    ),
    # #38 三风刻 12 (its 幺九刻 by M2/M6); East = 圈风刻 2 + 门风刻 2; 单钓将 1; no bamboo = 缺一门 1 = 18
    (
        "big_three_winds",
        "#38",
        "456m77p 111z 222z 333z",
        "7p",
        {},
        "1998",
        {"big_three_winds": 1, "prevalent_wind": 1, "seat_wind": 1, "single_wait": 1, "one_voided_suit": 1},
        18,
    ),
    # #39 花龙 8; 平和 2; 门前清 2; 单钓将 1 = 13
    (
        "mixed_straight",
        "#39",
        "123m456p789s234s55m",
        "5m",
        {},
        "1998",
        {"mixed_straight": 1, "all_chows": 1, "concealed_hand": 1, "single_wait": 1},
        13,
    ),
    # #40 推不倒 8 (不计 缺一门); 门前清 2; 单钓将 1 = 11
    (
        "reversible_tiles",
        "#40",
        "123p345p456s888s55z",
        "5z",
        {},
        "1998",
        {"reversible_tiles": 1, "concealed_hand": 1, "single_wait": 1},
        11,
    ),
    # #41 三色三同顺 8; the fourth chow 789m with 123m = 老少副 1 (套算一次); 平和 2; 门前清 2; 单钓将 1 = 14
    (
        "mixed_triple_chow",
        "#41",
        "123m123p123s789m55p",
        "5p",
        {},
        "1998",
        {"mixed_triple_chow": 1, "two_terminal_chows": 1, "all_chows": 1, "concealed_hand": 1, "single_wait": 1},
        14,
    ),
    # #42 三色三节高 8; 单钓将 1; 无字 1 = 10
    (
        "mixed_shifted_pungs",
        "#42",
        "444s678m99s 222m 333p",
        "9s",
        {},
        "1998",
        {"mixed_shifted_pungs": 1, "single_wait": 1, "no_honors": 1},
        10,
    ),
    # #43 无番和 8: open, honour pair, three suits, two-sided wait (3s or 6s): no other fan = 8
    ("chicken_hand", "#43", "345s11z 234m 678p 555p", "3s", {}, "1998", {"chicken_hand": 1}, 8),
    # #44 妙手回春 8 (不计 自摸): the same hand self-drawn as the last tile = 8
    (
        "last_tile_draw",
        "#44",
        "345s11z 234m 678p 555p",
        "3s",
        {"self_drawn": True, "last_tile": True},
        "1998",
        {"last_tile_draw": 1},
        8,
    ),
    # #45 海底捞月 8: the same hand won on the last discard = 8
    ("last_tile_claim", "#45", "345s11z 234m 678p 555p", "3s", {"last_tile": True}, "1998", {"last_tile_claim": 1}, 8),
    # #46 杠上开花 8 (不计 自摸); the claimed kong = 明杠 1. 8 + 1 = 9
    (
        "out_with_replacement_tile",
        "#46",
        "345s11z 234m 678p 6666s",
        "3s",
        {"self_drawn": True, "kong_replacement": True},
        "1998",
        {"out_with_replacement_tile": 1, "melded_kong": 1},
        9,
    ),
    # #47 抢杠和 8: the chicken hand won on a robbed kong (no other 3s in the hand) = 8
    (
        "robbing_the_kong",
        "#47",
        "345s11z 234m 678p 555p",
        "3s",
        {"robbing_kong": True},
        "1998",
        {"robbing_the_kong": 1},
        8,
    ),
    # #48 碰碰和 6; 单钓将 1; 无字 1 = 8
    (
        "all_pungs",
        "#48",
        "888m99p 222m 555p 777s",
        "9p",
        {},
        "1998",
        {"all_pungs": 1, "single_wait": 1, "no_honors": 1},
        8,
    ),
    # #49 混一色 6; East = 圈风刻 2 + 门风刻 2; 456m + 789m = 连六 1; 4556789m waited on 5m alone (inside 456m
    # or the pair: closed preferred) = 坎张 1 = 12
    (
        "half_flush",
        "#49",
        "456m789m55m 234m 111z",
        "5m",
        {},
        "1998",
        {"half_flush": 1, "prevalent_wind": 1, "seat_wind": 1, "short_straight": 1, "closed_wait": 1},
        12,
    ),
    # #50 三色三步高 6; 平和 2; 门前清 2; 单钓将 1 = 11
    (
        "mixed_shifted_chows",
        "#50",
        "123m234p345s678m99s",
        "9s",
        {},
        "1998",
        {"mixed_shifted_chows": 1, "all_chows": 1, "concealed_hand": 1, "single_wait": 1},
        11,
    ),
    # #51 五门齐 6; white pung = 箭刻 2; 单钓将 1 = 9
    (
        "all_types",
        "#51",
        "456p789s11z 234m 555z",
        "1z",
        {},
        "1998",
        {"all_types": 1, "dragon_pung": 1, "single_wait": 1},
        9,
    ),
    # #52 全求人 6 (不计 单钓); East = 圈风刻 2 + 门风刻 2 = 10
    (
        "melded_hand",
        "#52",
        "99p 234m 567p 345s 111z",
        "9p",
        {},
        "1998",
        {"melded_hand": 1, "prevalent_wind": 1, "seat_wind": 1},
        10,
    ),
    # #53 双暗杠 6 (暗杠 and 双暗刻 by 不重复); concealed kongs keep 门前清 2; 单钓将 1; 连六 1; 无字 1 = 11
    (
        "two_concealed_kongs",
        "#53",
        "345s678s99m [2222m] [7777p]",
        "9m",
        {},
        "1998",
        {"two_concealed_kongs": 1, "concealed_hand": 1, "single_wait": 1, "short_straight": 1, "no_honors": 1},
        11,
    ),
    # #54 双箭刻 6 (箭刻 by 不重复); 单钓将 1; 连六 1; 缺一门 1 = 9
    (
        "two_dragons_pungs",
        "#54",
        "123m456m99p 555z 666z",
        "9p",
        {},
        "1998",
        {"two_dragons_pungs": 1, "single_wait": 1, "short_straight": 1, "one_voided_suit": 1},
        9,
    ),
    # 2006 tournament software: one melded and one concealed kong = 明暗杠 5 (not 明杠 + 暗杠); 单钓将 1; 连六 1;
    # 无字 1 = 8
    (
        "concealed_kong_and_melded_kong",
        "2006 extra",
        "345s678s99m [2222m] 7777p",
        "9m",
        {},
        "2006",
        {"concealed_kong_and_melded_kong": 1, "single_wait": 1, "short_straight": 1, "no_honors": 1},
        8,
    ),
    # #55 全带幺 4; East = 圈风刻 2 + 门风刻 2; 999p = 幺九刻 1; the hand waits on 6s and 9s = 9
    (
        "outside_hand",
        "#55",
        "789s111z99s 123m 999p",
        "9s",
        {},
        "1998",
        {"outside_hand": 1, "prevalent_wind": 1, "seat_wind": 1, "pung_of_terminals_or_honors": 1},
        9,
    ),
    # #56 不求人 4 (自摸 by M3); 平和 2; 断幺 2; waits on 2s and 5s = 8
    (
        "fully_concealed_hand",
        "#56",
        "234m567p345s678m55s",
        "5s",
        {"self_drawn": True},
        "1998",
        {"fully_concealed_hand": 1, "all_chows": 1, "all_simples": 1},
        8,
    ),
    # #57 双明杠 4 (明杠 by 不重复); red pung = 箭刻 2; 单钓将 1; 自摸 1 = 8
    (
        "two_melded_kongs",
        "#57",
        "345s777z99m 2222m 7777p",
        "9m",
        {"self_drawn": True},
        "1998",
        {"two_melded_kongs": 1, "dragon_pung": 1, "single_wait": 1, "self_drawn": 1},
        8,
    ),
    # #58 和绝张 4; 花龙 8; 平和 2; 门前清 2; waits on 3p and 6p = 16
    (
        "last_tile",
        "#58",
        "123m456p789s234s55m",
        "6p",
        {"fourth_tile": True},
        "1998",
        {"last_tile": 1, "mixed_straight": 1, "all_chows": 1, "concealed_hand": 1},
        16,
    ),
    # #59 箭刻 2; 混一色 6; 234m + 567m = 连六 1; 单钓将 1 = 10
    (
        "dragon_pung",
        "#59",
        "234345567m99m 777z",
        "9m",
        {},
        "1998",
        {"dragon_pung": 1, "half_flush": 1, "short_straight": 1, "single_wait": 1},
        10,
    ),
    # #60 圈风刻 2 (round South, seat East; no 幺九刻 with it, M6); 混一色 6; 连六 1; 单钓将 1 = 10
    (
        "prevalent_wind",
        "#60",
        "234345567m99m 222z",
        "9m",
        {"round_wind": "S"},
        "1998",
        {"prevalent_wind": 1, "half_flush": 1, "short_straight": 1, "single_wait": 1},
        10,
    ),
    # #61 门风刻 2 (seat West, round East); 混一色 6; 连六 1; 单钓将 1 = 10
    (
        "seat_wind",
        "#61",
        "234345567m99m 333z",
        "9m",
        {"seat_wind": "W"},
        "1998",
        {"seat_wind": 1, "half_flush": 1, "short_straight": 1, "single_wait": 1},
        10,
    ),
    # #62 门前清 2; 三色三同顺 8; 平和 2; 断幺 2; waits on 2s and 5s = 14
    (
        "concealed_hand",
        "#62",
        "234m234p234s678m55s",
        "5s",
        {},
        "1998",
        {"concealed_hand": 1, "mixed_triple_chow": 1, "all_chows": 1, "all_simples": 1},
        14,
    ),
    # #63 平和 2 (4 chows, number pair; 无字 by 不重复); 三色三步高 6; 门前清 2; 2345p waits on 2p and 5p, no
    # wait fan = 10
    (
        "all_chows",
        "#63",
        "123m234p345s567m55p",
        "5p",
        {},
        "1998",
        {"all_chows": 1, "mixed_shifted_chows": 1, "concealed_hand": 1},
        10,
    ),
    # #64 四归一 2 (four 1m, no kong); 花龙 8; 111m = 幺九刻 1; 门前清 2; 单钓将 1 = 14
    (
        "tile_hog",
        "#64",
        "111m123m456p789s55z",
        "5z",
        {},
        "1998",
        {"tile_hog": 1, "mixed_straight": 1, "pung_of_terminals_or_honors": 1, "concealed_hand": 1, "single_wait": 1},
        14,
    ),
    # #65 双同刻 2 (2m, 2p); 暗杠 2; 连六 1; 单钓将 1; 断幺 2; 自摸 1 = 9
    (
        "double_pung",
        "#65",
        "345s678s55m 222m [2222p]",
        "5m",
        {"self_drawn": True},
        "1998",
        {
            "double_pung": 1,
            "concealed_kong": 1,
            "short_straight": 1,
            "single_wait": 1,
            "all_simples": 1,
            "self_drawn": 1,
        },
        9,
    ),
    # #66 双暗刻 2; 4p 5s 6m = 三色三节高 8; 单钓将 1; 无字 1 = 12
    (
        "two_concealed_pungs",
        "#66",
        "444p555s99p 123m 666m",
        "9p",
        {},
        "1998",
        {"two_concealed_pungs": 1, "mixed_shifted_pungs": 1, "single_wait": 1, "no_honors": 1},
        12,
    ),
    # #67 暗杠 2; red kong = 箭刻 2; 混一色 6; 123m 456m 789m = 清龙 16; 5m alone, inside 456m = 坎张 1 = 27
    (
        "concealed_kong",
        "#67",
        "456m789m55m [7777z] 123m",
        "5m",
        {},
        "1998",
        {"concealed_kong": 1, "dragon_pung": 1, "half_flush": 1, "pure_straight": 1, "closed_wait": 1},
        27,
    ),
    # #68 断幺 2; 三色三同顺 8; 567m with 234m = 连六 1; 平和 2; 单钓将 1 = 14
    (
        "all_simples",
        "#68",
        "234p234s567m88p 234m",
        "8p",
        {},
        "1998",
        {"all_simples": 1, "mixed_triple_chow": 1, "short_straight": 1, "all_chows": 1, "single_wait": 1},
        14,
    ),
    # #69 一般高 1; the two 234m with 567m make 连六 twice, but 套算一次 allows two patterns among these three
    # chows and 不得相同 drops the repeat: 一般高 1 + 连六 1; 混一色 6; 单钓将 1 = 9
    (
        "pure_double_chow",
        "#69",
        "234234789m11z 567m",
        "1z",
        {},
        "1998",
        {"half_flush": 1, "pure_double_chow": 1, "short_straight": 1, "single_wait": 1},
        9,
    ),
    # #70 喜相逢 1; m p s, East, White = 五门齐 6; East = 圈风刻 2 + 门风刻 2; 单钓将 1 = 12
    (
        "mixed_double_chow",
        "#70",
        "234m234p567s55z 111z",
        "5z",
        {},
        "1998",
        {"mixed_double_chow": 1, "all_types": 1, "prevalent_wind": 1, "seat_wind": 1, "single_wait": 1},
        12,
    ),
    # #71 连六 1; 混一色 6; white pung = 箭刻 2; 单钓将 1 = 10
    (
        "short_straight",
        "#71",
        "123p456p888p11z 555z",
        "1z",
        {},
        "1998",
        {"short_straight": 1, "half_flush": 1, "dragon_pung": 1, "single_wait": 1},
        10,
    ),
    # #72 老少副 1; 混一色 6; 箭刻 2; 单钓将 1 = 10
    (
        "two_terminal_chows",
        "#72",
        "123p789p666p11z 555z",
        "1z",
        {},
        "1998",
        {"two_terminal_chows": 1, "half_flush": 1, "dragon_pung": 1, "single_wait": 1},
        10,
    ),
    # #73 幺九刻 1 (999p); 混一色 6; 连六 1; 单钓将 1 = 9
    (
        "pung_of_terminals_or_honors",
        "#73",
        "123p456p777p11z 999p",
        "1z",
        {},
        "1998",
        {"pung_of_terminals_or_honors": 1, "half_flush": 1, "short_straight": 1, "single_wait": 1},
        9,
    ),
    # #74 明杠 1; 混一色 6; 连六 1; 单钓将 1 = 9
    (
        "melded_kong",
        "#74",
        "123p456p777p11z 8888p",
        "1z",
        {},
        "1998",
        {"melded_kong": 1, "half_flush": 1, "short_straight": 1, "single_wait": 1},
        9,
    ),
    # #75 缺一门 1; 不求人 4; 平和 2; 456p twice = 一般高 1; 单钓将 1 = 9
    (
        "one_voided_suit",
        "#75",
        "123m234m456p456p99m",
        "9m",
        {"self_drawn": True},
        "1998",
        {"one_voided_suit": 1, "fully_concealed_hand": 1, "all_chows": 1, "pure_double_chow": 1, "single_wait": 1},
        9,
    ),
    # #76 无字 1; 清龙 16; 单钓将 1 = 18
    (
        "no_honors",
        "#76",
        "333p99s 123m 456m 789m",
        "9s",
        {},
        "1998",
        {"no_honors": 1, "pure_straight": 1, "single_wait": 1},
        18,
    ),
    # #77 边张 1 (12m waits on 3m alone); 双箭刻 6; 全带幺 4; 自摸 1 = 12
    (
        "edge_wait",
        "#77",
        "123m789p99s 555z 666z",
        "3m",
        {"self_drawn": True},
        "1998",
        {"edge_wait": 1, "two_dragons_pungs": 1, "outside_hand": 1, "self_drawn": 1},
        12,
    ),
    # #78 坎张 1 (13m waits on 2m alone); 双箭刻 6; 全带幺 4; 自摸 1 = 12
    (
        "closed_wait",
        "#78",
        "123m789p99s 555z 666z",
        "2m",
        {"self_drawn": True},
        "1998",
        {"closed_wait": 1, "two_dragons_pungs": 1, "outside_hand": 1, "self_drawn": 1},
        12,
    ),
    # #79 单钓将 1 (9s alone); 双箭刻 6; 全带幺 4; 自摸 1 = 12
    (
        "single_wait",
        "#79",
        "123m789p99s 555z 666z",
        "9s",
        {"self_drawn": True},
        "1998",
        {"single_wait": 1, "two_dragons_pungs": 1, "outside_hand": 1, "self_drawn": 1},
        12,
    ),
    # #80 自摸 1; 三风刻 12; 圈风刻 2 + 门风刻 2; 单钓将 1; 缺一门 1 = 19
    (
        "self_drawn",
        "#80",
        "456m77p 111z 222z 333z",
        "7p",
        {"self_drawn": True},
        "1998",
        {
            "self_drawn": 1,
            "big_three_winds": 1,
            "prevalent_wind": 1,
            "seat_wind": 1,
            "single_wait": 1,
            "one_voided_suit": 1,
        },
        19,
    ),
    # #81 花牌 1 each, after the win: the #28 hand (21) with two flowers = 23
    (
        "flower_tiles",
        "#81",
        "123456789p234s55m",
        "5m",
        {"flowers": ["1f", "5f"]},
        "1998",
        {"pure_straight": 1, "all_chows": 1, "concealed_hand": 1, "single_wait": 1, "flower_tiles": 2},
        23,
    ),
]


def mcr(compact: str, win: str | None = None, edition: str = "1998", **situation: Any) -> scoring.Score:
    """Score a compact hand under MCR with the situation fields given."""
    hand = scoring.parse_compact(compact, win)
    for field, value in situation.items():
        setattr(hand, field, value)
    return scoring.score(hand, "mcr", {"edition": edition})


def fans(result: scoring.Score) -> dict[str, int]:
    return {item.id: item.count for item in result.items}


@pytest.mark.parametrize(
    ("fan", "item", "compact", "win", "situation", "edition", "expected", "total"), CASES, ids=[c[0] for c in CASES]
)
def test_fan_table(
    fan: str,
    item: str,
    compact: str,
    win: str,
    situation: dict[str, Any],
    edition: str,
    expected: dict[str, int],
    total: int,
) -> None:
    assert fan in expected
    assert total == sum(BY_ID[f].value * n for f, n in expected.items()), "the worked-out total is inconsistent"
    result = mcr(compact, win, edition, **situation)
    assert fans(result) == expected
    assert result.total == total
    assert result.winning == (total - expected.get("flower_tiles", 0) >= 8)


def test_every_fan_has_a_case() -> None:
    # 81 fans of DIGEST §2.4 plus the tournament software's 明暗杠
    assert len(FANS) == 82
    assert {f.id for f in FANS} <= {c[0] for c in CASES}
    assert len({f.number for f in FANS}) == 82
