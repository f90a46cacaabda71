"""Japanese Riichi mahjong (リーチ麻雀): the standard modern rules of the professional leagues and online rooms.

The sources (DIGEST §3) give only four 1-han yaku, the riichi stick and the starting points; everything else
is common practice, marked so in the rule card ``scoring/docs/riichi.md``. The patterns are data in
``riichi_yaku``; fu and payments are in ``riichi_points``. Every arrangement the decomposition engine finds
is scored and the most valuable one is kept (most points, then a real yakuman, then most han, then most fu).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from scoring.decompose import SEVEN_PAIRS, THIRTEEN_ORPHANS, Shapes, arrangements
from scoring.errors import HandError
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.rules.riichi_points import base_points, fu, payments, settle
from scoring.rules.riichi_yaku import HAND_YAKU, READING_YAKU, Facts, Reading, Yaku, pinfu_shape
from scoring.ruleset import PRACTICE, SOURCE, Option, RuleSet
from scoring.tiles import EAST, NUM_KINDS, code_of, is_flower, kind, next_in_cycle, normal

SHAPES = Shapes(seven_pairs=True, thirteen_orphans=True)
NOT_A_WIN = "the tiles do not form a winning hand: four sets and a pair, seven pairs or thirteen orphans"
NO_YAKU = "no yaku: a win needs at least one yaku (dora and red fives are not yaku)"
_WIND_KIND = {"E": EAST, "S": EAST + 1, "W": EAST + 2, "N": EAST + 3}
_FLAGS = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "last_tile",
    "kong_replacement",
    "robbing_kong",
    "heavenly_win",
    "earthly_win",
    "human_win",
)
_FU_NAMES = {
    "base": "base fu (futei)",
    "closed_ron": "closed hand won on a discard (menzen kafu)",
    "tsumo": "self-draw",
    "open_pinfu": "open hand without fu (open pinfu shape)",
    "seven_pairs": "seven pairs (flat)",
    "edge_wait": "edge wait (penchan)",
    "closed_wait": "closed wait (kanchan)",
    "single_wait": "pair wait (tanki)",
    "dragon_pair": "pair of dragons",
    "seat_wind_pair": "pair of the seat wind",
    "round_wind_pair": "pair of the round wind",
}


def _conflicts(h: Hand, dealer: bool) -> list[tuple[bool, str]]:
    """Situations that cannot happen together: (true when the hand shows it, the message)."""
    riichi = h.riichi or h.double_riichi
    tsumo = h.self_drawn
    kongs = any(m.is_kong for m in h.melds)
    blessing = h.heavenly_win or h.earthly_win or h.human_win
    return [
        (h.dealer and h.seat_wind != "E", f"the dealer sits East, but seat_wind is {h.seat_wind}"),
        (riichi and h.is_open, "riichi is declared only with a closed hand (no open melds)"),
        (h.ippatsu and not riichi, "ippatsu needs riichi (or double riichi)"),
        (h.ippatsu and h.kong_replacement, "a kong cancels ippatsu, so ippatsu and rinshan cannot go together"),
        (h.kong_replacement and not tsumo, "rinshan is a self-draw: the replacement tile is drawn"),
        (h.kong_replacement and not kongs, "rinshan (kong_replacement) needs a kong in the hand"),
        (h.robbing_kong and tsumo, "chankan (robbing_kong) is a win on another player's kong tile, not a self-draw"),
        (h.last_tile and h.kong_replacement, "a replacement tile after a kong is not the last tile of the wall"),
        (h.last_tile and h.robbing_kong, "no kong can be declared on the last tile, so it cannot be robbed"),
        (h.heavenly_win and not dealer, "tenhou (heavenly_win) is the dealer's win on the first draw"),
        (h.earthly_win and dealer, "chiihou (earthly_win) is a non-dealer's win on the first draw"),
        (h.human_win and dealer, "renhou (human_win) is a non-dealer's win before the first draw"),
        ((h.heavenly_win or h.earthly_win) and not tsumo, "tenhou and chiihou are won on a self-drawn tile"),
        (h.human_win and tsumo, "renhou (human_win) is won on a discard"),
        (blessing and bool(h.melds), "tenhou, chiihou and renhou need a hand without any meld or kong"),
        (blessing and riichi, "tenhou, chiihou and renhou come before any riichi"),
    ]


class Riichi(RuleSet):
    """Japanese Riichi: yaku and dora in han, fu, limits and the points each player pays."""

    name = "riichi"
    title = "Japanese Riichi (リーチ麻雀)"
    unit = "han"
    hand_size = 13
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "open_tanyao",
            True,
            "tanyao also counts in an open hand (kuitan)",
            "bool",
            origin=SOURCE,
        ),
        Option("red_fives", True, "the red fives 0m 0p 0s are one dora each (aka dora)", "bool", origin=PRACTICE),
        Option(
            "double_yakuman",
            True,
            "kokushi 13-sided, suuankou tanki, junsei chuuren and daisuushii are double yakuman",
            "bool",
            origin=PRACTICE,
        ),
        Option(
            "counted_yakuman",
            "limited",
            "13 han or more without a yakuman: limited (a yakuman), sanbaiman, or none (each 13 han a yakuman)",
            "str",
            choices=("limited", "sanbaiman", "none"),
            origin=PRACTICE,
        ),
        Option("kiriage", False, "4 han 30 fu and 3 han 60 fu are rounded up to mangan", "bool", origin=PRACTICE),
        Option(
            "open_pinfu_fu",
            True,
            "an open hand won on a discard with no fu gets 2 fu (30 fu instead of 20)",
            "bool",
            origin=PRACTICE,
        ),
        Option(
            "pinfu_tsumo_fu",
            False,
            "a self-drawn pinfu shape gets the 2 tsumo fu and loses pinfu (pinzumo nashi)",
            "bool",
            origin=SOURCE,
        ),
        Option("renhou_yakuman", False, "renhou is a yakuman (else 5 han)", "bool", origin=PRACTICE),
    )
    situation = (
        "self_drawn",
        "seat_wind",
        "round_wind",
        "dealer",
        "riichi",
        "double_riichi",
        "ippatsu",
        "last_tile",
        "kong_replacement",
        "robbing_kong",
        "heavenly_win",
        "earthly_win",
        "human_win",
        "dora_indicators",
        "ura_dora_indicators",
        "honba",
        "riichi_sticks",
    )
    completeness = (
        "partial: the sources give four 1-han yaku (pinfu, tanyao, iipeikou, riichi), the riichi stick and "
        "starting points; every other yaku, fu, dora, limits and payments follow the standard modern rules"
    )
    summary = (
        "Every standard yaku and yakuman, dora / ura dora / red fives, fu, limits, dealer and non-dealer "
        "payments with honba and riichi sticks."
    )

    # ---- refusals -------------------------------------------------------------------------------------------
    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """The common checks, then riichi's own: no flowers, indicators that exist, situations that can."""
        hand.validate(hand_size=self.hand_size)
        if hand.flowers:
            raise HandError("not_allowed", "riichi is played without flowers: remove " + " ".join(hand.flowers))
        dealer = hand.dealer or hand.seat_wind == "E"
        for shown, message in _conflicts(hand, dealer):
            if shown:
                raise HandError("not_allowed", message)
        for field in ("dora_indicators", "ura_dora_indicators"):
            indicators = getattr(hand, field)
            if len(indicators) > 5:
                raise HandError(
                    "bad_field", f"{field}: at most 5 indicators (1 and 4 kong dora), not {len(indicators)}"
                )
            for code in indicators:
                if is_flower(kind(code)):
                    raise HandError("bad_field", f"{field}: {code} is a flower; riichi has none")
        if len(hand.ura_dora_indicators) > max(1, len(hand.dora_indicators)):
            raise HandError("bad_field", "there is one ura dora indicator under each dora indicator, no more")
        seen = hand.all_tiles + hand.dora_indicators + hand.ura_dora_indicators
        counts = Counter(normal(t) for t in seen)
        for code, n in counts.items():
            if n > 4:
                raise HandError("too_many_copies", f"{n} copies of {code} in the hand and the indicators: a set has 4")
        for code, n in Counter(t for t in seen if t[0] == "0").items():
            if n > 1:
                raise HandError("too_many_copies", f"{n} copies of the red five {code} in the hand and the indicators")
        if hand.robbing_kong and hand.win_tile is not None:
            win = normal(hand.win_tile)
            if sum(1 for t in hand.all_tiles if normal(t) == win) > 1:
                raise HandError(
                    "not_allowed",
                    f"chankan: the other three {win} are in the kong being robbed, so the hand cannot hold another",
                )

    # ---- scoring --------------------------------------------------------------------------------------------
    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Score every arrangement of a valid hand and return the most valuable one."""
        facts, total_counts = _facts(hand, options)
        dealer = hand.dealer or hand.seat_wind == "E"
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        found = arrangements(facts.closed_counts, declared, facts.win, SHAPES)
        if not found:
            return self._not_winning(hand, options, NOT_A_WIN)
        double = options["double_yakuman"]
        hand_met = [(y, True) for y in HAND_YAKU if y.test(facts, None)]
        dora: int | None = None
        best: tuple[Any, ...] | None = None
        for arr in found:
            reading = Reading(arr, facts.tsumo)
            met = _without_excluded(hand_met + [(y, got) for y in READING_YAKU if (got := y.test(facts, reading))])
            yakuman = [m for m in met if m[0].yakuman]
            counted = yakuman or [m for m in met if m[0].han(facts.is_open, double)]
            han = sum(m[0].han(facts.is_open, double) for m in counted)
            fu_, raw, entries = fu(facts, reading)
            value = 0
            if han:
                if not yakuman:
                    if dora is None:
                        dora = _dora_han(hand, total_counts, options)[0]
                    han += dora
                base = base_points(han, fu_, han // 13 if yakuman else 0, options)[0]
                value = settle(base, dealer, facts.tsumo, 0, 0)["total"]
            # the reference order: most points, then a real yakuman, then most han, most fu, most raw fu
            key = (value, bool(yakuman), han, fu_, raw)
            if best is None or key > best[0]:
                best = (key, reading, counted, fu_, entries)
        assert best is not None
        key, reading, counted, fu_, entries = best
        if not key[0]:
            return self._not_winning(hand, options, NO_YAKU, fu_)
        return self._result(hand, options, facts, total_counts, dealer, reading, counted, fu_, entries)

    def _result(
        self,
        hand: Hand,
        options: dict[str, Any],
        facts: Facts,
        total_counts: list[int],
        dealer: bool,
        reading: Reading,
        counted: list[tuple[Yaku, Any]],
        fu_: int,
        entries: list[tuple[str, int, int]],
    ) -> Score:
        groups = _code_groups(hand, reading)
        every = [c for g in groups for c in g]
        double = options["double_yakuman"]
        items = [
            Item(
                y.id,
                y.name_en,
                y.han(facts.is_open, double),
                tiles=_item_tiles(y, got, groups, every, hand.win_tile),
                names={"name_ja": y.name_ja},
                extra={"yakuman": y.yakuman if double else 1} if y.yakuman else {},
            )
            for y, got in counted
        ]
        han = sum(i.points for i in items)
        n_yakuman = han // 13 if counted[0][0].yakuman else 0
        notes = _notes(hand, options, facts, dealer, reading, {y.id for y, _ in counted})
        if n_yakuman:
            if hand.dora_indicators or any(t[0] == "0" for t in every):
                notes.append("dora are not added to a yakuman")
        else:
            dora_han, dora_items = _dora_han(hand, total_counts, options)
            items.extend(dora_items)
            han += dora_han
        base, limit = base_points(han, fu_, n_yakuman, options)
        if limit is not None and han < 5 and not n_yakuman:
            notes.append(_limit_note(han, fu_, limit))
        pts = settle(base, dealer, facts.tsumo, hand.honba, hand.riichi_sticks)
        pts["limit"] = limit
        fu_details = [
            {"reason": r, "name_en": _FU_NAMES.get(r) or _set_name(r), "fu": v, "tiles": groups[i] if i >= 0 else []}
            for r, v, i in entries
        ]
        return Score(
            rules=self.name,
            options=dict(options),
            winning=True,
            unit=self.unit,
            total=han,
            items=items,
            arrangement=groups,
            payments=payments(pts, dealer, facts.tsumo),
            notes=notes,
            extra={"han": han, "fu": fu_, "fu_details": fu_details, "points": pts, "yakuman": n_yakuman},
        )

    def _not_winning(self, hand: Hand, options: dict[str, Any], reason: str, fu_: int = 0) -> Score:
        points = settle(0, False, hand.self_drawn, 0, 0)
        points["limit"] = None
        return Score(
            rules=self.name,
            options=dict(options),
            winning=False,
            unit=self.unit,
            total=0,
            notes=[reason],
            extra={"han": 0, "fu": fu_, "fu_details": [], "points": points, "yakuman": 0, "reason": reason},
        )


def _facts(hand: Hand, options: dict[str, Any]) -> tuple[Facts, list[int]]:
    closed = [0] * NUM_KINDS
    for code in hand.concealed:
        closed[kind(code)] += 1
    win = kind(hand.win_tile)  # type: ignore[arg-type]  # validate() made sure there is one
    closed[win] += 1
    total = list(closed)
    kongs = 0
    for m in hand.melds:
        for k in m.kinds:
            total[k] += 1
        kongs += m.is_kong
    flags = {name: getattr(hand, name) for name in _FLAGS}
    facts = Facts(
        options,
        hand.is_open,
        hand.self_drawn,
        _WIND_KIND[hand.seat_wind],
        _WIND_KIND[hand.round_wind],
        frozenset(k for k in range(NUM_KINDS) if total[k]),
        closed,
        win,
        len(hand.melds),
        kongs,
        flags,
    )
    return facts, total


def _without_excluded(met: list[tuple[Yaku, Any]]) -> list[tuple[Yaku, Any]]:
    gone = {x for y, _ in met for x in y.excludes}
    return [m for m in met if m[0].id not in gone] if gone else met


def _dora_han(hand: Hand, total: list[int], options: dict[str, Any]) -> tuple[int, list[Item]]:
    """The han of dora, red fives and (after riichi) ura dora, with their items."""
    han = 0
    items: list[Item] = []
    lists = [("dora", "Dora", "ドラ", hand.dora_indicators)]
    if hand.riichi or hand.double_riichi:
        lists.append(("ura_dora", "Ura Dora", "裏ドラ", hand.ura_dora_indicators))
    for id_, en, ja, indicators in lists:
        doras = [next_in_cycle(kind(c)) for c in indicators]
        n = sum(total[k] for k in doras)
        if n:
            shown = sorted({t for t in hand.all_tiles if kind(t) in doras}, key=lambda t: (kind(t), t))
            items.append(Item(id_, en, 1, n, shown, {"name_ja": ja}))
            han += n
    if options["red_fives"]:
        reds = sorted(t for t in hand.all_tiles if t[0] == "0")
        if reds:
            items.append(Item("aka_dora", "Aka Dora", 1, len(reds), reds, {"name_ja": "赤ドラ"}))
            han += len(reds)
    return han, items


def _code_groups(hand: Hand, reading: Reading) -> list[list[str]]:
    """The chosen arrangement as lists of codes, red fives placed in the first block of their kind."""
    pool: dict[int, list[str]] = {}
    for code in sorted([*hand.concealed, hand.win_tile], key=lambda c: c[0] != "0"):  # type: ignore[list-item]
        pool.setdefault(kind(code), []).append(code)
    arr = reading.arr
    if not arr.blocks:
        return [[pool[k].pop() for k in arr.singles]]
    out = []
    for b in arr.blocks:
        if b.meld is not None:
            out.append(list(hand.melds[b.meld].tiles))
        else:
            out.append([pool[k].pop(0) for k in b.tiles])
    return out


def _item_tiles(y: Yaku, got: Any, groups: list[list[str]], every: list[str], win: str | None) -> list[str]:
    if isinstance(got, tuple):
        return [c for i in got for c in groups[i]]
    if y.shows == "win":
        return [win] if win else []
    if y.shows == "none":
        return []
    return list(every)


def _set_name(reason: str) -> str:
    return reason.replace("_", " ").replace("terminal", "terminal or honour")


def _limit_note(han: int, fu_: int, limit: str) -> str:
    if limit == "mangan":
        return f"{han} han {fu_} fu make {fu_ * 2 ** (han + 2)} base points: limited to mangan (2000)"
    return f"{han} han {fu_} fu rounded up to mangan (option kiriage)"


def _notes(
    hand: Hand, options: dict[str, Any], facts: Facts, dealer: bool, reading: Reading, ids: set[str]
) -> list[str]:
    """The interpretations that decided this result."""
    notes = []
    if dealer:
        notes.append("dealer (East seat): paid 1.5 times a non-dealer's points")
    arr = reading.arr
    if arr.shape == SEVEN_PAIRS:
        notes.append("seven pairs: a flat 25 fu")
    elif arr.shape == THIRTEEN_ORPHANS:
        notes.append("thirteen orphans: no fu are counted")
    elif not facts.tsumo and any(i == arr.win_block and not c for i, _, _, c in reading.sets):
        notes.append(f"the pung of {code_of(facts.win)} completed by a discard counts as open (fu, concealed pungs)")
    if facts.is_open and "tanyao" in ids:
        notes.append("open tanyao (kuitan) counts: option open_tanyao")
    if hand.ura_dora_indicators and not (hand.riichi or hand.double_riichi):
        notes.append("ura dora indicators ignored: ura dora count only after riichi")
    if "renhou" in ids:
        notes.append("renhou counted as 5 han (option renhou_yakuman is off)")
    if facts.tsumo and options["pinfu_tsumo_fu"] and pinfu_shape(facts, reading):
        notes.append("self-drawn pinfu shape: 2 tsumo fu instead of pinfu (option pinfu_tsumo_fu)")
    return notes


RULESET = Riichi()
