"""Taiwanese 16-tile mahjong (十六張台灣麻將): 17-tile wins, the 36 tai items, flowers, dealer tai, payments.

The source is the complete rule text of DIGEST §1 (source 000 @0-8073, "MJ羅漢", 2004). A win is 17 tiles
(flowers and the 4th tile of each kong not counted): 5 melds + a pair, or 嚦咕嚦咕 (7 pairs + 1 pung, option
``lugulugu``), or a flower win (八仙過海, 七搶一) whatever the tiles. The tai items are data in
``taiwan16_patterns``; the settlement is ``taiwan16_settle``. The interpretation choices A1-A9 of issue 4
(DIGEST §1.9) are reported in ``notes`` whenever they decide a result. The rule card is
``scoring/docs/taiwan16.md``.

Hand fields read besides the contract's common ones: ``seat_index`` (開門序, 0 = the seat whose wall was
broken), ``heavenly_ready`` / ``earthly_ready`` (天聽 / 地聽 declared), ``heavenly_win`` / ``earthly_win`` /
``human_win`` (天胡 / 地胡 / 人胡), and three fields of this rule set: ``discarder_is_dealer`` (the player who
pays a discard win, the kong-adder robbed by 搶槓 or the player robbed by 七搶一 is the dealer),
``robbed_flower`` (七搶一: the code of the 8th flower robbed from another player) and ``robbed_flower_held``
(七搶一 way 2: that player had held it and you drew the 8th flower yourself).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from scoring.decompose import Arrangement, Shapes, arrangements, winning_kinds
from scoring.errors import HandError
from scoring.fields import Field
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.rules.taiwan16_patterns import (
    BY_ID,
    EIGHT_IMMORTALS,
    SEVEN_ROB_ONE,
    Facts,
    Hit,
    Pattern,
    Reading,
    find,
    plain_hand_shape,
)
from scoring.rules.taiwan16_settle import (
    DISCARD,
    SELF_DRAW,
    Settlement,
    dealer_involved,
    dealer_items,
    payments,
)
from scoring.ruleset import PRACTICE, Option, RuleSet
from scoring.tiles import WIND_LETTERS, WINDS, code_of, counts_of, kind, name_en, normal

_WIND_NAMES = ("East", "South", "West", "North")
_FLOWER_IDS = frozenset(("own_flower", "flower_set", "all_flowers", EIGHT_IMMORTALS, SEVEN_ROB_ONE))


def _conflicts(h: Hand, robbed: str | None, held: bool, loser_dealer: bool) -> list[tuple[bool, str]]:
    """(condition, message) pairs: situations that cannot happen together (DIGEST §1.5 items 12, 24, 30-35)."""
    declared = h.heavenly_ready or h.earthly_ready or h.earthly_win or h.human_win
    wins = sum((h.heavenly_win, h.earthly_win, h.human_win))
    return [
        (
            h.kong_replacement and not h.self_drawn,
            "槓上開花 (kong_replacement) is won on a tile drawn from the back of the wall: set self_drawn too",
        ),
        (
            h.kong_replacement and not h.flowers and not any(m.is_kong for m in h.melds),
            "a replacement tile (kong_replacement) is drawn only after a kong or a flower; this hand has neither",
        ),
        (
            h.kong_replacement
            and not h.flowers
            and any(m.is_kong for m in h.melds)
            and all(m.open and not m.added for m in h.melds if m.is_kong),
            "槓上開花 cannot follow a 碰槓 (a kong claimed from a discard): its replacement tile cannot win by "
            "self-draw (行牌禁制 2)",
        ),
        (h.robbing_kong and h.self_drawn, "搶槓 (robbing_kong) wins on another player's added tile, not a self-draw"),
        (
            h.robbing_kong and h.kong_replacement,
            "搶槓 (robbing_kong) and 槓上開花 (kong_replacement) exclude each other",
        ),
        (wins > 1, "天胡, 地胡 and 人胡 (heavenly_win, earthly_win, human_win) exclude each other"),
        (h.heavenly_ready and h.earthly_ready, "天聽 and 地聽 (heavenly_ready, earthly_ready) exclude each other"),
        (h.heavenly_win and not h.dealer, "天胡 (heavenly_win) is the dealer's win on the dealt tiles (item 33)"),
        (
            h.heavenly_win and not h.self_drawn,
            "天胡 (heavenly_win) is won on the dealt tiles, a self-draw: set self_drawn",
        ),
        (h.heavenly_win and bool(h.melds), "天胡 (heavenly_win) is won on the dealt tiles, before any meld or kong"),
        (h.heavenly_win and (h.heavenly_ready or h.earthly_ready), "天胡 comes before any 天聽 or 地聽 declaration"),
        (
            h.heavenly_ready and h.dealer,
            "天聽 (heavenly_ready) is a non-dealer's declaration (item 31); the dealer's is 地聽",
        ),
        (h.earthly_win and h.dealer, "地胡 (earthly_win) is a non-dealer's win (item 34)"),
        (
            h.earthly_win and h.self_drawn and not h.heavenly_ready,
            "地胡 by self-draw is won on the first draw after declaring 天聽 (item 34): set heavenly_ready",
        ),
        (
            h.human_win and not h.earthly_ready,
            "人胡 (human_win) is won after declaring 地聽 (item 35): set earthly_ready",
        ),
        (
            declared and h.is_open,
            "天聽, 地聽, 地胡 and 人胡 need a concealed hand: a chi, pon or open kong cancels the declaration",
        ),
        (loser_dealer and h.dealer, "discarder_is_dealer: the winner is the dealer, so the payer is not"),
        (
            loser_dealer and h.self_drawn and robbed is None,
            "discarder_is_dealer: a self-drawn win has no discarder (all three pay)",
        ),
        (robbed is not None and len(h.flowers) != 8, "七搶一 (robbed_flower): the winner ends with all 8 flowers"),
        (robbed is not None and robbed not in h.flowers, f"robbed_flower {robbed} must be one of the flowers"),
        (held and robbed is None, "robbed_flower_held describes a 七搶一: give robbed_flower too"),
    ]


class Taiwan16(RuleSet):
    """Taiwanese 16-tile mahjong: tai items, flowers, dealer tai and who pays what (DIGEST §1)."""

    name = "taiwan16"
    title = "Taiwanese 16-tile (十六張台灣麻將)"
    unit = "tai"
    hand_size = 16
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "lugulugu",
            False,
            "嚦咕嚦咕 (7 pairs + 1 pung, concealed, 8 tai) is a winning hand; the source marks it optional (選用)",
            "bool",
            origin=PRACTICE,
        ),
        Option(
            "dragon_round_tai",
            False,
            "choice A1: count the '合圈序加1台' of 箭字坎, 大三元 and 小三元 (+1 each); off: a dragon never "
            "matches a round wind",
            "bool",
            origin=PRACTICE,
        ),
        Option("base", 1, "the base stake (底) of every payment", "int", origin=PRACTICE, minimum=0),
        Option("tai_value", 1, "the value of one tai (台) in a payment", "int", origin=PRACTICE, minimum=0),
    )
    situation = (
        "self_drawn",
        "seat_index",
        "seat_wind",
        "round_wind",
        "flowers",
        "dealer",
        "dealer_streak",
        "kong_replacement",
        "last_tile",
        "robbing_kong",
        "heavenly_ready",
        "earthly_ready",
        "heavenly_win",
        "earthly_win",
        "human_win",
    )
    own_fields = (
        Field("discarder_is_dealer", "bool", False, "the player who pays (the discarder) is the dealer"),
        Field(
            "robbed_flower",
            "tile",
            None,
            "七搶一: the 8th flower, robbed from another player",
            tuple(f"{n}f" for n in range(1, 9)),
        ),
        Field("robbed_flower_held", "bool", False, "item 30, way 2: the robbed flower was held by the winner"),
    )
    completeness = "complete"
    summary = (
        "17 tiles: 5 melds + a pair; 36 tai items with the source's exclusions, flowers, 嚦咕嚦咕 (option), "
        "八仙過海 and 七搶一; dealer tai only with the dealer; payments in base + tai"
    )

    def _own_values(self, hand: Hand) -> tuple[str | None, bool, bool]:
        own = self.own(hand)
        return own["robbed_flower"], own["robbed_flower_held"], own["discarder_is_dealer"]

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """The common checks with 16 tiles + the winning tile, then the game's own (see ``_conflicts``)."""
        hand.validate(hand_size=self.hand_size)
        robbed, held, loser_dealer = self._own_values(hand)
        for shown, message in _conflicts(hand, robbed, held, loser_dealer):
            if shown:
                raise HandError("not_allowed", message)
        if hand.robbing_kong and hand.win_tile is not None:
            win = kind(hand.win_tile)
            if sum(1 for t in hand.all_tiles if kind(t) == win) > 1:
                raise HandError(
                    "not_allowed",
                    f"搶槓: the other three {normal(hand.win_tile)} are in the kong being robbed, "
                    "so the hand cannot hold another",
                )

    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Score a valid hand: the best reading's tai, the dealer tai and the payments."""
        robbed, held, loser_dealer = self._own_values(hand)
        seat_number, seat_notes = _seat(hand)
        shapes = Shapes(pairs_and_pung=options["lugulugu"])
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        win = hand.win_kind
        if win is None:
            raise HandError("bad_win_tile", "the hand has no winning tile (win_tile)")
        arrs = arrangements(counts_of(hand.closed_kinds), declared, win, shapes)
        flowers = tuple(sorted(kind(c) for c in hand.flowers))
        flower_win = None
        if len(flowers) == 8 and (robbed is not None or not arrs):
            flower_win = SEVEN_ROB_ONE if robbed is not None else EIGHT_IMMORTALS
        if flower_win is None and not arrs:
            return self._not_winning(hand, options, win)
        facts = Facts(
            options=options,
            seat=WINDS[seat_number - 1],
            seat_number=seat_number,
            round=WINDS[WIND_LETTERS.index(hand.round_wind)],
            self_drawn=hand.self_drawn,
            is_open=hand.is_open,
            all_open=all(m.open for m in hand.melds),
            standing=len(hand.concealed),
            kinds=tuple(kind(t) for t in hand.all_tiles),
            win=win,
            flowers=flowers,
            flowers_held=bool(flowers),
            flower_win=flower_win,
            single_wait=winning_kinds(counts_of(kind(t) for t in hand.concealed), len(hand.melds), shapes) == [win],
            robbing_kong=hand.robbing_kong,
            kong_replacement=hand.kong_replacement,
            last_tile=hand.last_tile,
            heavenly_ready=hand.heavenly_ready,
            earthly_ready=hand.earthly_ready,
            heavenly_win=hand.heavenly_win,
            earthly_win=hand.earthly_win,
            human_win=hand.human_win,
        )
        if flower_win is not None and not (arrs and hand.kong_replacement):
            items, reading, settlement, notes = _flower_win_only(facts, flower_win, bool(arrs))
        else:
            items, reading, settlement, notes = _hand_tai(hand, facts, arrs, robbed if held else None)
        if flowers:
            notes.append(_flower_note(seat_number))
        total = sum(i.points for i in items)
        return self._won(hand, options, items, total, reading, settlement, loser_dealer, seat_notes + notes)

    def _won(
        self,
        hand: Hand,
        options: dict[str, Any],
        items: list[Item],
        total: int,
        reading: Reading | None,
        settlement: Settlement,
        loser_dealer: bool,
        notes: list[str],
    ) -> Score:
        involved = dealer_involved(settlement, hand.dealer, loser_dealer)
        d_items = dealer_items(hand.dealer_streak) if involved else []
        dealer_tai = sum(i.points for i in d_items)
        if settlement.kind == SELF_DRAW:
            notes.append(
                "A9: on a self-draw each of the other three pays base + tai"
                + ("; the dealer's payment adds the dealer tai" if not hand.dealer else ", dealer tai included")
            )
        if hand.robbing_kong:
            notes.append("搶槓: the player who added the kong pays as the discarder (common practice)")
        if d_items:
            named = " + ".join(f"{i.names['name_zh']} {i.points}" for i in d_items)
            notes.append(f"dealer tai ({named} = {dealer_tai}) go only on the payments involving the dealer")
        elif hand.dealer_streak:
            notes.append("no payment involves the dealer: 作莊 and 連N拉N are not counted")
        pays = payments(
            settlement,
            total - settlement.robbed_extra,
            dealer_tai,
            hand.dealer,
            loser_dealer,
            options["base"],
            options["tai_value"],
        )
        arrangement = [[code_of(k) for k in g] for g in reading.arr.tile_groups()] if reading else []
        return Score(
            rules=self.name,
            options=dict(options),
            winning=True,
            unit=self.unit,
            total=total,
            items=items,
            arrangement=arrangement,
            payments=pays,
            notes=notes,
            extra={"dealer_tai": dealer_tai, "dealer_items": [i.to_json() for i in d_items]},
        )

    def _not_winning(self, hand: Hand, options: dict[str, Any], win: int) -> Score:
        reason = "not a winning hand: the 17 tiles do not form 5 melds + a pair"
        if not options["lugulugu"] and not hand.melds:
            closed = counts_of(hand.closed_kinds)
            if arrangements(closed, [], win, Shapes(standard=False, pairs_and_pung=True)):
                reason = "not a winning hand: 嚦咕嚦咕 (7 pairs + 1 pung) needs the option lugulugu=true"
        return Score(
            rules=self.name,
            options=dict(options),
            winning=False,
            unit=self.unit,
            total=0,
            notes=[reason],
            extra={"dealer_tai": 0, "dealer_items": []},
        )


def _seat(hand: Hand) -> tuple[int, list[str]]:
    """The seat order 開門序 (1-4: East .. North, and the own flower number) from seat_index, else seat_wind."""
    if hand.seat_index is not None:
        return hand.seat_index + 1, []
    n = WIND_LETTERS.index(hand.seat_wind) + 1
    return n, [f"seat_index not given: seat order {n} ({_WIND_NAMES[n - 1]}) taken from seat_wind"]


def _best(facts: Facts, arrs: list[Arrangement], self_drawn: bool) -> tuple[Reading, list[tuple[Pattern, Hit]]]:
    """The reading worth the most tai (the first of equals, in the engine's order) and its items."""
    scored = [(reading, find(facts, reading)) for reading in (Reading(a, self_drawn) for a in arrs)]
    return max(scored, key=lambda rf: sum(p.value * hit[0] for p, hit in rf[1]))


def _item(p: Pattern, hit: Hit) -> Item:
    return Item(p.id, p.name_en, p.value, hit[0], [code_of(k) for k in hit[1]], {"name_zh": p.name_zh})


def _flower_win_only(facts: Facts, flower_win: str, tiles_win: bool) -> tuple[list[Item], None, Settlement, list[str]]:
    """花胡 (items 27-30): 八仙過海 or 七搶一 alone, 8 tai and 1 base; the tiles need not win."""
    name = BY_ID[flower_win].name_zh
    payer = "all three pay" if flower_win == EIGHT_IMMORTALS else "the robbed player pays as the discarder"
    notes = [f"花胡 {name} (items 27-30): the tiles need not form a winning hand; 8 tai + 1 base, {payer}"]
    if tiles_win:
        notes.append(
            f"the tiles also win, but with {name} the hand's tai count only when the replacement tile completed "
            "it (槓上開花: kong_replacement and self_drawn)"
        )
    settlement = Settlement(SELF_DRAW if flower_win == EIGHT_IMMORTALS else DISCARD)
    return [_item(BY_ID[flower_win], (1, facts.flowers))], None, settlement, notes


def _hand_tai(
    hand: Hand, facts: Facts, arrs: list[Arrangement], robbed_held: str | None
) -> tuple[list[Item], Reading, Settlement, list[str]]:
    """The best reading's items, with 七搶一 / 八仙過海 when the replacement tile also completed the hand."""
    notes = []
    if robbed_held is not None:
        # item 30 way 2 with 槓上開花: a self-draw scored without the robbed flower; the robbed player alone
        # pays 七搶一 on top
        rest = tuple(k for k in facts.flowers if k != kind(robbed_held))
        reading, found = _best(dataclasses.replace(facts, flowers=rest, flower_win=None), arrs, hand.self_drawn)
        items = [_item(p, hit) for p, hit in found] + [_item(BY_ID[SEVEN_ROB_ONE], (1, facts.flowers))]
        settlement = Settlement(SELF_DRAW, robbed_extra=BY_ID[SEVEN_ROB_ONE].value)
        notes.append(
            "七搶一 way 2 with 槓上開花 (item 30.2): a self-draw; all three pay the hand tai, flowers counted "
            "without the robbed one, and the robbed player alone also pays 七搶一 8"
        )
    else:
        reading, found = _best(facts, arrs, hand.self_drawn)
        items = [_item(p, hit) for p, hit in found]
        rob = facts.flower_win == SEVEN_ROB_ONE
        settlement = Settlement(SELF_DRAW if hand.self_drawn and not rob else DISCARD)
        if rob:
            notes.append(
                "七搶一 with 槓上開花 (item 30.1): the hand's tai count, 七搶一 8 stands for the flower tai, and "
                "the robbed player pays as the discarder"
            )
        elif len(facts.flowers) == 8 and hand.kong_replacement:
            notes.append(
                "八仙過海 with 槓上開花 (item 29): the hand's tai count, and 滿花 8 stands for 八仙過海 8 "
                "(they always co-exist: only one counts)"
            )
    return items, reading, settlement, _choice_notes(hand, facts, reading, {i.id for i in items}) + notes


def _flower_note(seat_number: int) -> str:
    return (
        f"A8: flowers 1f-4f and 5f-8f are each numbered 1-4; seat order {seat_number} owns "
        f"{seat_number}f and {seat_number + 4}f"
    )


def _choice_notes(hand: Hand, f: Facts, r: Reading, ids: set[str]) -> list[str]:
    """The interpretation choices A1-A7 of issue 4 that decided this reading (A8, A9: see evaluate)."""
    notes = []
    if {"dragon_pung", "big_three_dragons", "little_three_dragons"} & ids:
        notes.append(
            "A1: option dragon_round_tai=true: the 合圈序加1台 of items 2, 21, 22 is counted for dragons"
            if f.options["dragon_round_tai"]
            else "A1: dragons get no round-wind tai (合圈序 of items 2, 21, 22; option dragon_round_tai=false)"
        )
    if "round_wind_pung" in ids and f.round != f.seat:
        notes.append(
            f"A2: the {name_en(f.round)} triplet matches the round wind only: 1 tai "
            "(item 1: 1 for the seat, +1 for the round)"
        )
    if "all_honours_deduction" in ids:
        notes.append("A3: 字一色 with 大/小四喜 or 大/小三元: minus 4 tai, applied literally (item 13)")
    if "all_honours" in ids and {"seat_wind_pung", "round_wind_pung", "dragon_pung"} & ids:
        notes.append("A3: 風字坎 and 箭字坎 still count inside 字一色 (item 13 does not exclude them)")
    if "concealed_self_draw" in ids:
        notes.append("A4: 不求.自摸 2 includes 自摸; 自摸 1 is not added again (門清一摸三 = 3)")
    if "heavenly_win" in ids:
        notes.append("A4: 天胡 leaves out 門清一摸三, 自摸 included (item 33)")
    done = r.completed_by_discard
    if done is not None:
        notes.append(f"A5: the {code_of(done.kind)} triplet completed by a discard is not concealed (暗坎)")
    if plain_hand_shape(f, r) and f.flowers_held:
        notes.append("A6: 平胡 is not counted: a flower is held (無花, item 7)")
    if hand.earthly_win and not hand.self_drawn and not hand.heavenly_ready:
        notes.append("A7: 地胡 on a first discard needs no prior 天聽 (item 34)")
    if hand.last_tile and not hand.self_drawn:
        notes.append("海底撈月 is won by drawing the last tile; a win on the last discard has no item (item 25)")
    if f.flowers and not _FLOWER_IDS & ids:
        notes.append("no flower tai: none of the flowers held is the seat's own")
    return notes


RULESET = Taiwan16()
