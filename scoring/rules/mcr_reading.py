"""What the Chinese Official fan predicates read: the facts of a hand and one reading of it.

``Facts`` holds what is true of the whole hand whatever its arrangement (tiles, suits, situation), computed
once per hand. ``Reading`` is one arrangement of the decomposition engine seen the way the fan table needs it:
its chows, pungs and kongs (concealed or not), pair, knitted tiles and the wait the winning tile filled.

``set_fans`` applies the three principles that decide which patterns a group of sets makes (DIGEST §2.4,
计分原则): 不拆移 (sets that made a pattern of four or three are not split to make a smaller one), 套算一次 (a
set not yet used combines once with a set already used) and 不得相同 (a set already in a pattern does not make
the same pattern again with another set). It is memoised on the sets, so each shape of sets is worked out once.
"""

from __future__ import annotations

from functools import cache

from scoring.decompose import CHOW, KNITTED, KONG, PAIR, PUNG, Arrangement
from scoring.hand import Hand
from scoring.tiles import DRAGONS, NUM_KINDS, WIND_LETTERS, WINDS

TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
HONOURS = frozenset(range(27, 34))
TERMINALS_AND_HONOURS = TERMINALS | HONOURS
#: 2 3 4 6 8 bamboo and the green dragon (绿一色)
GREEN = frozenset((19, 20, 21, 23, 25, 32))
#: tiles that look the same upside down (推不倒): 1 2 3 4 5 8 9 dots, 2 4 5 6 8 9 bamboo, white
REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))
DRAGON_SET = frozenset(DRAGONS)
WIND_SET = frozenset(WINDS)

#: instances of a pattern: one tuple of tile kinds per time the pattern is counted
Instances = tuple[tuple[int, ...], ...]


class Facts:
    """What holds for the whole hand, whatever its arrangement.

    closed: counts of the concealed tiles with the winning tile (what the decomposer splits); counts: every
    tile of the hand, a kong as four. ``fourth_tile`` is also true when the player's own melds show the other
    three copies of the winning tile (``fourth_tile_inferred`` then says so). A situation flag the tiles rule
    out is dropped and named in ``ignored``: fourth_tile when the hand holds another copy of the winning tile,
    robbing_kong when the hand or its melds hold one (the robbed kong has the other three), kong_replacement
    without a declared kong.
    """

    __slots__ = (
        "edition",
        "closed",
        "declared",
        "win",
        "counts",
        "present",
        "tiles",
        "open_melds",
        "melded_kongs",
        "concealed_kongs",
        "self_drawn",
        "last_tile",
        "kong_replacement",
        "robbing_kong",
        "fourth_tile",
        "fourth_tile_inferred",
        "ignored",
        "seat",
        "round",
        "flowers",
    )

    def __init__(self, hand: Hand, edition: str) -> None:
        assert hand.win_kind is not None
        self.edition = edition
        closed = [0] * NUM_KINDS
        for k in hand.closed_kinds:
            closed[k] += 1
        self.closed = closed
        self.win = hand.win_kind
        counts = list(closed)
        declared = []
        in_melds = 0
        for m in hand.melds:
            ks = tuple(sorted(m.kinds))
            declared.append((m.type, ks, m.open))
            for k in ks:
                counts[k] += 1
            in_melds += ks.count(self.win)
        self.declared = declared
        self.counts = counts
        self.present = tuple(k for k in range(NUM_KINDS) if counts[k])
        self.tiles = tuple(k for k in range(NUM_KINDS) for _ in range(counts[k]))
        self.open_melds = sum(1 for m in hand.melds if m.open)
        self.melded_kongs = sum(1 for m in hand.melds if m.is_kong and m.open)
        self.concealed_kongs = sum(1 for m in hand.melds if m.concealed_kong)
        self.self_drawn = hand.self_drawn
        self.last_tile = hand.last_tile
        self.kong_replacement = hand.kong_replacement
        self.robbing_kong = hand.robbing_kong
        held = closed[self.win] - 1
        ignored = []
        if hand.fourth_tile and held:
            ignored.append("fourth_tile")
        if hand.robbing_kong and held + in_melds:
            ignored.append("robbing_kong")
            self.robbing_kong = False
        if hand.kong_replacement and not any(m.is_kong for m in hand.melds):
            ignored.append("kong_replacement")
            self.kong_replacement = False
        self.ignored = ignored
        self.fourth_tile_inferred = in_melds == 3 and not hand.fourth_tile
        self.fourth_tile = (hand.fourth_tile and not held) or in_melds == 3
        self.seat = WINDS[WIND_LETTERS.index(hand.seat_wind)]
        self.round = WINDS[WIND_LETTERS.index(hand.round_wind)]
        self.flowers = list(hand.flowers)

    @property
    def concealed13(self) -> list[int]:
        """Counts of the concealed tiles before the win (the hand that was waiting)."""
        c = list(self.closed)
        c[self.win] -= 1
        return c

    @property
    def held13(self) -> list[int]:
        """Counts of every tile the waiting hand held, its melds included."""
        c = list(self.counts)
        c[self.win] -= 1
        return c


class Reading:
    """One arrangement seen by the fan table.

    chows: first kinds of every chow (declared ones included); pungs: (kind, concealed, kong) of every pung and
    kong; pair: the pair's kind (None for shapes without one). ``melded_pung`` is the kind of a pung formed in
    the hand that counts as melded because a discard completed it (None: no such pung). ``wait`` is the wait
    pattern the hand scores (edge, closed, single or None), decided by the rule set from the arrangement and
    whether the hand waited on one tile only.
    """

    __slots__ = ("arr", "shape", "chows", "pungs", "pair", "knitted", "concealed_pungs", "wait", "_sets")

    def __init__(self, arr: Arrangement, melded_pung: int | None, wait: str | None) -> None:
        self.arr = arr
        self.shape = arr.shape
        self.wait = wait
        chows: list[int] = []
        pungs: list[tuple[int, bool, bool]] = []
        pair: int | None = None
        knitted: tuple[int, ...] = ()
        concealed = 0
        for b in arr.blocks:
            t = b.type
            if t == CHOW:
                chows.append(b.first)
            elif t == PUNG or t == KONG:
                hidden = b.concealed and not (b.meld is None and b.first == melded_pung)
                pungs.append((b.first, hidden, t == KONG))
                concealed += hidden
            elif t == PAIR:
                pair = b.first if pair is None else -1  # seven pairs: several pairs, no single pair
            elif t == KNITTED:
                knitted = b.tiles
        self.chows = chows
        self.pungs = pungs
        self.pair = pair if pair is None or pair >= 0 else None
        self.knitted = knitted
        self.concealed_pungs = concealed
        self._sets: dict[str, Instances] | None = None

    @property
    def set_fans(self) -> dict[str, Instances]:
        """The patterns the sets make (see ``set_fans``), worked out on first use."""
        if self._sets is None:
            self._sets = dict(set_fans(tuple(sorted(self.chows)), tuple(sorted(p[0] for p in self.pungs)), self.pair))
        return self._sets


# ---- patterns of sets -----------------------------------------------------------------------------------
# The tiles are compared in the tournament order of suits (characters, bamboo, dots, then East South West
# North Red Green White), the order in which the reference scorer looks at groups of sets: when two groups of
# three sets could both make a pattern, the first one in that order is taken.

_ORDER_SUIT = (0, 2, 1)  # characters, dots, bamboo -> their place in the tournament order
_ORDER_HONOUR = (1, 2, 3, 4, 7, 6, 5)  # E S W N White Green Red -> E S W N Red Green White


def order_code(k: int) -> int:
    """A tile's number in the tournament order: 16 * suit + rank, honours after the suits; neighbours in a
    suit differ by one, tiles of different suits never."""
    if k < 27:
        return 16 * (_ORDER_SUIT[k // 9] + 1) + k % 9 + 1
    return 64 + _ORDER_HONOUR[k - 27]


def _suit(c: int) -> int:
    return c >> 4


def _rank(c: int) -> int:
    return c & 15


def _numbered(c: int) -> bool:
    return c < 64


def _consecutive(a: int, b: int, c: int) -> bool:
    """The three values are consecutive in some order."""
    lo, mid, hi = sorted((a, b, c))
    return lo + 1 == mid and mid + 1 == hi


def _mixed(a: int, b: int, c: int) -> bool:
    return _suit(a) != _suit(b) and _suit(a) != _suit(c) and _suit(b) != _suit(c)


def _four_chows(t: tuple[int, ...]) -> str | None:
    a, b, c, d = t
    if (a + 1 == b and b + 1 == c and c + 1 == d) or (a + 2 == b and b + 2 == c and c + 2 == d):
        return "four_pure_shifted_chows"
    if a == b == c == d:
        return "quadruple_chow"
    return None


def _three_chows(a: int, b: int, c: int) -> str | None:
    """a <= b <= c are the first tiles of three chows (order codes)."""
    if _mixed(a, b, c):
        ra, rb, rc = _rank(a), _rank(b), _rank(c)
        if _consecutive(ra, rb, rc):
            return "mixed_shifted_chows"
        if ra == rb == rc:
            return "mixed_triple_chow"
        if sorted((ra, rb, rc)) == [1, 4, 7]:
            return "mixed_straight"
        return None
    if a + 3 == b and b + 3 == c:
        return "pure_straight"
    if (a + 2 == b and b + 2 == c) or (a + 1 == b and b + 1 == c):
        return "pure_shifted_chows"
    if a == b == c:
        return "pure_triple_chow"
    return None


def _two_chows(a: int, b: int) -> str | None:
    if _suit(a) != _suit(b):
        return "mixed_double_chow" if _rank(a) == _rank(b) else None
    if a + 3 == b or b + 3 == a:
        return "short_straight"
    if {_rank(a), _rank(b)} == {1, 7}:
        return "two_terminal_chows"
    if a == b:
        return "pure_double_chow"
    return None


#: the patterns two chows make, in the order the extra chow of a pattern of three takes them
_PAIR_FANS = ("pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows")


def _four_pungs(t: tuple[int, ...]) -> str | None:
    a, b, c, d = t
    if _numbered(a) and a + 1 == b and b + 1 == c and c + 1 == d:
        return "four_pure_shifted_pungs"
    if t == (65, 66, 67, 68):
        return "big_four_winds"
    return None


def _three_pungs(a: int, b: int, c: int) -> str | None:
    if _numbered(a) and _numbered(b) and _numbered(c):
        if _mixed(a, b, c):
            if _consecutive(_rank(a), _rank(b), _rank(c)):
                return "mixed_shifted_pungs"
            if _rank(a) == _rank(b) == _rank(c):
                return "triple_pung"
            return None
        return "pure_shifted_pungs" if a + 1 == b and b + 1 == c else None
    if 65 <= a and c <= 68:
        return "big_three_winds"
    if (a, b, c) == (69, 70, 71):
        return "big_three_dragons"
    return None


def _two_pungs(a: int, b: int) -> str | None:
    if _numbered(a) and _numbered(b):
        return "double_pung" if _rank(a) == _rank(b) else None
    if a >= 69 and b >= 69:
        return "two_dragons_pungs"
    return None


def _limit(pairs: list[tuple[str, tuple[int, ...]]], allowed: int) -> list[tuple[str, tuple[int, ...]]]:
    """Keep at most ``allowed`` of the patterns two chows make: 不得相同 first (a pattern made twice loses its
    repeats, the one-fan patterns from 老少副 back to 一般高), then 套算一次 (down to none of a kind)."""
    kept = {name: [p for p in pairs if p[0] == name] for name in _PAIR_FANS}
    total = len(pairs)
    for limit in (1, 0):
        for name in reversed(_PAIR_FANS):
            while len(kept[name]) > limit and total > allowed:
                kept[name].pop()
                total -= 1
    return [p for name in _PAIR_FANS for p in kept[name]]


@cache
def set_fans(chows: tuple[int, ...], pungs: tuple[int, ...], pair: int | None) -> tuple[tuple[str, Instances], ...]:
    """The patterns a group of sets makes: ``(fan id, instances)`` with each instance the tiles of its sets.

    chows: first kinds of the chows; pungs: kinds of the pungs and kongs; pair: the pair's kind (or None).
    Patterns of four sets stand alone; a pattern of three sets takes the fourth set into at most one pattern
    of two; without either, every two sets may make a pattern, at most one fewer than the sets involved.
    """
    found: list[tuple[str, tuple[int, ...]]] = []
    cs = sorted((order_code(k), k) for k in chows)
    ps = sorted((order_code(k), k) for k in pungs)
    ctile = {code: (k, k + 1, k + 2) for code, k in cs}
    ptile = {code: (k, k, k) for code, k in ps}
    if len(cs) == 4 and pair is not None and pair < 27 and pair % 9 == 4:
        fan = _terminal_chows([k for _, k in cs], pair)
        if fan:
            return ((fan, (tuple(t for _, k in cs for t in (k, k + 1, k + 2)) + (pair, pair),)),)
    found.extend(_chow_patterns([c for c, _ in cs], ctile))
    found.extend(_pung_patterns([c for c, _ in ps], ptile))
    out: dict[str, list[tuple[int, ...]]] = {}
    for name, tiles in found:
        out.setdefault(name, []).append(tiles)
    return tuple((name, tuple(ts)) for name, ts in out.items())


def _terminal_chows(firsts: list[int], pair: int) -> str | None:
    """一色双龙会 / 三色双龙会: 123 and 789 twice, with a pair of fives in the same suit / the third suit."""
    pair_suit = pair // 9
    if any(k % 9 not in (0, 6) for k in firsts):
        return None
    suits = [k // 9 for k in firsts]
    lows = sorted(k // 9 for k in firsts if k % 9 == 0)
    highs = sorted(k // 9 for k in firsts if k % 9 == 6)
    if all(s == pair_suit for s in suits) and len(lows) == 2:
        return "pure_terminal_chows"
    others = sorted(s for s in range(3) if s != pair_suit)
    if lows == others and highs == others:
        return "three_suited_terminal_chows"
    return None


def _chow_patterns(c: list[int], tiles: dict[int, tuple[int, ...]]) -> list[tuple[str, tuple[int, ...]]]:
    def of(*codes: int) -> tuple[int, ...]:
        return tuple(t for code in codes for t in tiles[code])

    n = len(c)
    if n == 4:
        fan = _four_chows(tuple(c))
        if fan:
            return [(fan, of(*c))]
        for trio, rest in (((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0)):
            a, b, d = (c[i] for i in trio)
            fan = _three_chows(a, b, d)
            if fan:
                out = [(fan, of(a, b, d))]
                extra = [(f, of(x, c[rest])) for x in (a, b, d) if (f := _two_chows(x, c[rest]))]
                for name in _PAIR_FANS:
                    hit = next((e for e in extra if e[0] == name), None)
                    if hit:
                        out.append(hit)
                        break
                return out
        pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
        made = [(f, of(c[i], c[j]), i, j) for i, j in pairs if (f := _two_chows(c[i], c[j]))]
        involved = {i for _, _, i, _ in made} | {j for _, _, _, j in made}
        allowed = 3 - (4 - len(involved))
        return _limit([(f, t) for f, t, _, _ in made], allowed) if allowed > 0 else []
    if n == 3:
        fan = _three_chows(*c)
        if fan:
            return [(fan, of(*c))]
        made2 = [(f, of(c[i], c[j])) for i, j in ((0, 1), (0, 2), (1, 2)) if (f := _two_chows(c[i], c[j]))]
        return _limit(made2, 2)
    if n == 2:
        fan = _two_chows(c[0], c[1])
        return [(fan, of(*c))] if fan else []
    return []


def _pung_patterns(p: list[int], tiles: dict[int, tuple[int, ...]]) -> list[tuple[str, tuple[int, ...]]]:
    def of(*codes: int) -> tuple[int, ...]:
        return tuple(t for code in codes for t in tiles[code])

    n = len(p)
    if n == 4:
        fan = _four_pungs(tuple(p))
        if fan:
            return [(fan, of(*p))]
        for trio, rest in (((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0)):
            a, b, d = (p[i] for i in trio)
            fan = _three_pungs(a, b, d)
            if fan:
                out = [(fan, of(a, b, d))]
                for i in range(4):
                    if i != rest and (f := _two_pungs(p[i], p[rest])):
                        out.append((f, of(p[i], p[rest])))
                        break
                return out
    elif n == 3:
        fan = _three_pungs(*p)
        if fan:
            return [(fan, of(*p))]
    return [(f, of(p[i], p[j])) for i in range(n) for j in range(i + 1, n) if (f := _two_pungs(p[i], p[j]))]
