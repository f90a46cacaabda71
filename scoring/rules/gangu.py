"""Gangu mahjong (甘谷麻将, Gansu; article by 张永杰): the win checked against the dealer's 口子 (DIGEST §9,
source 000 @25015-26549).

The source gives the 133-tile set (条, 饼, 万, 东南西北, 红中, 发财 and one 花子; no 白板), the winning shape
搬到胡 (4 打 + 1 将: four chows or pungs and a pair, 14 tiles) and the 口子 the dealer declares for his whole
deal: 胡吃乱碰, 缺风硬不吃, 净缺, 混缺, 叶子, 硬八叶, 断幺, 水张 (cut off mid-sentence). **It has no scoring**:
积分 (scoring) and 铲庄 are named as keywords only. So the result does not score: ``total`` is always 0, and
``winning`` says whether the hand is a 搬到胡 that keeps the declared 口子; ``contract`` and ``checks`` in the
result say which rule held or broke, and why. The rule card is ``scoring/docs/gangu.md``.

The hand field ``contract`` (contracts.md) is the declared 口子: one name or a list of names (every one must
hold), each the id or the Chinese name of ``KOUZI`` (``"jing_que"`` or ``"净缺"``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from scoring.decompose import CHOW, Arrangement, Shapes, arrangements
from scoring.errors import HandError
from scoring.fields import Field
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.ruleset import PRACTICE, Option, RuleSet
from scoring.tiles import WHITE, code_of, counts_of, is_flower, is_honour, is_terminal, kind, suit

_SUIT_ZH = "万饼条"


@dataclass(frozen=True, slots=True)
class Facts:
    """What the 口子 read: the suit tile counts (a kong counting as option ``leaf_kong_as``), the winds and
    dragons held (风: 东南西北中发), the 1s and 9s held, whether a chow was claimed, the win on a discard that
    only a chow completes (吃胡)."""

    suit_counts: tuple[int, int, int]
    winds: tuple[int, ...]
    terminals: tuple[int, ...]
    claimed_chow: bool
    chow_win: bool
    options: dict[str, Any]


#: A 口子 check: the reasons the hand breaks it (empty when it holds)
Check = Callable[[Facts], list[str]]


@dataclass(frozen=True)
class Kouzi:
    """One 口子 the dealer may declare: id, names, the source offset and sentence, and its check."""

    id: str
    name_zh: str
    name_en: str
    cite: str
    check: Check


def _no_winds(f: Facts) -> list[str]:
    if not f.winds:
        return []
    return [f"the hand holds 风 ({' '.join(code_of(k) for k in f.winds)}): 东南西北中发 must all be discarded"]


def _no_chi(f: Facts) -> list[str]:
    out = ["a chow was claimed (吃): this 口子 allows no 吃"] if f.claimed_chow else []
    if f.chow_win and f.options["no_chi_win"]:
        out.append("won on a discard that only completes a chow (吃胡; option no_chi_win=true)")
    return out


def _void_suit(f: Facts) -> list[str]:
    if all(f.suit_counts):
        return ["the hand holds all three suits 条, 饼, 万: one must be missing (缺一门)"]
    return []


def _leaf(f: Facts, exact: bool) -> list[str]:
    most = max(f.suit_counts)
    s = f.suit_counts.index(most)
    if (most == 8) if exact else (most >= 8):
        return []
    need = "exactly 8" if exact else "8 or more"
    return [f"the most tiles of one suit is {most} ({_SUIT_ZH[s]}): 叶子 needs {need} of one suit"]


def _no_terminals(f: Facts) -> list[str]:
    bad = f.terminals + f.winds
    if not bad:
        return []
    return [f"the hand holds 一, 九 or 风 ({' '.join(code_of(k) for k in bad)}): 断幺 allows none"]


#: The 口子 of the source in its order (000 @26006 下口子 "常见的口子有"), 水张 being cut off.
KOUZI: tuple[Kouzi, ...] = (
    Kouzi(
        "hu_chi_luan_peng",
        "胡吃乱碰",
        "Anything Goes",
        "000 @26050 既可以吃又可以碰，风、条、饼、万均不受限制",
        lambda f: [],
    ),
    Kouzi(
        "que_feng_ying_bu_chi",
        "缺风硬不吃",
        "No Honours, No Chow",
        "000 @26120 不能吃张，同时胡牌中不能出现风（东西南北中财）",
        lambda f: _no_winds(f) + _no_chi(f),
    ),
    Kouzi(
        "jing_que",
        "净缺",
        "Clean Void Suit",
        "000 @26200 胡牌中必须缺一门且不能出现风",
        lambda f: _void_suit(f) + _no_winds(f),
    ),
    Kouzi("hun_que", "混缺", "Mixed Void Suit", "000 @26271 条、饼、万必须缺一门，但是可以要风", _void_suit),
    Kouzi(
        "ye_zi",
        "叶子",
        "Leaves (8+ of a Suit)",
        "000 @26332 胡牌中必须8张或8张以上的同一门牌",
        lambda f: _leaf(f, exact=False),
    ),
    Kouzi(
        "ying_ba_ye",
        "硬八叶",
        "Hard Eight Leaves",
        "000 @26393 叶子数必须是8张，不能多也不能少",
        lambda f: _leaf(f, exact=True),
    ),
    Kouzi("duan_yao", "断幺", "No Terminals or Honours", "000 @26457 胡牌中不能出现一、九、风", _no_terminals),
)
_BY_NAME = {k.id: k for k in KOUZI} | {k.name_zh: k for k in KOUZI}
#: 水张 is named but its rule is cut off (000 @26523 "打法简单，种类比较多。一般水张是指抓")
_CUT_OFF = ("shui_zhang", "水张")


def read_contract(value: Any) -> list[Kouzi]:
    """The declared 口子 from the hand's ``contract`` field (a name or a list of names); HandError if absent,
    unknown or cut off in the source."""
    choices = ", ".join(f"{k.id} ({k.name_zh})" for k in KOUZI)
    if value is None:
        raise HandError(
            "bad_field",
            f"Gangu needs the dealer's 口子 in 'contract' (a name such as jing_que or 净缺, or a list): {choices}",
        )
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise HandError("bad_field", f"contract must be a 口子 name or a list of names, not {value!r}")
    out = []
    for n in names:
        if n.strip() in _CUT_OFF:
            raise HandError(
                "not_allowed",
                '水张: the source breaks off in its rule ("一般水张是指抓…"), so a 水张 win cannot be checked',
            )
        k = _BY_NAME.get(n.strip())
        if k is None:
            raise HandError("bad_field", f"unknown 口子 {n!r} in contract: {choices}")
        if k not in out:
            out.append(k)
    return out


def _facts(hand: Hand, arrs: list[Arrangement], options: dict[str, Any]) -> Facts:
    counts = [0, 0, 0]
    for k in hand.closed_kinds:
        if not is_honour(k):
            counts[suit(k)] += 1
    for m in hand.melds:
        if not is_honour(m.first):
            counts[suit(m.first)] += options["leaf_kong_as"] if m.is_kong else len(m.tiles)
    kinds = sorted({kind(t) for t in hand.all_tiles})
    chow_win = not hand.self_drawn and all(a.win_block is not None and a.blocks[a.win_block].type == CHOW for a in arrs)
    return Facts(
        suit_counts=(counts[0], counts[1], counts[2]),
        winds=tuple(k for k in kinds if is_honour(k)),
        terminals=tuple(k for k in kinds if is_terminal(k)),
        claimed_chow=any(m.type == CHOW for m in hand.melds),
        chow_win=chow_win,
        options=options,
    )


class Gangu(RuleSet):
    """Gangu mahjong: a 搬到胡 checked against the dealer's 口子. The source has no scoring."""

    name = "gangu"
    title = "Gangu (甘谷麻将, dealer's 口子)"
    unit = "none"
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "leaf_kong_as",
            3,
            'tiles a kong counts for 叶子 and 硬八叶: 3 = a kong is one 打 like a pung ("二打牌一将"), 4 = its '
            "four tiles",
            "int",
            (3, 4),
            origin=PRACTICE,
        ),
        Option(
            "no_chi_win",
            False,
            "缺风硬不吃 also forbids winning on a discard that only completes a chow (吃胡); the source forbids "
            'claiming a chow during play ("打牌的过程中不能吃张")',
            "bool",
            origin=PRACTICE,
        ),
    )
    situation = ("contract", "self_drawn", "flowers")
    completeness = (
        "partial: the tile set, 搬到胡 and the 口子 checks come from the source; it has no scoring (积分, 铲庄 "
        "are named only) and 水张 is cut off, so the result says whether the win is legal, with total 0"
    )
    summary = (
        "133 tiles (no 白板, one 花子); 4 打 + 1 将; the dealer's 口子 (contract: 胡吃乱碰, 缺风硬不吃, 净缺, 混缺, "
        "叶子, 硬八叶, 断幺) checked; no scoring in the source: winning says legal or not, total is 0"
    )

    def fields(self) -> list[Field]:
        """The situation fields, ``contract`` with the 口子 ids as its choices (a list of them is taken too)."""
        names = ", ".join(f"{k.id} = {k.name_zh} ({k.name_en})" for k in KOUZI)
        contract = Field("contract", "any", None, f"the dealer's declared 口子: {names}", tuple(k.id for k in KOUZI))
        return [contract if f.name == "contract" else f for f in super().fields()]

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """13 tiles + the winning tile, no 白板, at most the one 花子, and a readable 口子."""
        hand.validate(hand_size=self.hand_size)
        if any(kind(t) == WHITE for t in hand.all_tiles):
            raise HandError("not_allowed", "Gangu's 133 tiles have no 白板 (5z): remove it from the hand (§9.2)")
        if len(hand.flowers) > 1 or any(not is_flower(kind(t)) for t in hand.flowers):
            raise HandError(
                "not_allowed",
                f"Gangu has a single 花子 (one flower tile, §9.2): {len(hand.flowers)} flowers given",
            )
        read_contract(hand.contract)

    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Whether the hand is a 搬到胡 that keeps every declared 口子; total 0 (the source has no scoring)."""
        contract = read_contract(hand.contract)
        declared = [(m.type, tuple(m.kinds), m.open) for m in hand.melds]
        arrs = arrangements(counts_of(hand.closed_kinds), declared, hand.win_kind, Shapes())
        notes = [
            "the source has no scoring (积分 and 铲庄 are named only): total is 0; winning says whether the hand "
            "is a 搬到胡 that keeps the dealer's 口子"
        ]
        if hand.flowers:
            notes.append(f"the 花子 {hand.flowers[0]} is set aside: its role is not in the source")
        checks: list[dict[str, Any]] = []
        if not arrs:
            notes.insert(
                0, "not a winning hand: the 14 tiles are not 搬到胡 (4 打 + 1 将: four chows or pungs and a pair)"
            )
            checks = [{"id": k.id, "name_zh": k.name_zh, "ok": None, "reasons": []} for k in contract]
            return self._result(options, False, [], [], notes, contract, checks)
        facts = _facts(hand, arrs, options)
        broken = []
        for k in contract:
            reasons = k.check(facts)
            checks.append({"id": k.id, "name_zh": k.name_zh, "ok": not reasons, "reasons": reasons})
            broken.extend(f"{k.name_zh} broken: {r}" for r in reasons)
        everything = [code_of(x) for x in sorted(kind(t) for t in hand.all_tiles)]
        items = []
        if broken:
            notes[:0] = ["not a winning hand under the dealer's 口子", *broken]
        else:
            items.append(Item("ban_dao_hu", "Standard Win (4 Sets + a Pair)", 0, 1, everything, {"name_zh": "搬到胡"}))
            items += [Item(f"kouzi_{k.id}", k.name_en, 0, 1, everything, {"name_zh": k.name_zh}) for k in contract]
        arrangement = [[code_of(x) for x in g] for g in arrs[0].tile_groups()]
        return self._result(options, not broken, items, arrangement, notes, contract, checks)

    def _result(
        self,
        options: dict[str, Any],
        winning: bool,
        items: list[Item],
        arrangement: list[list[str]],
        notes: list[str],
        contract: list[Kouzi],
        checks: list[dict[str, Any]],
    ) -> Score:
        return Score(
            rules=self.name,
            options=dict(options),
            winning=winning,
            unit=self.unit,
            total=0,
            items=items,
            arrangement=arrangement,
            payments={},
            notes=notes,
            extra={"contract": [k.id for k in contract], "checks": checks},
        )


RULESET = Gangu()
