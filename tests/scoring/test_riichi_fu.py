"""Riichi: one test per fu rule, the rounding, the limits and the payments (honba, riichi sticks, dealer).

Sources: DIGEST §3.4 (000 @13221) for the pinfu fu ("平和的基本符只有副底，就算是自摸那两符一样不能算": pinfu has
only the base fu, and not the 2 fu of tsumo either) and §3.4 / §3.5 for the 1000-point riichi stick; the rule
card ``scoring/docs/riichi.md`` (sections "Fu", "Points", common practice) for the rest. The winner is a
non-dealer (South) in the East round unless the test says otherwise.
"""

from __future__ import annotations

import pytest
from test_riichi import PLAIN, han_fu_main, ids, score

from scoring.rules.riichi_points import base_points, settle

DEFAULTS = {"counted_yakuman": "limited", "kiriage": False}


def fu_of(result) -> list[tuple[str, int]]:
    """The fu details of a score as (reason, fu)."""
    return [(d["reason"], d["fu"]) for d in result.extra["fu_details"]]


# ---- base, closed ron, tsumo, pinfu ------------------------------------------------------------------------


def test_base_and_closed_ron():
    # rule card: 20 base fu (futei), +10 for a closed hand won on a discard (menzen kafu); 32 -> 40
    r = score(PLAIN, riichi=True)
    assert fu_of(r) == [("base", 20), ("closed_wait", 2), ("closed_ron", 10)] and r.extra["fu"] == 40


def test_tsumo_two_fu():
    # rule card: +2 for a self-draw; 20 + 2 + 2 = 24 -> 30
    r = score(PLAIN, self_drawn=True)
    assert fu_of(r) == [("base", 20), ("closed_wait", 2), ("tsumo", 2)] and r.extra["fu"] == 30


def test_pinfu_has_only_the_base_fu():
    # DIGEST §3.4: pinfu has only the base fu, the 2 tsumo fu are not added: ron 20 + 10 = 30, tsumo 20
    assert fu_of(score("123m456m789p2355s4s")) == [("base", 20), ("closed_ron", 10)]
    assert fu_of(score("123m456m789p2355s4s", self_drawn=True)) == [("base", 20)]


def test_pinfu_tsumo_fu_option_gives_tsumo_fu_instead_of_pinfu():
    # option pinfu_tsumo_fu (pinzumo nashi): a self-drawn pinfu shape takes the 2 tsumo fu and loses pinfu:
    # menzen tsumo 1 han, 22 -> 30 fu; base 240: the dealer pays 500, the others 300
    r = score("123m456m789p2355s4s", self_drawn=True, options={"pinfu_tsumo_fu": True})
    assert ids(r) == ["menzen_tsumo"] and fu_of(r) == [("base", 20), ("tsumo", 2)] and r.extra["fu"] == 30
    assert (r.extra["points"]["main"], r.extra["points"]["additional"]) == (500, 300)
    assert "self-drawn pinfu shape: 2 tsumo fu instead of pinfu (option pinfu_tsumo_fu)" in r.notes
    assert ids(score("123m456m789p2355s4s", options={"pinfu_tsumo_fu": True})) == ["pinfu"]  # ron: unchanged


def test_open_hand_without_fu():
    # rule card: an open hand won on a discard with no fu gets 2 fu (30), option open_pinfu_fu; without it
    # it stays 20. Open tanyao 234m 456p 23s+4s 55s + chow 678m: 1 han 30 fu = 1000, or 20 fu = 640 -> 700
    r = score("234m456p2355s4s 678m")
    assert fu_of(r) == [("base", 20), ("open_pinfu", 2)] and han_fu_main(r) == (1, 30, 1000)
    r = score("234m456p2355s4s 678m", options={"open_pinfu_fu": False})
    assert fu_of(r) == [("base", 20)] and han_fu_main(r) == (1, 20, 700)


def test_open_hand_self_drawn_takes_the_tsumo_fu():
    # rule card: the 2 tsumo fu are given on every self-draw but pinfu's; an open hand is never pinfu, so an
    # open self-draw without other fu is 22 -> 30 whatever open_pinfu_fu says (mahjong gives 20 when that
    # option is off: a known difference, listed in the rule card)
    for value in (True, False):
        r = score("234m456p2355s4s 678m", self_drawn=True, options={"open_pinfu_fu": value})
        assert fu_of(r) == [("base", 20), ("tsumo", 2)] and r.extra["fu"] == 30


def test_seven_pairs_flat_25_even_self_drawn():
    # rule card: seven pairs 25 fu, not rounded, no tsumo fu. Tsumo: chiitoitsu 2 + menzen tsumo 1 = 3 han:
    # base 25 x 32 = 800: the dealer pays 1600, the others 800
    r = score("1133m5577p2244s6z6z", self_drawn=True)
    assert fu_of(r) == [("seven_pairs", 25)] and r.extra["fu"] == 25
    assert (r.extra["points"]["main"], r.extra["points"]["additional"]) == (1600, 800)


# ---- waits ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("123m456m789p1255s3s", "edge_wait"),  # 12s waiting on 3s (penchan)
        (PLAIN, "closed_wait"),  # 24s waiting on 3s (kanchan)
        ("123m456m789p2345s5s", "single_wait"),  # 234s with 5s waiting on 5s (tanki)
    ],
)
def test_edge_closed_and_single_waits_are_2_fu(text, reason):
    # rule card: edge, closed and single (pair) waits are 2 fu; 20 + 10 + 2 = 32 -> 40
    r = score(text, riichi=True)
    assert (reason, 2) in fu_of(r) and r.extra["fu"] == 40


def test_two_sided_and_dual_pung_waits_score_no_fu():
    # rule card: a two-sided wait and a dual pung wait (shanpon) are 0 fu
    assert fu_of(score("123m456m789p2355s4s", riichi=True)) == [("base", 20), ("closed_ron", 10)]
    # 222m 789m 444p + 66s 11s won on 6s, self-drawn: three concealed simple pungs 3 x 4, tsumo 2: 34 -> 40
    r = score("222789m444p66s11s6s", self_drawn=True)
    assert not any(reason.endswith("_wait") for reason, _ in fu_of(r)) and r.extra["fu"] == 40


# ---- the pair ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pair", "seat", "expected"),
    [
        ("77z", "S", [("dragon_pair", 2)]),
        ("22z", "S", [("seat_wind_pair", 2)]),
        ("11z", "S", [("round_wind_pair", 2)]),
        ("11z", "E", [("seat_wind_pair", 2), ("round_wind_pair", 2)]),  # the double wind: 4 fu
        ("44z", "S", []),  # a guest wind: 0
    ],
)
def test_pair_fu(pair, seat, expected):
    # rule card: a pair of dragons, of the seat wind or of the round wind is 2 fu; seat and round at once 4
    r = score(f"123m456m789p23s{pair}4s", riichi=True, seat_wind=seat)
    assert [e for e in fu_of(r) if e[0].endswith("_pair")] == expected


# ---- sets ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("concealed", "meld", "reason", "fu"),
    [
        ("222p", "", "concealed_pung", 4),
        ("", "222p", "open_pung", 2),
        ("111p", "", "concealed_terminal_pung", 8),
        ("", "111p", "open_terminal_pung", 4),
        ("", "[2222p]", "concealed_kong", 16),
        ("", "2222p", "open_kong", 8),
        ("", "2222p+", "open_kong", 8),
        ("", "[1111p]", "concealed_terminal_kong", 32),
        ("", "1111p", "open_terminal_kong", 16),
        ("", "1111p+", "open_terminal_kong", 16),
        ("", "[4444z]", "concealed_terminal_kong", 32),
    ],
)
def test_set_fu(concealed, meld, reason, fu):
    # rule card: an open simple pung is 2 fu; terminal or honour doubles it, concealed doubles it, a kong is
    # four times a pung. An added kong (2222p+) is open. Houtei (last tile) gives the open hands a yaku.
    r = score(f"123m789m{concealed}99s23s4s {meld}".strip(), last_tile=True)
    assert (reason, fu) in fu_of(r)


def test_a_pung_completed_by_a_discard_is_open_for_fu():
    # rule card: won on a discard, the pung that tile completes counts as open (2 fu for 666s, not 4):
    # 20 + 10 + 4 (222m) + 4 (444p) + 2 (666s) = 40; self-drawn it is concealed (4)
    r = score("222789m444p66s11s6s", last_tile=True)
    assert ("open_pung", 2) in fu_of(r) and r.extra["fu"] == 40
    assert "the pung of 6s completed by a discard counts as open (fu, concealed pungs)" in r.notes
    assert [f for reason, f in fu_of(score("222789m444p66s11s6s", self_drawn=True)) if reason.endswith("pung")] == [
        4,
        4,
        4,
    ]


def test_fu_are_rounded_up_to_ten():
    # rule card: the sum is rounded up to a multiple of 10. 123s 456s 9s+9s with concealed kongs [1111m]
    # [9999p]: 20 + 10 (closed ron) + 32 + 32 + 2 (single wait) = 96 -> 100; riichi 1 han 100 fu: 800 x 4 = 3200
    r = score("1234569s9s [1111m] [9999p]", riichi=True)
    assert sum(f for _, f in fu_of(r)) == 96 and han_fu_main(r) == (1, 100, 3200)


# ---- points ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("han", "fu", "non_dealer_ron", "dealer_ron", "tsumo_dealer_pays", "tsumo_others_pay", "dealer_tsumo_each"),
    [
        (1, 30, 1000, 1500, 500, 300, 500),
        (1, 40, 1300, 2000, 700, 400, 700),
        (2, 20, 1300, 2000, 700, 400, 700),
        (2, 25, 1600, 2400, 800, 400, 800),
        (3, 30, 3900, 5800, 2000, 1000, 2000),
        (4, 30, 7700, 11600, 3900, 2000, 3900),
        (3, 60, 7700, 11600, 3900, 2000, 3900),
        (1, 110, 3600, 5300, 1800, 900, 1800),
        (4, 40, 8000, 12000, 4000, 2000, 4000),
    ],
)
def test_points_table(han, fu, non_dealer_ron, dealer_ron, tsumo_dealer_pays, tsumo_others_pay, dealer_tsumo_each):
    # rule card: base = fu x 2^(han + 2), at most 2000 (mangan); ron: 4 x base (dealer 6 x), tsumo: the dealer
    # pays 2 x base and the others 1 x base (a dealer winner: 2 x base from each); each payment rounded up to 100
    base, _ = base_points(han, fu, 0, DEFAULTS)
    assert settle(base, False, False, 0, 0)["main"] == non_dealer_ron
    assert settle(base, True, False, 0, 0)["main"] == dealer_ron
    tsumo = settle(base, False, True, 0, 0)
    assert (tsumo["main"], tsumo["additional"]) == (tsumo_dealer_pays, tsumo_others_pay)
    dealer = settle(base, True, True, 0, 0)
    assert dealer["main"] == dealer["additional"] == dealer_tsumo_each


@pytest.mark.parametrize(
    ("han", "base", "limit"),
    [
        (5, 2000, "mangan"),
        (6, 3000, "haneman"),
        (7, 3000, "haneman"),
        (8, 4000, "baiman"),
        (10, 4000, "baiman"),
        (11, 6000, "sanbaiman"),
        (12, 6000, "sanbaiman"),
        (13, 8000, "counted yakuman"),
        (20, 8000, "counted yakuman"),
    ],
)
def test_limits(han, base, limit):
    # rule card: 5 han mangan, 6-7 haneman, 8-10 baiman, 11-12 sanbaiman, 13+ counted yakuman (fu do not matter)
    assert base_points(han, 30, 0, DEFAULTS) == (base, limit)


def test_counted_yakuman_options():
    # option counted_yakuman: limited (a yakuman), sanbaiman, or none (each 13 han one more yakuman)
    assert base_points(26, 30, 0, {**DEFAULTS, "counted_yakuman": "sanbaiman"}) == (6000, "sanbaiman (counted)")
    assert base_points(26, 30, 0, {**DEFAULTS, "counted_yakuman": "none"}) == (16000, "counted double yakuman")
    assert base_points(14, 30, 0, {**DEFAULTS, "counted_yakuman": "none"}) == (8000, "counted yakuman")


def test_yakuman_multiples():
    # rule card: a yakuman is 8000 base points, a double 16000, and so on
    assert base_points(13, 0, 1, DEFAULTS) == (8000, "yakuman")
    assert base_points(26, 0, 2, DEFAULTS) == (16000, "double yakuman")
    assert base_points(39, 0, 3, DEFAULTS) == (24000, "triple yakuman")


def test_kiriage_mangan():
    # option kiriage: 4 han 30 fu and 3 han 60 fu (base 1920) are rounded up to mangan
    kiriage = {**DEFAULTS, "kiriage": True}
    assert base_points(4, 30, 0, DEFAULTS) == (1920, None)
    assert base_points(4, 30, 0, kiriage) == (2000, "mangan (kiriage)")
    assert base_points(3, 60, 0, kiriage) == (2000, "mangan (kiriage)")
    assert base_points(3, 50, 0, kiriage) == (1600, None)


def test_honba_and_riichi_sticks_on_a_ron():
    # rule card: each honba adds 300 from the discarder; DIGEST §3.4: the winner takes the 1000-point riichi
    # sticks. PLAIN riichi: 1300 + 2 honba 600 + 1 stick 1000 = 2900
    r = score(PLAIN, riichi=True, honba=2, riichi_sticks=1)
    p = r.extra["points"]
    assert (p["main"], p["main_bonus"], p["riichi_sticks"], p["total"]) == (1300, 600, 1000, 2900)
    assert r.payments == {"discarder": 1900, "riichi_sticks": 1000}


def test_honba_on_a_tsumo():
    # rule card: each honba adds 100 from each payer. PLAIN riichi tsumo: riichi + menzen tsumo 2 han,
    # 20 + 2 + 2 = 24 -> 30 fu: base 480: the dealer pays 960 -> 1000, each other 480 -> 500; 1 honba:
    # 1100 + 2 x 600 = 2300
    r = score(PLAIN, riichi=True, self_drawn=True, honba=1)
    p = r.extra["points"]
    assert (p["main"], p["additional"], p["main_bonus"], p["additional_bonus"], p["total"]) == (
        1000,
        500,
        100,
        100,
        2300,
    )
    assert r.payments == {"dealer": 1100, "each_non_dealer": 600}


def test_dealer_tsumo_everyone_pays_the_same():
    # rule card: a dealer's self-draw: each player pays 2 x base. Base 480: 960 -> 1000 each, total 3000
    r = score(PLAIN, riichi=True, self_drawn=True, seat_wind="E")
    assert r.payments == {"each_non_dealer": 1000} and r.extra["points"]["total"] == 3000
