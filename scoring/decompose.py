"""The decomposition engine shared by every rule set.

Given the concealed tiles (with the winning tile), the declared melds and the winning tile, ``arrangements``
lists every way the hand forms a winning shape, each with the block the winning tile completed and the wait
it filled. Rule sets choose which shapes exist in their game (``Shapes``) and score each arrangement.

Shapes: melds + pair (any number of melds: 4 in most games, 5 in Taiwanese 16-tile), seven pairs, thirteen
orphans, the MCR knitted shapes: 组合龙 (knitted straight) + 1 meld + pair, and 全不靠 / 七星不靠
(honours and knitted tiles, 14 singles), and pairs + one pung (Taiwanese 嚦咕嚦咕: 7 pairs + 1 pung).

The per-suit splitting is memoised, so a hand is decomposed in tens of microseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations, product

from scoring.tiles import HONOURS, NUM_KINDS, TERMINALS_AND_HONOURS, rank

CHOW, PUNG, KONG, PAIR, KNITTED = "chow", "pung", "kong", "pair", "knitted"

#: Wait shapes, as ``Arrangement.wait`` reports them.
TWO_SIDED, EDGE, CLOSED, SINGLE, DUAL_PUNG = "two_sided", "edge", "closed", "single", "dual_pung"
THIRTEEN_SIDED, KNITTED_WAIT = "thirteen_sided", "knitted"

STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS = "standard", "seven_pairs", "thirteen_orphans"
PAIRS_AND_PUNG = "pairs_and_pung"
KNITTED_STRAIGHT, KNITTED_HONOURS = "knitted_straight", "knitted_honours"

#: The six knitted straights: ranks 1-4-7, 2-5-8 and 3-6-9, each in a different suit.
KNITTED_SETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            s * 9 + r for s, start in zip(perm, (0, 1, 2), strict=True) for r in (start, start + 3, start + 6)
        )
    )
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


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One reading of a winning hand.

    blocks: the melds and the pair (declared melds included); empty for thirteen orphans and the
    honours-and-knitted shape, whose tiles are in ``singles``. win_block: the index in ``blocks`` of the block
    the winning tile completed (None when the shape has no blocks). wait: the wait shape that tile filled.
    """

    shape: str
    blocks: tuple[Block, ...]
    win_block: int | None
    wait: str
    singles: tuple[int, ...] = ()

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


@cache
def _split_suit(
    counts: tuple[int, ...], need_pair: bool, honours: bool
) -> tuple[tuple[tuple[str, int], ...], ...]:
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


def _block(t: str, first: int) -> Block:
    if t == CHOW:
        return Block(CHOW, (first, first + 1, first + 2))
    if t == PUNG:
        return Block(PUNG, (first,) * 3)
    return Block(PAIR, (first,) * 2)


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
    declared = list(declared)
    melds = tuple(Block(t, tuple(ks), not is_open, i) for i, (t, ks, is_open) in enumerate(declared))
    out: list[Arrangement] = []
    if shapes.standard:
        for split in split_melds_pair(closed):
            blocks = tuple(_block(t, f) for t, f in split) + melds
            out.extend(_with_win(STANDARD, blocks, win))
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
    if shapes.seven_pairs and sum(closed) == 14 and all(c % 2 == 0 for c in closed):
        if shapes.seven_pairs_four or all(c in (0, 2) for c in closed):
            blocks = tuple(Block(PAIR, (k, k)) for k in range(NUM_KINDS) for _ in range(closed[k] // 2))
            win_block = next((i for i, b in enumerate(blocks) if b.first == win), None)
            out.append(Arrangement(SEVEN_PAIRS, blocks, win_block, SINGLE))
    if shapes.thirteen_orphans and sum(closed) == 14 and all(closed[k] for k in TERMINALS_AND_HONOURS):
        if sum(closed[k] for k in TERMINALS_AND_HONOURS) == 14:
            wait = THIRTEEN_SIDED if win is not None and closed[win] == 2 else SINGLE
            singles = tuple(k for k in range(NUM_KINDS) for _ in range(closed[k]))
            out.append(Arrangement(THIRTEEN_ORPHANS, (), None, wait, singles))
    if shapes.knitted and sum(closed) == 14 and all(c <= 1 for c in closed):
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
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for i, b in enumerate(blocks):
        if b.declared or win not in b.tiles or (b.type, b.tiles) in seen:
            continue
        seen.add((b.type, b.tiles))
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
