"""One arrangement seen the way the Chinese fan tables of ``folk``, ``club5`` and ``cixi`` read it.

A ``Reading`` lists the sets (pungs and kongs, with whether each counts as concealed), the chows, the pairs
and every tile of one arrangement of the decomposition engine. A ``Pattern`` is one item of a table: its
names, its value, the items it leaves out (``excludes``, data next to the pattern) and one predicate that
reads a rule set's facts and a reading and returns a ``Hit`` (how many times the item counts and the tiles
that made it) or None. ``find`` applies a table to one reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from scoring.decompose import CHOW, PAIR, Arrangement
from scoring.errors import HandError
from scoring.hand import Hand
from scoring.result import Item
from scoring.tiles import DRAGONS, WINDS, code_of, is_honour, is_terminal

#: how many times an item counts, and the kinds that made it
Hit = tuple[int, tuple[int, ...]]

WIND_SET = frozenset(WINDS)
DRAGON_SET = frozenset(DRAGONS)


@dataclass(frozen=True, slots=True)
class Triplet:
    """A pung or kong of a reading: its kind, whether it counts as concealed (暗刻), its tiles."""

    kind: int
    concealed: bool
    tiles: tuple[int, ...]


class Reading:
    """One arrangement: ``sets`` (pungs and kongs), ``chows`` (their tiles), ``pairs`` (kinds), ``knitted``
    (the tiles of a knitted straight), ``kinds`` (every tile, a kong's four included, sorted), ``suits`` (the
    suits 0-2 among them) and ``honours`` (any wind or dragon). A pung completed by a discard is not
    concealed; a concealed kong is. ``arr`` is the engine's arrangement (``shape``, ``wait``,
    ``singles`` for the single-tile shapes)."""

    __slots__ = ("arr", "shape", "sets", "chows", "pairs", "knitted", "kinds", "suits", "honours")

    def __init__(self, arr: Arrangement, self_drawn: bool) -> None:
        self.arr = arr
        self.shape = arr.shape
        sets: list[Triplet] = []
        chows: list[tuple[int, ...]] = []
        pairs: list[int] = []
        knitted: tuple[int, ...] = ()
        kinds: list[int] = list(arr.singles)
        for i, b in enumerate(arr.blocks):
            kinds.extend(b.tiles)
            if b.type == CHOW:
                chows.append(b.tiles)
            elif b.type == PAIR:
                pairs.append(b.first)
            elif b.is_set:
                sets.append(Triplet(b.first, b.concealed and (self_drawn or i != arr.win_block), b.tiles))
            else:
                knitted = b.tiles
        self.sets = tuple(sets)
        self.chows = tuple(chows)
        self.pairs = tuple(pairs)
        self.knitted = knitted
        self.kinds = tuple(sorted(kinds))
        self.suits = frozenset(k // 9 for k in self.kinds if k < 27)
        self.honours = bool(self.kinds) and is_honour(self.kinds[-1])

    @property
    def pair(self) -> int | None:
        """The pair's kind in a melds + pair reading (None for seven pairs and the single-tile shapes)."""
        return self.pairs[0] if len(self.pairs) == 1 else None

    def sets_of(self, kinds: frozenset[int]) -> tuple[Triplet, ...]:
        return tuple(s for s in self.sets if s.kind in kinds)


@dataclass(frozen=True)
class Pattern:
    """One item of a fan table. ``cite`` says where the source states it (DIGEST section and source offset).

    excludes: the items the source says it is not counted with. implies: items it always contains that the
    source does not exclude; they are left out only where a rule set's option asks for it (common practice).
    """

    id: str
    name_en: str
    name_zh: str
    value: int
    test: Callable[[Any, Reading], Hit | None]
    cite: str
    excludes: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()


def find(patterns: Iterable[Pattern], facts: Any, r: Reading, drop_implied: bool = False) -> list[tuple[Pattern, Hit]]:
    """The items of a table that count for one reading, in the table's order, exclusions applied once over
    all the items found (an item is dropped when any item found excludes it, or implies it when
    ``drop_implied``)."""
    found = [(p, hit) for p in patterns if (hit := p.test(facts, r)) is not None]
    dropped = {x for p, _ in found for x in p.excludes + (p.implies if drop_implied else ())}
    return [(p, hit) for p, hit in found if p.id not in dropped]


def item(p: Pattern, hit: Hit, value: int | None = None) -> Item:
    """The score item of a pattern found (``value`` overrides the table's value, e.g. from an option)."""
    return Item(
        p.id,
        p.name_en,
        p.value if value is None else value,
        hit[0],
        [code_of(k) for k in hit[1]],
        {"name_zh": p.name_zh},
    )


# ---- predicates shared by the tables ------------------------------------------------------------------


def when(cond: bool, tiles: Iterable[int]) -> Hit | None:
    return (1, tuple(tiles)) if cond else None


def sets_hit(sets: tuple[Triplet, ...]) -> Hit | None:
    """One count per set, or None when there is none."""
    return (len(sets), tuple(k for s in sets for k in s.tiles)) if sets else None


def full_flush(r: Reading) -> bool:
    """清一色: one suit, no honours."""
    return len(r.suits) == 1 and not r.honours


def half_flush(r: Reading) -> bool:
    """混一色: one suit and honours."""
    return len(r.suits) == 1 and r.honours


def all_honours(r: Reading) -> bool:
    """字一色 / 全字 / 全风: every tile a wind or a dragon."""
    return not r.suits


def all_pungs(r: Reading) -> bool:
    """对对胡 / 碰碰胡: four sets (pungs or kongs) and a pair."""
    return len(r.sets) == 4 and r.pair is not None


def big_four_winds(r: Reading) -> bool:
    return len(r.sets_of(WIND_SET)) == 4


def little_four_winds(r: Reading) -> bool:
    return len(r.sets_of(WIND_SET)) == 3 and r.pair in WIND_SET


def big_three_dragons(r: Reading) -> bool:
    return len(r.sets_of(DRAGON_SET)) == 3


def little_three_dragons(r: Reading) -> bool:
    return len(r.sets_of(DRAGON_SET)) == 2 and r.pair in DRAGON_SET


def honour_tiles(r: Reading, kinds: frozenset[int]) -> tuple[int, ...]:
    """The tiles of the sets of ``kinds`` and of the pair if it is one of them (for an item's ``tiles``)."""
    pair = (r.pair, r.pair) if r.pair in kinds else ()
    return tuple(k for s in r.sets_of(kinds) for k in s.tiles) + pair


def terminal_or_honour(k: int) -> bool:
    return is_terminal(k) or is_honour(k)


def situation_conflicts(hand: Hand) -> list[tuple[bool, str]]:
    """(shown, message) pairs: situation flags of the hand JSON that cannot happen together. Shared by the
    tables that read self_drawn, kong_replacement, robbing_kong, last_tile, heavenly_win and earthly_win."""
    return [
        (hand.kong_replacement and not hand.self_drawn, "杠上开花 (kong_replacement) is a self-draw: set self_drawn"),
        (
            hand.kong_replacement and not any(m.is_kong for m in hand.melds),
            "杠上开花 (kong_replacement) is won on the tile drawn after a kong: the hand has no kong",
        ),
        (hand.robbing_kong and hand.self_drawn, "抢杠 (robbing_kong) is won on another player's tile, not a self-draw"),
        (hand.robbing_kong and hand.kong_replacement, "抢杠 and 杠上开花 exclude each other"),
        (hand.heavenly_win and hand.earthly_win, "天胡 and 地胡 (heavenly_win, earthly_win) exclude each other"),
        (
            hand.heavenly_win and not hand.dealer,
            "天胡 (heavenly_win) is the dealer's win on the dealt tiles: set dealer",
        ),
        (hand.heavenly_win and not hand.self_drawn, "天胡 (heavenly_win) is won on the dealt tiles: set self_drawn"),
        (hand.heavenly_win and bool(hand.melds), "天胡 (heavenly_win) comes before any meld or kong"),
        (hand.earthly_win and hand.dealer, "地胡 (earthly_win) is a non-dealer's win on the dealer's first discard"),
        (hand.earthly_win and hand.self_drawn, "地胡 (earthly_win) is won on the dealer's first discard, not drawn"),
        (hand.earthly_win and bool(hand.melds), "地胡 (earthly_win) comes before any meld or kong"),
    ]


def check_situation(hand: Hand) -> None:
    """Refuse (HandError not_allowed) the first conflict of ``situation_conflicts``."""
    for shown, message in situation_conflicts(hand):
        if shown:
            raise HandError("not_allowed", message)


def check_no_flowers(hand: Hand, game: str) -> None:
    """Refuse bonus tiles in a game whose set has none."""
    if hand.flowers:
        raise HandError(
            "not_allowed", f"{game} is played without flowers: remove {' '.join(hand.flowers)} from the hand"
        )


def payments(total: int, self_drawn: bool, base: int) -> dict[str, int]:
    """Base + fan from the discarder on a discard win (抢杠: the player who added the kong), or from each of
    the other three on a self-draw."""
    amount = base + total
    if self_drawn:
        return {"each_other": amount, "winner_receives": 3 * amount}
    return {"discarder": amount, "winner_receives": amount}
