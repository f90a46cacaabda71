"""The 5-fan-minimum club rules 麻将比赛规则 (DIGEST §10, source 002 @14154-15178): one hand per listed item, each
doubling, the minimum and its penalty, the dealer's double payments and the options, the total worked out in
the comment.

Unless a case says otherwise the winner is not the dealer, wins on a discard, and ``three_times=payers``: each of
the other three pays the fan, the dealer double (rules 7, 9). So a win of F fan pays ``dealer`` 2F and
``each_non_dealer`` F, 4F in all. P0 holds none of the listed items.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

import scoring
from scoring import HandError, parse_compact
from scoring.rules.club5 import PATTERNS, RULESET


def hand(text: str, win: str | None = None, **fields: Any) -> dict[str, Any]:
    out = parse_compact(text, win).to_json()
    out.update(fields)
    return out


P0 = "123m456p789s234m55z"
FLUSH = "123m234m456m678m99m"  # 清一色 30 and nothing else listed


def paid(fan: int) -> dict[str, int]:
    """A non-dealer's win, every payer paying (three_times=payers): the dealer double."""
    return {"dealer": 2 * fan, "each_non_dealer": fan, "winner_receives": 4 * fan}


@dataclass
class Case:
    id: str
    cite: str
    hand: dict[str, Any]
    items: dict[str, int]
    total: int
    payments: dict[str, int]
    options: dict[str, Any] = field(default_factory=dict)


CASES = [
    # ---- the 40-fan items ("以下定为四十番（有其他番另加）")
    # 天胡 40, the dealer's self-drawn hand: x2 for 自摸 (rule 8) = 80; the dealer won: each of the three pays
    # double (rule 7): 160 each, 480 in all
    Case(
        "heavenly_win",
        "@14973 天胡; rule 7 dealer paid double; rule 8 自摸加倍",
        hand(P0, dealer=True, self_drawn=True, heavenly_win=True),
        {"heavenly_win": 40},
        80,
        {"each_other": 160, "winner_receives": 480},
    ),
    # 地胡 40 on the dealer's first discard: 40; the dealer pays 80, the others 40
    Case("earthly_win", "@14996 地胡", hand(P0, earthly_win=True), {"earthly_win": 40}, 40, paid(40)),
    Case("thirteen_orphans", "@15013 十三么", hand("19m19p19s1234567z1m"), {"thirteen_orphans": 40}, 40, paid(40)),
    # 大四喜 40: four wind pungs and 55m (not all honours: no 全字) = 40
    Case("big_four_winds", "@15032 大四喜", hand("111z222z333z444z55m"), {"big_four_winds": 40}, 40, paid(40)),
    # 全字 40 as 四碰和将: two wind and two dragon pungs, a 中 pair (no 三元, no 四喜) = 40
    Case("all_honours_pungs", "@15053 全字 四碰和将", hand("111z222z555z666z77z"), {"all_honours": 40}, 40, paid(40)),
    # 全字 40 as 七对 = 40
    Case("all_honours_pairs", "@15053 全字 七对胡牌", hand("11223344556677z"), {"all_honours": 40}, 40, paid(40)),
    # "有其他番另加": 大四喜 40 + 全字 40 (an honour pair) = 80
    Case(
        "items_add_up",
        "@14936 有其他番另加",
        hand("111z222z333z444z55z"),
        {"big_four_winds": 40, "all_honours": 40},
        80,
        paid(80),
    ),
    # ---- the 30-fan items
    Case("full_flush", "@15097 清一色", hand(FLUSH), {"full_flush": 30}, 30, paid(30)),
    # 大三元 30: three dragon pungs + 234m 88p = 30
    Case("big_three_dragons", "@15104 大三元", hand("555z666z777z234m88p"), {"big_three_dragons": 30}, 30, paid(30)),
    # 小四喜 30: three wind pungs and a wind pair + 234m = 30
    Case("little_four_winds", "@15122 小四喜", hand("111z222z333z234m44z"), {"little_four_winds": 30}, 30, paid(30)),
    # 大七对 30: seven pairs with four 1m = 30
    Case("big_seven_pairs", "@15150 大七对", hand("1111m3344p5566s77s"), {"big_seven_pairs": 30}, 30, paid(30)),
    # 清一色 30 + 大七对 30: one suit, four 1m among seven pairs = 60
    Case(
        "flush_big_seven_pairs",
        "@15097, @15150 有其他番另加",
        hand("1111m2233m5566m77m"),
        {"full_flush": 30, "big_seven_pairs": 30},
        60,
        paid(60),
    ),
    # 么九对子胡 30 (terminal_pungs=terminals): pungs of 1 and 9 in three suits and a 9s pair = 30
    Case("terminal_pungs", "@15169 么、九对子胡", hand("111m999p111s999m99s"), {"terminal_pungs": 30}, 30, paid(30)),
    # terminal_pungs=with_honours: an East pung among them = 30
    Case(
        "terminal_pungs_honours",
        "@15169; option terminal_pungs=with_honours",
        hand("111m999p111s111z99s"),
        {"terminal_pungs": 30},
        30,
        paid(30),
        {"terminal_pungs": "with_honours"},
    ),
    # ---- doublings (rule 8 "自摸加倍算番 … 杠上花、枪杠、海底捞月胡牌也加倍算番")
    # 清一色 self-drawn: 30 x2 = 60
    Case("self_draw", "@14611 自摸加倍算番", hand(FLUSH, self_drawn=True), {"full_flush": 30}, 60, paid(60)),
    # 杠上花 with a concealed kong: 自摸 and 杠上花 both double (stack_doublings=true): 30 x4 = 120
    Case(
        "kong_replacement",
        "@14611 杠上花 也加倍",
        hand("234m456m678m99m [1111m]", self_drawn=True, kong_replacement=True),
        {"full_flush": 30},
        120,
        paid(120),
    ),
    # stack_doublings=false: one doubling at most: 30 x2 = 60
    Case(
        "kong_replacement_one_doubling",
        "option stack_doublings=false",
        hand("234m456m678m99m [1111m]", self_drawn=True, kong_replacement=True),
        {"full_flush": 30},
        60,
        paid(60),
        {"stack_doublings": False},
    ),
    # 抢杠 (on another's tile): 30 x2 = 60
    Case("robbing_kong", "@14611 枪杠 也加倍", hand(FLUSH, robbing_kong=True), {"full_flush": 30}, 60, paid(60)),
    # 海底捞月, drawn: 自摸 and 海底捞月: 30 x4 = 120
    Case(
        "last_tile_draw",
        "@14611 海底捞月 也加倍",
        hand(FLUSH, self_drawn=True, last_tile=True),
        {"full_flush": 30},
        120,
        paid(120),
    ),
    # the last tile's discard is no 海底捞月: 30
    Case("last_tile_discard", "@14611 海底捞月 (drawn)", hand(FLUSH, last_tile=True), {"full_flush": 30}, 30, paid(30)),
    # ---- payments
    # the dealer wins 清一色 on a discard: every payer pays double (rule 7 按番数加倍付): 60 each, 180
    Case(
        "dealer_wins",
        "@14571 庄家胡牌 … 按番数加倍付",
        hand(FLUSH, dealer=True),
        {"full_flush": 30},
        30,
        {"each_other": 60, "winner_receives": 180},
    ),
    # three_times=doublings: a discard is paid by the discarder alone; the dealer's win: 60 from the discarder
    Case(
        "dealer_wins_discarder_pays",
        "option three_times=doublings",
        hand(FLUSH, dealer=True),
        {"full_flush": 30},
        30,
        {"discarder": 60, "winner_receives": 60},
        {"three_times": "doublings"},
    ),
    # a non-dealer's discard win under three_times=doublings: 30 from the discarder, 60 if he is the dealer
    Case(
        "discarder_pays",
        "option three_times=doublings; rule 7 庄家也加倍付给胡牌人",
        hand(FLUSH),
        {"full_flush": 30},
        30,
        {"discarder": 30, "discarder_if_dealer": 60},
        {"three_times": "doublings"},
    ),
    # a self-draw is paid by all three in either reading: 60, the dealer 120
    Case(
        "self_draw_all_pay",
        "option three_times=doublings, self-drawn",
        hand(FLUSH, self_drawn=True),
        {"full_flush": 30},
        60,
        paid(60),
        {"three_times": "doublings"},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_table(case: Case) -> None:
    result = scoring.score(case.hand, "club5", case.options)
    assert result.winning
    assert {i.id: i.points for i in result.items} == case.items
    assert result.total == case.total
    assert result.extra["fan_before_doubling"] == sum(case.items.values())
    assert result.payments == case.payments


def test_every_item_has_a_case() -> None:
    assert {p.id for p in PATTERNS} <= {i for c in CASES for i in c.items}


@pytest.mark.parametrize(
    ("text", "options", "total", "words"),
    [
        # rule 2 "五番才能胡牌": P0 holds no listed item: 0 fan, no win; the lower items are lost, the note says
        (P0, {}, 0, "lost"),
        # plain seven pairs: its value was in the lost part: 0, no win
        ("1122m3344p5566s77s", {}, 0, "lost"),
        # option minimum=40: 清一色 30 is not enough
        (FLUSH, {"minimum": 40}, 30, "under the 40-fan minimum"),
        # a wrong win (胡错牌): no shape at all
        ("123m456p789s23m457z", {}, 0, "胡错牌"),
    ],
)
def test_under_the_minimum_pays_the_penalty(text: str, options: dict[str, Any], total: int, words: str) -> None:
    # "不足五番胡牌，要付给其他三家各十分，胡错牌还要付给其他三家各十分": 10 to each of the other three
    result = scoring.score(hand(text), "club5", options)
    assert not result.winning and result.total == total
    assert result.payments == {"penalty_to_each_other": 10}
    assert any(words in n for n in result.notes), result.notes


def test_penalty_option() -> None:
    assert scoring.score(hand(P0), "club5", {"penalty": 20}).payments == {"penalty_to_each_other": 20}


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"flowers": ["1f"]}, "取消花和白搭"),  # §10.2: no flowers
        ({"heavenly_win": True, "self_drawn": True}, "dealer"),  # 天胡 is the dealer's
        ({"robbing_kong": True, "self_drawn": True}, "not a self-draw"),  # 抢杠 is on another's tile
    ],
)
def test_refusals(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(HandError) as err:
        scoring.score(hand(FLUSH, **fields), "club5")
    assert err.value.code == "not_allowed" and words in err.value.message


def test_card_names_every_item_and_option() -> None:
    card = RULESET.card()
    for p in PATTERNS:
        assert f"`{p.id}`" in card and p.name_zh in card, p.id
    for o in RULESET.options:
        assert f"`{o.name}`" in card
