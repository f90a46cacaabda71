"""Cixi mahjong (慈溪麻将, Zhejiang): 136 tiles and the wild tile 龙 (DIGEST §6, source 001 @2076-3116).

The source gives the tile set (136 tiles, no flowers) and the wild tile: after the deal the first tile is
turned up (``wild_indicator``) and the next tile in its cycle is wild (百搭, "可以当任何牌"): suits 1-9-1,
winds 东南西北东, dragons 中-发-白-中 (note: not the riichi dora order of ``scoring.tiles.next_in_cycle``).
It gives no winning hands, no scoring and no payments. The scorer finds every reading of the hand with the
wilds standing in for any tile (``scoring.decompose.wild_arrangements``) and keeps the one worth the most
under a small common fan table (``PATTERNS``): every value there is common practice and an option
``fan_<id>``. The rule card is ``scoring/docs/cixi.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from scoring.decompose import SEVEN_PAIRS, Shapes, WildReading, wild_arrangements
from scoring.errors import HandError
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.rules.folk_reading import (
    DRAGON_SET,
    Pattern,
    Reading,
    all_honours,
    all_pungs,
    check_no_flowers,
    check_situation,
    find,
    full_flush,
    half_flush,
    item,
    payments,
    sets_hit,
    when,
)
from scoring.ruleset import PRACTICE, Option, RuleSet
from scoring.tiles import (
    GREEN,
    NORTH,
    RED,
    WHITE,
    WIND_LETTERS,
    WINDS,
    code_of,
    counts_of,
    is_flower,
    kind,
    name_zh,
)

WILD_ZH = "龙"


def wild_kind(indicator: int) -> int:
    """The wild kind shown by an indicator kind (§6.2): the next tile of its suit 1-9-1, of the winds
    东南西北东, of the dragons 中-发-白-中 (红中 -> 发财 -> 白板 -> 红中). A flower has none (HandError)."""
    if is_flower(indicator):
        raise HandError(
            "not_allowed",
            f"the wild indicator {code_of(indicator)} is a flower: Cixi's 136 tiles have no flowers (§6.2), "
            "so the indicator is a suit tile, a wind or a dragon",
        )
    if indicator < 27:
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator in WINDS:
        return WINDS[0] if indicator == NORTH else indicator + 1
    return {RED: GREEN, GREEN: WHITE, WHITE: RED}[indicator]


class Facts:
    """What holds for the whole hand: the hand (its situation flags), the seat and round wind kinds, the
    winning tile."""

    __slots__ = ("seat", "round", "hand", "win")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.seat = WINDS[WIND_LETTERS.index(hand.seat_wind)]
        self.round = WINDS[WIND_LETTERS.index(hand.round_wind)]
        self.win = () if hand.win_kind is None else (hand.win_kind,)


class WildView(Reading):
    """A reading of a wild-tile hand: the engine's reading plus ``substitutes`` (the kinds the wilds stood
    for) and ``hard``: no wild stands in for another tile (无百搭; a wild standing for its own kind counts as
    natural when the option ``wild_as_itself`` is ``natural``)."""

    __slots__ = ("substitutes", "hard", "win_as")

    def __init__(self, wr: WildReading, self_drawn: bool, wild: int, as_itself_natural: bool) -> None:
        super().__init__(wr.arrangement, self_drawn)
        self.substitutes = wr.substitutes
        self.win_as = wr.win_as
        self.hard = all(as_itself_natural and k == wild for k in wr.substitutes)


#: The common fan table (every value common practice, overridden by the option ``fan_<id>``).
PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        "heavenly_win",
        "Heavenly Win",
        "天胡",
        8,
        lambda f, r: when(f.hand.heavenly_win, r.kinds),
        "common practice",
        excludes=("self_draw", "concealed_hand"),
    ),
    Pattern(
        "earthly_win",
        "Earthly Win",
        "地胡",
        8,
        lambda f, r: when(f.hand.earthly_win, r.kinds),
        "common practice",
        excludes=("concealed_hand",),
    ),
    Pattern(
        "all_honours",
        "All Honours",
        "字一色",
        8,
        lambda f, r: when(all_honours(r), r.kinds),
        "common practice",
        excludes=("all_pungs",),
    ),
    Pattern("full_flush", "Full Flush", "清一色", 4, lambda f, r: when(full_flush(r), r.kinds), "common practice"),
    Pattern("half_flush", "Half Flush", "混一色", 2, lambda f, r: when(half_flush(r), r.kinds), "common practice"),
    Pattern("all_pungs", "All Pungs", "碰碰胡", 2, lambda f, r: when(all_pungs(r), r.kinds), "common practice"),
    Pattern(
        "seven_pairs",
        "Seven Pairs",
        "七对",
        2,
        lambda f, r: when(r.shape == SEVEN_PAIRS, r.kinds),
        "common practice",
        excludes=("concealed_hand",),
    ),
    Pattern("no_wild", "No Wild Used", "无百搭", 1, lambda f, r: when(r.hard, r.kinds), "common practice"),
    Pattern(
        "concealed_hand",
        "Concealed Hand",
        "门清",
        1,
        lambda f, r: when(not f.hand.is_open, r.kinds),
        "common practice",
    ),
    Pattern("self_draw", "Self-Draw", "自摸", 1, lambda f, r: when(f.hand.self_drawn, f.win), "common practice"),
    Pattern(
        "kong_replacement_win",
        "Win on a Kong Replacement",
        "杠上开花",
        1,
        lambda f, r: when(f.hand.kong_replacement, f.win),
        "common practice",
    ),
    Pattern(
        "last_tile_draw",
        "Win on the Last Tile",
        "海底捞月",
        1,
        lambda f, r: when(f.hand.last_tile and f.hand.self_drawn, f.win),
        "common practice",
    ),
    Pattern(
        "robbing_kong",
        "Robbing the Kong",
        "抢杠",
        1,
        lambda f, r: when(f.hand.robbing_kong, f.win),
        "common practice",
    ),
    Pattern(
        "dragon_pung",
        "Dragon Pung",
        "箭刻",
        1,
        lambda f, r: sets_hit(r.sets_of(DRAGON_SET)),
        "common practice",
    ),
    Pattern(
        "seat_wind_pung",
        "Seat Wind Pung",
        "门风刻",
        1,
        lambda f, r: sets_hit(r.sets_of(frozenset((f.seat,)))),
        "common practice",
    ),
    Pattern(
        "round_wind_pung",
        "Round Wind Pung",
        "圈风刻",
        1,
        lambda f, r: sets_hit(r.sets_of(frozenset((f.round,)))),
        "common practice",
    ),
)

_FAN_OPTIONS = tuple(
    Option(
        f"fan_{p.id}",
        p.value,
        f"fan of {p.name_zh} ({p.name_en}); the source has no scoring",
        "int",
        origin=PRACTICE,
        minimum=0,
    )
    for p in PATTERNS
)


class Cixi(RuleSet):
    """Cixi mahjong: the wild tile 龙 from the indicator (source) and a common fan table (common practice)."""

    name = "cixi"
    title = "Cixi (慈溪麻将, wild tile 龙)"
    unit = "fan"
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "indicator_in_play",
            True,
            "the turned-up indicator stays in the wall and can be drawn later (the source does not say); "
            "false: it is out of play, so a hand holds at most 3 of its kind",
            "bool",
            origin=PRACTICE,
        ),
        Option(
            "discarded_wild",
            "face",
            "a winning tile of the wild kind taken from a discard (or robbed from a kong): face = it counts "
            "as its own face, wild = it is still a wild",
            "str",
            ("face", "wild"),
            origin=PRACTICE,
        ),
        Option(
            "wild_as_itself",
            "natural",
            "a wild standing for its own kind: natural = it is no substitute (无百搭 can count), "
            "wild = it is a wild used like any other",
            "str",
            ("natural", "wild"),
            origin=PRACTICE,
        ),
        Option("seven_pairs", True, "seven pairs (七对) is a winning hand", "bool", origin=PRACTICE),
        Option(
            "base",
            1,
            "the base stake (底) of every payment: each payer pays base + fan",
            "int",
            origin=PRACTICE,
            minimum=0,
        ),
        *_FAN_OPTIONS,
    )
    situation = (
        "wild_indicator",
        "self_drawn",
        "seat_wind",
        "round_wind",
        "dealer",
        "kong_replacement",
        "last_tile",
        "robbing_kong",
        "heavenly_win",
        "earthly_win",
    )
    completeness = (
        "partial: the tile set and the wild tile 龙 come from the source; the source has no winning hands, "
        "scoring or payments, so the 4 sets + pair / seven pairs shapes, the fan table and the payments are "
        "common practice (each value an option)"
    )
    summary = (
        "136 tiles, no flowers; the tile after the indicator (suits 1-9-1, winds E-S-W-N, dragons 中-发-白) is "
        "wild and stands in for any tile; the best reading under a common fan table; base + fan per payer"
    )

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """13 tiles + the winning tile, no flowers, an indicator that is a playing tile, a possible situation."""
        hand.validate(hand_size=self.hand_size)
        check_no_flowers(hand, "Cixi (136 tiles, §6.2)")
        indicator = _indicator(hand)
        wild_kind(indicator)
        if not options["indicator_in_play"]:
            held = sum(1 for t in hand.all_tiles if kind(t) == indicator)
            if held > 3:
                raise HandError(
                    "too_many_copies",
                    f"{held} copies of {code_of(indicator)} with the indicator {hand.wild_indicator} turned up "
                    "and out of play (indicator_in_play=false): only 3 are left",
                )
        check_situation(hand)

    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """The reading worth the most fan, the wilds standing in for any tile."""
        wild = wild_kind(_indicator(hand))
        readings, wilds, win_wild, notes = _readings(hand, wild, options)
        if not readings:
            notes.append(_no_win_reason(hand, options))
            return self._result(hand, options, False, [], None, notes, _wild_info(hand, wild, wilds, None))
        facts = Facts(hand)
        natural = options["wild_as_itself"] == "natural"
        views = [WildView(wr, hand.self_drawn, wild, natural) for wr in _distinct(readings)]
        scored = [(v, find(PATTERNS, facts, v)) for v in views]
        best, found = max(scored, key=lambda vf: sum(options[f"fan_{p.id}"] * hit[0] for p, hit in vf[1]))
        items = [item(p, hit, options[f"fan_{p.id}"]) for p, hit in found]
        if best.substitutes:
            stood = ", ".join(code_of(k) for k in best.substitutes)
            notes.append(f"the wild {WILD_ZH} {code_of(wild)} stands for {stood} in the reading worth the most")
            if best.hard:
                notes.append(f"every wild stands for its own kind {code_of(wild)}: no substitute (无百搭 counts)")
        if win_wild and best.win_as is not None:
            notes.append(f"the winning tile is a wild: it completed the hand as {code_of(best.win_as)}")
        return self._result(hand, options, True, items, best, notes, _wild_info(hand, wild, wilds, best))

    def _result(
        self,
        hand: Hand,
        options: dict[str, Any],
        winning: bool,
        items: list[Item],
        best: WildView | None,
        notes: list[str],
        wild_info: dict[str, Any],
    ) -> Score:
        total = sum(i.points for i in items)
        arrangement = [[code_of(k) for k in g] for g in best.arr.tile_groups()] if best else []
        pays = payments(total, hand.self_drawn, options["base"]) if winning else {}
        return Score(
            rules=self.name,
            options=dict(options),
            winning=winning,
            unit=self.unit,
            total=total,
            items=items,
            arrangement=arrangement,
            payments=pays,
            notes=notes,
            extra={"wild": wild_info},
        )


def _indicator(hand: Hand) -> int:
    """The kind of the hand's wild indicator; HandError when it is missing."""
    if hand.wild_indicator is None:
        raise HandError(
            "bad_field",
            "Cixi needs wild_indicator: the tile turned up after the deal (e.g. 1m makes 2m wild, 7z makes 6z wild)",
        )
    return kind(hand.wild_indicator)


def _readings(hand: Hand, wild: int, options: dict[str, Any]) -> tuple[list[WildReading], int, bool, list[str]]:
    """Every reading of the hand with its wilds, how many wilds it holds, whether the winning tile is one of
    them, and the notes on how the wilds were read."""
    notes = [
        f"wild tile {WILD_ZH}: {code_of(wild)} ({name_zh(wild)}), the next tile after the indicator "
        f"{hand.wild_indicator} (§6.2)"
    ]
    closed = [kind(t) for t in hand.concealed]
    win = hand.win_kind
    win_wild = False
    if win == wild:
        taken = not hand.self_drawn
        win_wild = not taken or options["discarded_wild"] == "wild"
        if taken:
            notes.append(
                f"the winning {code_of(wild)} was taken from another player: "
                + ("it is still a wild (discarded_wild=wild)" if win_wild else "it is its face (discarded_wild=face)")
            )
    natural = counts_of(k for k in closed if k != wild)
    wilds = sum(1 for k in closed if k == wild)
    if win is not None:
        if win_wild:
            wilds += 1
        else:
            natural[win] += 1
    if any(wild in m.kinds for m in hand.melds):
        notes.append(f"the {code_of(wild)} in declared melds stand as themselves: a claim uses no wild")
    declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
    shapes = Shapes(seven_pairs=options["seven_pairs"], seven_pairs_four=True)
    readings = wild_arrangements(natural, wilds, declared, None if win_wild else win, shapes, win_wild)
    return readings, wilds, win_wild, notes


def _distinct(readings: list[WildReading]) -> list[WildReading]:
    """One reading per set of blocks and substitutes: no item of the table reads the winning tile's place
    (no wait, no concealed-pung item), so readings that differ only there score the same."""
    seen: dict[tuple[Any, ...], WildReading] = {}
    for wr in readings:
        a = wr.arrangement
        key = (a.shape, tuple(sorted((b.type, b.tiles, b.concealed) for b in a.blocks)), a.singles, wr.substitutes)
        seen.setdefault(key, wr)
    return list(seen.values())


def _wild_info(hand: Hand, wild: int, wilds: int, best: WildView | None) -> dict[str, Any]:
    """The ``wild`` field of the score: indicator, wild kind, wilds held (the winning tile included when it
    is one), what they stood for."""
    return {
        "indicator": hand.wild_indicator,
        "tile": code_of(wild),
        "held": wilds,
        "stands_for": [code_of(k) for k in best.substitutes] if best else [],
    }


def _no_win_reason(hand: Hand, options: dict[str, Any]) -> str:
    shapes = "4 sets + a pair" + (" or seven pairs" if options["seven_pairs"] and not hand.melds else "")
    return f"not a winning hand: with the wilds standing in for any tile the 14 tiles form no {shapes}"


RULESET = Cixi()
