"""Sichuan mahjong, 血战到底 (Blood Battle to the End): 108 tiles, a void suit, no chi, stakes doubling per fan.

Sources (DIGEST §4): S-A, 001 @3116 "四川麻将-血战到底规则" (10 rules and the fan table, cut off in 清大对) and
S-B, 003 @10492 "四川麻将番数算法" (an online game: 刮风下雨 kong payments, 花猪, 查大叫, "largest fan only"; its fan
list is lost). The fan tables are data in ``sichuan_fans``; the rule card is ``scoring/docs/sichuan.md``.

A win is 4 melds + a pair or seven pairs (four identical tiles may be two of them) from the 108 suit tiles, with
no claimed chow, holding no tile of the void suit. Every fan doubles the stake: each payer pays 2^fan x base,
the fan capped at 9 (S-A rule 8). Payments also list the winner's kongs (刮风下雨, S-B rule 6).

Hand fields read besides the contract's common ones: ``void_suit`` (定缺), meld ``from`` (who fed a direct kong),
``dealer_streak`` (连庄), and three of this rule set: ``opponents_left`` (1-3: the other players still in, who
pay a self-draw, 面下杠 and 暗杠; default 3), ``kong_opponents_left`` (the same per kong, in meld order, when it
changed during the hand) and ``consecutive_draws`` (黄庄: drawn hands just before this one).
"""

from __future__ import annotations

from typing import Any, ClassVar

from scoring.decompose import Shapes, arrangements
from scoring.errors import HandError
from scoring.fields import Field, read_fields
from scoring.hand import Hand, Meld
from scoring.result import Item, Score
from scoring.rules.sichuan_fans import (
    ADDITION,
    COMMON_FANS,
    HAND,
    SOURCE_FANS,
    Facts,
    Fan,
    Hit,
    Reading,
    find,
    published_name,
)
from scoring.ruleset import PRACTICE, Option, RuleSet
from scoring.tiles import SUITS, code_of, counts_of, is_honour, kind, normal

_SUIT_NAMES = {"m": "characters (万)", "p": "dots (筒)", "s": "bamboo (条)"}
OWN_FIELDS = (
    Field("opponents_left", "int", 3, "the other players still in the game (血战: 1-3)", (1, 2, 3)),
    Field(
        "kong_opponents_left",
        "ints",
        None,
        "for each kong: the players still in when it was made",
        minimum=1,
        maximum=3,
    ),
    Field("consecutive_draws", "int", 0, "hands drawn (黄庄) just before this one", minimum=0),
)
SHAPES = Shapes(seven_pairs=True, seven_pairs_four=True)
#: the S-B penalty of a 花猪 at the exhaustive draw, in base stakes to each other player (003 @11085)
FLOWER_PIG_PENALTY = 16


class Sichuan(RuleSet):
    """血战到底: void suit, no chi, fan tables S-A / S-B / common, 2^fan payments and kong payments (DIGEST §4)."""

    name = "sichuan"
    title = "Sichuan Bloody Battle (四川麻将 血战到底)"
    unit = "fan"
    hand_size = 13
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "table",
            "sa",
            "fan table: sa = S-A (平胡 0, 自摸 1, 大对子 2, 清一色 3, 七对 4, all added); sb = the same patterns, "
            "only the largest counts (S-B); common = the common 血战到底 table (对对胡 1, 清一色 2, 七对 2, "
            "带幺九 2, 金钩钓, 将对, 杠上花, 抢杠胡, 海底 ...)",
            "str",
            choices=("sa", "sb", "common"),
        ),
        Option(
            "qing_da_dui",
            5,
            "fan of 清大对 in tables sa and sb (the source is cut off there; 5 = 清一色 3 + 大对子 2)",
            "int",
            origin=PRACTICE,
            minimum=0,
        ),
        Option("cap", 9, "the most fan a hand counts (S-A rule 8: 9番封顶); 0 = no cap", "int", minimum=0),
        Option(
            "void_rule",
            "declared",
            "declared: the hand holds no tile of the declared void_suit (S-A rule 4, 定缺); any_suit: the hand "
            "lacks any one suit (S-B rule 3)",
            "str",
            choices=("declared", "any_suit"),
        ),
        Option(
            "self_draw_bonus",
            "fan",
            "self-draw in table common: fan = +1 fan (自摸加番), base = each payer pays one base more (自摸加底)",
            "str",
            choices=("fan", "base"),
            origin=PRACTICE,
        ),
        Option(
            "draw_doubling",
            True,
            "黄庄加倍: +1 fan per drawn hand just before this one (S-A rule 9; field consecutive_draws)",
            "bool",
        ),
        Option(
            "streak_doubling",
            True,
            "连庄: from the dealer's 3rd hand in a row x2, 4th x4 ... (S-A rule 10; field dealer_streak)",
            "bool",
        ),
        Option(
            "base",
            1,
            "the base stake: each payer pays 2^fan x base; kong payments are in bases",
            "int",
            origin=PRACTICE,
            minimum=0,
        ),
    )
    situation = (
        "void_suit",
        "self_drawn",
        "kong_replacement",
        "robbing_kong",
        "last_tile",
        "heavenly_win",
        "earthly_win",
        "dealer",
        "dealer_streak",
    )
    own_fields = OWN_FIELDS
    completeness = (
        "partial: S-A's table is cut off at 清大对 (option qing_da_dui) and S-B's fan list is lost; the common "
        "血战到底 table is option table=common"
    )
    summary = (
        "108 tiles, a void suit, no chi; 4 melds + pair or seven pairs; each kong and 根 +1 fan; pay 2^fan x "
        "base, cap 9; kong payments 刮风下雨"
    )

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """The common checks with 13 tiles + the winning tile, then 108 tiles, no chi and the own fields."""
        hand.validate(hand_size=self.hand_size)
        honours = sorted({t for t in hand.all_tiles if is_honour(kind(t))}, key=kind)
        if honours:
            raise HandError(
                "not_allowed",
                f"{', '.join(honours)}: Sichuan is played with the 108 suit tiles only, no winds or dragons "
                "(S-A rule 1 无风牌及花牌)",
            )
        if hand.flowers:
            raise HandError("not_allowed", "Sichuan has no flowers (S-A rule 1 无风牌及花牌): remove 'flowers'")
        for i, m in enumerate(hand.melds):
            if m.type == "chow":
                raise HandError(
                    "not_allowed",
                    f"meld {i + 1} ({' '.join(m.tiles)}) is a chow: Sichuan has no chi (S-A rule 2 不能吃); "
                    "a run stays among the concealed tiles",
                )
        _own_fields(hand)
        for shown, message in (
            (
                hand.robbing_kong and hand.self_drawn,
                "抢杠 (robbing_kong) wins on another player's tile, not a self-draw",
            ),
            (
                hand.robbing_kong and hand.kong_replacement,
                "抢杠 and 杠上花/杠上炮 (kong_replacement) exclude each other",
            ),
            (
                hand.kong_replacement and hand.self_drawn and not any(m.is_kong for m in hand.melds),
                "杠上花 (kong_replacement, self-drawn) follows your own kong: the hand has none",
            ),
            (hand.heavenly_win and (hand.melds or not hand.self_drawn), "天胡 is won on the dealt tiles, self-drawn"),
            (hand.heavenly_win and hand.earthly_win, "天胡 and 地胡 exclude each other"),
            (hand.heavenly_win and not hand.dealer, "天胡 (heavenly_win) is the dealer's win on the dealt tiles"),
            (hand.earthly_win and hand.dealer, "地胡 (earthly_win) is a non-dealer's win"),
            (
                hand.robbing_kong and hand.win_tile is not None and _copies(hand, kind(hand.win_tile)) > 1,
                "抢杠: the other three copies of the winning tile are in the kong being robbed",
            ),
        ):
            if shown:
                raise HandError("not_allowed", message)

    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Score a valid hand: the void suit, the best reading's fan, the cap and the payments."""
        notes: list[str] = []
        void_problem = _void_problem(hand, options, notes)
        if void_problem:
            return self._not_winning(options, [void_problem, *notes, _flower_pig_note(options)])
        win = hand.win_kind
        if win is None:
            raise HandError("bad_win_tile", "the hand has no winning tile (win_tile)")
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        arrs = arrangements(counts_of(hand.closed_kinds), declared, win, SHAPES)
        if not arrs:
            return self._not_winning(
                options, ["not a winning hand: the 14 tiles form neither 4 melds + a pair nor seven pairs", *notes]
            )
        kinds = tuple(kind(t) for t in hand.all_tiles)
        counts = counts_of(kinds)
        facts = Facts(
            options=options,
            kinds=kinds,
            kongs=tuple(m.first for m in hand.melds if m.is_kong),
            declared=len(hand.melds),
            standing=len(hand.concealed),
            win=win,
            four_kinds=tuple(k for k in range(27) if counts[k] == 4),
            self_drawn=hand.self_drawn,
            kong_replacement=hand.kong_replacement,
            robbing_kong=hand.robbing_kong,
            last_tile=hand.last_tile,
            heavenly_win=hand.heavenly_win,
            earthly_win=hand.earthly_win,
        )
        table = options["table"]
        fans = COMMON_FANS if table == "common" else SOURCE_FANS
        reading, found = max(
            ((r, _choose(find(fans, facts, r), options, table)) for r in map(Reading, arrs)),
            key=lambda rf: sum(p.fan(options) * hit[0] for p, hit in rf[1]),
        )
        items = [_item(p, hit, options) for p, hit in found]
        items.extend(_table_doublings(hand, options, notes))
        if not any(_is_hand_item(i.id, fans) for i in items):
            items.insert(0, Item("plain_win", "Plain Win", 0, 1, [], {"name_zh": "平胡"}))
        fan = sum(i.points for i in items)
        notes.extend(_table_notes(hand, options, facts, found, {i.id for i in items}))
        cap = options["cap"]
        total = min(fan, cap) if cap else fan
        if total < fan:
            notes.append(f"capped: {fan} fan counted as {cap} (S-A rule 8 9番封顶, option cap)")
        pays, pay_notes = payments(hand, options, total)
        notes.extend(pay_notes)
        return Score(
            rules=self.name,
            options=dict(options),
            winning=True,
            unit=self.unit,
            total=total,
            items=items,
            arrangement=[[code_of(k) for k in g] for g in reading.arr.tile_groups()],
            payments=pays,
            notes=notes,
            extra={"fan_before_cap": fan, "multiplier": 2**total},
        )

    def _not_winning(self, options: dict[str, Any], notes: list[str]) -> Score:
        return Score(
            rules=self.name,
            options=dict(options),
            winning=False,
            unit=self.unit,
            total=0,
            notes=notes,
            extra={"fan_before_cap": 0, "multiplier": 0},
        )


def _copies(hand: Hand, k: int) -> int:
    return sum(1 for t in hand.all_tiles if kind(t) == k)


def _own_fields(hand: Hand) -> tuple[int, list[int], int]:
    """opponents_left, kong_opponents_left (one per kong) and consecutive_draws, checked."""
    own = read_fields(OWN_FIELDS, hand.extra)
    left = own["opponents_left"]
    n_kongs = sum(1 for m in hand.melds if m.is_kong)
    per_kong = own["kong_opponents_left"]
    if per_kong is None:
        per_kong = [left] * n_kongs
    elif len(per_kong) != n_kongs:
        raise HandError(
            "bad_field",
            f"kong_opponents_left must list 1, 2 or 3 for each of the hand's {n_kongs} kong(s), not {per_kong!r}",
        )
    return left, per_kong, own["consecutive_draws"]


def _void_problem(hand: Hand, options: dict[str, Any], notes: list[str]) -> str | None:
    """Why the hand breaks the void-suit rule (None if it keeps it); notes how the void suit was taken."""
    held = {code_of(kind(t))[1] for t in hand.all_tiles}
    missing = [s for s in SUITS if s not in held]
    if options["void_rule"] == "declared" and hand.void_suit is not None:
        if hand.void_suit in held:
            return (
                f"no win: the hand holds {_SUIT_NAMES[hand.void_suit]}, the declared void suit (定缺, S-A rule 4 "
                "必须缺一门, 不能更改); a player still holding it is a 花猪"
            )
        return None
    if not missing:
        return "no win: the hand holds all three suits (S-B rule 3 胡牌的时候不能有三种花色的牌); it is a 花猪"
    if options["void_rule"] == "declared":
        notes.append(
            f"void_suit not given: taken as {' or '.join(_SUIT_NAMES[s] for s in missing)}, which the hand lacks"
        )
    elif hand.void_suit is not None and hand.void_suit in held:
        notes.append(
            f"void_rule=any_suit: the hand holds the declared {_SUIT_NAMES[hand.void_suit]} but lacks "
            f"{_SUIT_NAMES[missing[0]]}, which is enough (S-B rule 3)"
        )
    return None


def _flower_pig_note(options: dict[str, Any]) -> str:
    return (
        "at an exhaustive draw a 花猪 pays a penalty: S-A rule 7 '加番罚钱（加1番）', S-B rule 7 16 x base "
        f"(= {FLOWER_PIG_PENALTY * options['base']}) to each player who is not a 花猪"
    )


def _choose(found: list[tuple[Fan, Hit]], options: dict[str, Any], table: str) -> list[tuple[Fan, Hit]]:
    """Table sb keeps only the largest 番型 (S-B: 只按最大番算); kongs and 根 still add (S-A rule 5)."""
    if table != "sb":
        return found
    shapes = [(p, hit) for p, hit in found if p.kind == HAND]
    if len(shapes) <= 1:
        return found
    best = max(shapes, key=lambda ph: ph[0].fan(options) * ph[1][0])[0].id
    return [ph for ph in found if ph[0].kind != HAND or ph[0].id == best]


def _is_hand_item(item_id: str, fans: tuple[Fan, ...]) -> bool:
    return any(p.id == item_id and p.kind == HAND and p.id != "self_draw" for p in fans)


def _item(p: Fan, hit: Hit, options: dict[str, Any]) -> Item:
    return Item(p.id, p.name_en, p.fan(options), hit[0], [code_of(k) for k in hit[1]], {"name_zh": p.name_zh})


def _table_doublings(hand: Hand, options: dict[str, Any], notes: list[str]) -> list[Item]:
    """黄庄加倍 (S-A rule 9) and 连庄 (S-A rule 10) as fan: +1 per preceding draw; x2 from the 3rd dealer hand."""
    out = []
    _, _, draws = _own_fields(hand)
    if draws and options["draw_doubling"]:
        out.append(Item("draw_doubling", "Doubling after a Drawn Hand", 1, draws, [], {"name_zh": "黄庄加倍"}))
    streak = hand.dealer_streak
    if streak >= 2 and options["streak_doubling"]:
        out.append(
            Item("dealer_streak", f"Dealer's Hand {streak + 1} in a Row", 1, streak - 1, [], {"name_zh": "连庄"})
        )
        notes.append(
            f"连庄: dealer_streak {streak} is the dealer's hand {streak + 1} in a row: x{2 ** (streak - 1)} "
            "(S-A rule 10: the 3rd x2, the 4th x4 ...), for every win of this hand"
        )
    return out


def _table_notes(
    hand: Hand, options: dict[str, Any], facts: Facts, found: list[tuple[Fan, Hit]], ids: set[str]
) -> list[str]:
    """The interpretations that decided this reading."""
    table = options["table"]
    notes = []
    if table == "common":
        roots = len(facts.four_kinds)
        name = published_name(ids, roots, len(facts.kongs))
        shape_fan = sum(p.fan(options) * hit[0] for p, hit in found if p.kind in (HAND, ADDITION))
        notes.append(f"common table: {name}, {shape_fan} fan with 根 (x{2**shape_fan}) before the ways of winning")
        if hand.kong_replacement and not hand.self_drawn:
            notes.append("杠上炮: kong_replacement on a discard is a win on the tile discarded after a kong")
    else:
        if "pure_all_pungs" in ids:
            notes.append(
                f"清大对 counts {options['qing_da_dui']} fan (option qing_da_dui; the source is cut off there) and "
                "replaces 清一色 and 大对子"
            )
        wins = [
            n
            for n, on in (
                ("杠上花/杠上炮", hand.kong_replacement),
                ("抢杠", hand.robbing_kong),
                ("海底", hand.last_tile),
                ("天胡", hand.heavenly_win),
                ("地胡", hand.earthly_win),
            )
            if on
        ]
        if wins:
            notes.append(f"{', '.join(wins)}: not in the S-A table (no fan); they count with table=common")
        if table == "sb":
            notes.append("table sb: only the largest 番型 counts (S-B 只按最大番算); 杠 and 根 still add (S-A rule 5)")
        if "seven_pairs" in ids and "root" in ids:
            notes.append("龙七对: seven pairs with four identical tiles; the four counts as a 根")
    return notes


def _kong_kind(m: Meld) -> tuple[str, str, str]:
    """(id, name, who pays) of a kong by S-B rule 6: 直杠, 面下杠 (刮风) or 暗杠 (下雨)."""
    if not m.open:
        return "concealed", "暗杠 (下雨)", "each other player still in"
    if m.added:
        return "added", "面下杠 (刮风)", "each other player still in"
    return "direct", "直杠 (刮风)", "the discarder who fed it"


def payments(hand: Hand, options: dict[str, Any], fan: int) -> tuple[dict[str, Any], list[str]]:
    """The win's payments (2^fan x base from the discarder, or from each other player still in on a self-draw)
    and the winner's kong payments (S-B rule 6, 刮风下雨: 直杠 1 base from the discarder, 面下杠 1 base and
    暗杠 2 base from each other player still in)."""
    base = options["base"]
    left, per_kong, _ = _own_fields(hand)
    each = 2**fan * base
    notes = []
    if hand.self_drawn and options["table"] == "common" and options["self_draw_bonus"] == "base":
        each += base
        notes.append("自摸加底: each payer pays one base more (option self_draw_bonus=base)")
    if hand.self_drawn:
        pays: dict[str, Any] = {"each_other": each, "payers": left}
        win_total = each * left
        notes.append(
            f"self-drawn: each of the {left} other player(s) still in pays 2^{fan} x {base}"
            " (S-A 自摸 三家都给; 血战: players who have won have left)"
        )
    else:
        pays = {"discarder": each}
        win_total = each
        who = "the player whose added kong was robbed" if hand.robbing_kong else "the discarder"
        notes.append(f"won on a discard: only {who} pays (S-A rule 6 放炮的一个人负责)")
    kongs: dict[str, dict[str, Any]] = {}
    kong_melds = [m for m in hand.melds if m.is_kong]
    for m, payers_left in zip(kong_melds, per_kong, strict=True):
        kid, name, who = _kong_kind(m)
        payers = 1 if kid == "direct" else payers_left
        unit = 2 if kid == "concealed" else 1
        kongs[f"{normal(m.tiles[0])}_{kid}"] = {
            "name_zh": name,
            "paid_by": m.from_ if kid == "direct" and m.from_ else who,
            "payers": payers,
            "each": unit * base,
            "total": unit * base * payers,
        }
        if kid == "direct" and m.from_ is None:
            notes.append(f"直杠 {m.tiles[0]}: meld 'from' not given; the discarder who fed it pays")
    if kongs:
        pays["kongs"] = kongs
        pays["kong_total"] = sum(k["total"] for k in kongs.values())
        notes.append(
            "kong payments (刮风下雨, S-B rule 6) are paid at once; a player not ready at an exhaustive draw "
            "returns them all"
        )
    if hand.robbing_kong:
        notes.append("抢杠: the robbed added kong earns its owner nothing (S-B rule 6 刮风下雨无效)")
    pays["total"] = win_total + pays.get("kong_total", 0)
    return pays, notes


RULESET = Sichuan()
