"""Riichi: the score JSON, options, refusals, no-yaku and non-winning hands, the dealer.

Helpers ``score``, ``ids`` and ``han_fu_main`` are shared with the other riichi test files. Sources: DIGEST §3
(fragments, cited by section and source offset) and, for the standard rules beyond them, the rule card
``scoring/docs/riichi.md`` (which names where each common-practice rule comes from).
"""

from __future__ import annotations

from typing import Any

import pytest

import scoring
from scoring.errors import HandError, OptionError
from scoring.hand import parse_compact
from scoring.result import Score
from scoring.rules.riichi import RULESET


def score(text: str, win: str | None = None, options: dict[str, Any] | None = None, **situation: Any) -> Score:
    """Score a compact hand. Unless told otherwise the winner sits South in the East round (a non-dealer) and
    wins on a discard; ``situation`` sets any hand field (self_drawn=True, riichi=True, ...)."""
    hand = parse_compact(text, win)
    hand.seat_wind = "S"
    hand.round_wind = "E"
    for key, value in situation.items():
        setattr(hand, key, value)
    return RULESET.score(hand, options)


def ids(result: Score) -> list[str]:
    """The item ids of a score, in order."""
    return [i.id for i in result.items]


def han_fu_main(result: Score) -> tuple[int, int, int]:
    """(han, fu, points.main) of a score."""
    return result.extra["han"], result.extra["fu"], result.extra["points"]["main"]


# a closed hand whose only yaku is what the situation gives: 123m 456m 789p 55s, 24s waiting on 3s (closed wait)
PLAIN = "123m456m789p2455s3s"


# ---- the score JSON (contracts.md: riichi adds han, fu, fu_details and points) -------------------------------


def test_score_json_has_the_riichi_fields():
    # riichi + closed wait: 1 han; fu 20 + 10 closed ron + 2 closed wait = 32 -> 40; 40 x 2^3 = 320, x 4 = 1280 -> 1300
    out = score(PLAIN, riichi=True).to_json()
    assert out["ok"] and out["rules"] == "riichi" and out["unit"] == "han" and out["winning"]
    assert (out["total"], out["han"], out["fu"]) == (1, 1, 40)
    assert out["items"] == [
        {"id": "riichi", "name_en": "Riichi", "name_ja": "立直", "value": 1, "count": 1, "tiles": []}
    ]
    assert out["points"] == {
        "main": 1300,
        "additional": 0,
        "main_bonus": 0,
        "additional_bonus": 0,
        "riichi_sticks": 0,
        "total": 1300,
        "base": 320,
        "limit": None,
    }
    assert out["payments"] == {"discarder": 1300}
    assert [(d["reason"], d["fu"]) for d in out["fu_details"]] == [("base", 20), ("closed_wait", 2), ("closed_ron", 10)]
    assert out["fu_details"][1]["tiles"] == ["2s", "3s", "4s"]
    assert out["arrangement"] == [
        ["1m", "2m", "3m"],
        ["4m", "5m", "6m"],
        ["7p", "8p", "9p"],
        ["2s", "3s", "4s"],
        ["5s", "5s"],
    ]


def test_every_option_is_reported_with_its_value():
    # the issue: all options in one place, all reported in the result
    out = score(PLAIN, riichi=True, options={"kiriage": "true"}).to_json()
    assert out["options"] == {
        "open_tanyao": True,
        "red_fives": True,
        "double_yakuman": True,
        "counted_yakuman": "limited",
        "kiriage": True,
        "open_pinfu_fu": True,
        "pinfu_tsumo_fu": False,
        "renhou_yakuman": False,
    }


def test_registry_finds_riichi_and_it_describes_itself():
    assert scoring.get("riichi") is RULESET
    described = RULESET.describe()
    assert described["unit"] == "han" and described["tiles"] == 14
    assert {o["name"] for o in described["options"]} >= {"open_tanyao", "counted_yakuman", "renhou_yakuman"}
    assert "dora_indicators" in described["situation"]
    assert RULESET.card().startswith("# Japanese Riichi")


def test_unknown_and_bad_options_are_refused():
    with pytest.raises(OptionError, match="unknown option"):
        score(PLAIN, riichi=True, options={"aotenjou": True})
    with pytest.raises(OptionError, match="counted_yakuman must be one of limited, sanbaiman, none"):
        score(PLAIN, riichi=True, options={"counted_yakuman": "lots"})
    with pytest.raises(OptionError, match="kiriage must be true or false"):
        score(PLAIN, riichi=True, options={"kiriage": [1]})


# ---- winning: false ---------------------------------------------------------------------------------------


def test_no_yaku_is_not_a_win_even_with_dora():
    # DIGEST §3.3: "在没有役的时候，就算已经集满了四个面子一个雀头，也还是没办法胡牌" (no yaku: no win).
    # PLAIN on a discard without riichi has no yaku; two dora (indicator 4m: 5m is dora) change nothing.
    result = score(PLAIN, dora_indicators=["4m"])
    assert not result.winning and result.total == 0 and result.items == []
    assert result.notes == ["no yaku: a win needs at least one yaku (dora and red fives are not yaku)"]
    assert result.extra["points"]["main"] == 0 and result.payments == {}


def test_tiles_that_do_not_win_are_not_a_win():
    result = score("123m456m789p2456s3s")
    assert not result.winning and result.notes[0].startswith("the tiles do not form a winning hand")


# ---- refusals: hands and situations that cannot exist --------------------------------------------------------


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ({"riichi": True, "ippatsu": False}, "riichi is declared only with a closed hand"),
        ({"ippatsu": True}, "ippatsu needs riichi"),
        ({"robbing_kong": True, "self_drawn": True}, "chankan is a win on another player's kong tile"),
        ({"kong_replacement": True}, "rinshan is a self-draw"),
        ({"kong_replacement": True, "self_drawn": True}, "rinshan needs a kong"),
        ({"heavenly_win": True, "self_drawn": True}, "tenhou and chiihou are self-drawn|tenhou"),
        ({"human_win": True}, "renhou"),
    ],
)
def test_situations_that_cannot_happen_are_refused(situation, message):
    # DIGEST §3.4 riichi: declared with a closed hand (门前); the others: rule card "Refusals"
    with pytest.raises(HandError, match=message):
        score("123m456p99s234s 789m", **situation)


def test_blessings_and_kongs_are_refused_where_they_cannot_be():
    with pytest.raises(HandError, match="dealer's win on the first draw"):
        score(PLAIN, heavenly_win=True, self_drawn=True)  # seat South is not the dealer
    with pytest.raises(HandError, match="non-dealer's win on the first draw"):
        score(PLAIN, earthly_win=True, self_drawn=True, seat_wind="E")
    with pytest.raises(HandError, match="come before any riichi"):
        score(PLAIN, earthly_win=True, self_drawn=True, riichi=True)
    with pytest.raises(HandError, match="cancels ippatsu"):
        score("123m456p99s234s [7777z]", riichi=True, ippatsu=True, kong_replacement=True, self_drawn=True)
    with pytest.raises(HandError, match="not the last tile"):
        score("123m456p99s234s [7777z]", last_tile=True, kong_replacement=True, self_drawn=True)
    with pytest.raises(HandError, match="no kong can be declared on the last tile"):
        score(PLAIN, last_tile=True, robbing_kong=True, riichi=True)


def test_the_dealer_sits_east():
    with pytest.raises(HandError, match="the dealer sits East, but seat_wind is S"):
        score(PLAIN, riichi=True, dealer=True)


def test_riichi_has_no_flowers():
    # DIGEST §3.2 (001 @523): 136 tiles, no flower tiles
    with pytest.raises(HandError, match="without flowers"):
        score(PLAIN + "1f", riichi=True)


def test_indicators_count_as_seen_copies():
    # four 3s are in the hand and the indicators together at most; a red five exists once; with red fives
    # on, a suit has three plain fives (the fourth is the red one)
    with pytest.raises(HandError, match="5 copies of 3s"):
        score(PLAIN, riichi=True, dora_indicators=["3s", "3s"], ura_dora_indicators=["3s", "3s"])
    with pytest.raises(HandError, match="2 copies of the red five 0m"):
        score("123m406m789p2455s3s", riichi=True, dora_indicators=["0m"])
    with pytest.raises(HandError, match="four plain 5s"):
        score(PLAIN, riichi=True, dora_indicators=["5s", "5s"])
    assert score(PLAIN, riichi=True, dora_indicators=["5s", "5s"], options={"red_fives": False}).winning
    with pytest.raises(HandError, match="at most 5 indicators"):
        score(PLAIN, riichi=True, dora_indicators=["1z"] * 4 + ["2z"] * 2)
    with pytest.raises(HandError, match="one ura dora indicator under each"):
        score(PLAIN, riichi=True, dora_indicators=["1z"], ura_dora_indicators=["2z", "3z"])


def test_a_robbed_kong_holds_the_other_three_copies():
    # chankan wins on the fourth copy: the hand cannot hold another copy of the winning tile
    with pytest.raises(HandError, match="the other three 3s are in the kong"):
        score("123m456m789p2335s3s", robbing_kong=True, riichi=True)


def test_wrong_tile_count_is_refused_by_the_common_check():
    with pytest.raises(HandError, match="wrong tile count"):
        score("123m456m789p55s3s", riichi=True)


# ---- the dealer (seat East) ----------------------------------------------------------------------------------


def test_seat_east_is_the_dealer_and_is_paid_one_and_a_half_times():
    # riichi 1 han 40 fu: base 320; dealer ron 6 x 320 = 1920 -> 2000 (a non-dealer: 1300)
    result = score(PLAIN, riichi=True, seat_wind="E")
    assert result.extra["points"]["main"] == 2000
    assert result.notes[0] == "dealer (East seat): paid 1.5 times a non-dealer's points"
    assert score(PLAIN, riichi=True, seat_wind="E", dealer=True).extra["points"]["main"] == 2000
