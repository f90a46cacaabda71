"""Japanese Riichi mahjong (リーチ麻雀): the standard modern rules of the professional leagues and online rooms.

The sources (DIGEST §3) give only four 1-han yaku, the riichi stick and the starting points; everything else
is common practice, marked so in the rule card ``scoring/docs/riichi.md``. The patterns are data in
``riichi_yaku``; fu and payments are in ``riichi_points``. Every arrangement the decomposition engine finds
is scored and the most valuable one is kept (most points, then a real yakuman, then most han, then most fu).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from operator import attrgetter
from typing import Any, ClassVar, Final

from scoring.decompose import SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, Shapes, arrangements
from scoring.errors import HandError
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.rules.riichi_points import SET_REASONS, base_points, fu, paid, payments, settle
from scoring.rules.riichi_yaku import (
    HAN,
    KIND,
    ORDER,
    Facts,
    Reading,
    Yaku,
    hand_asks,
    pinfu_shape,
    reading_asks,
)
from scoring.ruleset import PRACTICE, SOURCE, Option, RuleSet
from scoring.tiles import code_of, next_in_cycle

SHAPES: Final = Shapes(seven_pairs=True, thirteen_orphans=True)
NOT_A_WIN: Final = "the tiles do not form a winning hand: four sets and a pair, seven pairs or thirteen orphans"
NO_YAKU: Final = "no yaku: a win needs at least one yaku (dora and red fives are not yaku)"
FIVES: Final = (4, 13, 22)
#: the plain code of each kind, and the dora each kind indicates
_CODE: Final = tuple(code_of(k) for k in range(34))
_DORA_OF: Final = tuple(next_in_cycle(k) for k in range(34))
_RED_SUIT: Final = {"0m": 0, "0p": 1, "0s": 2}
_RED_OF: Final = {4: "0m", 13: "0p", 22: "0s"}
_FU_NAMES: Final = {
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


#: Situations that cannot happen together: (true for a hand that shows it, the refusal).
_CONFLICTS: Final[tuple[tuple[Callable[[Hand, bool], bool], str], ...]] = (
    (lambda h, d: (h.riichi or h.double_riichi) and h.is_open, "riichi is declared only with a closed hand"),
    (lambda h, d: h.ippatsu and not (h.riichi or h.double_riichi), "ippatsu needs riichi (or double riichi)"),
    (lambda h, d: h.ippatsu and h.kong_replacement, "a kong cancels ippatsu: ippatsu and rinshan cannot go together"),
    (lambda h, d: h.kong_replacement and not h.self_drawn, "rinshan is a self-draw: the replacement tile is drawn"),
    (lambda h, d: h.kong_replacement and not any(m.is_kong for m in h.melds), "rinshan needs a kong in the hand"),
    (lambda h, d: h.robbing_kong and h.self_drawn, "chankan is a win on another player's kong tile, not a self-draw"),
    (lambda h, d: h.last_tile and h.kong_replacement, "a replacement tile after a kong is not the last tile"),
    (lambda h, d: h.last_tile and h.robbing_kong, "no kong can be declared on the last tile, so none is robbed"),
    (lambda h, d: h.heavenly_win and not d, "tenhou (heavenly_win) is the dealer's win on the first draw"),
    (lambda h, d: h.earthly_win and d, "chiihou (earthly_win) is a non-dealer's win on the first draw"),
    (lambda h, d: h.human_win and d, "renhou (human_win) is a non-dealer's win before the first draw"),
    (lambda h, d: (h.heavenly_win or h.earthly_win) and not h.self_drawn, "tenhou and chiihou are self-drawn"),
    (lambda h, d: h.human_win and h.self_drawn, "renhou (human_win) is won on a discard"),
    (
        lambda h, d: (h.heavenly_win or h.earthly_win or h.human_win) and bool(h.melds),
        "tenhou, chiihou and renhou need a hand without any meld or kong",
    ),
    (
        lambda h, d: (h.heavenly_win or h.earthly_win or h.human_win) and (h.riichi or h.double_riichi),
        "tenhou, chiihou and renhou come before any riichi",
    ),
)
#: the situation flags, read at once: a hand with none of them set (most hands) skips the conflict checks
_SITUATION_FLAGS: Final = attrgetter(
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
    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """As for every rule set; resolved once per distinct set of options (a batch scores many hands)."""
        return dict(self._options(given))

    def _options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """``resolve_options`` without the copy: the resolved options shared by every hand given the same ones
        (read, never changed)."""
        try:
            return _resolved(self, tuple(given.items()) if given else ())
        except TypeError:  # an unhashable value (a list, an object): let the parser word the refusal
            return super().resolve_options(given)

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """The common checks, then riichi's own: no flowers, indicators that exist, situations that can."""
        hand.validate(hand_size=self.hand_size)
        self._refuse(hand, options)

    def score(self, hand: Hand, options: dict[str, Any] | None = None) -> Score:
        """Check the options and the hand, then score it; the facts of the hand are read once for both."""
        opts = self._options(options)
        hand.validate(hand_size=self.hand_size)
        return self._evaluate(hand, opts, self._refuse(hand, opts))

    def _refuse(self, hand: Hand, options: dict[str, Any]) -> Facts:
        """Riichi's own checks of a hand that passed the common ones (HandError); the hand's facts."""
        if hand.flowers:
            raise HandError("not_allowed", "riichi is played without flowers: remove " + " ".join(hand.flowers))
        if hand.dealer and hand.seat_wind != "E":
            raise HandError("not_allowed", f"the dealer sits East, but seat_wind is {hand.seat_wind}")
        if any(_SITUATION_FLAGS(hand)):
            dealer = hand.dealer or hand.seat_wind == "E"
            for shows, message in _CONFLICTS:
                if shows(hand, dealer):
                    raise HandError("not_allowed", message)
        f = Facts(hand, options)
        _check_indicators(hand, options, f)
        return f

    # ---- scoring --------------------------------------------------------------------------------------------
    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Score every arrangement of a valid hand and return the most valuable one.

        The order is the reference library's: most points, then a real yakuman over a counted one, then
        most han, most fu and most fu before rounding.
        """
        return self._evaluate(hand, options, Facts(hand, options))

    def _evaluate(self, hand: Hand, options: dict[str, Any], f: Facts) -> Score:
        found = arrangements(f.closed_counts, f.declared, f.win, SHAPES)
        if not found:
            return self._not_winning(hand, options, NOT_A_WIN)
        han_of = HAN[f.is_open, options["double_yakuman"]]
        tsumo = f.tsumo
        hand_met = [(y, True) for y in hand_asks(f.features) if y.test(f, None)]
        dora: tuple[int, list[Item]] | None = None
        best: tuple[Any, ...] | None = None
        for arr in found:
            r = Reading(arr, tsumo)
            met = hand_met + [
                (y, got) for y in reading_asks(f.seat, f.round, f.features | r.features) if (got := y.test(f, r))
            ]
            counted, han, yakuman = _counted(met, han_of)
            if not han and best is not None and best[0][0]:
                continue  # no yaku: worth nothing, and an earlier reading is worth something
            fu_, raw, entries = fu(f, r)
            value = 0
            if han:
                if not yakuman:
                    if dora is None:
                        dora = _dora(hand, f, options)
                    han += dora[0]
                base = base_points(han, fu_, han // 13 if yakuman else 0, options)[0]
                value = paid(base, f.dealer, tsumo)
            key = (value, yakuman, han, fu_, raw)
            if best is None or key > best[0]:
                best = (key, r, counted, fu_, entries)
        assert best is not None
        key, r, counted, fu_, entries = best
        if not key[0]:
            return self._not_winning(hand, options, NO_YAKU, fu_)
        return self._result(hand, options, f, r, counted, fu_, entries, dora)

    def _result(
        self,
        hand: Hand,
        options: dict[str, Any],
        f: Facts,
        r: Reading,
        counted: list[tuple[Yaku, Any]],
        fu_: int,
        entries: list[tuple[str, int, int]],
        dora: tuple[int, list[Item]] | None,
    ) -> Score:
        """The score of the chosen reading: items with their tiles, fu details, points and notes."""
        groups = _code_groups(hand, r, f.reds)
        every: list[str] | None = None  # every tile of the hand, for the items that show them all
        double = options["double_yakuman"]
        han_of = HAN[f.is_open, double]
        if len(counted) > 1:
            counted = sorted(counted, key=lambda m: ORDER[m[0].id])
        items = []
        han = 0
        for y, got in counted:
            value = han_of[y.id]
            han += value
            if got is not True:  # the blocks that make the pattern
                tiles = [c for i in got for c in groups[i]]
            elif y.shows == "hand":
                if every is None:
                    every = [c for g in groups for c in g]
                tiles = list(every)
            elif y.shows == "win":
                tiles = [hand.win_tile] if hand.win_tile else []
            else:
                tiles = []
            extra = {"yakuman": y.yakuman if double else 1} if y.yakuman else {}
            items.append(Item(y.id, y.name_en, value, 1, tiles, {"name_ja": y.name_ja}, extra))
        n_yakuman = han // 13 if counted[0][0].yakuman else 0
        notes = _notes(hand, options, f, r, {y.id for y, _ in counted})
        if n_yakuman:
            if hand.dora_indicators or (options["red_fives"] and f.reds):
                notes.append("dora are not added to a yakuman")
        elif dora is not None:
            items.extend(dora[1])
            han += dora[0]
        base, limit = base_points(han, fu_, n_yakuman, options)
        if limit is not None and han < 5 and not n_yakuman:
            notes.append(_limit_note(han, fu_, limit))
        points = settle(base, f.dealer, f.tsumo, hand.honba, hand.riichi_sticks)
        points["limit"] = limit
        fu_details = [
            {"reason": why, "name_en": _FU_NAMES[why], "fu": n, "tiles": groups[i] if i >= 0 else []}
            for why, n, i in entries
        ]
        return Score(
            rules=self.name,
            options=dict(options),
            winning=True,
            unit=self.unit,
            total=han,
            items=items,
            arrangement=groups,
            payments=payments(points, f.dealer, f.tsumo),
            notes=notes,
            extra={"han": han, "fu": fu_, "fu_details": fu_details, "points": points, "yakuman": n_yakuman},
        )

    def _not_winning(self, hand: Hand, options: dict[str, Any], reason: str, fu_: int = 0) -> Score:
        """``winning: false`` with the reason: no winning shape, or no yaku."""
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


@lru_cache(maxsize=256)  # bounded: the values given are the caller's (spellings, order)
def _resolved(rules: Riichi, given: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    return RuleSet.resolve_options(rules, dict(given))


def _check_indicators(hand: Hand, options: dict[str, Any], f: Facts) -> None:
    """Indicators that exist: at most 5 of each, one ura under each dora, no fifth copy of any tile counting the
    hand and the indicators, one red five of a suit, and (chankan) no other copy of the robbed tile."""
    dora, ura = hand.dora_indicators, hand.ura_dora_indicators
    counts = f.counts  # the hand's own: at most 4 of a kind (Hand.validate), so only an indicator's kind can pass
    shown: dict[int, int] = {}  # the indicators' kinds and how many of each
    reds = [0, 0, 0]
    for code in f.reds:
        reds[_RED_SUIT[code]] += 1
    if dora or ura:
        for field, indicators in (("dora_indicators", dora), ("ura_dora_indicators", ura)):
            if len(indicators) > 5:
                raise HandError(
                    "bad_field", f"{field}: at most 5 indicators (1 and 4 kong dora), not {len(indicators)}"
                )
            for code in indicators:
                if code not in KIND:
                    raise HandError("bad_field", f"{field}: {code} is a flower; riichi has none")
        if len(ura) > max(1, len(dora)):
            raise HandError("bad_field", "there is one ura dora indicator under each dora indicator, no more")
        for code in (*dora, *ura):
            k = KIND[code]
            shown[k] = shown.get(k, 0) + 1
            if code[0] == "0":
                reds[_RED_SUIT[code]] += 1
    if max(reds) > 1:
        for suit, n in zip("mps", reds, strict=True):
            if n > 1:
                raise HandError("too_many_copies", f"{n} copies of the red five 0{suit} in the hand and the indicators")
    over = [k for k, n in shown.items() if counts[k] + n > 4]
    if over:
        k = min(over)
        raise HandError(
            "too_many_copies", f"{counts[k] + shown[k]} copies of {code_of(k)} in the hand and indicators: 4 exist"
        )
    if options["red_fives"]:
        for suit, k, n in zip("mps", FIVES, reds, strict=True):
            if counts[k] + shown.get(k, 0) - n == 4:
                raise HandError(
                    "too_many_copies",
                    f"four plain 5{suit}: with red fives a set has three and the red 0{suit} "
                    f"(write one as 0{suit}, or set the option red_fives=false)",
                )
    if hand.robbing_kong and hand.win_tile is not None:
        k = KIND[hand.win_tile]
        if counts[k] + shown.get(k, 0) > 1:
            raise HandError(
                "not_allowed",
                f"chankan: the other three {code_of(k)} are in the kong being robbed, so neither the hand nor an "
                "indicator can show another",
            )


def _counted(met: list[tuple[Yaku, Any]], han_of: dict[str, int]) -> tuple[list[tuple[Yaku, Any]], int, bool]:
    """(the patterns that count, their han, whether they are yakuman) of the patterns a reading shows: the
    yakuman alone when there is one, else every pattern worth han in this hand (``han_of``: the han of each
    pattern in this hand, from ``HAN``); exclusions applied."""
    if len(met) < 2:
        if not met:
            return met, 0, False
        y = met[0][0]
        value = han_of[y.id]
        return (met, value, bool(y.yakuman)) if value else ([], 0, False)
    gone = {x for y, _ in met for x in y.excludes}
    if gone:
        met = [m for m in met if m[0].id not in gone]
    yakuman: list[tuple[Yaku, Any]] = []
    others: list[tuple[Yaku, Any]] = []
    han_yakuman = han_others = 0
    for m in met:
        y = m[0]
        value = han_of[y.id]
        if y.yakuman:
            yakuman.append(m)
            han_yakuman += value
        elif value:
            others.append(m)
            han_others += value
    return (yakuman, han_yakuman, True) if yakuman else (others, han_others, False)


def _dora(hand: Hand, f: Facts, options: dict[str, Any]) -> tuple[int, list[Item]]:
    """The han of dora, red fives and (after riichi) ura dora, with their items."""
    han = 0
    items: list[Item] = []
    lists = [("dora", "Dora", "ドラ", hand.dora_indicators)]
    if f.riichi:
        lists.append(("ura_dora", "Ura Dora", "裏ドラ", hand.ura_dora_indicators))
    counts = f.counts
    for id_, en, ja, indicators in lists:
        if not indicators:
            continue
        doras = [_DORA_OF[KIND[c]] for c in indicators]
        n = 0
        for k in doras:
            n += counts[k]
        if n:
            items.append(Item(id_, en, 1, n, _shown(sorted(set(doras)), counts, f.reds), {"name_ja": ja}))
            han += n
    if options["red_fives"] and f.reds:
        reds = sorted(f.reds)
        items.append(Item("aka_dora", "Aka Dora", 1, len(reds), reds, {"name_ja": "赤ドラ"}))
        han += len(reds)
    return han, items


def _shown(kinds: list[int], counts: list[int], reds: list[str]) -> list[str]:
    """The codes held of some kinds, each once, by kind and code: a red five before its plain five."""
    out = []
    for k in kinds:
        n = counts[k]
        if n:
            red = _RED_OF.get(k)
            if red in reds:
                out.append(red)
                n -= 1
            if n:
                out.append(_CODE[k])
    return out


def _code_groups(hand: Hand, r: Reading, reds: list[str]) -> list[list[str]]:
    """The chosen arrangement as lists of codes, a red five placed in the first block of its kind."""
    arr = r.arr
    if not arr.blocks:
        return [list(_codes(arr.singles))]
    melds = hand.melds
    groups = [list(_codes(b.tiles)) if b.meld is None else list(melds[b.meld].tiles) for b in arr.blocks]
    for red in reds:
        if red in hand.concealed or red == hand.win_tile:
            five = KIND[red]
            for i, b in enumerate(arr.blocks):
                if b.meld is None and five in b.tiles:
                    group = groups[i]
                    group[group.index(_CODE[five])] = red
                    break
    return groups


@cache
def _codes(kinds: tuple[int, ...]) -> tuple[str, ...]:
    """The plain codes of some kinds (the tiles of a block)."""
    return tuple(_CODE[k] for k in kinds)


def _set_name(reason: str) -> str:
    return reason.replace("_", " ").replace("terminal", "terminal or honour")


_FU_NAMES.update({reason: _set_name(reason) for reason in SET_REASONS})


def _limit_note(han: int, fu_: int, limit: str) -> str:
    if limit == "mangan":
        return f"{han} han {fu_} fu make {fu_ * 2 ** (han + 2)} base points: limited to mangan (2000)"
    return f"{han} han {fu_} fu rounded up to mangan (option kiriage)"


def _notes(hand: Hand, options: dict[str, Any], f: Facts, r: Reading, ids: set[str]) -> list[str]:
    """The interpretations that decided this result."""
    notes = []
    if f.dealer:
        notes.append("dealer (East seat): paid 1.5 times a non-dealer's points")
    arr = r.arr
    if arr.shape == SEVEN_PAIRS:
        notes.append("seven pairs: a flat 25 fu")
    elif arr.shape == THIRTEEN_ORPHANS:
        notes.append("thirteen orphans: no fu are counted")
    elif not f.tsumo and any(i == arr.win_block and not c for i, _, _, c in r.sets):
        notes.append(f"the pung of {code_of(f.win)} completed by a discard counts as open (fu, concealed pungs)")
    if f.is_open and "tanyao" in ids:
        notes.append("open tanyao (kuitan) counts: option open_tanyao")
    if hand.ura_dora_indicators and not f.riichi:
        notes.append("ura dora indicators ignored: ura dora count only after riichi")
    if "renhou" in ids:
        notes.append("renhou counted as 5 han (option renhou_yakuman is off)")
    if f.tsumo and options["pinfu_tsumo_fu"] and arr.shape == STANDARD and pinfu_shape(f, r):
        notes.append("self-drawn pinfu shape: 2 tsumo fu instead of pinfu (option pinfu_tsumo_fu)")
    return notes


RULESET: Final = Riichi()
