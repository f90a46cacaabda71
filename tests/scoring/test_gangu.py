"""Gangu (甘谷麻将): the 133-tile set, 搬到胡 and the dealer's 口子 of DIGEST §9 (source 000 @25682-26549), one case
per 口子 kept and broken, per option, and per refusal.

The source has no scoring, so every result has total 0 and no payments; ``winning`` says whether the hand is a
搬到胡 that keeps the declared 口子 (rule card scoring/docs/gangu.md). Each case names the 口子 and the source
sentence it checks, and says in the comment why the hand keeps or breaks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

import scoring
from scoring import HandError, parse_compact
from scoring.rules.gangu import KOUZI, RULESET


def hand(text: str, contract: Any, win: str | None = None, **fields: Any) -> dict[str, Any]:
    out = parse_compact(text, win).to_json()
    out.update({"contract": contract, **fields})
    return out


@dataclass
class Case:
    id: str
    cite: str
    hand: dict[str, Any]
    winning: bool
    broken: tuple[str, ...] = ()  # words of the broken rule's reason
    options: dict[str, Any] = field(default_factory=dict)


CASES = [
    # ---- 1 胡吃乱碰 "既可以吃又可以碰，风、条、饼、万均不受限制": a claimed chow and an East pair, still a win
    Case("hu_chi_luan_peng", "@26050 胡吃乱碰", hand("123m456p789s11z 234p", "hu_chi_luan_peng"), True),
    # ---- 2 缺风硬不吃 "不能吃张，同时胡牌中不能出现风（东西南北中财）"
    # no 风, no claimed chow (the chows are formed in the hand): kept
    Case("que_feng_kept", "@26120 缺风硬不吃", hand("123m456m789p234p55s", "que_feng_ying_bu_chi"), True),
    # an East pair: broken (风 held)
    Case(
        "que_feng_wind",
        "@26120 胡牌中不能出现风",
        hand("123m456m789p234p11z", "que_feng_ying_bu_chi"),
        False,
        ("holds 风",),
    ),
    # 发 is a 风 in this text ("东西南北中财"): a 发 pair breaks it too
    Case(
        "que_feng_green_dragon",
        "@26120 (东西南北中财)",
        hand("123m456m789p234p66z", "que_feng_ying_bu_chi"),
        False,
        ("holds 风",),
    ),
    # an open chow 123m was claimed: broken ("不能吃张")
    Case(
        "que_feng_chow_claimed",
        "@26120 打牌的过程中不能吃张",
        hand("456m789p234p55s 123m", "que_feng_ying_bu_chi"),
        False,
        ("chow was claimed",),
    ),
    # won on a discarded 4p that only completes 23p into a chow: kept by default (no claim during play) ...
    Case(
        "que_feng_chow_win_default",
        "@26120; option no_chi_win=false",
        hand("123m456m789p23p55s4p", "que_feng_ying_bu_chi"),
        True,
    ),
    # ... broken with option no_chi_win=true (吃胡)
    Case(
        "que_feng_chow_win_option",
        "option no_chi_win=true",
        hand("123m456m789p23p55s4p", "que_feng_ying_bu_chi"),
        False,
        ("吃胡",),
        {"no_chi_win": True},
    ),
    # the same tiles self-drawn: no discard was taken, kept even with no_chi_win=true
    Case(
        "que_feng_chow_win_self_drawn",
        "option no_chi_win=true, self-drawn",
        hand("123m456m789p23p55s4p", "que_feng_ying_bu_chi", self_drawn=True),
        True,
        options={"no_chi_win": True},
    ),
    # ---- 3 净缺 "胡牌中必须缺一门且不能出现风": 万 and 饼 only, no 风: kept (Chinese name as the contract)
    Case("jing_que_kept", "@26200 净缺", hand("123m456m789m234p55p", "净缺"), True),
    # all three suits: broken
    Case(
        "jing_que_three_suits",
        "@26200 必须缺一门",
        hand("123m456p789s234m55m", "jing_que"),
        False,
        ("all three suits",),
    ),
    # one suit lacking but an East pair: broken (不能出现风)
    Case("jing_que_wind", "@26200 不能出现风", hand("123m456m789m234p11z", "jing_que"), False, ("holds 风",)),
    # ---- 4 混缺 "条、饼、万必须缺一门，但是可以要风": no 条, an East pair: kept
    Case("hun_que_kept", "@26271 混缺 可以要风", hand("123m456m789m234p11z", "hun_que"), True),
    Case(
        "hun_que_three_suits", "@26271 必须缺一门", hand("123m456p789s234m11z", "hun_que"), False, ("all three suits",)
    ),
    # ---- 5 叶子 "胡牌中必须8张或8张以上的同一门牌": 9 万: kept; exactly 8 万: kept; 6 and 6: broken
    Case("ye_zi_nine", "@26332 8张或8张以上", hand("123m456m789m234p55p", "ye_zi"), True),
    Case("ye_zi_eight", "@26332 8张", hand("123m456m11m234p567p", "ye_zi"), True),
    Case("ye_zi_six", "@26332", hand("123m456m234p567p55s", "ye_zi"), False, ("8 or more",)),
    # ---- 6 硬八叶 "叶子数必须是8张，不能多也不能少": 8 万 (二打一将 123m 456m 11m): kept; 9 万: broken
    Case("ying_ba_ye_eight", "@26393 必须是8张", hand("123m456m11m234p567p", "ying_ba_ye"), True),
    Case("ying_ba_ye_nine", "@26393 不能多", hand("123m456m789m234p55p", "ying_ba_ye"), False, ("exactly 8",)),
    # a concealed kong 4444m + 123m + 11m: 3 + 2 + 3 (a kong counts 3, option leaf_kong_as=3) = 8: kept ...
    Case("ying_ba_ye_kong_as_3", "@26393; option leaf_kong_as=3", hand("123m11m234p567p [4444m]", "ying_ba_ye"), True),
    # ... with leaf_kong_as=4 the kong's four tiles count: 9: broken
    Case(
        "ying_ba_ye_kong_as_4",
        "option leaf_kong_as=4",
        hand("123m11m234p567p [4444m]", "ying_ba_ye"),
        False,
        ("exactly 8",),
        {"leaf_kong_as": 4},
    ),
    # ---- 7 断幺 "胡牌中不能出现一、九、风": only 2-8: kept; a 9p: broken; a 发 pair: broken
    Case("duan_yao_kept", "@26457 断幺", hand("234m456m678p345s55s", "duan_yao"), True),
    Case("duan_yao_nine", "@26457 不能出现一、九", hand("234m456m789p345s55s", "duan_yao"), False, ("9p",)),
    Case("duan_yao_wind", "@26457 不能出现风", hand("234m456m678p345s66z", "duan_yao"), False, ("6z",)),
    # ---- several 口子 declared together: every one must hold
    # 混缺 (no 条) and 断幺 (2-8 only): both kept
    Case(
        "two_kouzi_kept", "@26006 口子 (a list)", hand("234m567m22p345p 678m", ["hun_que", "duan_yao"], win="5p"), True
    ),
    # 混缺 kept, 断幺 broken by 9m
    Case(
        "two_kouzi_one_broken",
        "@26006 口子 (a list)",
        hand("234m789m22p345p 567m", ["hun_que", "duan_yao"], win="5p"),
        False,
        ("9m",),
    ),
    # ---- 搬到胡 "四打一将": seven pairs is no Gangu win whatever the 口子
    Case("seven_pairs_is_no_win", "@25782 搬到胡 (四打一将)", hand("1122m3344p5566s77s", "hu_chi_luan_peng"), False),
]


def declared(case: Case) -> set[str]:
    """The ids of the 口子 a case declares (by id or Chinese name)."""
    names = case.hand["contract"]
    names = [names] if isinstance(names, str) else names
    return {k.id for k in KOUZI if k.id in names or k.name_zh in names}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_table(case: Case) -> None:
    result = scoring.score(case.hand, "gangu", case.options)
    assert result.winning is case.winning
    # the source has no scoring: nothing is ever counted or paid
    assert result.total == 0 and result.payments == {} and result.unit == "none"
    assert any("has no scoring" in n for n in result.notes)
    reasons = [r for c in result.extra["checks"] for r in c["reasons"]]
    for words in case.broken:
        assert any(words in r for r in reasons), (words, reasons)
    if case.winning:
        ids = {"ban_dao_hu"} | {f"kouzi_{k}" for k in declared(case)}
        assert {i.id for i in result.items} == ids and all(i.value == 0 for i in result.items)
        assert all(c["ok"] for c in result.extra["checks"])
    else:
        assert result.items == []


def test_every_kouzi_is_kept_and_broken() -> None:
    kept = {k for c in CASES if c.winning for k in declared(c)}
    assert kept == {k.id for k in KOUZI}
    checks = [ch for c in CASES for ch in scoring.score(c.hand, "gangu", c.options).extra["checks"]]
    broken = {ch["id"] for ch in checks if ch["ok"] is False}
    assert broken == {k.id for k in KOUZI} - {"hu_chi_luan_peng"}  # 胡吃乱碰 has nothing to break


def test_the_single_flower_is_set_aside() -> None:
    # §9.2 花子（一张）: one flower is the 花子; its role is not in the source
    result = scoring.score(hand("123m456m789m234p55p", "jing_que", flowers=["1f"]), "gangu")
    assert result.winning and any("花子 1f" in n for n in result.notes)


@pytest.mark.parametrize(
    ("text", "fields", "code", "words"),
    [
        # §9.2: 133 tiles, no 白板: a 白 pair, a 白 pung declared
        ("123m456m789m234p55z", {}, "not_allowed", "no 白板"),
        ("123m456m789m55p 555z", {}, "not_allowed", "no 白板"),
        # §9.2: a single 花子
        ("123m456m789m234p55p", {"flowers": ["1f", "2f"]}, "not_allowed", "single 花子"),
        # §9.4: the dealer must declare a 口子
        ("123m456m789m234p55p", {"contract": None}, "bad_field", "needs the dealer's 口子"),
        ("123m456m789m234p55p", {"contract": "七对"}, "bad_field", "unknown 口子"),
        ("123m456m789m234p55p", {"contract": 3}, "bad_field", "must be a 口子 name"),
        ("123m456m789m234p55p", {"contract": []}, "bad_field", "must be a 口子 name"),
        # §9.4 item 8: 水张 is cut off in the source
        ("123m456m789m234p55p", {"contract": "水张"}, "not_allowed", "水张"),
        # §9.3: 14 tiles
        ("123m456m789m234p5p", {}, "wrong_tile_count", "needs 14"),
    ],
)
def test_refusals(text: str, fields: dict[str, Any], code: str, words: str) -> None:
    with pytest.raises(HandError) as err:
        scoring.score({**hand(text, "hu_chi_luan_peng"), **fields}, "gangu")
    assert err.value.code == code and words in err.value.message


def test_card_names_every_kouzi_and_option() -> None:
    card = RULESET.card()
    assert "has no scoring" in card
    for k in KOUZI:
        assert f"`{k.id}`" in card and k.name_zh in card
    for o in RULESET.options:
        assert f"`{o.name}`" in card


def test_rules_listing_offers_every_kouzi_as_a_contract_choice_and_each_choice_scores() -> None:
    from scoring.registry import get
    from scoring.rules.gangu import KOUZI

    field = next(f for f in get("gangu").describe()["fields"] if f["name"] == "contract")
    assert field["choices"] == [k.id for k in KOUZI] and "净缺" in field["help"]
    for choice in field["choices"]:
        assert scoring.score(hand("123m456m789m123p55p", choice), "gangu").rules == "gangu"
