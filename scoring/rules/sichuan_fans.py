"""The fan tables of Sichuan 血战到底 as data: one ``Fan`` per pattern (names, fan, exclusions) and one predicate.

Three tables (option ``table`` of ``scoring.rules.sichuan``):

- ``sa``: the S-A table (DIGEST §4.4, source 001 @3407): 平胡 0, 自摸 1, 大对子 2, 清一色 3, 七对 4, 清大对
  (value cut off in the source: option ``qing_da_dui``), every fan added;
- ``sb``: the same patterns, but only the largest 番型 counts (S-B, 003 @11358 "以下番型均不重复计算，只按最大番算");
- ``common``: the 血战到底 table of the common mobile clients, in additive parts (the multipliers of the
  published "番型1 x 番型2 x ... x 底分" table are 2^fan): 对对胡 1, 清一色 2, 七对 2, 带幺九 2, 金钩钓 +1 and
  将对 +2 on top of 对对胡, and the ways of winning (杠上花, 杠上炮, 抢杠胡, 海底捞月, 海底炮, 天胡, 地胡, 自摸).

In every table each kong and each 根 (four identical tiles) adds 1 fan (S-A rule 5, 001 @3239 "有杠或根加番，
每1杠/根1番"). A predicate reads ``Facts`` (the whole hand) and a ``Reading`` (one arrangement) and returns None
or a ``Hit``: how many times the pattern counts and the tiles that made it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.decompose import CHOW, PAIR, SEVEN_PAIRS, STANDARD, Arrangement
from scoring.tiles import rank, suit

#: how many times a pattern counts, and the kinds that made it
Hit = tuple[int, tuple[int, ...]]

#: kinds of pattern: a 番型 of the hand (the shapes "largest only" chooses among), a way of winning, or an
#: addition (杠 / 根) that every table adds
HAND, WIN, ADDITION = "hand", "win", "addition"


@dataclass(frozen=True, slots=True)
class Facts:
    """What holds for the whole hand, whatever the arrangement.

    kinds: every tile, the 4th tile of each kong included. kongs: the kind of each declared kong. standing:
    concealed tiles held without the winning tile (金钩钓 needs 1). four_kinds: the kinds held four times.
    """

    options: dict[str, Any]
    kinds: tuple[int, ...]
    kongs: tuple[int, ...]
    declared: int
    standing: int
    win: int
    four_kinds: tuple[int, ...]
    self_drawn: bool
    kong_replacement: bool
    robbing_kong: bool
    last_tile: bool
    heavenly_win: bool
    earthly_win: bool


class Reading:
    """One arrangement seen the way the patterns need it: its shape, chows, pungs/kongs and pair."""

    __slots__ = ("arr", "shape", "chows", "sets", "pair")

    def __init__(self, arr: Arrangement) -> None:
        self.arr = arr
        self.shape = arr.shape
        self.chows = tuple(b.first for b in arr.blocks if b.type == CHOW)
        self.sets = tuple(b.first for b in arr.blocks if b.is_set)
        pairs = [b.first for b in arr.blocks if b.type == PAIR]
        self.pair = pairs[0] if arr.shape == STANDARD else None


Test = Callable[[Facts, Reading], Hit | None]


@dataclass(frozen=True)
class Fan:
    """One pattern: ``value`` fan per count (or the option named ``value_option``); ``cite`` its source."""

    id: str
    name_en: str
    name_zh: str
    value: int
    kind: str
    cite: str
    test: Test
    excludes: tuple[str, ...] = ()
    value_option: str | None = None

    def fan(self, options: dict[str, Any]) -> int:
        """The pattern's fan under these options."""
        return int(options[self.value_option]) if self.value_option else self.value


# ---- predicates -------------------------------------------------------------------------------------------


def _all(f: Facts) -> Hit:
    return (1, f.kinds)


def _all_pungs(f: Facts, r: Reading) -> Hit | None:
    """大对子 / 对对胡: four pungs or kongs and a pair."""
    return _all(f) if r.shape == STANDARD and not r.chows else None


def _full_flush(f: Facts, r: Reading) -> Hit | None:
    """清一色: every tile of one suit."""
    return _all(f) if len({suit(k) for k in f.kinds}) == 1 else None


def _seven_pairs(f: Facts, r: Reading) -> Hit | None:
    """七对: seven pairs, four identical tiles counting as two (龙七对: the four is also a 根)."""
    return _all(f) if r.shape == SEVEN_PAIRS else None


def _pure_all_pungs(f: Facts, r: Reading) -> Hit | None:
    """清大对: 清一色 and 大对子 together (S-A item 5 "清一色碰碰胡")."""
    return _all(f) if _all_pungs(f, r) and _full_flush(f, r) else None


def _has_terminal(first: int, is_chow: bool) -> bool:
    return rank(first) in ((1, 7) if is_chow else (1, 9))


def _outside(f: Facts, r: Reading) -> Hit | None:
    """带幺九: every meld and the pair hold a 1 or a 9."""
    if r.shape != STANDARD or r.pair is None:
        return None
    ok = all(_has_terminal(k, True) for k in r.chows) and all(_has_terminal(k, False) for k in (*r.sets, r.pair))
    return _all(f) if ok else None


def _golden_hook(f: Facts, r: Reading) -> Hit | None:
    """金钩钓: four declared pungs/kongs and a single wait on the pair with the last standing tile."""
    return (1, (f.win, f.win)) if f.declared == 4 and f.standing == 1 else None


def _pure_258(f: Facts, r: Reading) -> Hit | None:
    """将对: 对对胡 with every tile a 2, 5 or 8."""
    return _all(f) if _all_pungs(f, r) and all(rank(k) in (2, 5, 8) for k in f.kinds) else None


def _kongs(f: Facts, r: Reading) -> Hit | None:
    """杠: each declared kong (S-A rule 5)."""
    return (len(f.kongs), tuple(k for k in f.kongs for _ in range(4))) if f.kongs else None


def _roots_not_kongs(f: Facts, r: Reading) -> Hit | None:
    """根: four identical tiles held without a kong (S-A rule 5; S-C 带归)."""
    roots = tuple(k for k in f.four_kinds if k not in f.kongs)
    return (len(roots), tuple(k for k in roots for _ in range(4))) if roots else None


def _roots_all(f: Facts, r: Reading) -> Hit | None:
    """根 of the common table: four identical tiles, kongs included."""
    return (len(f.four_kinds), tuple(k for k in f.four_kinds for _ in range(4))) if f.four_kinds else None


def _flag(name: str, self_drawn: bool | None = None) -> Test:
    def test(f: Facts, r: Reading) -> Hit | None:
        if not getattr(f, name) or (self_drawn is not None and f.self_drawn != self_drawn):
            return None
        return (1, (f.win,))

    test.__doc__ = f"the hand's {name} flag" + ("" if self_drawn is None else f" with self_drawn={self_drawn}")
    return test


def _common_self_draw(f: Facts, r: Reading) -> Hit | None:
    """自摸 of the common table: 1 fan when option self_draw_bonus is ``fan`` (自摸加番)."""
    return (1, (f.win,)) if f.self_drawn and f.options["self_draw_bonus"] == "fan" else None


_SA = "S-A 二"
_CP = "common practice"

#: S-A "二、基本番型计算" (001 @3407) and rule 5 (001 @3239); the S-B table is the same with "largest only"
SOURCE_FANS: tuple[Fan, ...] = (
    Fan("self_draw", "Self-Drawn", "自摸", 1, HAND, f"{_SA}.2 @3462 (1番2块)", _flag("self_drawn")),
    Fan("all_pungs", "All Pungs", "大对子", 2, HAND, f"{_SA}.2 @3488 (2番4块)", _all_pungs),
    Fan("full_flush", "Full Flush", "清一色", 3, HAND, f"{_SA}.3 @3541 (3番8块)", _full_flush),
    Fan("seven_pairs", "Seven Pairs", "七对", 4, HAND, f"{_SA}.4 @3584 (4番16块)", _seven_pairs),
    Fan(
        "pure_all_pungs",
        "Pure All Pungs",
        "清大对",
        5,
        HAND,
        f"{_SA}.5 @3628 (value cut off: option qing_da_dui)",
        _pure_all_pungs,
        excludes=("all_pungs", "full_flush"),
        value_option="qing_da_dui",
    ),
    Fan("kong", "Kong", "杠", 1, ADDITION, "S-A rule 5 @3239 每1杠/根1番", _kongs),
    Fan("root", "Root", "根", 1, ADDITION, "S-A rule 5 @3239 每1杠/根1番", _roots_not_kongs),
)

#: the common 血战到底 table, in additive parts (see the module docstring)
COMMON_FANS: tuple[Fan, ...] = (
    Fan("all_pungs", "All Pungs", "对对胡", 1, HAND, _CP, _all_pungs),
    Fan("full_flush", "Full Flush", "清一色", 2, HAND, _CP, _full_flush),
    Fan("seven_pairs", "Seven Pairs", "七对", 2, HAND, _CP, _seven_pairs),
    Fan("outside", "Terminals in Every Set", "带幺九", 2, HAND, _CP, _outside),
    Fan("golden_hook", "Golden Hook (on top of All Pungs)", "金钩钓", 1, HAND, _CP, _golden_hook),
    Fan("pure_258", "All 2-5-8 (on top of All Pungs)", "将对", 2, HAND, _CP, _pure_258),
    Fan("root", "Root", "根", 1, ADDITION, "S-A rule 5 @3239; kongs count as 根 (common practice)", _roots_all),
    Fan("self_draw", "Self-Drawn", "自摸", 1, WIN, _CP, _common_self_draw),
    Fan("kong_flower", "Win on a Kong Replacement", "杠上花", 1, WIN, _CP, _flag("kong_replacement", True)),
    Fan("kong_cannon", "Win on a Discard after a Kong", "杠上炮", 1, WIN, _CP, _flag("kong_replacement", False)),
    Fan("robbing_kong", "Robbing a Kong", "抢杠胡", 1, WIN, _CP, _flag("robbing_kong")),
    Fan("last_tile_draw", "Last Tile Draw", "海底捞月", 1, WIN, _CP, _flag("last_tile", True)),
    Fan("last_tile_discard", "Last Tile Discard", "海底炮", 1, WIN, _CP, _flag("last_tile", False)),
    Fan("heavenly_win", "Heavenly Win", "天胡", 5, WIN, _CP, _flag("heavenly_win")),
    Fan("earthly_win", "Earthly Win", "地胡", 5, WIN, _CP, _flag("earthly_win")),
)


def find(fans: tuple[Fan, ...], facts: Facts, reading: Reading) -> list[tuple[Fan, Hit]]:
    """The patterns of a table that apply to one reading, exclusions applied (a pattern found drops those it
    excludes)."""
    found = [(p, hit) for p in fans if (hit := p.test(facts, reading)) is not None and hit[0] > 0]
    dropped = {x for p, _ in found for x in p.excludes}
    return [(p, hit) for p, hit in found if p.id not in dropped]


def published_name(ids: set[str], roots: int, kongs: int) -> str:
    """The hand's name in the common table (清龙七对, 将对, 十八罗汉 ...) from the parts found."""
    pure = "full_flush" in ids
    if "seven_pairs" in ids:
        return ("清" if pure else "") + ("龙七对" if roots else "七对")
    if "golden_hook" in ids and kongs == 4:
        return ("清" if pure else "") + "十八罗汉"
    if "golden_hook" in ids:
        return ("清" if pure else "将" if "pure_258" in ids else "") + "金钩钓"
    if "pure_258" in ids:
        return "将对"
    if "all_pungs" in ids:
        return "清对" if pure else "对对胡"
    if "outside" in ids:
        return "清幺九" if pure else "带幺九"
    return "清一色" if pure else "平胡"
