"""The 5-fan-minimum club competition rules 麻将比赛规则 (DIGEST §10, source 002 @14154-15178).

The source gives the event rules in full and a fan list that breaks off in its 30-fan group: ten items at 40
and 30 fan ("有其他番另加": other fan are added), the 5-fan minimum with its penalty, the dealer's double
payments, and the doublings of the fan for 自摸, 杠上花, 抢杠 and 海底捞月. Flowers and wild tiles are
removed ("取消花和白搭"). The items under 30 fan are lost, so a hand holding none of the listed items cannot
be shown to reach the minimum: the result says so. The rule card is ``scoring/docs/club5.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from scoring.decompose import SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, Shapes, arrangements
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.rules.folk_reading import (
    DRAGON_SET,
    WIND_SET,
    Hit,
    Pattern,
    Reading,
    all_honours,
    big_four_winds,
    big_three_dragons,
    check_no_flowers,
    check_situation,
    find,
    full_flush,
    honour_tiles,
    item,
    little_four_winds,
    when,
)
from scoring.ruleset import PRACTICE, SOURCE, Option, RuleSet
from scoring.tiles import code_of, counts_of, is_honour, is_terminal


class Facts:
    """The hand and the options, for the predicates."""

    __slots__ = ("hand", "options")

    def __init__(self, hand: Hand, options: dict[str, Any]) -> None:
        self.hand = hand
        self.options = options


def _all_honours(f: Facts, r: Reading) -> Hit | None:
    """全字: "全是四喜、三无(三元)、四碰和将或七对胡牌": honours only, as 4 pungs + a pair or as seven pairs."""
    return when(all_honours(r) and r.shape in (STANDARD, SEVEN_PAIRS), r.kinds)


def _big_seven_pairs(f: Facts, r: Reading) -> Hit | None:
    """大七对: seven pairs among which four tiles are the same ("七对中有四张是一样的牌")."""
    return when(r.shape == SEVEN_PAIRS and len(set(r.pairs)) < len(r.pairs), r.kinds)


def _terminal_pungs(f: Facts, r: Reading) -> Hit | None:
    """么、九对子胡 (the source breaks off at its name): 4 pungs + a pair, every tile a 1 or a 9, or with
    option terminal_pungs=with_honours, a 1, a 9 or an honour."""
    allowed = is_terminal if f.options["terminal_pungs"] == "terminals" else (lambda k: is_terminal(k) or is_honour(k))
    ok = r.shape == STANDARD and not r.chows and all(allowed(k) for k in r.kinds)
    return when(ok and any(is_terminal(k) for k in r.kinds), r.kinds)


#: The listed items in the source's order (002 @14936): 40 fan, then 30 fan; "有其他番另加" for both groups.
PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        "heavenly_win",
        "Heavenly Win",
        "天胡",
        40,
        lambda f, r: when(f.hand.heavenly_win, r.kinds),
        "§10.4, 002 @14973 庄家跳牌后即组成四组一对麻将胡牌",
    ),
    Pattern(
        "earthly_win",
        "Earthly Win",
        "地胡",
        40,
        lambda f, r: when(f.hand.earthly_win, r.kinds),
        "§10.4, 002 @14996 庄家出第一张牌即胡牌",
    ),
    Pattern(
        "thirteen_orphans",
        "Thirteen Orphans",
        "十三么",
        40,
        lambda f, r: when(r.shape == THIRTEEN_ORPHANS, r.kinds),
        "§10.4, 002 @15013 其中只有一对相同的作将",
    ),
    Pattern(
        "big_four_winds",
        "Big Four Winds",
        "大四喜",
        40,
        lambda f, r: when(big_four_winds(r), honour_tiles(r, WIND_SET)),
        "§10.4, 002 @15032 必须是东、南、西、北风四碰",
    ),
    Pattern("all_honours", "All Honours", "全字", 40, _all_honours, "§10.4, 002 @15053"),
    Pattern("full_flush", "Full Flush", "清一色", 30, lambda f, r: when(full_flush(r), r.kinds), "§10.4, 002 @15097"),
    Pattern(
        "big_three_dragons",
        "Big Three Dragons",
        "大三元",
        30,
        lambda f, r: when(big_three_dragons(r), honour_tiles(r, DRAGON_SET)),
        "§10.4, 002 @15104 必须是中、发、白三碰",
    ),
    Pattern(
        "little_four_winds",
        "Little Four Winds",
        "小四喜",
        30,
        lambda f, r: when(little_four_winds(r), honour_tiles(r, WIND_SET)),
        "§10.4, 002 @15122 东、南、西、北风中有三碰和一对作将",
    ),
    Pattern("big_seven_pairs", "Big Seven Pairs", "大七对", 30, _big_seven_pairs, "§10.4, 002 @15150"),
    Pattern(
        "terminal_pungs",
        "Terminal Pungs",
        "么九对子胡",
        30,
        _terminal_pungs,
        "§10.4, 002 @15169 (truncated after the name: definition common practice)",
    ),
)

#: A doubling of rule 8: id, name_zh, name_en and when it applies
Doubling = tuple[str, str, str, Callable[[Hand], bool]]

#: The fan doublings of rule 8 (002 @14611), in the order the source names them
DOUBLINGS: tuple[Doubling, ...] = (
    ("self_draw", "自摸", "Self-Draw", lambda h: h.self_drawn),
    ("kong_replacement_win", "杠上花", "Win on a Kong Replacement", lambda h: h.kong_replacement),
    ("robbing_kong", "抢杠", "Robbing the Kong", lambda h: h.robbing_kong),
    ("last_tile_draw", "海底捞月", "Win on the Last Tile", lambda h: h.last_tile and h.self_drawn),
)


class Club5(RuleSet):
    """The 5-fan-minimum club rules: the listed 40 and 30 fan items, doublings, minimum and dealer doubles."""

    name = "club5"
    title = "Club competition, 5-fan minimum (麻将比赛规则)"
    unit = "fan"
    options: ClassVar[tuple[Option, ...]] = (
        Option("minimum", 5, 'fan needed to win ("五番才能胡牌")', "int", origin=SOURCE, minimum=0),
        Option(
            "penalty",
            10,
            'paid to each of the other three by a win under the minimum or a wrong win ("付给其他三家各十分")',
            "int",
            origin=SOURCE,
            minimum=0,
        ),
        Option(
            "three_times",
            "payers",
            '"胡牌时，可算三次计番": payers = the fan is paid three times, by each of the other three; '
            "doublings = it caps the doublings at three (never more with rule 8's four: 抢杠 is not self-drawn), "
            "and a discard win is paid by the discarder alone",
            "str",
            ("payers", "doublings"),
            origin=PRACTICE,
        ),
        Option(
            "stack_doublings",
            True,
            "each of 自摸, 杠上花, 抢杠, 海底捞月 doubles the fan again (杠上花 self-drawn: x4); false: one "
            "doubling at most",
            "bool",
            origin=PRACTICE,
        ),
        Option(
            "terminal_pungs",
            "terminals",
            "么九对子胡 (cut off after its name): terminals = 4 pungs + a pair of 1s and 9s only; "
            "with_honours = honours allowed too",
            "str",
            ("terminals", "with_honours"),
            origin=PRACTICE,
        ),
    )
    situation = (
        "self_drawn",
        "dealer",
        "kong_replacement",
        "robbing_kong",
        "last_tile",
        "heavenly_win",
        "earthly_win",
    )
    completeness = (
        "partial: the source's fan list breaks off in its 30-fan group; its 10 items at 40 and 30 fan, the "
        "doublings, the 5-fan minimum with its penalty and the dealer's double payments are scored; the items "
        "under 30 fan are lost"
    )
    summary = (
        "136 tiles (no flowers, no wilds); 4 sets + a pair, seven pairs, 十三么; the 10 listed items (40 and 30 "
        "fan, added up), doubled for 自摸 / 杠上花 / 抢杠 / 海底捞月; 5 fan to win; the dealer pays and is paid double"
    )

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """13 tiles + the winning tile, no flowers ("取消花和白搭"), a situation that can happen."""
        hand.validate(hand_size=self.hand_size)
        check_no_flowers(hand, 'The club rules ("取消花和白搭", §10.2)')
        check_situation(hand)

    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """The listed items of the reading worth the most, the doublings, the minimum and the payments."""
        shapes = Shapes(seven_pairs=True, seven_pairs_four=True, thirteen_orphans=True)
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        arrs = arrangements(counts_of(hand.closed_kinds), declared, hand.win_kind, shapes)
        if not arrs:
            notes = ["not a winning hand (胡错牌): the 14 tiles form no 4 sets + a pair, seven pairs or 十三么"]
            return self._refused_win(options, 0, [], [], notes, {"fan_before_doubling": 0, "doublings": []})
        facts = Facts(hand, options)
        scored = []
        for a in arrs:
            r = Reading(a, hand.self_drawn)
            scored.append((r, [item(p, hit) for p, hit in find(PATTERNS, facts, r)]))
        best, items = max(scored, key=lambda ri: sum(i.points for i in ri[1]))
        fan = sum(i.points for i in items)
        doublings = [d for d in DOUBLINGS if d[3](hand)]
        applied = doublings if options["stack_doublings"] else doublings[:1]
        total = fan * 2 ** len(applied)
        notes = _doubling_notes(items, options, doublings, applied)
        arrangement = [[code_of(k) for k in g] for g in best.arr.tile_groups()]
        extra = {
            "fan_before_doubling": fan,
            "doublings": [{"id": d[0], "name_zh": d[1], "name_en": d[2]} for d in applied],
        }
        if total < options["minimum"]:
            notes.insert(
                0,
                f'{total} fan: under the {options["minimum"]}-fan minimum ("五番才能胡牌"). The source\'s items '
                "under 30 fan are lost (its list breaks off), so a hand that holds one of them may still reach "
                "the minimum: count those by hand",
            )
            return self._refused_win(options, total, items, arrangement, notes, extra)
        notes.extend(_payment_notes(hand, options))
        return Score(
            self.name,
            dict(options),
            True,
            self.unit,
            total,
            items,
            arrangement,
            _payments(total, hand, options),
            notes,
            extra,
        )

    def _refused_win(
        self,
        options: dict[str, Any],
        total: int,
        items: list[Item],
        arrangement: list[list[str]],
        notes: list[str],
        extra: dict[str, Any],
    ) -> Score:
        """A hand that may not win: the declaring player pays the penalty to each of the other three."""
        notes.append(f"a win declared on this hand costs {options['penalty']} to each of the other three (rule 2)")
        pays = {"penalty_to_each_other": options["penalty"]}
        return Score(self.name, dict(options), False, self.unit, total, items, arrangement, pays, notes, extra)


def _payments(total: int, hand: Hand, options: dict[str, Any]) -> dict[str, int]:
    """Rule 7: a dealer's win is paid double by each payer; when another player wins the dealer pays double.

    ``three_times=payers``: each of the other three pays (rule 9, "可算三次计番"). ``doublings``: a discard
    win is paid by the discarder alone (``discarder``, and ``discarder_if_dealer`` when the winner is not the
    dealer); a self-draw by all three.
    """
    if hand.dealer:
        if options["three_times"] == "doublings" and not hand.self_drawn:
            return {"discarder": 2 * total, "winner_receives": 2 * total}
        return {"each_other": 2 * total, "winner_receives": 6 * total}
    if options["three_times"] == "doublings" and not hand.self_drawn:
        return {"discarder": total, "discarder_if_dealer": 2 * total}
    return {"dealer": 2 * total, "each_non_dealer": total, "winner_receives": 4 * total}


def _doubling_notes(
    items: list[Item], options: dict[str, Any], doublings: list[Doubling], applied: list[Doubling]
) -> list[str]:
    notes = []
    if len(items) > 1:
        notes.append("every listed item is added (有其他番另加): the source names no exclusions")
    if applied:
        names = " and ".join(d[1] for d in applied)
        notes.append(f"the fan is doubled for {names} (rule 8: x{2 ** len(applied)})")
    if len(applied) < len(doublings):
        left = " and ".join(d[1] for d in doublings[len(applied) :])
        notes.append(f"no further doubling for {left} (stack_doublings=false: one doubling at most)")
    return notes


def _payment_notes(hand: Hand, options: dict[str, Any]) -> list[str]:
    notes = []
    if hand.dealer:
        notes.append("the dealer won: every payment is doubled (rule 7, 按番数加倍付)")
    elif options["three_times"] == "payers" or hand.self_drawn:
        notes.append("the dealer pays the winner double (rule 7, 庄家也加倍付给胡牌人)")
    if options["three_times"] == "payers" and not hand.self_drawn:
        notes.append('each of the other three pays the fan (rule 9 "可算三次计番" read as three payers)')
    return notes


RULESET = Club5()
