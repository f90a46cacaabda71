"""The hand JSON of contracts.md, the compact command-line form, and validation messages."""

import pytest

from scoring import Hand, HandError, parse_compact

CONTRACT_EXAMPLE = {
    "concealed": ["2m", "3m", "4m", "5p", "5p"],
    "melds": [
        {"type": "chow", "tiles": ["3s", "4s", "5s"], "open": True, "called": "4s", "from": "left"},
        {"type": "pung", "tiles": ["6m", "6m", "6m"], "open": True, "from": "across"},
        {"type": "kong", "tiles": ["7z", "7z", "7z", "7z"], "open": False},
        {"type": "kong", "tiles": ["2p", "2p", "2p", "2p"], "open": True, "added": True},
    ],
    "win_tile": "8p",
    "self_drawn": False,
    "seat_wind": "E",
    "round_wind": "E",
    "flowers": ["1f", "6f"],
}


def test_contract_example_parses_and_round_trips():
    # the contract's example illustrates the fields; it holds 5 concealed tiles beside 4 melds, so no count check
    hand = Hand.from_json(CONTRACT_EXAMPLE)
    hand.validate(hand_size=None)
    assert hand.melds[2].concealed_kong and hand.melds[3].added
    assert Hand.from_json(hand.to_json()) == hand


def test_four_melds_and_a_single_tile_make_thirteen():
    hand = Hand.from_json({**CONTRACT_EXAMPLE, "concealed": ["5p"], "win_tile": "5p"})
    hand.validate(hand_size=13)
    assert hand.tile_count == 13


def test_unknown_fields_are_kept_for_later_rule_sets():
    hand = Hand.from_json({**CONTRACT_EXAMPLE, "future_flag": 3})
    assert hand.to_json()["future_flag"] == 3


def _error(obj=None, hand_size=None, **changes):
    data = {**CONTRACT_EXAMPLE, **changes} if obj is None else obj
    with pytest.raises(HandError) as err:
        Hand.from_json(data).validate(hand_size=hand_size)
    return err.value


def test_fifth_copy_is_refused():
    err = _error(concealed=["2p", "3m", "4m", "5p", "5p"])
    assert err.code == "too_many_copies" and "5 copies of 2p" in err.message


def test_unknown_code_is_refused():
    err = _error(concealed=["2m", "3m", "4m", "5p", "5x"])
    assert err.code == "unknown_tile" and "5x" in err.message


def test_malformed_melds_are_refused():
    assert _error(melds=[{"type": "chow", "tiles": ["3s", "5s", "6s"]}]).code == "bad_meld"
    assert _error(melds=[{"type": "chow", "tiles": ["8s", "9s", "1p"]}]).code == "bad_meld"
    assert _error(melds=[{"type": "pung", "tiles": ["1z", "1z", "2z"]}]).code == "bad_meld"
    assert _error(melds=[{"type": "kong", "tiles": ["1z", "1z", "1z"]}]).code == "bad_meld"
    assert _error(melds=[{"type": "pair", "tiles": ["1z", "1z"]}]).code == "bad_meld"
    assert _error(melds=[{"type": "pung", "tiles": ["1z"] * 3, "called": "2z"}]).code == "bad_meld"
    assert _error(melds=[{"type": "pung", "tiles": ["1z"] * 3, "from": "behind"}]).code == "bad_meld"


def test_wrong_tile_count_names_both_counts():
    err = _error(concealed=["2m", "3m", "4m", "5p"], hand_size=13)
    assert err.code == "wrong_tile_count" and "17" in err.message and "14" in err.message


def test_winning_tile_that_cannot_exist():
    assert _error(win_tile="8z").code == "unknown_tile"
    assert _error(win_tile="3f").code == "bad_win_tile"
    assert _error(win_tile="2p").code == "too_many_copies"  # the 2p kong holds all four


def test_bad_field_values():
    assert _error(seat_wind="X").code == "bad_field"
    assert _error(self_drawn="yes").code == "bad_field"
    assert _error(honba=-1).code == "bad_field"
    assert _error(obj=[1, 2]).code == "bad_json"


def test_flowers_in_concealed_are_set_aside():
    hand = Hand.from_json({**CONTRACT_EXAMPLE, "concealed": ["2m", "3m", "4m", "5p", "5p", "3f"]})
    assert hand.concealed == ["2m", "3m", "4m", "5p", "5p"] and hand.flowers == ["1f", "6f", "3f"]


def test_compact_form_of_the_issue_example():
    hand = parse_compact("123m456p789s11z 234p", win="4p")
    hand.validate(hand_size=13)
    assert hand.win_tile == "4p" and "4p" not in hand.concealed
    assert hand.melds[0].type == "chow" and hand.melds[0].open


def test_compact_form_melds_and_default_winning_tile():
    hand = parse_compact("1z1f5p [7777z] 2222p+ 666m 345s")
    assert hand.win_tile == "5p" and hand.concealed == ["1z"] and hand.flowers == ["1f"]
    assert [m.type for m in hand.melds] == ["kong", "kong", "pung", "chow"]
    assert hand.melds[0].concealed_kong and hand.melds[1].added and hand.melds[1].open
    hand.validate(hand_size=13)


@pytest.mark.parametrize(
    "text, win, code",
    [
        ("123m 12p", None, "bad_meld"),
        ("123m [123p]", None, "bad_meld"),
        ("123m", "9m", "bad_win_tile"),
        ("123q", None, "unknown_tile"),
        ("", None, "bad_json"),
    ],
)
def test_compact_form_refusals(text, win, code):
    with pytest.raises(HandError) as err:
        parse_compact(text, win)
    assert err.value.code == code


def test_scoring_a_value_that_is_no_hand_is_refused():
    import scoring

    with pytest.raises(HandError) as err:
        scoring.score(5, "mcr")
    assert err.value.code == "bad_json"
