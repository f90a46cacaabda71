"""Taiwanese 16-tile: what the scorer refuses, the compact form with 17 tiles, options, payments, the CLI."""

from __future__ import annotations

import json
from typing import Any

import pytest

import scoring
from api.cli import main as mjscan
from scoring import HandError, OptionError, parse_compact

CONCEALED = "123m456m789m234p56p33z7p"
ALL_FLOWERS = ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"]


def hand(text: str, win: str | None = None, **fields: Any) -> dict[str, Any]:
    out = parse_compact(text, win).to_json()
    out.update({"seat_index": 0, "round_wind": "E", **fields})
    return out


def refusal(h: dict[str, Any] | str, options: dict[str, Any] | None = None) -> HandError:
    with pytest.raises(HandError) as info:
        scoring.score(h, "taiwan16", options)
    return info.value


# ---- refusals --------------------------------------------------------------------------------------------


def test_wrong_tile_count_is_refused() -> None:
    """§1.4 "一手牌17張": 14 tiles (a 13-tile game's hand) and 16 tiles are refused, naming the count."""
    err = refusal("123m456m789m234p55p")
    assert err.code == "wrong_tile_count" and "17" in err.message
    err = refusal("123m456m789m234p56p3z7p")
    assert err.code == "wrong_tile_count" and "16" in err.message


def test_five_copies_are_refused() -> None:
    err = refusal("111m123m456m789m11m56p7p")
    assert err.code == "too_many_copies" and "1m" in err.message


def test_flower_in_concealed_json_is_refused() -> None:
    """§1.3: a flower may never be held in the hand; the JSON must list it in flowers."""
    h = hand(CONCEALED)
    h["concealed"] = h["concealed"][:-1] + ["3f"]
    h["flowers"] = []
    # from_json sets flowers written among the concealed tiles aside, so the hand is one tile short
    assert refusal(h).code == "wrong_tile_count"


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"heavenly_win": True, "self_drawn": True}, "dealer"),  # item 33: 莊家 ... 即胡牌
        ({"heavenly_win": True, "dealer": True}, "self_drawn"),
        ({"heavenly_ready": True, "dealer": True}, "non-dealer"),  # item 31: 閒家
        ({"earthly_win": True, "dealer": True}, "non-dealer"),  # item 34: 閒家
        ({"earthly_win": True, "self_drawn": True}, "heavenly_ready"),  # item 34: 起牌天聽摸第1張牌自摸
        ({"human_win": True}, "earthly_ready"),  # item 35: 宣告地聽後
        ({"heavenly_ready": True, "earthly_ready": True}, "exclude"),
        ({"heavenly_win": True, "earthly_win": True, "dealer": True, "self_drawn": True}, "exclude"),
        ({"kong_replacement": True}, "self_drawn"),  # item 24: 於槓尾補牌 (a draw)
        ({"kong_replacement": True, "self_drawn": True}, "neither"),  # no kong, no flower
        ({"robbing_kong": True, "self_drawn": True}, "not a self-draw"),
        ({"discarder_is_dealer": True, "dealer": True}, "winner is the dealer"),
        ({"discarder_is_dealer": True, "self_drawn": True}, "no discarder"),
        ({"robbed_flower": "8f"}, "all 8 flowers"),
        ({"robbed_flower": "8f", "flowers": ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "2f"]}, "copies"),
        ({"robbed_flower_held": True}, "robbed_flower"),
    ],
)
def test_impossible_situations_are_refused(fields: dict[str, Any], words: str) -> None:
    err = refusal(hand(CONCEALED, **fields))
    assert err.code in ("not_allowed", "too_many_copies") and words in err.message, err.message


def test_declarations_need_a_concealed_hand() -> None:
    """Item 32 "本身須門清", item 31 "如不換牌 ... 則保持有效": a chi/pon cancels 天聽 / 地聽."""
    for flag in ("heavenly_ready", "earthly_ready"):
        err = refusal(hand("456m789m234p56p33z7p 123m", **{flag: True}))
        assert err.code == "not_allowed" and "concealed" in err.message


def test_kong_replacement_after_a_claimed_kong_is_refused() -> None:
    """行牌禁制 2 "碰槓之補牌不得自摸胡牌": the only kong was claimed from a discard and no flower was drawn."""
    err = refusal(hand("123m456m234p56p33z7p 8888s", self_drawn=True, kong_replacement=True))
    assert "碰槓" in err.message
    added = scoring.score(hand("123m456m234p56p33z7p 8888s+", self_drawn=True, kong_replacement=True), "taiwan16")
    assert added.total == 2  # 加槓 replacement: 槓上開花 1 + 自摸 1


def test_robbing_a_kong_of_a_tile_the_hand_holds_is_refused() -> None:
    err = refusal(hand("456m789m234p57p33z7p 123m", robbing_kong=True))
    assert "搶槓" in err.message


@pytest.mark.parametrize(
    ("key", "value"), [("robbed_flower", "3m"), ("robbed_flower", 8), ("discarder_is_dealer", "yes")]
)
def test_bad_own_fields_are_refused(key: str, value: Any) -> None:
    err = refusal(hand(CONCEALED, **{key: value}))
    assert err.code == "bad_field" and key in err.message


def test_options_are_checked() -> None:
    with pytest.raises(OptionError) as info:
        scoring.score(hand(CONCEALED), "taiwan16", {"lugulugu": "maybe"})
    assert info.value.code == "bad_option"
    with pytest.raises(OptionError) as info:
        scoring.score(hand(CONCEALED), "taiwan16", {"edition": "2006"})
    assert info.value.code == "unknown_option"
    with pytest.raises(OptionError):
        scoring.score(hand(CONCEALED), "taiwan16", {"base": -1})


# ---- not a win -------------------------------------------------------------------------------------------


def test_seventeen_tiles_that_do_not_win_score_nothing() -> None:
    result = scoring.score(hand("123m456m789m234p57p19s1z"), "taiwan16")
    assert not result.winning and result.total == 0 and result.payments == {}
    assert "5 melds + a pair" in result.notes[0]


def test_lugulugu_needs_its_option() -> None:
    """Item 36 嚦咕嚦咕 (選用): with the option off (the default) the 7 pairs + 1 pung do not win."""
    result = scoring.score(hand("1133557799m2244p88s8s"), "taiwan16")
    assert not result.winning and "lugulugu" in result.notes[0]


def test_lugulugu_with_a_meld_is_not_a_win() -> None:
    """Item 36 必須門清: seven pairs with the pung declared (碰) is no 嚦咕嚦咕 and no 5 melds + a pair."""
    result = scoring.score(hand("11335577m2244p8s8s 999p"), "taiwan16", {"lugulugu": True})
    assert not result.winning


# ---- the compact form and JSON ---------------------------------------------------------------------------


def test_compact_form_with_17_tiles_and_kongs() -> None:
    """parse_compact: concealed group with the winning tile, a concealed kong, an added kong, an open chow."""
    h = parse_compact("678s345p33z [1111z] 2222p+ 789m", win="5p")
    assert h.win_tile == "5p" and h.tile_count == 16
    result = scoring.score(h, "taiwan16", None)
    # 東 concealed kong: seat 1 + round 1 (seat_wind E, round E); no 門清 (open chow); waits 2p/5p; = 2
    assert result.winning and result.total == 2
    assert {i.id for i in result.items} == {"seat_wind_pung", "round_wind_pung"}
    assert ["1z", "1z", "1z", "1z"] in result.arrangement
    assert any(n.startswith("seat_index not given") for n in result.notes)


def test_score_json_has_the_contract_fields() -> None:
    body = scoring.score(hand(CONCEALED, self_drawn=True, dealer=True), "taiwan16").to_json()
    assert body["ok"] and body["rules"] == "taiwan16" and body["unit"] == "tai"
    assert body["options"] == {"lugulugu": False, "dragon_round_tai": False, "base": 1, "tai_value": 1}
    item = body["items"][0]
    assert set(item) == {"id", "name_en", "name_zh", "value", "count", "tiles"}
    assert body["dealer_tai"] == 1 and body["dealer_items"][0]["name_zh"] == "作莊"
    assert len(body["arrangement"]) == 6 and sum(len(g) for g in body["arrangement"]) == 17


def test_base_and_tai_value_options() -> None:
    """§1.7 底注加牌面台數: with 底 100 and 20 per tai, a 3-tai dealer self-draw (+作莊 1) is 100 + 4 x 20 each."""
    result = scoring.score(hand(CONCEALED, self_drawn=True, dealer=True), "taiwan16", {"base": 100, "tai_value": 20})
    assert result.payments == {"each_non_dealer": 180, "total": 540}


def test_seat_index_drives_seat_wind_and_flowers() -> None:
    """§1.6 開門位即為該一盤之東位或花牌之1號序(逆時針序): seat_index 3 is North with flowers 4f and 8f."""
    h = hand("444z34m678m99s5m 123p 456p", win="5m", seat_index=3, seat_wind="E", flowers=["4f", "8f", "1f"])
    result = scoring.score(h, "taiwan16")
    assert {i.id: i.points for i in result.items} == {"seat_wind_pung": 1, "own_flower": 2}


# ---- the command line ------------------------------------------------------------------------------------


def test_cli_compact(capsys: pytest.CaptureFixture[str]) -> None:
    code = mjscan(["score", "--rules", "taiwan16", CONCEALED, "--tsumo", "--set", "seat_index=0", "--json"])
    body = json.loads(capsys.readouterr().out)
    assert code == 0 and body["total"] == 3  # 門清 1 + 不求.自摸 2


def test_cli_hand_json(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.json"
    path.write_text(json.dumps([hand(CONCEALED), hand("123m456m789m234p56p3z7p")]), encoding="utf-8")
    code = mjscan(["score", "--rules", "taiwan16", "--hand", str(path)])
    first, second = json.loads(capsys.readouterr().out)
    assert code == 1  # one of the two is refused
    assert first["ok"] and first["total"] == 1
    assert second == {"ok": False, "error": {"code": "wrong_tile_count", "message": second["error"]["message"]}}


def test_cli_refusal_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert mjscan(["score", "--rules", "taiwan16", "123m456m789m234p55p"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjscan score: wrong tile count") and err.count("\n") == 1


def test_rule_card_names_every_item_and_choice() -> None:
    """The rule card scoring/docs/taiwan16.md lists every pattern id, each choice A1-A9 and each option."""
    from scoring.rules.taiwan16_patterns import PATTERNS

    rules = scoring.get("taiwan16")
    card = rules.card()
    rows = {p.id: next((line for line in card.splitlines() if f"`{p.id}`" in line), "") for p in PATTERNS}
    assert all(rows[p.id].startswith(f"| {p.item} |") for p in PATTERNS), rows
    assert all(f"| A{n} |" in card for n in range(1, 10))
    assert all(f"`{o.name}`" in card for o in rules.options)
    assert "Out of scope" in card and "喊碰未碰" in card and "眼牌" in card and "詐胡" in card
