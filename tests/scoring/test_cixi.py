"""Cixi (慈溪麻将): the wild tile 龙 of DIGEST §6.2 (source 001 @2189-2359) and the common fan table of the rule
card (scoring/docs/cixi.md), one case per item, option and refusal.

Unless a case says otherwise the indicator is 4z (北), so the wild tile is 1z (东: "若是北风，则东风为龙"), the
winner sits West in the South round, is not the dealer, and wins on a discard. ``items`` lists every item
expected (id: fan), nothing more; payments are base 1 + fan per payer (card, Payments).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import scoring
from scoring import HandError, parse_compact
from scoring.rules.cixi import PATTERNS, RULESET, wild_kind
from scoring.tiles import kind


def hand(text: str, win: str | None = None, indicator: str | None = "4z", **fields: Any) -> dict[str, Any]:
    """A hand JSON from the compact form with the default situation of this table."""
    out = parse_compact(text, win).to_json()
    out.update({"seat_wind": "W", "round_wind": "S", **fields})
    if indicator is not None:
        out["wild_indicator"] = indicator
    return out


# 14 tiles with no East (no wild under the default indicator): 123m 456m 789p 234s 55s
PLAIN = "123m456m789p234s55s"


@dataclass
class Case:
    id: str
    cite: str
    hand: dict[str, Any]
    items: dict[str, int]
    total: int
    options: dict[str, Any] = field(default_factory=dict)
    stands_for: list[str] | None = None
    payments: dict[str, int] | None = None
    held: int | None = None  # wilds held, the winning tile included when it is one


CASES = [
    # ---- the wild tile (source §6.2 "可以当任何牌")
    # 13m + the wild 1z as 2m: 123m 456m 789p 234s 55s; concealed 1; a wild was used, so no 无百搭: 1.
    # Discard: the discarder pays base 1 + 1 = 2
    Case(
        "wild_fills_a_chow",
        "§6.2 龙 可以当任何牌",
        hand("13m456m789p234s1z55s"),
        {"concealed_hand": 1},
        1,
        stands_for=["2m"],
        payments={"discarder": 2, "winner_receives": 2},
    ),
    # no East held: no wild, 无百搭 1 + 门清 1 = 2
    Case("no_wild", "card: 无百搭", hand(PLAIN), {"no_wild": 1, "concealed_hand": 1}, 2, stands_for=[]),
    # indicator 7z (红中) makes 6z (发财) wild (例3 "红中则发财为龙"); the pair 66z: the concealed 6z is a wild
    # standing as itself, the winning 6z from a discard is its face (discarded_wild=face). wild_as_itself=natural:
    # no substitute, so 无百搭 1 + 门清 1 = 2
    Case(
        "wild_as_itself_natural",
        "§6.2 例3; card option wild_as_itself=natural",
        hand("123m456m789p234s66z", indicator="7z"),
        {"no_wild": 1, "concealed_hand": 1},
        2,
        stands_for=["6z"],
    ),
    # the same with wild_as_itself=wild: the wilds are used (any pair is as good), 门清 1 only
    Case(
        "wild_as_itself_wild",
        "card option wild_as_itself=wild",
        hand("123m456m789p234s66z", indicator="7z"),
        {"concealed_hand": 1},
        1,
        options={"wild_as_itself": "wild"},
    ),
    # 123m 456m 789m 234m + 5m and the wild 1z as a second 5m (won on 4m): the best reading is all characters:
    # 清一色 4 + 门清 1 = 5
    Case(
        "best_reading_full_flush",
        "§6.2; card: the reading worth the most; 清一色",
        hand("123m456m789m234m5m1z", win="4m"),
        {"full_flush": 4, "concealed_hand": 1},
        5,
        stands_for=["5m"],
    ),
    # the same tiles won on the 1z itself, self-drawn: a drawn wild is a wild, as 5m: 清一色 4 + 门清 1 + 自摸 1
    # = 6; self-draw: each of the other three pays 1 + 6 = 7
    Case(
        "self_drawn_wild",
        "card: a self-drawn wild is always a wild",
        hand("123m456m789m234m5m1z", win="1z", self_drawn=True),
        {"full_flush": 4, "concealed_hand": 1, "self_draw": 1},
        6,
        stands_for=["5m"],
        payments={"each_other": 7, "winner_receives": 21},
        held=1,
    ),
    # won on a discarded 1z with discarded_wild=wild: still a wild, 清一色 4 + 门清 1 = 5
    Case(
        "discarded_wild_as_wild",
        "card option discarded_wild=wild",
        hand("123m456m789m234m5m1z", win="1z"),
        {"full_flush": 4, "concealed_hand": 1},
        5,
        options={"discarded_wild": "wild"},
    ),
    # 4 wilds (1z x4) with 111m 222m 333m 5m, won on 5m: one wild pairs the 5m, three make a characters pung:
    # 清一色 4 + 碰碰胡 2 + 门清 1 = 7 (reading 123m x3 + a chow of wilds would lose 碰碰胡; as four East the
    # hand is 混一色 2 + 碰碰胡 2 + 门清 1 = 5 and still needs a wild for the pair)
    Case(
        "four_wilds",
        "§6.2: all four copies of the wild kind are wild; card: best reading",
        hand("111m222m333m1z1z1z1z5m", win="5m"),
        {"full_flush": 4, "all_pungs": 2, "concealed_hand": 1},
        7,
        held=4,
    ),
    # option fan_full_flush=6: 6 + 1 = 7
    Case(
        "fan_option",
        "card: every value an option (fan_full_flush)",
        hand("123m456m789m234m5m1z", win="4m"),
        {"full_flush": 6, "concealed_hand": 1},
        7,
        options={"fan_full_flush": 6},
    ),
    # ---- the shapes
    # 11 22m 33 44p 55 66s 7z + the wild as 7z, won on 7z: 七对 2 (门清 not added: always with it)
    Case(
        "seven_pairs_wild",
        "card: seven pairs, a wild completing a pair",
        hand("1122m3344p5566s1z7z", win="7z"),
        {"seven_pairs": 2},
        2,
        stands_for=["7z"],
    ),
    # 111m 222p 333s 555z + 4z and the wild as a second 4z: 碰碰胡 2 + 箭刻 (白) 1 + 门清 1 = 4
    Case(
        "all_pungs",
        "card: 碰碰胡, 箭刻",
        hand("111m222p333s555z1z4z", win="4z"),
        {"all_pungs": 2, "dragon_pung": 1, "concealed_hand": 1},
        4,
    ),
    # 123m 456m 789m 222z (South, the round wind) + 5z and the wild as a second 5z: 混一色 2 + 圈风刻 1 + 门清 1 = 4
    Case(
        "half_flush",
        "card: 混一色, 圈风刻",
        hand("123m456m789m222z1z5z", win="5z"),
        {"half_flush": 2, "round_wind_pung": 1, "concealed_hand": 1},
        4,
    ),
    # 222z 333z 555z 666z + 7z and the wild as a second 7z: 字一色 8 (碰碰胡 not counted with it) + 圈风刻 (2z) 1
    # + 门风刻 (3z, seat West) 1 + 箭刻 x2 (5z, 6z) 2 + 门清 1 = 13
    Case(
        "all_honours",
        "card: 字一色 (not with 碰碰胡), 门风刻, 圈风刻, 箭刻",
        hand("222z333z555z666z1z7z", win="7z"),
        {"all_honours": 8, "round_wind_pung": 1, "seat_wind_pung": 1, "dragon_pung": 2, "concealed_hand": 1},
        13,
    ),
    # ---- the situation items, on the wild-free PLAIN hand (无百搭 1 + 门清 1 unless excluded)
    # 天胡: 8 + 无百搭 1; 自摸 and 门清 are not counted with it = 9
    Case(
        "heavenly_win",
        "card: 天胡 (not with 自摸, 门清)",
        hand(PLAIN, self_drawn=True, dealer=True, heavenly_win=True),
        {"heavenly_win": 8, "no_wild": 1},
        9,
    ),
    # 地胡: 8 + 无百搭 1; 门清 not counted with it = 9
    Case(
        "earthly_win", "card: 地胡 (not with 门清)", hand(PLAIN, earthly_win=True), {"earthly_win": 8, "no_wild": 1}, 9
    ),
    # 杠上开花 with a concealed kong of 1m: 门清 1 + 自摸 1 + 杠上开花 1 + 无百搭 1 = 4
    Case(
        "kong_replacement",
        "card: 杠上开花",
        hand("456m789p234s55s [1111m]", self_drawn=True, kong_replacement=True),
        {"kong_replacement_win": 1, "self_draw": 1, "concealed_hand": 1, "no_wild": 1},
        4,
    ),
    # 海底捞月 drawn: 门清 1 + 自摸 1 + 海底捞月 1 + 无百搭 1 = 4
    Case(
        "last_tile_draw",
        "card: 海底捞月",
        hand(PLAIN, self_drawn=True, last_tile=True),
        {"last_tile_draw": 1, "self_draw": 1, "concealed_hand": 1, "no_wild": 1},
        4,
    ),
    # the last tile's discard is no 海底捞月: 2
    Case(
        "last_discard", "card: 海底捞月 is drawn", hand(PLAIN, last_tile=True), {"no_wild": 1, "concealed_hand": 1}, 2
    ),
    # 抢杠: 1 + 门清 1 + 无百搭 1 = 3
    Case(
        "robbing_kong",
        "card: 抢杠",
        hand(PLAIN, robbing_kong=True),
        {"robbing_kong": 1, "concealed_hand": 1, "no_wild": 1},
        3,
    ),
    # an open chow: no 门清: 无百搭 1
    Case("open_hand", "card: 门清 needs no claimed meld", hand("456m789p234s55s 123m"), {"no_wild": 1}, 1),
    # 333z (West, the seat) and 222z (South, the round): 门风刻 1 + 圈风刻 1 + 门清 1 + 无百搭 1 = 4
    Case(
        "wind_pungs",
        "card: 门风刻, 圈风刻",
        hand("333z222z456m789p55s"),
        {"seat_wind_pung": 1, "round_wind_pung": 1, "concealed_hand": 1, "no_wild": 1},
        4,
    ),
    # base 5: the discarder pays 5 + 2 = 7
    Case(
        "base_option",
        "card: payments base + fan",
        hand(PLAIN),
        {"no_wild": 1, "concealed_hand": 1},
        2,
        options={"base": 5},
        payments={"discarder": 7, "winner_receives": 7},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_table(case: Case) -> None:
    result = scoring.score(case.hand, "cixi", case.options)
    assert result.winning
    assert {i.id: i.points for i in result.items} == case.items
    assert result.total == case.total == sum(case.items.values())
    if case.stands_for is not None:
        assert result.extra["wild"]["stands_for"] == case.stands_for
    if case.payments is not None:
        assert result.payments == case.payments
    if case.held is not None:
        assert result.extra["wild"]["held"] == case.held


def test_every_item_has_a_case() -> None:
    assert {p.id for p in PATTERNS} <= {i for c in CASES for i in c.items}


@pytest.mark.parametrize(
    ("indicator", "wild"),
    [
        ("1m", "2m"),  # 例1 "如翻出的牌为1万，则2万为龙"
        ("9m", "1m"),  # 例1 "若是九万，则1万为龙（一到九万循环排列）"
        ("9p", "1p"),  # the same cycle in every suit
        ("5s", "6s"),
        ("1z", "2z"),  # 例2 "如翻出的牌为东风，则南风为龙"
        ("3z", "4z"),
        ("4z", "1z"),  # 例2 "若是北风，则东风为龙"
        ("7z", "6z"),  # 例3 "如翻出的牌为红中，则发财为龙"
        ("6z", "5z"),  # 例3 cycle 红中 发财 白板
        ("5z", "7z"),  # 例3 "若是白班，则红中为龙"
    ],
)
def test_wild_cycles(indicator: str, wild: str) -> None:
    """§6.2: the next tile in sequence is wild; the dragons go 中 -> 发 -> 白 -> 中 (not the riichi order)."""
    assert wild_kind(kind(indicator)) == kind(wild)
    result = scoring.score(hand(PLAIN, indicator=indicator), "cixi")
    assert result.extra["wild"]["tile"] == wild and result.extra["wild"]["indicator"] == indicator


def test_the_dragon_cycle_is_not_the_dora_cycle() -> None:
    # 白板 (5z) shown: 中 (7z) is wild in Cixi; the riichi dora of 5z would be 6z. The hand's 7z is wild and pairs 5s
    result = scoring.score(hand("123m456m789p234s7z5s", indicator="5z"), "cixi")
    assert result.winning and result.extra["wild"]["stands_for"] == ["5s"]


def test_not_a_win_even_with_wilds() -> None:
    # won on a discarded 1z with discarded_wild=face (default): it is an East, so 5m and 1z are two singles
    result = scoring.score(hand("123m456m789m234m5m1z", win="1z"), "cixi")
    assert not result.winning and result.total == 0 and result.payments == {}
    assert any("its face" in n for n in result.notes) and result.extra["wild"]["held"] == 0
    # seven pairs switched off (seven_pairs=false): the 七对 hand above does not win
    off = scoring.score(hand("1122m3344p5566s1z7z", win="7z"), "cixi", {"seven_pairs": False})
    assert not off.winning and "seven pairs" not in off.notes[-1]


@pytest.mark.parametrize(
    ("fields", "options", "code", "words"),
    [
        # §6.2: 136 tiles, no flowers: a flower cannot be the indicator
        ({"wild_indicator": "3f"}, {}, "not_allowed", "is a flower"),
        # the indicator is an input the scorer cannot do without
        ({"wild_indicator": None}, {}, "bad_field", "needs wild_indicator"),
        # §6.2: no flowers in the set
        ({"flowers": ["1f"]}, {}, "not_allowed", "without flowers"),
        # indicator_in_play=false: the turned-up 9s is out of play, so four 9s cannot be held
        (
            {"wild_indicator": "9s", "concealed": ["9s"] * 4 + ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p"]},
            {"indicator_in_play": False},
            "too_many_copies",
            "out of play",
        ),
        # card, situation checks: 天胡 is the dealer's
        ({"heavenly_win": True, "self_drawn": True}, {}, "not_allowed", "dealer"),
        # 杠上开花 needs a kong
        ({"kong_replacement": True, "self_drawn": True}, {}, "not_allowed", "no kong"),
    ],
)
def test_refusals(fields: dict[str, Any], options: dict[str, Any], code: str, words: str) -> None:
    with pytest.raises(HandError) as err:
        scoring.score({**hand(PLAIN), **fields}, "cixi", options)
    assert err.value.code == code and words in err.value.message


def test_four_indicator_copies_are_fine_while_it_stays_in_play() -> None:
    # indicator_in_play=true (default): 9999s with 9s shown is a possible hand (here not a winning one)
    h = {
        **hand(PLAIN),
        "wild_indicator": "9s",
        "concealed": ["9s"] * 4 + ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p"],
    }
    assert scoring.score(h, "cixi").rules == "cixi"


def test_card_names_every_item_and_option() -> None:
    card = (Path(scoring.__file__).parent / "docs" / "cixi.md").read_text(encoding="utf-8")
    assert card == RULESET.card()
    for p in PATTERNS:
        assert f"`{p.id}`" in card, p.id
    for o in RULESET.options:
        assert f"`{o.name}`" in card or o.name.startswith("fan_"), o.name
        assert o.origin in ("source", "common practice")
