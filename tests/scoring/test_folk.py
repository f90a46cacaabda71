"""The folk fan table 常用麻将算番规则表 (DIGEST §10b, source 003 @15015-15736): one hand per listed item, per
exclusion and per option, with the total worked out in the comment.

Unless a case says otherwise the winner is not the dealer and wins on a discard. ``items`` lists every item
expected (id: fan), nothing more. P0 is a hand holding none of the listed items (four chows in three suits and a
白 pair: no wind, so no 五门齐), scored 穷胡 7.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

import scoring
from scoring import HandError, parse_compact
from scoring.rules.folk import PATTERNS, PLAIN_WIN, RULESET


def hand(text: str, win: str | None = None, **fields: Any) -> dict[str, Any]:
    out = parse_compact(text, win).to_json()
    out.update(fields)
    return out


P0 = "123m456p789s234m55z"


@dataclass
class Case:
    id: str
    cite: str
    hand: dict[str, Any]
    items: dict[str, int]
    options: dict[str, Any] = field(default_factory=dict)


CASES = [
    # 天胡 30 "庄家起牌即胡 … 不算不求人": the dealer's self-drawn P0; 不求人 7 not counted = 30
    Case(
        "heavenly_win",
        "@15038 天胡30 不算不求人",
        hand(P0, dealer=True, self_drawn=True, heavenly_win=True),
        {"heavenly_win": 30},
    ),
    # 地胡 30 "庄打一张非庄即胡": P0 on the dealer's first discard = 30
    Case("earthly_win", "@15063 地胡30", hand(P0, earthly_win=True), {"earthly_win": 30}),
    # 十三幺 30: one of each orphan and a second 1m = 30
    Case("thirteen_orphans", "@15089 十三幺30", hand("19m19p19s1234567z1m"), {"thirteen_orphans": 30}),
    # 全风七对 30 + 七对 10 (the table does not exclude 七对; option implied=count) = 40; 全带幺 not counted
    Case(
        "all_honour_pairs",
        "@15128 全风七对30 不算…全带幺; @15423 七对10",
        hand("11223344556677z"),
        {"all_honour_pairs": 30, "seven_pairs": 10},
    ),
    # implied=drop: 七对 is always inside 全风七对, not counted again = 30
    Case(
        "all_honour_pairs_drop",
        "@15128; option implied=drop",
        hand("11223344556677z"),
        {"all_honour_pairs": 30},
        {"implied": "drop"},
    ),
    # self-drawn 全风七对: 不求人 not counted with it ("不算不求人") = 30 + 10 = 40
    Case(
        "all_honour_pairs_self_drawn",
        "@15128 不算不求人",
        hand("11223344556677z", self_drawn=True),
        {"all_honour_pairs": 30, "seven_pairs": 10},
    ),
    # 全风对对胡 25 + 对对胡 7 (not excluded) + 全幺九 5 (全带幺 with every set a pung: honours count, "加箭、风")
    # = 37; one dragon pung and a 发 pair: no 三元
    Case(
        "all_honour_pungs",
        "@15162 全风对对胡25; @15561 对对胡7; @15699 全幺九",
        hand("111z222z333z555z66z"),
        {"all_honour_pungs": 25, "all_pungs": 7, "terminal_pungs": 5},
    ),
    # implied=drop: 对对胡 not counted again = 25 + 5 = 30
    Case(
        "all_honour_pungs_drop",
        "@15162; option implied=drop",
        hand("111z222z333z555z66z"),
        {"all_honour_pungs": 25, "terminal_pungs": 5},
        {"implied": "drop"},
    ),
    # 扣听 25: a non-dealer declared ready at the dealer's first discard (heavenly_ready) = 25 (no 穷胡: an item)
    Case(
        "kou_ting_non_dealer",
        "@15197 庄打一张时非庄未胡报听",
        hand(P0, heavenly_ready=True),
        {"declared_ready_first": 25},
    ),
    # the dealer declared ready with his first discard (dealer + earthly_ready) = 25
    Case(
        "kou_ting_dealer",
        "@15197 庄打一张报听",
        hand(P0, dealer=True, earthly_ready=True),
        {"declared_ready_first": 25},
    ),
    # a non-dealer ready only on his own first discard is no 扣听: 穷胡 7
    Case("kou_ting_too_late", "@15197 (timing)", hand(P0, earthly_ready=True), {"plain_win": 7}),
    # 大四喜 25 "不算对对胡。全风、混一色另加番": four wind pungs + 55m: 25 + 混一色 8 = 33 (对对胡 dropped)
    Case(
        "big_four_winds",
        "@15234 大四喜25 不算对对胡; 混一色另加番",
        hand("111z222z333z444z55m"),
        {"big_four_winds": 25, "half_flush": 8},
    ),
    # 大三元 20: three dragon pungs, 234m 88p (two suits: no 混一色, no wind: no 五门齐) = 20
    Case("big_three_dragons", "@15267 大三元20", hand("555z666z777z234m88p"), {"big_three_dragons": 20}),
    # 小四喜 20 "其它番另算": 3 wind pungs + a wind pair + 234m: 20 + 混一色 8 = 28
    Case(
        "little_four_winds",
        "@15282 小四喜20 其它番另算",
        hand("111z222z333z234m44z"),
        {"little_four_winds": 20, "half_flush": 8},
    ),
    # 十三不靠 15 (thirteen_unrelated=singles): 147m 258p 369s all nine and five different honours = 15
    Case(
        "thirteen_unrelated",
        "@15310 十三不靠15 147、258、369凑齐",
        hand("147m258p369s12345z"),
        {"thirteen_unrelated": 15},
    ),
    # self-drawn: 不求人 not counted with it ("不算不求人") = 15
    Case(
        "thirteen_unrelated_self_drawn",
        "@15310 不算不求人",
        hand("147m258p369s12345z", self_drawn=True),
        {"thirteen_unrelated": 15},
    ),
    # thirteen_unrelated=honour_pair: the nine knitted tiles + 234m + an East pair ("以字作将") = 15
    Case(
        "thirteen_unrelated_honour_pair",
        "@15310 以字作将; option thirteen_unrelated=honour_pair",
        hand("147m258p369s234m11z"),
        {"thirteen_unrelated": 15},
        {"thirteen_unrelated": "honour_pair"},
    ),
    # 小三元 15: two dragon pungs and a dragon pair, 123m 456p (two suits, no wind) = 15
    Case("little_three_dragons", "@15349 小三元15", hand("555z666z77z123m456p"), {"little_three_dragons": 15}),
    # 清一色 15: one suit, no straight, no repeated chows = 15
    Case("full_flush", "@15366 清一色15", hand("123m234m456m678m99m"), {"full_flush": 15}),
    # 全带五 15: 345m 456p 567s 555m and a 5p pair, each holds a 5 (no 喜相逢: the chows differ) = 15
    Case("all_fives", "@15390 全带五15", hand("345m456p567s555m55p"), {"all_fives": 15}),
    # 七对 10: any seven pairs (22m is no terminal: no 全带幺) = 10
    Case("seven_pairs", "@15423 七对10", hand("1122m3344p5566s77s"), {"seven_pairs": 10}),
    # four 1m as two pairs (seven_pairs_four=true, default) = 10
    Case("seven_pairs_four", "@15423; option seven_pairs_four", hand("1111m3344p5566s77s"), {"seven_pairs": 10}),
    # 三姐妹 10: 123m three times (read as 111m 222m 333m it is worth nothing: 456p is a chow) = 10
    Case("three_sisters", "@15446 三姐妹10", hand("123m123m123m456p55s"), {"three_sisters": 10}),
    # 三箱次 10 "自摸三副坎": three concealed pungs, self-drawn, + 不求人 7 = 17 (77z: a dragon but no wind,
    # no 五门齐)
    Case(
        "three_concealed_self_drawn",
        "@15469 三箱次10 自摸三副坎; @15549 不求人7",
        hand("111m222p333s456m77z", self_drawn=True),
        {"three_concealed_pungs_self_drawn": 10, "concealed_self_draw": 7},
    ),
    # "暗扛算暗坎": a concealed kong 1111m counts as a concealed pung = 10 + 7 = 17
    Case(
        "three_concealed_with_kong",
        "@15469 暗扛算暗坎",
        hand("222p333s456m77z [1111m]", self_drawn=True),
        {"three_concealed_pungs_self_drawn": 10, "concealed_self_draw": 7},
    ),
    # the same pungs won on a discard: no 三箱次 (not self-drawn), nothing else: 穷胡 7
    Case("three_concealed_on_discard", "@15469 自摸", hand("111m222p333s456m77z"), {"plain_win": 7}),
    # 一条龙 8: 123m 456m 789m + 234p 55s = 8
    Case("pure_straight", "@15487 一条龙8", hand("123m456m789m234p55s"), {"pure_straight": 8}),
    # 混一色 8: 万 and winds only = 8
    Case("half_flush", "@15516 混一色8", hand("123m456m234m111z55z"), {"half_flush": 8}),
    # 不求人 7 "门清自摸胡牌": P0 self-drawn = 7
    Case("concealed_self_draw", "@15549 不求人7", hand(P0, self_drawn=True), {"concealed_self_draw": 7}),
    # 对对胡 7: four pungs and a pair in three suits (222p: no 全幺九) = 7
    Case("all_pungs", "@15561 对对胡7", hand("111m222p333s444m55p"), {"all_pungs": 7}),
    # 小于五 7: every tile 1-4 = 7
    Case("all_below_five", "@15572 小于五7", hand("123m234p234s444m11p"), {"all_below_five": 7}),
    # 大于五 7: every tile 6-9 = 7
    Case("all_above_five", "@15599 大于五7", hand("678m789p678s666m99p"), {"all_above_five": 7}),
    # 穷胡 7 "胡牌后算不出一番牌来": P0 = 7
    Case("plain_win", "@15626 穷胡7", hand(P0), {"plain_win": 7}),
    # 喜相逢 5: 234 in 万, 饼 and 条 = 5
    Case("mixed_triple_chows", "@15641 喜相逢5", hand("234m234p234s567m11z"), {"mixed_triple": 5}),
    # ... or 333 pungs in each suit = 5
    Case("mixed_triple_pungs", "@15641 句或碰（坎）", hand("333m333p333s567m11z"), {"mixed_triple": 5}),
    # 全带幺 5: every set and the pair hold a 1, a 9 or an honour = 5
    Case("outside_hand", "@15666 全带幺5", hand("123m789p123s999m11z"), {"outside_hand": 5}),
    # 全幺九: all pungs of 1, 9 (and honours): all_terminal_pungs 5 + 对对胡 7 = 12
    Case(
        "terminal_pungs",
        "@15699 全是碰（坎）即全幺九",
        hand("111m999p111s999m11z"),
        {"terminal_pungs": 5, "all_pungs": 7},
    ),
    # option all_terminal_pungs=10: 10 + 7 = 17
    Case(
        "terminal_pungs_value",
        "option all_terminal_pungs",
        hand("111m999p111s999m11z"),
        {"terminal_pungs": 10, "all_pungs": 7},
        {"all_terminal_pungs": 10},
    ),
    # 五门齐 5: 万 饼 条, an East pung and a 白 pair = 5
    Case("five_types", "@15703 五门齐5", hand("123m456p789s111z55z"), {"five_types": 5}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_table(case: Case) -> None:
    result = scoring.score(case.hand, "folk", case.options)
    assert result.winning
    assert {i.id: i.points for i in result.items} == case.items
    assert result.total == sum(case.items.values())
    if case.hand.get("self_drawn"):
        assert result.payments == {"each_other": result.total, "winner_receives": 3 * result.total}
    else:
        assert result.payments == {"discarder": result.total, "winner_receives": result.total}


def test_every_item_has_a_case() -> None:
    found = {i for c in CASES for i in c.items}
    assert {p.id for p in PATTERNS} | {PLAIN_WIN.id} <= found


def test_base_option_adds_to_every_payment() -> None:
    # common practice payments: base 2 + 穷胡 7 = 9 from the discarder
    result = scoring.score(hand(P0), "folk", {"base": 2})
    assert result.payments == {"discarder": 9, "winner_receives": 9}


@pytest.mark.parametrize(
    ("text", "options"),
    [
        # not 4 sets + a pair, seven pairs, 十三幺 or 十三不靠
        ("123m456p789s23m457z", {}),
        # 十三不靠 not complete ("凑齐"): eight knitted tiles and six honours
        ("147m258p36s123456z", {}),
        # the honour-pair 十三不靠 is no shape in the default reading (singles) ...
        ("147m258p369s234m11z", {}),
        # ... and the singles one none in the honour_pair reading
        ("147m258p369s12345z", {"thirteen_unrelated": "honour_pair"}),
        # four identical tiles are not two pairs with seven_pairs_four=false
        ("1111m3344p5566s77s", {"seven_pairs_four": False}),
    ],
)
def test_no_win(text: str, options: dict[str, Any]) -> None:
    result = scoring.score(hand(text), "folk", options)
    assert not result.winning and result.total == 0 and result.items == []


def test_lost_items_are_said() -> None:
    # the table breaks off after 五门齐: a 穷胡 says that lower items are lost
    result = scoring.score(hand(P0, kong_replacement=False, last_tile=True), "folk")
    assert any("lost" in n for n in result.notes)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"heavenly_win": True, "self_drawn": True}, "dealer"),  # 天胡 is the dealer's
        ({"earthly_win": True, "dealer": True}, "non-dealer"),  # 地胡 is a non-dealer's
        ({"earthly_win": True, "self_drawn": True}, "first discard"),  # on a discard
    ],
)
def test_refusals(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(HandError) as err:
        scoring.score(hand(P0, **fields), "folk")
    assert err.value.code == "not_allowed" and words in err.value.message


def test_card_names_every_item_and_option() -> None:
    card = RULESET.card()
    for p in (*PATTERNS, PLAIN_WIN):
        assert f"`{p.id}`" in card and p.name_zh in card, p.id
    for o in RULESET.options:
        assert f"`{o.name}`" in card
