"""Changsha mahjong (长沙麻将 style): 108 tiles, 2-5-8 pair for a small win, big wins with any pair, initial-hand wins.

Source: DIGEST §5, 001 @1543-2076, a fragment with no heading: the tile set, who may chi, 小胡 needs a 2-5-8
pair and 大胡 may use any pair (@1874 "小胡要2、5、8作将，大胡为乱将"), and the 起手胡 四喜 and 板板胡 scored as a
small self-draw (@1976, @2014 "计分等同小胡自摸"); it breaks off in 缺一色 (@2056). The big-win list, every value
and the payments are the common Changsha rules (rule card ``scoring/docs/changsha.md``): 小胡 1 from the
discarder or 2 from each player on a self-draw, each 大胡 6, 庄闲 +1, 扎鸟.

Hand fields read besides the contract's common ones: ``initial_hand`` (起手胡 on the dealt tiles), ``dealer``,
and three of this rule set: ``discarder`` and ``dealer_seat`` (left, across or right of the winner: who
discarded the winning tile, and where the dealer sits when the winner is not the dealer), ``birds`` (扎鸟: the
bird tiles turned up after the win).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from scoring.decompose import CHOW, SEVEN_PAIRS, STANDARD, Arrangement, Shapes, arrangements
from scoring.errors import HandError
from scoring.fields import Field, read_fields
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.ruleset import PRACTICE, Option, RuleSet
from scoring.tiles import code_of, counts_of, is_honour, kind, normal, rank, suit

SHAPES = Shapes(seven_pairs=True, seven_pairs_four=True)
JIANG = (2, 5, 8)
#: the seat a bird of each rank lands on, counting from the winner (1) in turn order: 1 5 9 the winner, 2 6 the
#: next player (right), 3 7 across, 4 8 the player before (left)
BIRD_SEATS = ("winner", "right", "across", "left")
OWN_FIELDS = (
    Field("discarder", "seat", None, "who discarded the winning tile, seen from the winner"),
    Field("dealer_seat", "seat", None, "where the dealer sits, seen from the winner (when it is not the winner)"),
    Field("birds", "tiles", [], "扎鸟: the bird tiles turned up from the wall"),
)


@dataclass(frozen=True, slots=True)
class Facts:
    """What holds for the whole hand. kinds: every tile; counts: over kinds; declared: the meld types and
    whether each was claimed; standing: concealed tiles without the winning tile."""

    kinds: tuple[int, ...]
    counts: tuple[int, ...]
    declared: tuple[tuple[str, bool], ...]
    standing: int
    self_drawn: bool
    kong_replacement: bool
    robbing_kong: bool
    last_tile: bool
    heavenly_win: bool
    earthly_win: bool


#: a predicate: the facts and one arrangement (None for a 将将胡 that forms no shape) -> how many times it counts
Test = Callable[[Facts, Arrangement | None], int]


@dataclass(frozen=True)
class BigWin:
    """One 大胡; each count is worth option ``big_win`` points per payer."""

    id: str
    name_en: str
    name_zh: str
    test: Test
    shape_free: bool = False  # counts even when the tiles form no shape (将将胡)


@dataclass(frozen=True)
class InitialWin:
    """One 起手胡 on the dealt tiles; each count is paid as a small self-draw. ``origin``: source or practice."""

    id: str
    name_en: str
    name_zh: str
    origin: str
    test: Callable[[tuple[int, ...]], int]


def _all_pungs(f: Facts, a: Arrangement | None) -> int:
    return int(a is not None and a.shape == STANDARD and not any(b.type == CHOW for b in a.blocks))


def _jiang_jiang(f: Facts, a: Arrangement | None) -> int:
    return int(all(rank(k) in JIANG for k in f.kinds))


def _full_flush(f: Facts, a: Arrangement | None) -> int:
    return int(a is not None and len({suit(k) for k in f.kinds}) == 1)


def _seven_pairs(f: Facts, a: Arrangement | None) -> int:
    return int(a is not None and a.shape == SEVEN_PAIRS)


def _luxury(f: Facts, a: Arrangement | None) -> int:
    """豪华: each four identical tiles in 七小对 is one more big win."""
    return sum(1 for c in f.counts if c == 4) if _seven_pairs(f, a) else 0


def _all_melded(f: Facts, a: Arrangement | None) -> int:
    """全求人: four claimed melds, one tile left, won on a discard."""
    return int(
        a is not None
        and len(f.declared) == 4
        and all(o for _, o in f.declared)
        and f.standing == 1
        and not f.self_drawn
    )


def _flag(name: str, self_drawn: bool | None = None) -> Test:
    def test(f: Facts, a: Arrangement | None) -> int:
        return int(getattr(f, name) and (self_drawn is None or f.self_drawn == self_drawn))

    return test


#: the common 大胡 list (DIGEST §5.3 names none; see the rule card)
BIG_WINS: tuple[BigWin, ...] = (
    BigWin("all_pungs", "All Pungs", "碰碰胡", _all_pungs),
    BigWin("all_258", "All 2-5-8", "将将胡", _jiang_jiang, shape_free=True),
    BigWin("full_flush", "Full Flush", "清一色", _full_flush),
    BigWin("seven_pairs", "Seven Pairs", "七小对", _seven_pairs),
    BigWin("luxury_seven_pairs", "Luxury Seven Pairs (each four)", "豪华七小对", _luxury),
    BigWin("all_melded", "Fully Melded", "全求人", _all_melded),
    BigWin("kong_flower", "Win on a Kong Replacement", "杠上开花", _flag("kong_replacement", True)),
    BigWin("kong_cannon", "Win on a Discard after a Kong", "杠上炮", _flag("kong_replacement", False)),
    BigWin("robbing_kong", "Robbing a Kong", "抢杠胡", _flag("robbing_kong")),
    BigWin("last_tile_draw", "Last Tile Draw", "海底捞月", _flag("last_tile", True)),
    BigWin("last_tile_discard", "Last Tile Discard", "海底炮", _flag("last_tile", False)),
    BigWin("heavenly_win", "Heavenly Win", "天胡", _flag("heavenly_win")),
    BigWin("earthly_win", "Earthly Win", "地胡", _flag("earthly_win")),
)

_JIANG_KINDS = tuple(s * 9 + r - 1 for s in range(3) for r in JIANG)

#: 起手胡 (001 @1976-2076): 四喜 and 板板胡 stated, 缺一色 cut off, 六六顺 common practice
INITIAL_WINS: tuple[InitialWin, ...] = (
    InitialWin("four_of_a_kind", "Four of a Kind", "四喜", "source @1976", lambda c: sum(1 for n in c if n == 4)),
    InitialWin("no_258", "No 2, 5 or 8", "板板胡", "source @2014", lambda c: int(not any(c[k] for k in _JIANG_KINDS))),
    InitialWin(
        "missing_suit",
        "Missing a Suit",
        "缺一色",
        "source @2056 (cut off; value common practice)",
        lambda c: int(any(not any(c[s * 9 : s * 9 + 9]) for s in range(3))),
    ),
    InitialWin("two_triplets", "Two Triplets", "六六顺", "common practice", lambda c: int(sum(n >= 3 for n in c) >= 2)),
)


class Changsha(RuleSet):
    """Changsha: 小胡 with a 2-5-8 pair, 大胡 with any pair, 起手胡, 庄闲 and 扎鸟 payments (DIGEST §5)."""

    name = "changsha"
    title = "Changsha (长沙麻将)"
    unit = "points"
    hand_size = 13
    options: ClassVar[tuple[Option, ...]] = (
        Option("small_win", 1, "小胡 on a discard: points the discarder pays", "int", origin=PRACTICE, minimum=0),
        Option(
            "small_self_draw",
            2,
            "小胡 self-drawn: points each other player pays; every 起手胡 is paid the same (source: 计分等同小胡自摸)",
            "int",
            origin=PRACTICE,
            minimum=0,
        ),
        Option(
            "big_win", 6, "each 大胡: points per payer, on a discard or a self-draw", "int", origin=PRACTICE, minimum=0
        ),
        Option(
            "dealer_bonus",
            1,
            "庄闲: points added per win (per 大胡, per 起手胡) to each payment between the dealer and the other "
            "player; 0 = no dealer bonus",
            "int",
            origin=PRACTICE,
            minimum=0,
        ),
        Option(
            "all_258_shape",
            "any",
            "将将胡: any = every tile a 2, 5 or 8 wins whatever the shape; standard = it needs a winning shape too",
            "str",
            choices=("any", "standard"),
            origin=PRACTICE,
        ),
        Option(
            "bird_rule",
            "add",
            "扎鸟: each bird on the winner or on a payer raises that payment: add = x(1 + birds), double = x2^birds",
            "str",
            choices=("add", "double"),
            origin=PRACTICE,
        ),
        Option("base", 1, "the base stake every payment is multiplied by", "int", origin=PRACTICE, minimum=0),
    )
    situation = (
        "initial_hand",
        "self_drawn",
        "dealer",
        "kong_replacement",
        "robbing_kong",
        "last_tile",
        "heavenly_win",
        "earthly_win",
    )
    own_fields = OWN_FIELDS
    completeness = (
        "partial: the source gives the tiles, 小胡 (2-5-8 pair), 乱将 for 大胡 and the 起手胡 四喜 and 板板胡; the "
        "大胡 list, all values and payments are common practice"
    )
    summary = (
        "108 tiles; 小胡 needs a 2-5-8 pair, 大胡 (碰碰胡, 将将胡, 清一色, 七小对, 全求人, 杠上开花, 海底 ...) "
        "any pair; 起手胡 四喜, 板板胡, 缺一色, 六六顺; 小胡 1/2, 大胡 6, 庄闲, 扎鸟"
    )

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """The common checks (13 tiles + the winning tile, or the 13/14 dealt tiles of an initial hand), then 108
        tiles, chi only from the player before, and the own fields."""
        if hand.initial_hand:
            _validate_initial(hand)
        else:
            hand.validate(hand_size=self.hand_size)
        honours = sorted({t for t in hand.all_tiles if is_honour(kind(t))}, key=kind)
        if honours:
            raise HandError(
                "not_allowed",
                f"{', '.join(honours)}: Changsha is played with the 108 suit tiles only, no winds or dragons "
                "(一、主牌 @1543 不带东、南、西、北风和中、白、发)",
            )
        if hand.flowers:
            raise HandError("not_allowed", "Changsha has no flowers (108 suit tiles, @1543): remove 'flowers'")
        for i, m in enumerate(hand.melds):
            if m.type == "chow" and m.from_ not in (None, "left"):
                raise HandError(
                    "not_allowed",
                    f"meld {i + 1} ({' '.join(m.tiles)}) is a chow from {m.from_}: only the next player may chi, "
                    "so a chow comes from the player before you (left) (@1830 只有下家能吃)",
                )
        discarder, dealer_seat, birds = _own_fields(hand)
        for shown, message in (
            (discarder is not None and hand.self_drawn, "discarder is given but the hand is self-drawn"),
            (dealer_seat is not None and hand.dealer, "dealer_seat is given but the winner is the dealer"),
            (hand.robbing_kong and hand.self_drawn, "抢杠胡 (robbing_kong) wins on another player's tile"),
            (
                hand.kong_replacement and hand.self_drawn and not any(m.is_kong for m in hand.melds),
                "杠上开花 (kong_replacement, self-drawn) follows your own kong: the hand has none",
            ),
            (hand.heavenly_win and not hand.dealer, "天胡 (heavenly_win) is the dealer's win on the dealt tiles"),
            (hand.heavenly_win and (hand.melds or not hand.self_drawn), "天胡 is won on the dealt tiles, self-drawn"),
            (hand.earthly_win and hand.dealer, "地胡 (earthly_win) is a non-dealer's win"),
            (
                hand.initial_hand and (hand.kong_replacement or hand.robbing_kong or hand.last_tile),
                "an initial-hand win (起手胡) is shown right after the deal: no kong, robbing or last tile",
            ),
        ):
            if shown:
                raise HandError("not_allowed", message)
        counts = counts_of(kind(t) for t in [*hand.all_tiles, *birds])
        over = [code_of(k) for k, n in enumerate(counts) if n > 4]
        if over:
            raise HandError("too_many_copies", f"the hand and the birds hold more than 4 of {', '.join(over)}")

    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Score a valid hand: the initial-hand wins, or the best of small win and big wins; then payments."""
        if hand.initial_hand:
            return self._initial(hand, options)
        win = hand.win_kind
        if win is None:
            raise HandError("bad_win_tile", "the hand has no winning tile (win_tile)")
        kinds = tuple(kind(t) for t in hand.all_tiles)
        facts = Facts(
            kinds=kinds,
            counts=tuple(counts_of(kinds)),
            declared=tuple((m.type, m.open) for m in hand.melds),
            standing=len(hand.concealed),
            self_drawn=hand.self_drawn,
            kong_replacement=hand.kong_replacement,
            robbing_kong=hand.robbing_kong,
            last_tile=hand.last_tile,
            heavenly_win=hand.heavenly_win,
            earthly_win=hand.earthly_win,
        )
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        arrs: list[Arrangement | None] = list(arrangements(counts_of(hand.closed_kinds), declared, win, SHAPES))
        shape_free = options["all_258_shape"] == "any"
        readings = arrs or ([None] if shape_free and _jiang_jiang(facts, None) else [])
        best: tuple[list[Item], Arrangement | None, int] | None = None
        for a in readings:
            found = [(b, n) for b in BIG_WINS if (a is not None or b.shape_free) and (n := b.test(facts, a))]
            if found:
                items = [_big_item(b, n, options) for b, n in found]
                units = sum(n for _, n in found)
            elif a is not None and a.shape == STANDARD and a.pair is not None and rank(a.pair.first) in JIANG:
                items = [_small_item(hand.self_drawn, options)]
                units = 1
            else:
                continue
            if best is None or sum(i.points for i in items) > sum(i.points for i in best[0]):
                best = (items, a, units)
        if best is None:
            return self._not_winning(options, [_why_not(arrs)])
        items, arr, units = best
        notes = _notes(items, arr, hand)
        pays, pay_notes = payments(hand, options, sum(i.points for i in items), units, hand.self_drawn)
        return self._won(options, items, arr, pays, notes + pay_notes)

    def _initial(self, hand: Hand, options: dict[str, Any]) -> Score:
        counts = counts_of(kind(t) for t in hand.all_tiles)
        found = [(w, n) for w in INITIAL_WINS if (n := w.test(tuple(counts)))]
        if not found:
            return self._not_winning(
                options, ["no initial-hand win (起手胡): no 四喜, 板板胡, 缺一色 or 六六顺 among the dealt tiles"]
            )
        value = options["small_self_draw"]
        items = [
            Item(w.id, w.name_en, value, n, _initial_tiles(w.id, counts), {"name_zh": w.name_zh}) for w, n in found
        ]
        units = sum(n for _, n in found)
        notes = [
            "起手胡 on the dealt tiles: each is paid as a small self-draw (四喜, 板板胡: source 计分等同小胡自摸; "
            "缺一色, 六六顺: common practice); the hand is then played on"
        ]
        pays, pay_notes = payments(hand, options, sum(i.points for i in items), units, True)
        return self._won(options, items, None, pays, notes + pay_notes)

    def _won(
        self,
        options: dict[str, Any],
        items: list[Item],
        arr: Arrangement | None,
        pays: dict[str, Any],
        notes: list[str],
    ) -> Score:
        return Score(
            rules=self.name,
            options=dict(options),
            winning=True,
            unit=self.unit,
            total=sum(i.points for i in items),
            items=items,
            arrangement=[[code_of(k) for k in g] for g in arr.tile_groups()] if arr is not None else [],
            payments=pays,
            notes=notes,
        )

    def _not_winning(self, options: dict[str, Any], notes: list[str]) -> Score:
        return Score(rules=self.name, options=dict(options), winning=False, unit=self.unit, total=0, notes=notes)


def _validate_initial(hand: Hand) -> None:
    """The dealt tiles: 14 for the dealer, 13 for the others (001 @1771), no melds."""
    hand.validate(hand_size=None, need_win_tile=False)
    if hand.melds:
        raise HandError("not_allowed", "an initial hand (起手胡) is the dealt tiles: it has no melds")
    n = len(hand.concealed) + (1 if hand.win_tile else 0)
    want = 14 if hand.dealer else 13
    if n != want:
        raise HandError(
            "wrong_tile_count",
            f"wrong tile count for an initial hand: {n} tiles, but the dealer is dealt 14 and the others 13 "
            f"(@1771 起张庄家14张牌，闲家13张牌), and this hand has dealer={str(hand.dealer).lower()}",
        )


def _own_fields(hand: Hand) -> tuple[str | None, str | None, list[str]]:
    """discarder, dealer_seat and birds, checked."""
    own = read_fields(OWN_FIELDS, hand.extra)
    if any(kind(b) >= 27 for b in own["birds"]):
        raise HandError(
            "bad_field", f'birds must be suit tiles drawn from the wall, e.g. ["3m", "8p"], not {own["birds"]!r}'
        )
    return own["discarder"], own["dealer_seat"], [normal(b) for b in own["birds"]]


def _big_item(b: BigWin, n: int, options: dict[str, Any]) -> Item:
    return Item(b.id, b.name_en, options["big_win"], n, [], {"name_zh": b.name_zh})


def _small_item(self_drawn: bool, options: dict[str, Any]) -> Item:
    if self_drawn:
        return Item("small_win", "Small Win, Self-Drawn", options["small_self_draw"], 1, [], {"name_zh": "小胡自摸"})
    return Item("small_win", "Small Win", options["small_win"], 1, [], {"name_zh": "小胡"})


def _initial_tiles(win_id: str, counts: list[int]) -> list[str]:
    if win_id == "four_of_a_kind":
        return [code_of(k) for k, n in enumerate(counts) if n == 4 for _ in range(4)]
    if win_id == "two_triplets":
        return [code_of(k) for k, n in enumerate(counts) if n >= 3 for _ in range(3)]
    return []


def _why_not(arrs: list[Arrangement | None]) -> str:
    if arrs:
        return (
            "no win: a small win (小胡) needs a pair of 2, 5 or 8 (@1874 小胡要2、5、8作将), and the hand is no big "
            "win (大胡), which could use any pair"
        )
    return "not a winning hand: the 14 tiles form neither 4 melds + a pair nor seven pairs"


def _notes(items: list[Item], arr: Arrangement | None, hand: Hand) -> list[str]:
    ids = {i.id for i in items}
    notes = []
    if "small_win" in ids:
        notes.append("小胡: 4 melds + a pair of 2, 5 or 8 (@1949); no 大胡")
    else:
        pair = arr.pair if arr is not None and arr.shape == STANDARD else None
        if pair is not None and rank(pair.first) not in JIANG:
            notes.append(f"大胡 may use any pair (乱将, @1874): the {code_of(pair.first)} pair is allowed")
        notes.append("each 大胡 counts on its own (大胡叠加); big wins are paid alike on a discard or a self-draw")
    if arr is None and "all_258" in ids:
        notes.append("将将胡 wins whatever the shape: every tile is a 2, 5 or 8 (option all_258_shape=any)")
    if "luxury_seven_pairs" in ids:
        fours = next(i.count for i in items if i.id == "luxury_seven_pairs")
        notes.append(f"{'双' if fours > 1 else ''}豪华七小对: each of the {fours} four(s) is one more 大胡")
    return notes


def payments(
    hand: Hand, options: dict[str, Any], points: int, units: int, from_each: bool
) -> tuple[dict[str, Any], list[str]]:
    """Who pays what: ``points`` per payer (the score's total), plus the dealer bonus (``units`` wins) on each
    payment between the dealer and the other player, times the birds on the winner and on that payer, times base.

    from_each: every other player pays (self-draw, 起手胡); otherwise only the discarder.
    """
    discarder, dealer_seat, birds = _own_fields(hand)
    base, bonus = options["base"], options["dealer_bonus"] * units
    hits = {seat: 0 for seat in BIRD_SEATS}
    for b in birds:
        hits[BIRD_SEATS[(rank(kind(b)) - 1) % 4]] += 1
    notes = []

    def factor(seat: str | None) -> int:
        n = hits["winner"] + (hits[seat] if seat else 0)
        return 1 + n if options["bird_rule"] == "add" else 2**n

    def amount(dealer_pays: bool, seat: str | None) -> int:
        return (points + (bonus if hand.dealer or dealer_pays else 0)) * factor(seat) * base

    if birds:
        shown = ", ".join(f"{b} -> {BIRD_SEATS[(rank(kind(b)) - 1) % 4]}" for b in birds)
        notes.append(f"扎鸟: {shown} (counted from the winner: 1 5 9 winner, 2 6 right, 3 7 across, 4 8 left)")
    if not from_each:
        if birds and discarder is None:
            raise HandError("bad_field", "birds on a discard win need 'discarder' (left, across or right)")
        if not hand.dealer and dealer_seat is None and bonus:
            notes.append("dealer_seat not given: the discarder is taken as a non-dealer (no 庄闲 bonus)")
        pay = amount(dealer_seat is not None and dealer_seat == discarder, discarder)
        return {"discarder": pay, "total": pay}, notes
    if birds or dealer_seat is not None:
        if not hand.dealer and dealer_seat is None and bonus:
            raise HandError("bad_field", "birds on a self-drawn win need 'dealer_seat' (left, across or right)")
        out: dict[str, Any] = {seat: amount(seat == dealer_seat, seat) for seat in ("left", "across", "right")}
        out["total"] = sum(out.values())
        return out, notes
    if hand.dealer:
        each = amount(True, None)
        return {"each_other": each, "total": 3 * each}, notes
    dealer, other = amount(True, None), amount(False, None)
    return {"dealer": dealer, "each_non_dealer": other, "total": dealer + 2 * other}, notes


RULESET = Changsha()
