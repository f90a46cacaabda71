"""The decomposition engine shared by every rule set.

Given the concealed tiles (with the winning tile), the declared melds and the winning tile, ``arrangements``
lists every way the hand forms a winning shape, each with the block the winning tile completed and the wait
it filled. Rule sets choose which shapes exist in their game (``Shapes``) and score each arrangement.

Shapes: melds + pair (any number of melds: 4 in most games, 5 in Taiwanese 16-tile), seven pairs, thirteen
orphans, the MCR knitted shapes: 组合龙 (knitted straight) + 1 meld + pair, and 全不靠 / 七星不靠
(honours and knitted tiles, 14 singles), and pairs + one pung (Taiwanese 嚦咕嚦咕: 7 pairs + 1 pung).

The per-suit splitting is memoised, so a hand is decomposed in tens of microseconds.

Wild tiles (百搭, e.g. the Cixi 龙): ``wild_arrangements`` takes the natural tiles and a number of wilds and
gives every arrangement with each wild replaced by the kind it stands for (melds + pair, seven pairs,
thirteen orphans), so that a rule set can score each reading and keep the best.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement, permutations, product
from operator import itemgetter
from typing import Final

from scoring.tiles import HONOURS, NUM_KINDS, TERMINALS_AND_HONOURS, rank

CHOW: Final = "chow"
PUNG: Final = "pung"
KONG: Final = "kong"
PAIR: Final = "pair"
KNITTED: Final = "knitted"

#: Wait shapes, as ``Arrangement.wait`` reports them.
TWO_SIDED: Final = "two_sided"
EDGE: Final = "edge"
CLOSED: Final = "closed"
SINGLE: Final = "single"
DUAL_PUNG: Final = "dual_pung"
THIRTEEN_SIDED: Final = "thirteen_sided"
KNITTED_WAIT: Final = "knitted"

STANDARD: Final = "standard"
SEVEN_PAIRS: Final = "seven_pairs"
THIRTEEN_ORPHANS: Final = "thirteen_orphans"
PAIRS_AND_PUNG: Final = "pairs_and_pung"
KNITTED_STRAIGHT: Final = "knitted_straight"
KNITTED_HONOURS: Final = "knitted_honours"

#: The six knitted straights: ranks 1-4-7, 2-5-8 and 3-6-9, each in a different suit.
KNITTED_SETS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(s * 9 + r for s, start in zip(perm, (0, 1, 2), strict=True) for r in (start, start + 3, start + 6)))
    for perm in permutations(range(3))
)


@dataclass(frozen=True, slots=True)
class Block:
    """One meld or the pair of an arrangement.

    ``tiles`` are kinds. ``concealed`` is False for a meld claimed from another player (a declared open chow,
    pung or kong); a concealed kong and everything formed in the hand are concealed. Whether a pung
    completed by a discard counts as concealed is a rule-set decision: see ``Arrangement.win_block``.
    ``meld`` is the index in ``hand.melds`` of a declared meld, None for a block formed in the hand.
    """

    type: str
    tiles: tuple[int, ...]
    concealed: bool = True
    meld: int | None = None

    @property
    def first(self) -> int:
        return self.tiles[0]

    @property
    def is_set(self) -> bool:
        """A pung or a kong."""
        return self.type in (PUNG, KONG)

    @property
    def declared(self) -> bool:
        return self.meld is not None


# Not frozen: a frozen dataclass's generated __init__ sets each field through object.__setattr__, which is most
# of the cost of making one; the __init__ below is compiled with the module (setup.py). Treat it as a value.
@dataclass(init=False, unsafe_hash=True, slots=True)
class Arrangement:
    """One reading of a winning hand (a value: never changed once made).

    blocks: the melds and the pair (declared melds included); empty for thirteen orphans and the
    honours-and-knitted shape, whose tiles are in ``singles``. win_block: the index in ``blocks`` of the block
    the winning tile completed (None when the shape has no blocks). wait: the wait shape that tile filled.
    """

    shape: str
    blocks: tuple[Block, ...]
    win_block: int | None
    wait: str
    singles: tuple[int, ...]

    def __init__(
        self, shape: str, blocks: tuple[Block, ...], win_block: int | None, wait: str, singles: tuple[int, ...] = ()
    ) -> None:
        self.shape = shape
        self.blocks = blocks
        self.win_block = win_block
        self.wait = wait
        self.singles = singles

    @property
    def pair(self) -> Block | None:
        for b in self.blocks:
            if b.type == PAIR:
                return b
        return None

    @property
    def melds(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.type != PAIR)

    def tile_groups(self) -> list[list[int]]:
        """The arrangement as lists of kinds, for the ``arrangement`` field of a score."""
        if self.blocks:
            return [list(b.tiles) for b in self.blocks]
        return [list(self.singles)]


@dataclass(frozen=True, slots=True)
class Shapes:
    """The winning shapes a rule set allows besides melds + pair."""

    standard: bool = True
    seven_pairs: bool = False
    #: seven pairs may use four identical tiles as two pairs (MCR yes, riichi no)
    seven_pairs_four: bool = False
    thirteen_orphans: bool = False
    #: the MCR knitted shapes: knitted straight + meld + pair, and honours-and-knitted singles
    knitted: bool = False
    #: pairs and exactly one pung, all concealed (Taiwanese 嚦咕嚦咕: 7 pairs + 1 pung of 17 tiles);
    #: four identical tiles count as two pairs
    pairs_and_pung: bool = False


# ---- melds + pair ---------------------------------------------------------------------------------------

#: The suit groups of a counts array: (first kind, size, honours).
_GROUPS: Final = ((0, 9, False), (9, 9, False), (18, 9, False), (27, 7, True))
#: the counts of the thirteen terminals and honours
_ORPHANS: Final = itemgetter(*TERMINALS_AND_HONOURS)


@cache
def _split_suit(counts: tuple[int, ...], need_pair: bool, honours: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every multiset of (type, index) blocks that uses up ``counts`` exactly: pungs, chows (not for honours)
    and, if need_pair, exactly one pair. Indexes are positions in ``counts``."""
    i = next((j for j, c in enumerate(counts) if c), -1)
    if i < 0:
        return () if need_pair else ((),)
    found: set[tuple[tuple[str, int], ...]] = set()
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        for rest in _split_suit(tuple(c), need_pair, honours):
            found.add(tuple(sorted(((PUNG, i), *rest))))
        c[i] += 3
    if need_pair and c[i] >= 2:
        c[i] -= 2
        for rest in _split_suit(tuple(c), False, honours):
            found.add(tuple(sorted(((PAIR, i), *rest))))
        c[i] += 2
    if not honours and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for rest in _split_suit(tuple(c), need_pair, honours):
            found.add(tuple(sorted(((CHOW, i), *rest))))
    return tuple(sorted(found))


def split_melds_pair(counts: Sequence[int], need_pair: bool = True) -> list[list[tuple[str, int]]]:
    """Every way a counts array (34 kinds) splits into chows and pungs plus one pair (if need_pair).

    Each split is a list of (type, first kind) with type ``chow``, ``pung`` or ``pair``.
    """
    total = sum(counts)
    if total % 3 != (2 if need_pair else 0):
        return []
    parts = []
    pair_placed = False
    for base, size, honours in ((0, 9, False), (9, 9, False), (18, 9, False), (27, 7, True)):
        sc = tuple(counts[base : base + size])
        n = sum(sc)
        if n % 3 == 1:
            return []
        with_pair = n % 3 == 2
        if with_pair:
            if pair_placed:
                return []
            pair_placed = True
        options = _split_suit(sc, with_pair, honours)
        if not options:
            return []
        parts.append([[(t, base + i) for t, i in opt] for opt in options])
    return [[b for part in combo for b in part] for combo in product(*parts)]


@cache  # blocks are immutable: one object per (type, first kind)
def _block(t: str, first: int) -> Block:
    if t == CHOW:
        return Block(CHOW, (first, first + 1, first + 2))
    if t == PUNG:
        return Block(PUNG, (first,) * 3)
    return Block(PAIR, (first,) * 2)


@cache
def _declared_block(t: str, kinds: tuple[int, ...], is_open: bool, index: int) -> Block:
    return Block(t, kinds, not is_open, index)


@dataclass(frozen=True, slots=True)
class _SuitSplits:
    """Every split of one suit group's counts into blocks (the pair included when the group's tile count is
    2 mod 3). ``splits``: (blocks, where) per split, ``where`` giving for each kind the (index in blocks, wait)
    of each distinct block that holds it, for a winning tile of that kind."""

    pair: bool
    splits: tuple[tuple[tuple[Block, ...], dict[int, tuple[tuple[int, str], ...]]], ...]


def _suit_splits(counts: tuple[int, ...], base: int, honours: bool) -> _SuitSplits:
    """The splits of the counts of the suit group that starts at kind ``base``; none when its tile count is
    1 mod 3."""
    pair = sum(counts) % 3
    if pair == 1:
        return _SuitSplits(False, ())
    splits = []
    for option in _split_suit(counts, pair == 2, honours):
        blocks = tuple(_block(t, base + i) for t, i in option)
        where: dict[int, list[tuple[int, str]]] = {}
        for k in set(k for b in blocks for k in b.tiles):
            seen: list[Block] = []
            for i, b in enumerate(blocks):
                if k in b.tiles and b not in seen:
                    seen.append(b)
                    where.setdefault(k, []).append((i, wait_of(b, k)))
        splits.append((blocks, {k: tuple(v) for k, v in where.items()}))
    return _SuitSplits(pair == 2, tuple(splits))


#: ``_suit_splits`` of each suit group, by the group's counts: filled as counts come up (one lookup per group)
_SUIT_MEMO: Final[tuple[dict[tuple[int, ...], _SuitSplits], ...]] = ({}, {}, {}, {})


def _remember(group: int, counts: tuple[int, ...]) -> _SuitSplits:
    """``_suit_splits`` of a suit group's counts, kept in ``_SUIT_MEMO``."""
    base, _, honours = _GROUPS[group]
    splits = _SUIT_MEMO[group][counts] = _suit_splits(counts, base, honours)
    return splits


def _standard(closed: Sequence[int], melds: tuple[Block, ...], win: int | None) -> list[Arrangement]:
    """The melds + pair arrangements: every split of ``closed`` (in ``split_melds_pair`` order), then the
    declared melds, once for each distinct block the winning tile can have completed."""
    counts = tuple(closed)
    memo_m, memo_p, memo_s, memo_z = _SUIT_MEMO
    m = memo_m.get(key := counts[0:9]) or _remember(0, key)
    p = memo_p.get(key := counts[9:18]) or _remember(1, key)
    s = memo_s.get(key := counts[18:27]) or _remember(2, key)
    z = memo_z.get(key := counts[27:34]) or _remember(3, key)
    if not (m.splits and p.splits and s.splits and z.splits) or m.pair + p.pair + s.pair + z.pair != 1:
        return []
    ms, ps, ss, zs = m.splits, p.splits, s.splits, z.splits
    combos = (
        [(ms[0], ps[0], ss[0], zs[0])] if len(ms) == len(ps) == len(ss) == len(zs) == 1 else product(ms, ps, ss, zs)
    )
    if win is None:
        return [Arrangement(STANDARD, a[0] + b[0] + c[0] + d[0] + melds, None, "") for a, b, c, d in combos]
    group = min(win // 9, 3)
    out = []
    for a, b, c, d in combos:
        where = (a, b, c, d)[group][1].get(win)
        if where:
            blocks = a[0] + b[0] + c[0] + d[0] + melds
            offset = (0, len(a[0]), len(a[0]) + len(b[0]), len(blocks) - len(melds) - len(d[0]))[group]
            for i, wait in where:
                out.append(Arrangement(STANDARD, blocks, offset + i, wait))
    return out


def wait_of(block: Block, win: int) -> str:
    """The wait a winning tile of kind ``win`` filled by completing ``block``."""
    if block.type == PAIR:
        return SINGLE
    if block.type in (PUNG, KONG):
        return DUAL_PUNG
    if block.type == KNITTED:
        return KNITTED_WAIT
    pos = win - block.first
    if pos == 1:
        return CLOSED
    if (pos == 2 and rank(block.first) == 1) or (pos == 0 and rank(block.first) == 7):
        return EDGE
    return TWO_SIDED


# ---- the whole hand --------------------------------------------------------------------------------


def arrangements(
    closed: Sequence[int],
    declared: Iterable[tuple[str, tuple[int, ...], bool]],
    win: int | None,
    shapes: Shapes = Shapes(),
) -> list[Arrangement]:
    """Every winning arrangement of a hand.

    closed: counts (34) of the concealed tiles INCLUDING the winning tile. declared: the declared melds as
    (type, kinds, open). win: the winning tile's kind (None: arrangements without a win position, e.g. for
    an initial-hand check). A hand with declared melds can only take the melds + pair shapes.
    Each (split, block holding the winning tile) pair is one arrangement: the same tiles read with the
    winning tile in a different block are different arrangements, because waits score differently.
    """
    melds = tuple(_declared_block(t, tuple(ks), o, i) for i, (t, ks, o) in enumerate(declared)) if declared else ()
    out: list[Arrangement] = []
    if shapes.standard:
        out = _standard(closed, melds, win)
    if shapes.knitted and len(melds) <= 1:
        for ks in KNITTED_SETS:
            if all(closed[k] for k in ks):
                rest = list(closed)
                for k in ks:
                    rest[k] -= 1
                for split in split_melds_pair(rest):
                    blocks = (Block(KNITTED, ks), *(_block(t, f) for t, f in split), *melds)
                    out.extend(_with_win(KNITTED_STRAIGHT, blocks, win))
    if melds:
        return out
    fourteen = sum(closed) == 14
    if shapes.seven_pairs and fourteen and 1 not in closed and 3 not in closed and all(c % 2 == 0 for c in closed):
        if shapes.seven_pairs_four or all(c in (0, 2) for c in closed):
            blocks = tuple(_block(PAIR, k) for k in range(NUM_KINDS) for _ in range(closed[k] // 2))
            win_block = next((i for i, b in enumerate(blocks) if b.first == win), None)
            out.append(Arrangement(SEVEN_PAIRS, blocks, win_block, SINGLE))
    if shapes.thirteen_orphans and fourteen and all(orphans := _ORPHANS(closed)):
        if sum(orphans) == 14:
            wait = THIRTEEN_SIDED if win is not None and closed[win] == 2 else SINGLE
            singles = tuple(k for k in range(NUM_KINDS) for _ in range(closed[k]))
            out.append(Arrangement(THIRTEEN_ORPHANS, (), None, wait, singles))
    if shapes.knitted and fourteen and all(c <= 1 for c in closed):
        for ks in KNITTED_SETS:
            allowed = set(ks) | set(HONOURS)
            if all(k in allowed for k in range(NUM_KINDS) if closed[k]):
                singles = tuple(k for k in range(NUM_KINDS) if closed[k])
                out.append(Arrangement(KNITTED_HONOURS, (), None, KNITTED_WAIT, singles))
                break
    if shapes.pairs_and_pung:
        out.extend(pairs_and_pung(closed, win))
    return out


def pairs_and_pung(closed: Sequence[int], win: int | None) -> list[Arrangement]:
    """The arrangements of concealed counts (winning tile included) as one pung and pairs for every other
    tile (four identical tiles are two pairs): the Taiwanese 嚦咕嚦咕, 7 pairs + 1 pung of 17 tiles.

    One arrangement per block the winning tile can have completed: the pung (wait ``dual_pung``) or a pair
    (wait ``single``). Empty when the counts have no such shape.
    """
    odd = [k for k in range(NUM_KINDS) if closed[k] % 2]
    if len(odd) != 1 or closed[odd[0]] != 3 or sum(closed) < 5:
        return []
    pung = odd[0]
    pairs = tuple(Block(PAIR, (k, k)) for k in range(NUM_KINDS) if k != pung for _ in range(closed[k] // 2))
    return _with_win(PAIRS_AND_PUNG, (Block(PUNG, (pung,) * 3), *pairs), win)


def _with_win(shape: str, blocks: tuple[Block, ...], win: int | None) -> list[Arrangement]:
    if win is None:
        return [Arrangement(shape, blocks, None, "")]
    out = []
    seen: list[tuple[str, tuple[int, ...]]] = []
    for i, b in enumerate(blocks):
        if win not in b.tiles or b.meld is not None:
            continue
        key = (b.type, b.tiles)
        if key in seen:  # the same block twice (twin chows, ...) makes one arrangement
            continue
        seen.append(key)
        out.append(Arrangement(shape, blocks, i, wait_of(b, win)))
    return out


def is_winning(closed: Sequence[int], n_declared: int, shapes: Shapes = Shapes()) -> bool:
    """True when the concealed counts (winning tile included) and ``n_declared`` melds form a win."""
    # declared melds only limit which shapes are possible; their tiles do not matter here
    fake = [(PUNG, (0, 0, 0), True)] * n_declared
    return bool(arrangements(closed, fake, None, shapes))


def winning_kinds(
    concealed: Sequence[int], n_declared: int, shapes: Shapes = Shapes(), max_copies: int = 4
) -> list[int]:
    """The kinds that complete a waiting hand (the tiles it is ready on).

    concealed: counts (34) of the concealed tiles WITHOUT the winning tile. A kind whose every copy is already
    in the hand (``max_copies``) cannot be waited on.
    """
    out = []
    c = list(concealed)
    for k in range(NUM_KINDS):
        if c[k] >= max_copies:
            continue
        c[k] += 1
        if is_winning(c, n_declared, shapes):
            out.append(k)
        c[k] -= 1
    return out


# ---- wild tiles ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WildReading:
    """One reading of a hand that holds wild tiles.

    arrangement: as ``arrangements`` gives it, with every wild replaced by the kind it stands for.
    substitutes: those kinds, sorted (empty when no wild is held). win_as: the kind the winning tile counts
    as (its own kind when it is natural, the kind it stands for when it is a wild; None without a win).
    """

    arrangement: Arrangement
    substitutes: tuple[int, ...]
    win_as: int | None


@cache
def _split_suit_wild(
    counts: tuple[int, ...], jokers: int, need_pair: bool, honours: bool
) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Like ``_split_suit``, with exactly ``jokers`` wilds used up, each in a block that also holds a natural
    tile of this group (blocks of wilds alone are added by the caller, ``_free_blocks``)."""
    i = next((j for j, c in enumerate(counts) if c), -1)
    if i < 0:
        return ((),) if jokers == 0 and not need_pair else ()
    found: set[tuple[tuple[str, int], ...]] = set()
    c = list(counts)
    for btype, size in ((PUNG, 3), (PAIR, 2)):
        if btype == PAIR and not need_pair:
            continue
        for natural in range(1, min(size, c[i]) + 1):
            wild = size - natural
            if wild > jokers:
                continue
            c[i] -= natural
            for rest in _split_suit_wild(tuple(c), jokers - wild, need_pair and btype != PAIR, honours):
                found.add(tuple(sorted(((btype, i), *rest))))
            c[i] += natural
    if not honours:
        for start in (i - 2, i - 1, i):
            if start < 0 or start + 2 >= len(c):
                continue
            others = [p for p in (start, start + 1, start + 2) if p != i]
            # each other place takes a natural tile (if one is left) or a wild; places below i hold none
            for use in product((True, False), repeat=2):
                if any(u and not c[p] for u, p in zip(use, others, strict=True)):
                    continue
                wild = use.count(False)
                if wild > jokers:
                    continue
                taken = [i] + [p for u, p in zip(use, others, strict=True) if u]
                for p in taken:
                    c[p] -= 1
                for rest in _split_suit_wild(tuple(c), jokers - wild, need_pair, honours):
                    found.add(tuple(sorted(((CHOW, start), *rest))))
                for p in taken:
                    c[p] += 1
    return tuple(sorted(found))


@cache
def _free_blocks(melds: int, pair: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every choice of ``melds`` melds (and a pair, if asked) made of wilds alone: any pung, chow or pair."""
    candidates = [(PUNG, k) for k in range(NUM_KINDS)]
    candidates += [(CHOW, base + r) for base, _, honours in _GROUPS if not honours for r in range(7)]
    pairs: list[tuple[tuple[str, int], ...]] = [((PAIR, k),) for k in range(NUM_KINDS)] if pair else [()]
    combos = combinations_with_replacement(candidates, melds)
    return tuple(tuple(sorted((*combo, *p))) for combo in combos for p in pairs)


def _standard_wild(natural: Sequence[int], wilds: int) -> set[tuple[tuple[str, int], ...]]:
    """Every melds + pair split of the natural counts with ``wilds`` wilds, as sorted (type, first kind)."""
    groups = [tuple(natural[base : base + size]) for base, size, _ in _GROUPS]
    sizes = [sum(g) for g in groups]
    found: set[tuple[tuple[str, int], ...]] = set()
    for shares in product(range(wilds + 1), repeat=len(_GROUPS)):
        free = wilds - sum(shares)
        if free < 0 or free % 3 == 1 or any(j and not n for j, n in zip(shares, sizes, strict=True)):
            continue
        rests = [(n + j) % 3 for n, j in zip(sizes, shares, strict=True)]
        if 1 in rests or rests.count(2) + (free % 3 == 2) != 1:
            continue
        parts = []
        for (base, _, honours), counts, j, rest in zip(_GROUPS, groups, shares, rests, strict=True):
            options = _split_suit_wild(counts, j, rest == 2, honours)
            if not options:
                break
            parts.append([[(t, base + i) for t, i in opt] for opt in options])
        else:
            for extra in _free_blocks(free // 3, free % 3 == 2):
                for combo in product(*parts):
                    found.add(tuple(sorted((*(b for part in combo for b in part), *extra))))
    return found


def _seven_pairs_wild(natural: Sequence[int], wilds: int, four: bool) -> list[tuple[int, ...]]:
    """The final counts (as sorted pair kinds) of every seven pairs the wilds can complete; with ``four``
    any even count of a kind is that many pairs, as in ``arrangements``."""
    limit = 14 if four else 2
    odd = [k for k in range(NUM_KINDS) if natural[k] % 2]
    spare = wilds - len(odd)
    if sum(natural) + wilds != 14 or spare < 0 or spare % 2:
        return []
    base = list(natural)
    for k in odd:
        base[k] += 1
    out = []
    for extra in combinations_with_replacement(range(NUM_KINDS), spare // 2):
        final = list(base)
        for k in extra:
            final[k] += 2
        if all(n <= limit for n in final):
            out.append(tuple(k for k in range(NUM_KINDS) for _ in range(final[k] // 2)))
    return out


def _thirteen_orphans_wild(natural: Sequence[int], wilds: int) -> list[tuple[int, ...]]:
    """The final counts (as 14 sorted kinds) of every thirteen orphans the wilds can complete."""
    orphans = [natural[k] for k in TERMINALS_AND_HONOURS]
    if sum(natural) + wilds != 14 or sum(orphans) != sum(natural) or max(orphans) > 2 or orphans.count(2) > 1:
        return []
    base = [max(natural[k], 1) if k in TERMINALS_AND_HONOURS else 0 for k in range(NUM_KINDS)]
    extras = [()] if sum(base) == 14 else [(k,) for k in TERMINALS_AND_HONOURS]
    out = []
    for extra in extras:
        final = list(base)
        for k in extra:
            final[k] += 1
        out.append(tuple(k for k in range(NUM_KINDS) for _ in range(final[k])))
    return out


def _substitutes(tiles: Iterable[int], natural: Sequence[int]) -> tuple[int, ...]:
    """The kinds among ``tiles`` beyond the natural counts: what the wilds stand for."""
    left = list(natural)
    out = []
    for k in sorted(tiles):
        if left[k]:
            left[k] -= 1
        else:
            out.append(k)
    return tuple(out)


def _wild_wins(shape: str, blocks: tuple[Block, ...], subs: tuple[int, ...]) -> list[WildReading]:
    """A reading for each block a wild winning tile can have completed, and each kind it can stand for."""
    out = []
    seen: set[tuple[str, tuple[int, ...], int]] = set()
    for i, b in enumerate(blocks):
        for k in sorted(set(b.tiles) & set(subs)):
            if b.declared or (b.type, b.tiles, k) in seen:
                continue
            seen.add((b.type, b.tiles, k))
            wait = SINGLE if shape == SEVEN_PAIRS else wait_of(b, k)
            out.append(WildReading(Arrangement(shape, blocks, i, wait), subs, k))
    return out


def wild_arrangements(
    natural: Sequence[int],
    wilds: int,
    declared: Iterable[tuple[str, tuple[int, ...], bool]],
    win: int | None,
    shapes: Shapes = Shapes(),
    win_is_wild: bool = False,
) -> list[WildReading]:
    """Every winning reading of a hand whose concealed part holds ``wilds`` wild tiles.

    natural: counts (34) of the concealed tiles that are not wild, the winning tile included when it is
    natural. wilds: how many concealed tiles are wild (the winning tile included when it is a wild; then
    set ``win_is_wild``). declared, win, shapes: as for ``arrangements``; ``win`` is the natural winning
    tile's kind and is not read when ``win_is_wild``. A wild stands for any kind, its own included, and is
    not limited by the copies in the set. Shapes: melds + pair, seven pairs and thirteen orphans; the knitted
    and pairs-and-pung shapes are not searched with wilds (ValueError).
    """
    declared = list(declared)
    if wilds == 0:
        if win_is_wild:
            raise ValueError("win_is_wild needs at least one wild")
        return [WildReading(a, (), win) for a in arrangements(natural, declared, win, shapes)]
    if shapes.knitted or shapes.pairs_and_pung:
        raise ValueError("the knitted and pairs-and-pung shapes are not searched with wild tiles")
    melds = tuple(Block(t, tuple(ks), not is_open, i) for i, (t, ks, is_open) in enumerate(declared))
    found: list[tuple[str, tuple[Block, ...]]] = []
    if shapes.standard:
        for split in sorted(_standard_wild(natural, wilds)):
            found.append((STANDARD, tuple(_block(t, f) for t, f in split) + melds))
    if not melds and shapes.seven_pairs:
        for pairs in _seven_pairs_wild(natural, wilds, shapes.seven_pairs_four):
            found.append((SEVEN_PAIRS, tuple(Block(PAIR, (k, k)) for k in pairs)))
    out: list[WildReading] = []
    for shape, blocks in found:
        subs = _substitutes((k for b in blocks if not b.declared for k in b.tiles), natural)
        if win_is_wild:
            out.extend(_wild_wins(shape, blocks, subs))
        elif shape == SEVEN_PAIRS:
            win_block = next((i for i, b in enumerate(blocks) if b.first == win), None)
            out.append(WildReading(Arrangement(shape, blocks, win_block, SINGLE), subs, win))
        else:
            out.extend(WildReading(a, subs, win) for a in _with_win(shape, blocks, win))
    if not melds and shapes.thirteen_orphans:
        for tiles in _thirteen_orphans_wild(natural, wilds):
            subs = _substitutes(tiles, natural)
            pair = next(k for k in tiles if tiles.count(k) == 2)
            for win_as in sorted(set(subs)) if win_is_wild else [win]:
                wait = THIRTEEN_SIDED if win_as == pair else SINGLE
                out.append(WildReading(Arrangement(THIRTEEN_ORPHANS, (), None, wait, tiles), subs, win_as))
    return out
