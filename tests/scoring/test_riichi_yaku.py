"""Riichi: one test per yaku (closed and open values, what it excludes), yakuman and double yakuman, dora.

Each case names the rule and its source: DIGEST §3.4 (000 @13221) for the four yaku the sources give
(riichi, pinfu, tanyao, iipeikou); the rule card ``scoring/docs/riichi.md`` (section "Yaku", common practice)
for the others. The expected result is worked out in the comment. The winner is a non-dealer (South) in the
East round unless the test says otherwise; ``N`` = non-dealer ron, base = fu x 2^(han + 2).
"""

from __future__ import annotations

import pytest
from test_riichi import PLAIN, han_fu_main, ids, score

# ---- situation yaku ---------------------------------------------------------------------------------------


def test_riichi():
    # DIGEST §3.4 立直: 1 han, closed hand. PLAIN ron: 1 han 40 fu (see test_riichi), N 1300
    assert ids(r := score(PLAIN, riichi=True)) == ["riichi"] and han_fu_main(r) == (1, 40, 1300)


def test_double_riichi_replaces_riichi():
    # rule card: double riichi 2 han, not counted with riichi. 2 han 40 fu: 640 x 4 = 2560 -> 2600
    assert ids(r := score(PLAIN, riichi=True, double_riichi=True)) == ["double_riichi"]
    assert han_fu_main(r) == (2, 40, 2600)
    assert ids(score(PLAIN, double_riichi=True)) == ["double_riichi"]


def test_ippatsu():
    # DIGEST §3.4: riichi grants the right to ippatsu (一发); rule card: 1 han. 2 han 40 fu: 2600
    assert ids(r := score(PLAIN, riichi=True, ippatsu=True)) == ["riichi", "ippatsu"] and han_fu_main(r)[2] == 2600


def test_menzen_tsumo():
    # rule card: closed self-draw 1 han. fu 20 + 2 closed wait + 2 tsumo = 24 -> 30; base 240:
    # the dealer pays 480 -> 500, each non-dealer 240 -> 300
    r = score(PLAIN, self_drawn=True)
    assert ids(r) == ["menzen_tsumo"] and r.extra["fu"] == 30
    assert (r.extra["points"]["main"], r.extra["points"]["additional"]) == (500, 300)
    assert r.items[0].tiles == ["3s"]


def test_menzen_tsumo_needs_a_closed_hand():
    # open hand 123m 456p 234s 99s + chow 789m self-drawn: no menzen tsumo, no other yaku -> no win
    assert not score("123m456p99s234s 789m", self_drawn=True).winning


def test_haitei_and_houtei():
    # rule card: the last tile of the wall self-drawn (haitei) or its discard (houtei): 1 han, also open
    assert ids(score("123m456p99s234s 789m", last_tile=True, self_drawn=True)) == ["haitei"]
    assert ids(score("123m456p99s234s 789m", last_tile=True)) == ["houtei"]


def test_rinshan():
    # rule card: won on the replacement tile after a kong: 1 han (open 1). The open kong 4444z (North, a guest
    # wind) gives no yaku of its own.
    assert ids(score("123m456p99s234s 4444z", kong_replacement=True, self_drawn=True)) == ["rinshan"]


def test_chankan():
    # rule card: won on a tile added to another player's kong: 1 han
    assert ids(score("123m456p23s99s4s 789m", robbing_kong=True)) == ["chankan"]


# ---- one han ----------------------------------------------------------------------------------------------


def test_pinfu_ron_and_tsumo():
    # DIGEST §3.4 平和: closed, all chows, pair not valued, two-sided wait; "only the base fu 副底, the 2 fu of
    # tsumo are not added either". 123m 456m 789p 23s+4s 55s. Ron: 30 fu, 1 han: 240 x 4 = 960 -> 1000.
    assert ids(r := score("123m456m789p2355s4s")) == ["pinfu"] and han_fu_main(r) == (1, 30, 1000)
    # tsumo: pinfu + menzen tsumo, 20 fu: base 320; dealer pays 640 -> 700, each non-dealer 320 -> 400
    r = score("123m456m789p2355s4s", self_drawn=True)
    assert ids(r) == ["menzen_tsumo", "pinfu"] and r.extra["fu"] == 20
    assert (r.extra["points"]["main"], r.extra["points"]["additional"]) == (700, 400)


def test_pinfu_pair_may_be_a_guest_wind_but_not_a_valued_one():
    # DIGEST §3.4: the pair is not a dragon, the seat or the round wind; a guest wind (客风) may be the pair.
    # South seat, East round: a pair of West (3z) is a guest -> pinfu; South (2z) is the seat wind -> no pinfu.
    assert "pinfu" in ids(score("123m456m789p23s33z4s", riichi=True))
    assert "pinfu" not in ids(score("123m456m789p23s22z4s", riichi=True))
    assert "pinfu" not in ids(score("123m456m789p23s11z4s", riichi=True))  # East round wind
    assert "pinfu" not in ids(score("123m456m789p23s77z4s", riichi=True))  # red dragon


def test_pinfu_needs_a_two_sided_wait_and_a_closed_hand():
    # DIGEST §3.4: the wait must be two-sided (两面听); pinfu is closed only (门前)
    assert "pinfu" not in ids(score(PLAIN, riichi=True))  # 2_4 closed wait
    assert "pinfu" not in ids(score("123m456m789p1255s3s", riichi=True))  # 12 edge wait
    assert not score("123m456p2355s4s 789m").winning  # open: no pinfu, no yaku


def test_pinfu_takes_the_two_sided_reading_of_an_ambiguous_wait():
    # 123m 456m 789p + 3455s won on 5s: 34s+5s (two-sided) with the pair 55s, or 345s with 5s+5s (single wait).
    # The most valuable reading counts: riichi + pinfu 2 han 30 fu = 480 x 4 = 1920 -> 2000, against riichi
    # alone 1 han 40 fu = 1300.
    r = score("123m456m789p3455s5s", riichi=True)
    assert ids(r) == ["riichi", "pinfu"] and han_fu_main(r) == (2, 30, 2000)


def test_tanyao_closed_and_open():
    # DIGEST §3.4 断么九: all simples; 1 han, also open (吃断) -> option open_tanyao, default on.
    # closed 234m 567p 345s 678s + 8p8p single wait: 1 han, fu 20 + 10 + 2 = 32 -> 40: N 1300
    assert ids(r := score("234m567p345s678s8p8p")) == ["tanyao"] and han_fu_main(r) == (1, 40, 1300)
    # open (chow 234m): fu 20 + 2 single = 22 -> 30: 960 -> 1000
    assert ids(r := score("567p345s678s8p8p 234m")) == ["tanyao"] and han_fu_main(r) == (1, 30, 1000)
    assert r.notes[-1] == "open tanyao (kuitan) counts: option open_tanyao"


def test_tanyao_open_is_off_with_the_option():
    # DIGEST §3.4: "也有地方不承认吃断" (some places do not allow open tanyao): option open_tanyao=false
    result = score("567p345s678s8p8p 234m", options={"open_tanyao": False})
    assert not result.winning
    assert ids(score("234m567p345s678s8p8p", options={"open_tanyao": False})) == ["tanyao"]  # closed still counts


def test_iipeikou_and_it_is_lost_when_open():
    # DIGEST §3.4 一盃口: two identical chows, 1 han, lost after any call.
    # 234m 234m 567p 789s 1s1s single wait: 1 han 40 fu: 1300
    assert ids(r := score("223344m567p789s1s1s")) == ["iipeikou"] and han_fu_main(r) == (1, 40, 1300)
    assert not score("234m567p789s1s1s 234m").winning


def test_yakuhai_dragons():
    # rule card: a pung or kong of a dragon, 1 han each, open too. Open pung 555z (white):
    # fu 20 + 4 open honour pung + 2 single wait = 26 -> 30: 1000
    r = score("123m456p789s1s1s 555z")
    assert ids(r) == ["yakuhai_haku"] and han_fu_main(r) == (1, 30, 1000)
    assert r.items[0].name_en == "Yakuhai (haku)" and r.items[0].names == {"name_ja": "役牌 白"}
    assert r.items[0].tiles == ["5z", "5z", "5z"]
    assert ids(score("123m456p789s1s1s 666z")) == ["yakuhai_hatsu"]
    assert ids(score("123m456p789s1s1s 777z")) == ["yakuhai_chun"]


def test_yakuhai_seat_and_round_winds_and_the_double_wind():
    # rule card: the seat wind and the round wind are each 1 han; East for an East seat in the East round is 2
    assert ids(score("123m456p789s1s1s 222z")) == ["yakuhai_seat_south"]  # seat South
    assert ids(score("123m456p789s1s1s 111z")) == ["yakuhai_round_east"]  # round East
    r = score("123m456p789s1s1s 111z", seat_wind="E")
    assert ids(r) == ["yakuhai_seat_east", "yakuhai_round_east"] and r.extra["han"] == 2
    assert not score("123m456p789s1s1s 444z").winning  # North: a guest wind, no yaku


# ---- two han ----------------------------------------------------------------------------------------------


def test_chiitoitsu():
    # rule card: seven different pairs, 2 han closed, flat 25 fu: base 25 x 16 = 400, x 4 = 1600
    r = score("1133m5577p2244s6z6z")
    assert ids(r) == ["chiitoitsu"] and han_fu_main(r) == (2, 25, 1600)
    assert r.notes[-1] == "seven pairs: a flat 25 fu"


def test_chiitoitsu_needs_seven_different_pairs():
    # rule card: four equal tiles are not two pairs
    assert not score("1111m5577p2244s6z6z").winning


def test_chanta_closed_and_open():
    # rule card: every set and the pair hold a terminal or honour, with a chow and an honour: 2 han, open 1.
    # 123m 999m 789p 789s 4z4z (North: guest): fu 20 + 10 + 8 (concealed 999m) + 2 single = 40: 2 han: 2600
    assert ids(r := score("123m999m789p789s4z4z")) == ["chanta"] and han_fu_main(r) == (2, 40, 2600)
    assert ids(score("123m999m789p4z4z 789s")) == ["chanta"] and score("123m999m789p4z4z 789s").total == 1


def test_junchan_closed_and_open():
    # rule card: as chanta without honours: 3 han, open 2. 123m 999m 789p 789s 1p1p: fu 40: 3 han 40 fu = 5200
    assert ids(r := score("123m999m789p789s1p1p")) == ["junchan"] and han_fu_main(r) == (3, 40, 5200)
    assert score("123m999m789p1p1p 789s").total == 2


def test_ittsu_closed_and_open():
    # rule card: 123 456 789 of one suit, 2 han, open 1. 1234567m 9m + 8m (closed wait) 234p 55s:
    # fu 20 + 10 + 2 = 32 -> 40: 2600
    assert ids(r := score("12345679m234p55s8m")) == ["ittsu"] and han_fu_main(r) == (2, 40, 2600)
    assert ids(r := score("4567m9m234p55s8m 123m")) == ["ittsu"] and r.total == 1


def test_a_declared_chow_written_out_of_order_still_makes_its_yaku():
    # a chow is a set of tiles, not a sequence: "978m" is the chow 789m, so 123m 456m + 789m is ittsu (open, 1 han)
    r = score("123m456m99p 978m 234s", win="9p")
    assert ids(r) == ["ittsu"] and r.total == 1


def test_sanshoku_closed_and_open():
    # rule card: the same chow in the three suits, 2 han, open 1. 234m 234p 234s 678m 9s9s: 40 fu: 2600
    assert ids(r := score("234678m234p234s9s9s")) == ["sanshoku"] and han_fu_main(r) == (2, 40, 2600)
    assert ids(r := score("234678m234p9s9s 234s")) == ["sanshoku"] and r.total == 1


def test_sanshoku_doukou():
    # rule card: the same pung in the three suits, 2 han open or closed. 222m 222p 567m 9s9s + open 222s:
    # fu 20 + 4 + 4 (concealed simples) + 2 (open simple) + 2 single = 32 -> 40: 2600
    assert ids(r := score("222567m222p9s9s 222s")) == ["sanshoku_doukou"] and han_fu_main(r) == (2, 40, 2600)


def test_sankantsu():
    # rule card: three kongs, 2 han. [1111m] [2222p] 3333s open, 567p, 9s9s single:
    # fu 20 + 32 + 16 + 8 + 2 = 78 -> 80; 2 han 80 fu: 1280 x 4 = 5120 -> 5200
    r = score("567p9s9s [1111m] [2222p] 3333s")
    assert ids(r) == ["sankantsu"] and han_fu_main(r) == (2, 80, 5200)


def test_toitoi():
    # rule card: four pungs or kongs, 2 han. 888s 6m6m + open 222m 333p 999p:
    # fu 20 + 2 + 2 + 4 (open 999p) + 4 (concealed 888s) + 2 single = 34 -> 40: 2600
    r = score("888s6m6m 222m 333p 999p")
    assert ids(r) == ["toitoi"] and han_fu_main(r) == (2, 40, 2600)


def test_sanankou_and_a_pung_completed_by_a_discard_is_not_concealed():
    # rule card: three concealed pungs, 2 han. 222m 444p 666s 789m 1s1s on 1s (single):
    # fu 20 + 10 + 4 + 4 + 4 + 2 = 44 -> 50: 2 han 50 fu = 800 x 4 = 3200
    assert ids(r := score("222789m444p666s1s1s")) == ["sanankou"] and han_fu_main(r) == (2, 50, 3200)
    # the same tiles won on 6s (a pung completed by a discard counts as open): two concealed pungs, no yaku
    assert not score("222789m444p66s11s6s").winning
    # self-drawn, the pung stays concealed: sanankou + menzen tsumo
    assert ids(score("222789m444p66s11s6s", self_drawn=True)) == ["menzen_tsumo", "sanankou"]


def test_shousangen():
    # rule card: two dragon pungs and a dragon pair, 2 han, plus the yakuhai of the two pungs.
    # 555z 666z 77z 123m 456p won on 3m (12 edge): 4 han; fu 20 + 10 + 8 + 8 + 2 (dragon pair) + 2 = 50:
    # 50 x 64 = 3200 > 2000: mangan, N 8000
    r = score("12m456p555666z77z3m")
    assert ids(r) == ["yakuhai_haku", "yakuhai_hatsu", "shousangen"]
    assert han_fu_main(r) == (4, 50, 8000) and r.extra["points"]["limit"] == "mangan"


def test_honroutou_with_seven_pairs():
    # rule card: only terminals and honours, 2 han (with toitoi or seven pairs).
    # 11m 99m 11p 99p 11s 11z 55z: chiitoitsu 2 + honroutou 2 = 4 han 25 fu: 25 x 64 = 1600, x 4 = 6400
    r = score("1199m1199p11s11z5z5z")
    assert ids(r) == ["chiitoitsu", "honroutou"] and han_fu_main(r) == (4, 25, 6400)


def test_honroutou_with_toitoi():
    # 111m 999p 111s 44z (North) + open 999s: toitoi 2 + honroutou 2 (sanankou? 111m 999p 111s concealed:
    # won on 4z single, so yes, 2 more) = 6 han: haneman, N 12000
    r = score("111m999p111s4z4z 999s")
    assert ids(r) == ["toitoi", "sanankou", "honroutou"] and han_fu_main(r)[0] == 6
    assert r.extra["points"]["main"] == 12000


# ---- three han and more -----------------------------------------------------------------------------------


def test_ryanpeikou_beats_seven_pairs_and_replaces_iipeikou():
    # rule card: two pairs of identical chows, 3 han closed, not with iipeikou. 223344m 556677p 9s9s:
    # as ryanpeikou 3 han, fu 20 + 10 + 2 = 32 -> 40: 5200; as seven pairs 2 han 25 fu: 1600. The higher wins.
    r = score("223344m556677p9s9s")
    assert ids(r) == ["ryanpeikou"] and han_fu_main(r) == (3, 40, 5200)


def test_honitsu_closed_and_open():
    # rule card: one suit and honours, 3 han, open 2. 123m 345m 777m 333z 4z4z (guest winds):
    # fu 20 + 10 + 4 + 8 + 2 = 44 -> 50; 3 han 50 fu: 1600 x 4 = 6400
    assert ids(r := score("123345777m333z4z4z")) == ["honitsu"] and han_fu_main(r) == (3, 50, 6400)
    assert score("123777m333z4z4z 345m").total == 2


def test_chinitsu_closed_and_open():
    # rule card: one suit only, 6 han, open 5. 234m 456m 777m 55m + 99m9m on 9m (a pung completed on a
    # discard): haneman N 12000
    r = score("23445677799m55m9m")
    assert ids(r) == ["chinitsu"] and r.extra["han"] == 6 and r.extra["points"]["main"] == 12000
    r = score("45677799m55m9m 234m")
    assert ids(r) == ["chinitsu"] and r.extra["han"] == 5 and r.extra["points"]["limit"] == "mangan"


# ---- yakuman -----------------------------------------------------------------------------------------------


def test_kokushi_single_wait_and_thirteen_sided():
    # rule card: thirteen orphans 13 han (yakuman, N 32000); won on the tile of its pair after a 13-sided wait:
    # double yakuman (26 han, N 64000) with option double_yakuman, else 13
    r = score("9m19p19s12345677z1m")
    assert ids(r) == ["kokushi"] and han_fu_main(r) == (13, 0, 32000)
    r = score("19m19p19s1234567z1m")
    assert ids(r) == ["kokushi_13"] and han_fu_main(r) == (26, 0, 64000)
    assert r.extra["points"]["limit"] == "double yakuman" and r.items[0].extra == {"yakuman": 2}
    assert han_fu_main(score("19m19p19s1234567z1m", options={"double_yakuman": False}))[::2] == (13, 32000)


def test_suuankou_and_tanki():
    # rule card: four concealed pungs, yakuman; won on the pair (tanki): double yakuman.
    # self-drawn on 3s: 13 han; non-dealer tsumo yakuman: the dealer pays 16000, the others 8000
    r = score("111m222p33s444z55z3s", self_drawn=True)
    assert ids(r) == ["suuankou"] and r.extra["points"]["main"] == 16000 and r.extra["points"]["additional"] == 8000
    # won on a discard completing 333s: that pung is open, no yakuman (toitoi + sanankou + menzen? no: ron)
    assert "suuankou" not in ids(score("111m222p33s444z55z3s"))
    assert ids(score("111m222p333s444z5z5z")) == ["suuankou_tanki"]


def test_daisangen():
    # rule card: three dragon pungs, yakuman (open too). N ron 32000
    r = score("555z666z777z123m9p9p")
    assert ids(r) == ["daisangen"] and r.extra["points"]["main"] == 32000


def test_shousuushii_and_daisuushii():
    # rule card: three wind pungs and a wind pair: yakuman; four wind pungs: double yakuman
    assert ids(score("111z222z333z789m4z4z")) == ["shousuushii"]
    r = score("222z333z444z9m9m 111z")  # one pung open, so that it is not also suuankou tanki
    assert ids(r) == ["daisuushii"] and r.total == 26


def test_tsuuiisou():
    # rule card: honours only, yakuman. Open 111z so that it is not also suuankou
    assert ids(score("222z555z666z7z7z 111z")) == ["tsuuiisou"]


def test_ryuuiisou():
    # rule card: only 2 3 4 6 8 bamboo and green dragons, yakuman (the green dragon is not required)
    assert ids(score("234234666888s6z6z")) == ["ryuuiisou"]
    assert ids(score("234234666888s22s")) == ["ryuuiisou"]


def test_chinroutou():
    # rule card: terminals only, yakuman. Open 999p so that it is not also suuankou
    assert ids(score("111999m111p1s1s 999p")) == ["chinroutou"]


def test_chuuren_and_junsei_chuuren():
    # rule card: 1112345678999 + any tile of the suit, closed: yakuman; when the 13 tiles before the win were
    # exactly 1112345678999 (a nine-sided wait): double yakuman
    assert ids(score("1113345678999m2m")) == ["chuuren"]
    r = score("1112345678999m5m")
    assert ids(r) == ["junsei_chuuren"] and r.total == 26


def test_suukantsu():
    # rule card: four kongs, yakuman
    assert ids(score("5z5z [1111m] [2222p] 3333s+ 4444z")) == ["suukantsu"]


def test_tenhou_chiihou():
    # rule card: the dealer wins on the first draw (tenhou), a non-dealer on their first draw (chiihou):
    # yakuman. Dealer tsumo yakuman: each pays 16000.
    r = score("123m456m789p2355s4s", heavenly_win=True, self_drawn=True, seat_wind="E")
    assert ids(r) == ["tenhou"] and r.payments == {"each_non_dealer": 16000}
    assert ids(score("123m456m789p2355s4s", earthly_win=True, self_drawn=True)) == ["chiihou"]


def test_renhou_five_han_or_yakuman():
    # rule card: a non-dealer's win on a discard before their first draw: 5 han (mangan), or yakuman with
    # option renhou_yakuman. 123m 456m 789p 23s+4s 55s: renhou 5 + pinfu 1 = 6 han: haneman 12000
    r = score("123m456m789p2355s4s", human_win=True)
    assert ids(r) == ["renhou", "pinfu"] and r.extra["han"] == 6 and r.extra["points"]["main"] == 12000
    r = score("123m456m789p2355s4s", human_win=True, options={"renhou_yakuman": True})
    assert ids(r) == ["renhou_yakuman"] and r.extra["points"]["main"] == 32000


def test_yakuman_add_up():
    # rule card: yakuman add up: daisangen + tsuuiisou (+ suuankou when concealed): tsuuiisou + daisangen with
    # an open 555z: 26 han, N 64000
    r = score("666z777z111z2z2z 555z")
    assert ids(r) == ["daisangen", "tsuuiisou"] and r.extra["points"]["main"] == 64000


def test_counted_yakuman_limits():
    # rule card: 13 han or more without a yakuman is a counted yakuman (option counted_yakuman).
    # 123m 123m 456m 789m 55m self-drawn on 4m (56m two-sided) after riichi: riichi 1 + menzen tsumo 1 +
    # pinfu 1 + iipeikou 1 + ittsu 2 + chinitsu 6 = 12 han; indicator 4m makes the three 5m dora: 15 han.
    # limited: a yakuman, base 8000: the dealer pays 16000, each other 8000; sanbaiman: base 6000 -> 12000 / 6000
    kw = {"riichi": True, "self_drawn": True, "dora_indicators": ["4m"]}
    r = score("1122335556789m4m", **kw)
    assert ids(r) == ["riichi", "menzen_tsumo", "pinfu", "iipeikou", "ittsu", "chinitsu", "dora"]
    assert r.extra["han"] == 15 and r.extra["points"]["limit"] == "counted yakuman"
    assert (r.extra["points"]["main"], r.extra["points"]["additional"]) == (16000, 8000)
    r = score("1122335556789m4m", options={"counted_yakuman": "sanbaiman"}, **kw)
    assert r.extra["points"]["limit"] == "sanbaiman (counted)" and r.extra["points"]["main"] == 12000


# ---- dora ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [("1m", "2m"), ("9m", "1m"), ("4z", "1z"), ("1z", "2z"), ("7z", "5z"), ("5z", "6z"), ("0p", "6p")],
)
def test_dora_follows_the_indicator_in_its_cycle(indicator, dora):
    # rule card: the dora is the tile after the indicator: 1-9 then 1 in a suit, E S W N then E, white green
    # red then white. The hand 123m 456m 789p 24s+3s holds a pair of the dora: riichi 1 + one han per copy.
    r = score(f"123m456m789p24s{dora[0]}{dora}3s", riichi=True, dora_indicators=[indicator])
    copies = sum(1 for group in r.arrangement for c in group if c == dora)
    assert r.items[-1].id == "dora" and r.items[-1].tiles == [dora] and r.extra["han"] == 1 + copies


def test_dora_count_each_copy_and_each_indicator():
    # PLAIN holds 5s5s: indicator 4s makes each a dora (2 han); the indicator twice makes 4 (riichi + 4 = 5 han)
    assert score(PLAIN, riichi=True, dora_indicators=["4s"]).extra["han"] == 3
    r = score(PLAIN, riichi=True, dora_indicators=["4s", "4s"])
    assert r.extra["han"] == 5 and r.items[-1].id == "dora" and r.items[-1].count == 4


def test_kong_dora_counts_all_four_tiles():
    # a kong of 7z with indicator 6z: four dora
    r = score("123m456p99s234s [7777z]", riichi=True, dora_indicators=["6z"])
    assert [(i.id, i.count) for i in r.items] == [("riichi", 1), ("yakuhai_chun", 1), ("dora", 4)]


def test_red_fives_are_dora_with_the_option():
    # rule card: each red five 0m 0p 0s is one dora (aka dora), option red_fives (default on)
    r = score("123m406m789p2455s3s", riichi=True)
    assert ids(r) == ["riichi", "aka_dora"] and r.items[-1].tiles == ["0m"] and r.extra["han"] == 2
    assert score("123m406m789p2455s3s", riichi=True, options={"red_fives": False}).extra["han"] == 1


def test_ura_dora_count_only_after_riichi():
    # DIGEST §3.4: riichi grants the ura dora (里宝牌). Ura indicator 4s: 5s5s are two ura dora after riichi.
    assert ids(r := score(PLAIN, riichi=True, ura_dora_indicators=["4s"])) == ["riichi", "ura_dora"]
    assert r.extra["han"] == 3
    r = score(PLAIN, self_drawn=True, ura_dora_indicators=["4s"])
    assert ids(r) == ["menzen_tsumo"] and "ura dora indicators ignored: ura dora count only after riichi" in r.notes


def test_dora_are_not_added_to_a_yakuman():
    r = score("555z666z777z123m9p9p", dora_indicators=["8p"])
    assert ids(r) == ["daisangen"] and r.extra["han"] == 13 and "dora are not added to a yakuman" in r.notes
