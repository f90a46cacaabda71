"""Chinese Official rules beyond single fans: the scoring principles, the edition differences (DIGEST §2.8
M1-M9 as decided in mcr_fans.CHOICES), flowers and the 8-fan minimum, the situation inputs of §2.5, the
settlement of §2.6, refusals, options, the rule card and the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import scoring
from api.cli import main as cli
from scoring.errors import HandError, OptionError
from scoring.rules.mcr import RULESET
from scoring.rules.mcr_fans import FANS


def mcr(compact: str, win: str | None = None, edition: str = "1998", **situation: Any) -> scoring.Score:
    hand = scoring.parse_compact(compact, win)
    for field, value in situation.items():
        setattr(hand, field, value)
    return scoring.score(hand, "mcr", {"edition": edition})


def fans(result: scoring.Score) -> dict[str, int]:
    return {item.id: item.count for item in result.items}


def test_taking_the_higher_reading() -> None:
    # 就高不就低 (§2.4 principle 4): 111222333m read as three pungs, 一色三节高 24 + 三暗刻 16 + 幺九刻 1, beats
    # three chows (一色三同顺 24 + 平和 2); with 门前清 2, 单钓将 1 (waits on 5s alone), 无字 1: 45
    result = mcr("111222333m789p55s", "5s")
    assert fans(result) == {
        "pure_shifted_pungs": 1,
        "three_concealed_pungs": 1,
        "pung_of_terminals_or_honors": 1,
        "concealed_hand": 1,
        "single_wait": 1,
        "no_honors": 1,
    }
    assert result.total == 45
    assert result.arrangement[:3] == [["1m", "1m", "1m"], ["2m", "2m", "2m"], ["3m", "3m", "3m"]]


def test_account_once_and_no_identical_pattern() -> None:
    # 套算一次 and 不得相同 (§2.4 principles 3, 5): 234s 234p 234p 567p make 一般高 once, 喜相逢 twice (234s with
    # each 234p) and 连六 twice (each 234p with 567p); four chows allow three patterns and a pattern already made
    # is not made again: 一般高 1 + 喜相逢 1 + 连六 1; 平和 2, 门前清 2, 断幺 2, no characters 缺一门 1 = 10
    result = mcr("234s23423456788p", "8p")
    assert fans(result) == {
        "pure_double_chow": 1,
        "mixed_double_chow": 1,
        "short_straight": 1,
        "all_chows": 1,
        "concealed_hand": 1,
        "all_simples": 1,
        "one_voided_suit": 1,
    }
    assert result.total == 10


def test_all_terminals_and_triple_pung_m4() -> None:
    # M4: 1998 清幺九 不计…同刻, read as both 双同刻 and 三同刻: 64 + 双暗刻 2 + 单钓将 1 = 67; the 2006 practice
    # keeps 三同刻 (1m 1p 1s): 67 + 16 = 83
    r1998 = mcr("111s999m99p 111m 111p", "9p")
    assert fans(r1998) == {"all_terminals": 1, "two_concealed_pungs": 1, "single_wait": 1}
    assert r1998.total == 67
    assert any(n.startswith("M4:") for n in r1998.notes)
    r2006 = mcr("111s999m99p 111m 111p", "9p", "2006")
    assert fans(r2006) == {"all_terminals": 1, "triple_pung": 1, "two_concealed_pungs": 1, "single_wait": 1}
    assert r2006.total == 83


def test_seven_pairs_of_honours_m4() -> None:
    # M4: the 1998 text defines 字一色 with pungs: a seven-pairs hand of honours is 七对 24 only; the 2006
    # practice adds 字一色 64: 88
    assert mcr("11223344556677z").total == 24
    r2006 = mcr("11223344556677z", edition="2006")
    assert fans(r2006) == {"all_honors": 1, "seven_pairs": 1}
    assert r2006.total == 88


def test_all_green_without_green_dragon_m1() -> None:
    # M1: 绿一色 不计混一色; with no 发 the hand is one suit, so 清一色 24 counts (1998 text). 234s twice 一般高 1,
    # four 3s 四归一 2, 666s 888s held 双暗刻 2, 门前清 2, 断幺 2; the hand waits on 2s 3s 4s: 88+24+1+2+2+2+2 = 121
    result = mcr("234234666888s33s", "3s")
    assert fans(result) == {
        "all_green": 1,
        "full_flush": 1,
        "pure_double_chow": 1,
        "tile_hog": 1,
        "two_concealed_pungs": 1,
        "concealed_hand": 1,
        "all_simples": 1,
    }
    assert result.total == 121


def test_melded_and_concealed_kong_by_edition() -> None:
    # 1998: one melded and one concealed kong score 明杠 1 + 暗杠 2; with 连六 1, 单钓将 1, 无字 1 that is 6, not
    # a win; the 2006 tournament software counts 明暗杠 5 instead: 8, a win
    r1998 = mcr("345s678s99m [2222m] 7777p", "9m")
    assert fans(r1998) == {
        "concealed_kong": 1,
        "melded_kong": 1,
        "short_straight": 1,
        "single_wait": 1,
        "no_honors": 1,
    }
    assert (r1998.total, r1998.winning, r1998.payments) == (6, False, {})
    assert any(n.startswith("not a win: 6 fan") for n in r1998.notes)
    r2006 = mcr("345s678s99m [2222m] 7777p", "9m", "2006")
    assert (r2006.total, r2006.winning) == (8, True)
    assert any("明暗杠" in n for n in r2006.notes)


def test_wait_on_a_tile_whose_copies_are_all_held() -> None:
    # 1998 (wait note): 1112222m waited on 3m only, since the fifth 2m does not exist: 边张 1 with 花龙 8, 四归一 2,
    # 无字 1 = 12. The 2006 software counts waits by shape (2m too), so no 边张: 11
    r1998 = mcr("11122223m 456p 789s", "3m")
    assert fans(r1998) == {"mixed_straight": 1, "tile_hog": 1, "edge_wait": 1, "no_honors": 1}
    r2006 = mcr("11122223m 456p 789s", "3m", "2006")
    assert fans(r2006) == {"mixed_straight": 1, "tile_hog": 1, "no_honors": 1}


def test_knitted_straight_with_a_meld() -> None:
    # 组合龙 12 + meld + pair (M5); the pair of the winning tile is a single wait: 12 + 1 = 13 in both editions;
    # winning on a knitted tile (4m) is no wait fan: 12
    for edition in ("1998", "2006"):
        assert fans(mcr("147m258p369s55z 123m", "5z", edition)) == {"knitted_straight": 1, "single_wait": 1}
        assert fans(mcr("147m258p369s55z 123m", "4m", edition)) == {"knitted_straight": 1}
    assert any("knitted straight" in n for n in mcr("147m258p369s55z 123m", "4m").notes)


def test_flowers_do_not_count_toward_the_minimum() -> None:
    # §2.3: 8 fan needed, flowers excluded: the 6-fan hand above with three flowers totals 9 and is no win
    result = mcr("345s678s99m [2222m] 7777p", "9m", flowers=["1f", "2f", "8f"])
    assert (result.total, result.winning) == (9, False)
    assert fans(result)["flower_tiles"] == 3
    assert result.items[-1].tiles == ["1f", "2f", "8f"]


def test_payments() -> None:
    # §2.6: 清龙 hand, 21 fan. Discard: the discarder pays 8 + 21 = 29, each other 8, the winner gets 24 + 21 = 45
    assert mcr("123456789p234s55m", "5m").payments == {"discarder": 29, "each_other": 8, "winner_receives": 45}
    # self-drawn: 不求人 4 replaces 门前清 2: 23 fan; each of the three pays 8 + 23 = 31
    assert mcr("123456789p234s55m", "5m", self_drawn=True).payments == {"each_other": 31, "winner_receives": 93}
    hand = scoring.parse_compact("123456789p234s55m", "5m")
    ten = scoring.score(hand, "mcr", {"base": 10}).payments
    assert ten == {"discarder": 31, "each_other": 10, "winner_receives": 51}


def test_fourth_tile_seen_in_own_melds() -> None:
    # §2.5 和绝张: the other three 5p are in the hand's own pung, so winning on 5p is the last one even unflagged:
    # 和绝张 4 + 花龙 8 + 坎张 1 (46p waits on 5p alone) + the four 5p outside a kong 四归一 2 = 15
    result = mcr("123m456p789s55z 555p", "5p")
    assert fans(result) == {"last_tile": 1, "mixed_straight": 1, "closed_wait": 1, "tile_hog": 1}
    assert result.total == 15
    assert any("own melds" in n for n in result.notes)


@pytest.mark.parametrize(
    ("compact", "win", "situation", "flag"),
    [
        ("111s999s99m 111m 999p", "9m", {"fourth_tile": True}, "fourth_tile"),
        ("111m333p555s777s99m", "9m", {"robbing_kong": True}, "robbing_kong"),
        ("345s11z 234m 678p 555p", "3s", {"self_drawn": True, "kong_replacement": True}, "kong_replacement"),
    ],
)
def test_flags_the_tiles_rule_out_are_ignored_with_a_note(
    compact: str, win: str, situation: dict[str, Any], flag: str
) -> None:
    # the hand holds another copy of the winning tile (no 和绝张, no 抢杠和), or has no kong (no 杠上开花)
    plain = mcr(compact, win, **{k: v for k, v in situation.items() if k != flag})
    flagged = mcr(compact, win, **situation)
    assert fans(flagged) == fans(plain)
    assert any(n.startswith(f"{flag} (") and "ignored" in n for n in flagged.notes)


@pytest.mark.parametrize(
    ("situation", "words"),
    [
        ({"kong_replacement": True}, "self-drawn"),
        ({"robbing_kong": True, "self_drawn": True}, "not a self-draw"),
        ({"robbing_kong": True, "last_tile": True}, "last tile"),
    ],
)
def test_situations_that_cannot_happen_are_refused(situation: dict[str, Any], words: str) -> None:
    with pytest.raises(HandError) as err:
        mcr("345s11z 234m 678p 6666s", "3s", **situation)
    assert err.value.code == "not_allowed"
    assert words in err.value.message


def test_not_a_win() -> None:
    result = mcr("123m456p789s12345z")
    assert (result.winning, result.total, result.items) == (False, 0, [])
    assert "do not form a winning hand" in result.notes[0]


def test_wrong_tile_count_is_refused() -> None:
    with pytest.raises(HandError) as err:
        mcr("123m456p789s11z")
    assert err.value.code == "wrong_tile_count"


def test_options() -> None:
    with pytest.raises(OptionError) as err:
        scoring.score("123456789p234s55m", "mcr", {"edition": "2010"})
    assert err.value.code == "bad_option"
    with pytest.raises(OptionError) as err:
        scoring.score("123456789p234s55m", "mcr", {"colour": "red"})
    assert err.value.code == "unknown_option"
    assert scoring.score("123456789p234s55m", "mcr", {"edition": 2006}).options["edition"] == "2006"
    described = RULESET.describe()
    edition = next(o for o in described["options"] if o["name"] == "edition")
    assert (edition["default"], edition["choices"]) == ("1998", ["1998", "2006"])
    assert "fourth_tile" in described["situation"]


def test_score_json() -> None:
    out = mcr("123456789p234s55m", "5m").to_json()
    assert out["ok"] and out["rules"] == "mcr" and out["unit"] == "fan"
    assert out["items"][0] == {
        "id": "pure_straight",
        "name_en": "Pure Straight",
        "name_zh": "清龙",
        "value": 16,
        "count": 1,
        "tiles": ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"],
    }
    assert ["5m", "5m"] in out["arrangement"] and len(out["arrangement"]) == 5


def test_the_rule_card_names_every_fan_and_choice() -> None:
    card = RULESET.card()
    for fan in FANS:
        assert fan.zh in card and fan.en in card, fan.id
    for choice in ("M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M9"):
        assert choice in card


def test_command_line_scores_a_json_list_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = [
        scoring.parse_compact("123456789p234s55m", "5m").to_json(),
        {"concealed": ["1m"], "win_tile": "1m"},
        scoring.parse_compact("11223344556677z").to_json(),
    ]
    path = tmp_path / "hands.json"
    path.write_text(json.dumps(hands), encoding="utf-8")
    code = cli(["score", "--rules", "mcr", "--option", "edition=2006", "--hand", str(path)])
    out = json.loads(capsys.readouterr().out)
    assert code == 1  # one hand was refused
    assert [r.get("total") for r in out] == [21, None, 88]
    assert out[1]["error"]["code"] == "wrong_tile_count"
