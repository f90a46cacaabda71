"""Chinese Official mahjong (国标 / MCR): the 81 fan of the 1998 rulebook, in its 1998 and 2006 editions.

Every arrangement the decomposition engine finds is read (``mcr_reading``), the fan table (``mcr_fans``) says
which patterns it makes, the exclusions of the table and the scoring principles (不重复, 不拆移, 不得相同, 就高不就低,
套算一次) leave the fans that count, and the most valuable arrangement is kept. Flowers score one fan each and do
not count toward the 8-fan minimum.

``edition=1998`` (default) follows the 1998 text, with the readings it leaves open decided in
``mcr_fans.CHOICES`` and named in the notes of a result. ``edition=2006`` follows the 2006 rulebook as the
international tournaments play it, exactly as the reference software pymahjonggb scores it: which arrangement it
keeps when two score the same, its wait rule (a wait counts when the hand waited on one tile, whatever copies
are left), its knitted-straight and nine-gates readings, and its extra 5-fan "Concealed Kong and Melded Kong".
The rule card ``scoring/docs/mcr.md`` gives the source of every rule.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar

from scoring.decompose import (
    CHOW,
    CLOSED,
    EDGE,
    KNITTED,
    KNITTED_HONOURS,
    KNITTED_SETS,
    KNITTED_STRAIGHT,
    PAIR,
    PUNG,
    SEVEN_PAIRS,
    SINGLE,
    STANDARD,
    THIRTEEN_ORPHANS,
    Arrangement,
    Shapes,
    arrangements,
    is_winning,
    split_melds_pair,
)
from scoring.errors import HandError
from scoring.hand import Hand
from scoring.result import Item, Score
from scoring.rules.mcr_fans import (
    BY_ID,
    CHOICES,
    EXCLUSION_CHOICE,
    HAND_FANS,
    INDEX,
    READING_FANS,
    Fan,
)
from scoring.rules.mcr_reading import TERMINALS_AND_HONOURS, Facts, Instances, Reading, order_code
from scoring.ruleset import SOURCE, Option, RuleSet
from scoring.tiles import code_of

#: every winning shape of the game (DIGEST §2.3; 组合龙 + set + pair: M5)
SHAPES = Shapes(standard=True, seven_pairs=True, seven_pairs_four=True, thirteen_orphans=True, knitted=True)
_STANDARD_ONLY = Shapes()
_STANDARD_AND_PAIRS = Shapes(seven_pairs=True, seven_pairs_four=True)
MINIMUM = 8
NOT_A_WIN = (
    "the tiles do not form a winning hand: four sets and a pair, seven pairs, thirteen orphans, "
    "honours and knitted tiles, or a knitted straight with a set and a pair"
)
_WAIT_FAN = {EDGE: "edge", CLOSED: "closed", SINGLE: "single"}
_WAIT_RANK = {"edge": 3, "closed": 2, "single": 1, None: 0}


class _Scored:
    """One reading with the fans that count for it."""

    __slots__ = ("reading", "counted", "total", "choices")

    def __init__(self, reading: Reading, counted: list[tuple[Fan, Instances]], choices: set[str]) -> None:
        self.reading = reading
        self.counted = counted
        self.total = sum(fan.value * len(inst) for fan, inst in counted)
        self.choices = choices

    def has(self, fan_id: str) -> bool:
        return any(fan.id == fan_id for fan, _ in self.counted)


class MCR(RuleSet):
    """Chinese Official mahjong: 81 fan, 8 to win, settlement of the 1998 rules."""

    name = "mcr"
    title = "Chinese Official (MCR, 国标麻将, 81 fan)"
    unit = "fan"
    hand_size = 13
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "edition",
            "1998",
            "1998: the 1998 rulebook (its open readings decided as the rule card says); 2006: the 2006 rulebook "
            "as played in international tournaments (scored as the reference software pymahjonggb does)",
            "str",
            choices=("1998", "2006"),
            origin=SOURCE,
        ),
        Option("base", 8, "the base score (底分) every payment adds to the fan", "int", origin=SOURCE, minimum=0),
    )
    situation = (
        "self_drawn",
        "seat_wind",
        "round_wind",
        "flowers",
        "last_tile",
        "kong_replacement",
        "robbing_kong",
        "fourth_tile",
    )
    completeness = "complete"
    summary = (
        "All 81 fan with the five scoring principles, flowers, the 8-fan minimum and the settlement of the 1998 "
        "rules; editions 1998 and 2006."
    )

    # ---- refusals -------------------------------------------------------------------------------------------
    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """As for every rule set; resolved once per distinct set of options (a batch scores many hands)."""
        try:
            return dict(_resolved(self, tuple(sorted((given or {}).items()))))
        except TypeError:  # an unhashable value (a list, an object): let the parser word the refusal
            return super().resolve_options(given)

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """The common checks, then the situations that cannot happen at a Chinese Official table."""
        hand.validate(hand_size=self.hand_size)
        for shows, message in _CONFLICTS:
            if shows(hand):
                raise HandError("not_allowed", message)

    # ---- scoring --------------------------------------------------------------------------------------------
    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Read every arrangement of a valid hand and score the most valuable one."""
        edition = options["edition"]
        f = Facts(hand, edition)
        found = arrangements(f.closed, f.declared, f.win, SHAPES)
        if not found:
            return Score(self.name, options, False, self.unit, 0, notes=[NOT_A_WIN])
        hand_hits = {fan.id: inst for fan in HAND_FANS[edition] if (inst := fan.test(f, None))}
        choose = _choose_2006 if edition == "2006" else _choose_1998
        best = choose(f, found, hand_hits)
        return self._result(hand, options, f, best)

    def _result(self, hand: Hand, options: dict[str, Any], f: Facts, best: _Scored) -> Score:
        items = [
            Item(fan.id, fan.en, fan.value, len(inst), _codes(t for i in inst for t in i), {"name_zh": fan.zh})
            for fan, inst in best.counted
        ]
        flowers = BY_ID["flower_tiles"]
        if hand.flowers:
            items.append(
                Item(
                    flowers.id,
                    flowers.en,
                    flowers.value,
                    len(hand.flowers),
                    list(hand.flowers),
                    {"name_zh": flowers.zh},
                )
            )
        total = best.total + len(hand.flowers)
        winning = best.total >= MINIMUM
        notes = _notes(f, best, winning)
        payments = _payments(total, f.self_drawn, options["base"]) if winning else {}
        arrangement = [_codes(g) for g in best.reading.arr.tile_groups()]
        return Score(self.name, options, winning, self.unit, total, items, arrangement, payments, notes)


@cache
def _resolved(rs: MCR, given: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
    return tuple(RuleSet.resolve_options(rs, dict(given)).items())


_CODE = tuple(code_of(k) for k in range(34))


def _codes(kinds: Any) -> list[str]:
    return [_CODE[k] for k in kinds]


# ---- situations that cannot happen -------------------------------------------------------------------------


_CONFLICTS: tuple[tuple[Callable[[Hand], bool], str], ...] = (
    (
        lambda h: h.kong_replacement and not h.self_drawn,
        "kong_replacement (杠上开花) is a win on the tile drawn after a kong: it is self-drawn",
    ),
    (
        lambda h: h.robbing_kong and h.self_drawn,
        "robbing_kong (抢杠和) is a win on the tile another player adds to a pung, not a self-draw",
    ),
    (
        lambda h: h.robbing_kong and h.last_tile,
        "robbing_kong with last_tile: no kong can be made on the last tile, so none can be robbed",
    ),
)
_IGNORED = {
    "fourth_tile": "fourth_tile (和绝张) ignored: the hand holds another {win}, so the other three are not all visible",
    "robbing_kong": "robbing_kong (抢杠和) ignored: the robbed kong holds the other three {win}, but the hand has one",
    "kong_replacement": "kong_replacement (杠上开花) ignored: the hand has no declared kong",
}


# ---- choosing the arrangement ---------------------------------------------------------------------------------


def _score(f: Facts, r: Reading, hand_hits: dict[str, Instances]) -> _Scored:
    """The fans that count for one reading: every pattern present, less the exclusions of the counted ones."""
    edition = f.edition
    hits = dict(hand_hits)
    choices: set[str] = set()
    if edition == "1998" and r.shape == SEVEN_PAIRS:
        for fid in [fid for fid in hits if BY_ID[fid].sets_only_1998]:
            del hits[fid]
            choices.add("M4b")
    for fan in READING_FANS[edition]:
        inst = fan.test(f, r)
        if inst:
            hits[fan.id] = inst
    if r.chows or r.pungs:
        for fid in r.set_fans:
            hits[fid] = BY_ID[fid].test(f, r)
    counted: list[tuple[Fan, Instances]] = []
    excluded: set[str] = set()
    reduced: dict[str, int] = {}
    for fid in sorted(hits, key=INDEX.__getitem__):
        if fid in excluded:
            continue
        fan = BY_ID[fid]
        inst = hits[fid]
        cut = reduced.get(fid, 0)
        if cut:
            inst = inst[: max(0, len(inst) - cut)]
            if not inst:
                continue
        counted.append((fan, inst))
        for x in fan.excluded(edition):
            if x in hits and x not in excluded and (fid, x) in EXCLUSION_CHOICE:
                choices.add(EXCLUSION_CHOICE[(fid, x)])
            excluded.add(x)
        if edition == "2006":
            for x, n in fan.reduces_2006:
                reduced[x] = reduced.get(x, 0) + n
    if not counted:
        counted = [(BY_ID["chicken_hand"], (f.tiles,))]
    return _Scored(r, counted, choices)


def _choose_1998(f: Facts, found: list[Arrangement], hand_hits: dict[str, Instances]) -> _Scored:
    """就高不就低: every arrangement, the winning tile in each place it can be, and the highest total wins
    (on a tie, the one whose fans are higher one by one, then an edge over a closed over a single wait)."""
    unique = _lazy(lambda: _waits(f.concealed13, len(f.declared), SHAPES, 4, f.held13) == 1)
    best: tuple[tuple[int, tuple[int, ...], int], _Scored] | None = None
    for arr in found:
        block = arr.blocks[arr.win_block] if arr.win_block is not None else None
        melded = f.win if block is not None and block.type == PUNG and not f.self_drawn else None
        wait = None
        if block is not None and block.type != KNITTED and arr.wait in _WAIT_FAN and arr.shape != SEVEN_PAIRS:
            wait = _WAIT_FAN[arr.wait] if unique() else None
        s = _score(f, Reading(arr, melded, wait), hand_hits)
        key = (s.total, tuple(sorted((fan.value for fan, _ in s.counted), reverse=True)), _WAIT_RANK[wait])
        if best is None or key > best[0]:
            best = (key, s)
    assert best is not None
    return best[1]


def _choose_2006(f: Facts, found: list[Arrangement], hand_hits: dict[str, Instances]) -> _Scored:
    """The tournament software's choice: a special shape when the hand makes one (seven pairs, honours and
    knitted tiles, thirteen orphans, a knitted straight), else (and also beside seven pairs) the best way to
    split the hand into sets, the splits taken in tile order; on a tie the first split stays, unless a later one
    has 一色三同顺 or 三同刻, or the hand is also seven pairs."""
    shapes: dict[str, list[Arrangement]] = {}
    for arr in found:
        shapes.setdefault(arr.shape, []).append(arr)
    special = None
    if not f.declared:
        special = next(
            (s for s in (SEVEN_PAIRS, KNITTED_HONOURS, THIRTEEN_ORPHANS, KNITTED_STRAIGHT) if s in shapes), None
        )
    elif len(f.declared) == 1 and KNITTED_STRAIGHT in shapes:
        special = KNITTED_STRAIGHT
    best: _Scored | None = None
    if special is not None:
        arr = shapes[special][0]
        wait = _knitted_wait_2006(f, arr) if special == KNITTED_STRAIGHT else None
        best = _score(f, Reading(arr, None, wait), hand_hits)
        if special != SEVEN_PAIRS or best.has("seven_shifted_pairs"):
            return best
    seven_pairs = best is not None
    splits: dict[Any, Arrangement] = {}
    for arr in shapes.get(STANDARD, ()):
        splits.setdefault(arr.blocks, arr)
    unique = _lazy(lambda: _unique_wait_2006(f.concealed13, len(f.declared)))
    for arr in sorted(splits.values(), key=_split_order):
        s = _score(f, _split_reading_2006(f, arr, unique), hand_hits)
        if best is None or s.total > best.total:
            best = s
        elif s.total == best.total and (seven_pairs or s.has("pure_triple_chow") or s.has("triple_pung")):
            best = s
    assert best is not None
    return best


def _split_order(arr: Arrangement) -> tuple[tuple[int, int], ...]:
    """The order in which the tournament software finds the splits of a hand: its concealed sets sorted in
    tile order (a pung before the chow that starts on the same tile), compared set by set."""
    return tuple(sorted((order_code(b.first), b.type == CHOW) for b in arr.blocks if b.meld is None and b.type != PAIR))


def _split_reading_2006(f: Facts, arr: Arrangement, unique: Callable[[], bool]) -> Reading:
    """A split read as the tournament software reads it: on a discard, the concealed pung of the winning tile
    is melded unless the tile can sit in a concealed chow; when the hand waited on one tile only, the wait is an
    edge if the tile can end a concealed chow, else closed if it can be inside one, else single on the pair."""
    win = f.win
    in_chow = [b for b in arr.blocks if b.type == CHOW and b.meld is None and win in b.tiles]
    melded = None if f.self_drawn or in_chow else win
    wait = None
    on_pair = any(b.type == PAIR and b.first == win for b in arr.blocks)
    if (in_chow or on_pair) and unique():
        if any(win != b.first + 1 for b in in_chow):
            wait = "edge"
        elif in_chow:
            wait = "closed"
        else:
            wait = "single"
    return Reading(arr, melded, wait)


def _unique_wait_2006(concealed13: list[int], declared: int) -> bool:
    """The hand waited on one tile only: sets and a pair (or seven pairs, with no meld), counted by shape alone
    (a tile whose four copies are already in the hand still counts as waited on)."""
    shapes = _STANDARD_AND_PAIRS if declared == 0 else _STANDARD_ONLY
    return _waits(concealed13, declared, shapes, 5) == 1


def _knitted_wait_2006(f: Facts, arr: Arrangement) -> str | None:
    """The tournament software's wait for a knitted straight + set + pair.

    With no meld: only a winning tile among the set and the pair can make a wait, when those five tiles less the
    winning one waited on it alone. With one meld: a single wait when the pair is of the winning tile.
    """
    rest = [b for b in arr.blocks if b.type != KNITTED and b.meld is None]
    if f.declared:
        return "single" if any(b.type == PAIR and b.first == f.win for b in rest) else None
    left = [0] * 34
    for b in rest:
        for k in b.tiles:
            left[k] += 1
    if not left[f.win]:
        return None
    left[f.win] -= 1
    if _waits(left, 3, _STANDARD_ONLY, 5) != 1:
        return None
    in_chow = [b for b in rest if b.type == CHOW and f.win in b.tiles]
    if any(f.win != b.first + 1 for b in in_chow):
        return "edge"
    if in_chow:
        return "closed"
    return "single" if any(b.type == PAIR and b.first == f.win for b in rest) else None


def _waits(concealed: list[int], declared: int, shapes: Shapes, max_copies: int, held: list[int] | None = None) -> int:
    """How many kinds complete a waiting hand (concealed: its concealed counts; held: every tile it holds,
    melds included, default the concealed ones). A kind held ``max_copies`` times is not waited on.

    Sets, pairs and seven pairs can only be completed by a tile held or within two of a held tile of its suit,
    so only those are tried, on the engine's split directly. Thirteen orphans and the knitted shapes can wait on
    any tile: when the hand could be one of them (no meld, or one for a knitted straight; only terminals and
    honours, or seven tiles of one knitted straight), every kind is tried with every shape.
    """
    held = held or concealed
    special = (shapes.knitted or shapes.thirteen_orphans) and declared <= 1 and _could_be_special(concealed)
    c = list(concealed)
    found = 0
    for k in range(34) if special else _near(concealed):
        if held[k] >= max_copies:
            continue
        c[k] += 1
        if special:
            found += is_winning(c, declared, shapes)
        else:
            found += _sets_or_pairs(c, declared, shapes)
        c[k] -= 1
    return found


def _near(concealed: list[int]) -> set[int]:
    """The kinds that can complete sets, a pair or seven pairs: held, or within two of a held tile of its suit."""
    out: set[int] = set()
    for k in range(34):
        if concealed[k]:
            if k >= 27:
                out.add(k)
            else:
                base = k - k % 9
                out.update(range(max(base, k - 2), min(base + 9, k + 3)))
    return out


def _could_be_special(concealed: list[int]) -> bool:
    """One more tile could make thirteen orphans or a knitted shape: the hand holds only terminals and honours,
    or at least seven tiles of one knitted straight."""
    if all(k in TERMINALS_AND_HONOURS for k in range(34) if concealed[k]):
        return True
    return any(sum(1 for k in ks if concealed[k]) >= 7 for ks in KNITTED_SETS)


def _sets_or_pairs(closed: list[int], declared: int, shapes: Shapes) -> bool:
    """The concealed counts (winning tile included) make sets and a pair, or (no meld) seven pairs."""
    if split_melds_pair(closed):
        return True
    if not shapes.seven_pairs or declared or sum(closed) != 14:
        return False
    return all(n in (0, 2) or (shapes.seven_pairs_four and n == 4) for n in closed)


def _lazy(fn: Callable[[], bool]) -> Callable[[], bool]:
    """fn, called at most once."""
    memo: list[bool] = []

    def get() -> bool:
        if not memo:
            memo.append(fn())
        return memo[0]

    return get


# ---- notes and payments -------------------------------------------------------------------------------------


def _notes(f: Facts, best: _Scored, winning: bool) -> list[str]:
    notes = [_IGNORED[flag].format(win=code_of(f.win)) for flag in f.ignored]
    if f.fourth_tile_inferred:
        notes.append(
            f"和绝张 (Last Tile): the other three {code_of(f.win)} are in the hand's own melds, so the winning tile "
            "is the last one"
        )
    counted = {fan.id for fan, _ in best.counted}
    if f.edition == "1998":
        choices = set(best.choices)
        r = best.reading
        if counted & {"prevalent_wind", "seat_wind", "dragon_pung"}:
            choices.add("M6")
        if r.shape == KNITTED_STRAIGHT:
            choices.add("M5")
        if counted & {"edge_wait", "closed_wait", "single_wait"}:
            choices.add("wait")
        if (
            r.shape == KNITTED_STRAIGHT
            and r.arr.win_block is not None
            and r.arr.blocks[r.arr.win_block].type == KNITTED
        ):
            choices.add("knitted_wait")
        if counted & {"three_kongs", "four_kongs"} or (f.melded_kongs == 1 and f.concealed_kongs == 1):
            choices.add("kongs")
        if "nine_gates" in counted:
            choices.add("nine_gates")
        notes.extend(CHOICES[c] for c in CHOICES if c in choices)
    else:
        if "concealed_kong_and_melded_kong" in counted:
            notes.append(
                "2006: one melded and one concealed kong score Concealed Kong and Melded Kong (明暗杠, 5 fan), the "
                "tournament software's fan, instead of Melded Kong + Concealed Kong"
            )
        if "nine_gates" in counted:
            notes.append("2006: Nine Gates takes one Pung of Terminals or Honors (the 1112345678999 it is made of)")
    if not winning:
        notes.append(
            f"not a win: {best.total} fan without flowers; Chinese Official mahjong needs {MINIMUM} "
            "(flowers do not count toward it)"
        )
    return notes


def _payments(total: int, self_drawn: bool, base: int) -> dict[str, int]:
    """DIGEST §2.6: self-drawn, each of the three others pays base + fan; on a discard the discarder pays
    base + fan and each of the two others pays the base."""
    if self_drawn:
        return {"each_other": base + total, "winner_receives": 3 * (base + total)}
    return {"discarder": base + total, "each_other": base, "winner_receives": 3 * base + total}


RULESET = MCR()
