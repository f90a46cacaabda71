"""Seeded random riichi hands, and the adapter that scores them with the reference library ``mahjong``.

``random_hand(rng)`` returns a valid winning riichi hand (a ``scoring.Hand``): open and closed, chows, pungs
and kongs of every kind (open, added, concealed), seven pairs, thirteen orphans and nine gates, red fives,
dora and ura dora indicators, and the situation flags in the combinations that can happen. Half the tiles
come from the shared generator ``tests/handgen.py``, half from this module's own themes (narrowed tile sets
and planted chow patterns) so that the colour and terminal yaku, the chow patterns and the yakuman come up
often; the riichi situation (riichi, ippatsu, dora, honba, the blessings ...) is drawn here for both.

``reference(hand, options)`` scores a hand with ``mahjong`` (test-only dependency) and ``compare`` says
where our score and the reference disagree on winning, han, fu, points.main and points.additional.
"""

from __future__ import annotations

import random
from typing import Any

from scoring.hand import Hand, Meld
from scoring.tiles import code_of, kind
from tests.handgen import HandGen

FIVES = (4, 13, 22)
_THEMES = (
    ("any", 40),
    ("one_suit_honours", 10),
    ("one_suit", 7),
    ("terminals_honours", 5),
    ("simples", 8),
    ("honours", 4),
    ("green", 2),
    ("seven_pairs", 8),
    ("thirteen_orphans", 3),
    ("nine_gates", 3),
)
_TERMINALS = (0, 8, 9, 17, 18, 26)
_GREEN = (19, 20, 21, 23, 25, 32)


def _allowed(theme: str, rng: random.Random) -> list[int]:
    suit = rng.randrange(3) * 9
    return {
        "one_suit_honours": [*range(suit, suit + 9), *range(27, 34)],
        "one_suit": list(range(suit, suit + 9)),
        "terminals_honours": [*_TERMINALS, *range(27, 34)],
        "simples": [k for k in range(27) if k % 9 not in (0, 8)],
        "honours": [*range(27, 34), *rng.sample(range(27), 4)],
        "green": list(_GREEN),
    }.get(theme, list(range(34)))


def _blocks(theme: str, rng: random.Random, counts: list[int]) -> list[tuple[str, int]] | None:
    """Blocks (type, first kind) of a complete hand, or None when the draw failed (the caller retries)."""
    if theme == "seven_pairs":
        kinds = rng.sample(_allowed(rng.choice(("any", "any", "one_suit_honours", "terminals_honours")), rng), 7)
        return [("pair", k) for k in kinds]
    if theme == "thirteen_orphans":
        return [("single", k) for k in (*_TERMINALS, *range(27, 34))] + [
            ("single", rng.choice((*_TERMINALS, *range(27, 34))))
        ]
    if theme == "nine_gates":
        s = rng.randrange(3) * 9
        base = [s, s, s, *range(s + 1, s + 8), s + 8, s + 8, s + 8, rng.randrange(s, s + 9)]
        return [("single", k) for k in base]
    allowed = _allowed(theme, rng)
    starts = [k for k in allowed if k < 27 and k % 9 <= 6 and k + 1 in allowed and k + 2 in allowed]
    out = [("chow", k) for k in _planted(rng)] if theme == "any" and rng.random() < 0.3 else []
    for _, k in out:
        for i in range(3):
            counts[k + i] += 1
    p_chow = rng.choice((0.3, 0.7, 0.9, 1.0)) if starts else 0.0
    for _ in range(40):
        if len(out) == 4:
            break
        if rng.random() < p_chow:
            k = rng.choice(starts)
            if all(counts[k + i] < 4 for i in range(3)):
                out.append(("chow", k))
                for i in range(3):
                    counts[k + i] += 1
        else:
            k = rng.choice(allowed)
            if counts[k] <= 1:
                out.append(("pung", k))
                counts[k] += 3
    pairs = [k for k in allowed if counts[k] <= 2]
    if len(out) < 4 or not pairs:
        return None
    k = rng.choice(pairs)
    counts[k] += 2
    out.append(("pair", k))
    return out


def _planted(rng: random.Random) -> list[int]:
    """First kinds of chows that make a pattern: a straight, a three-suit chow, or twin chows."""
    s = rng.randrange(3) * 9
    r = rng.randrange(7)
    return rng.choice(
        ([s, s + 3, s + 6], [r, r + 9, r + 18], [s + r, s + r], [s + r, s + r, r + (s + 9) % 27], [0, 9, 24])
    )


def _codes(kinds: list[int], red_left: set[int], rng: random.Random, p_red: float) -> list[str]:
    out = []
    for k in kinds:
        if k in red_left and rng.random() < p_red:
            red_left.discard(k)
            out.append("0" + code_of(k)[1])
        else:
            out.append(code_of(k))
    return out


def random_hand(rng: random.Random) -> Hand:
    """A valid winning riichi hand drawn from ``rng``.

    The tiles come half the time from the shared generator ``tests/handgen.py`` (riichi settings: no knitted
    shapes, no flowers, seven pairs of seven different tiles, red fives) and half the time from this module's
    own themes; the riichi situation is drawn on top of either.
    """
    if rng.random() < 0.5:
        hand = HandGen(rng.getrandbits(32), knitted=False, seven_pairs_four=False, flowers=False, red_fives=True).hand()
        for flag in ("self_drawn", "last_tile", "kong_replacement", "robbing_kong", "fourth_tile"):
            setattr(hand, flag, False)
    else:
        while True:
            theme = rng.choices([t for t, _ in _THEMES], [w for _, w in _THEMES])[0]
            blocks = _blocks(theme, rng, [0] * 34)
            built = _build(blocks, rng) if blocks is not None else None
            if built is not None:
                hand = built
                break
    _situation(hand, rng)
    _fourth_five_red(hand)
    return hand


def _build(blocks: list[tuple[str, int]], rng: random.Random) -> Hand | None:
    red_left = set(FIVES)
    p_red = rng.choice((0.0, 0.5, 0.9))
    standard = len(blocks) == 5
    counts = [0] * 34
    concealed: list[str] = []
    melds: list[Meld] = []
    open_rate = rng.choice((0.0, 0.0, 0.3, 0.6)) if standard else 0.0
    for t, k in blocks:
        size = {"chow": 3, "pung": 3, "pair": 2, "single": 1}[t]
        kinds = [k, k + 1, k + 2] if t == "chow" else [k] * size
        for x in kinds:
            counts[x] += 1
        if t in ("chow", "pung") and rng.random() < open_rate:
            codes = _codes(kinds, red_left, rng, p_red)
            melds.append(Meld(t, codes, True, called=rng.choice(codes)))
        elif t == "pung" and standard and rng.random() < 0.12:
            melds.append(Meld("pung", _codes(kinds, red_left, rng, p_red), False))  # a concealed kong if it can
        else:
            concealed.extend(_codes(kinds, red_left, rng, p_red))
    # declared pungs become kongs (open, added or concealed) where the fourth copy is free
    for m in melds:
        k = kind(m.tiles[0])
        if m.type == "chow" or counts[k] != 3 or (m.open and rng.random() < 0.7):
            if not m.open:
                concealed.extend(m.tiles)
            continue
        counts[k] += 1
        m.type = "kong"
        m.tiles = m.tiles + _codes([k], red_left, rng, p_red)
        m.added = m.open and rng.random() < 0.5
    melds = [m for m in melds if m.open or m.type == "kong"]
    if not concealed:
        return None
    win_tile = concealed.pop(rng.randrange(len(concealed)))
    return Hand(concealed=concealed, melds=melds, win_tile=win_tile)


def _fourth_five_red(hand: Hand) -> None:
    """A set with red fives has three plain fives of each suit: make the fourth five shown a red one."""
    for suit in "mps":
        five = "5" + suit
        seqs = [hand.concealed, *(m.tiles for m in hand.melds), hand.dora_indicators, hand.ura_dora_indicators]
        plain = sum(seq.count(five) for seq in seqs) + (hand.win_tile == five)
        if plain < 4:
            continue
        if hand.win_tile == five:
            hand.win_tile = "0" + suit
        else:
            seq = next(seq for seq in seqs if five in seq)
            seq[seq.index(five)] = "0" + suit


def _situation(hand: Hand, rng: random.Random) -> None:
    """The riichi situation, in combinations that can happen; indicators only from tiles still unseen."""
    counts = [0] * 34
    for code in hand.all_tiles:
        counts[kind(code)] += 1
    red_left = {k for k in FIVES if "0" + code_of(k)[1] not in hand.all_tiles}
    closed = not hand.is_open
    has_kong = any(m.is_kong for m in hand.melds)
    hand.self_drawn = rng.random() < 0.45
    hand.seat_wind = rng.choice("ESWN")
    hand.round_wind = rng.choice("EESSWN")
    dealer = hand.seat_wind == "E"
    hand.dealer = dealer and rng.random() < 0.5
    if closed and rng.random() < 0.5:
        hand.double_riichi = rng.random() < 0.12
        hand.riichi = not hand.double_riichi or rng.random() < 0.5
        hand.ippatsu = rng.random() < 0.25
    hand.last_tile = rng.random() < 0.06
    if hand.self_drawn and has_kong and not hand.ippatsu and not hand.last_tile:
        hand.kong_replacement = rng.random() < 0.35
    win = kind(hand.win_tile or "")
    if not hand.self_drawn and not hand.last_tile and counts[win] == 1 and rng.random() < 0.1:
        hand.robbing_kong = True
        counts[win] = 4  # the other three copies are in the robbed kong: no indicator can show one
    if not hand.melds and not hand.riichi and not hand.double_riichi and rng.random() < 0.08:
        if hand.self_drawn:
            hand.heavenly_win, hand.earthly_win = dealer, not dealer
        elif not dealer and not hand.robbing_kong:
            hand.human_win = True
    n = rng.choice((0, 1, 1, 1, 2, 2, 3, 5))
    hand.dora_indicators = _indicators(n, rng, counts, red_left)
    if hand.riichi or hand.double_riichi or rng.random() < 0.1:
        hand.ura_dora_indicators = _indicators(max(1, n) if n else rng.choice((0, 1)), rng, counts, red_left)
    hand.honba = rng.choice((0, 0, 0, 1, 2, 4))
    hand.riichi_sticks = rng.choice((0, 0, 0, 1, 2, 3))


def _indicators(n: int, rng: random.Random, counts: list[int], red_left: set[int]) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        k = rng.randrange(34)
        if counts[k] < 4:
            counts[k] += 1
            out.extend(_codes([k], red_left, rng, 0.25))
    return out


# ---- the reference library ------------------------------------------------------------------------------


class _Ids:
    """Hands out the 136-format ids of ``mahjong``: four per kind, the red five being id 4 * kind."""

    def __init__(self) -> None:
        self.free = {k: list(range(4 * k, 4 * k + 4)) for k in range(34)}

    def take(self, code: str) -> int:
        k = kind(code)
        ids = self.free[k]
        if k in FIVES:
            return ids.pop(0) if code[0] == "0" else ids.pop()
        return ids.pop(0)


def reference(hand: Hand, options: dict[str, Any]) -> Any:
    """The ``mahjong`` HandResponse for one of our hands under our (resolved) riichi options."""
    from mahjong.hand_calculating.hand import HandCalculator

    return HandCalculator.estimate_hand_value(**reference_arguments(hand, options))


def reference_arguments(hand: Hand, options: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``HandCalculator.estimate_hand_value`` for one of our hands."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld as RefMeld

    ids = _Ids()
    tiles: list[int] = []
    melds = []
    for m in hand.melds:
        mids = [ids.take(c) for c in m.tiles]
        tiles.extend(mids)
        if m.type == "chow":
            mtype = RefMeld.CHI
        elif m.type == "pung":
            mtype = RefMeld.PON
        else:
            mtype = RefMeld.SHOUMINKAN if m.added else RefMeld.KAN
        melds.append(RefMeld(meld_type=mtype, tiles=mids, opened=m.open))
    tiles.extend(ids.take(c) for c in hand.concealed)
    win = ids.take(hand.win_tile or "")
    tiles.append(win)
    dora = [ids.take(c) for c in hand.dora_indicators]
    ura = [ids.take(c) for c in hand.ura_dora_indicators]
    kazoe = {
        "limited": HandConstants.KAZOE_LIMITED,
        "sanbaiman": HandConstants.KAZOE_SANBAIMAN,
        "none": HandConstants.KAZOE_NO_LIMIT,
    }[options["counted_yakuman"]]
    rules = OptionalRules(
        has_open_tanyao=options["open_tanyao"],
        has_aka_dora=options["red_fives"],
        has_double_yakuman=options["double_yakuman"],
        kazoe_limit=kazoe,
        kiriage=options["kiriage"],
        fu_for_open_pinfu=options["open_pinfu_fu"],
        fu_for_pinfu_tsumo=options["pinfu_tsumo_fu"],
        renhou_as_yakuman=options["renhou_yakuman"],
    )
    config = HandConfig(
        is_tsumo=hand.self_drawn,
        is_riichi=hand.riichi,
        is_ippatsu=hand.ippatsu,
        is_rinshan=hand.kong_replacement,
        is_chankan=hand.robbing_kong,
        is_haitei=hand.last_tile and hand.self_drawn,
        is_houtei=hand.last_tile and not hand.self_drawn,
        is_daburu_riichi=hand.double_riichi,
        is_tenhou=hand.heavenly_win,
        is_chiihou=hand.earthly_win,
        is_renhou=hand.human_win,
        player_wind=EAST + "ESWN".index(hand.seat_wind),
        round_wind=EAST + "ESWN".index(hand.round_wind),
        kyoutaku_number=hand.riichi_sticks,
        tsumi_number=hand.honba,
        options=rules,
    )
    return {
        "tiles": tiles,
        "win_tile": win,
        "melds": melds,
        "dora_indicators": dora,
        "config": config,
        "ura_dora_indicators": ura,
    }


def compare(ours: dict[str, Any], ref: Any) -> str | None:
    """None when our score JSON and the reference response agree, else what differs."""
    if ref.error is not None:
        if ref.error == "no_yaku" and not ours["winning"]:
            return None
        return f"reference: {ref.error}; ours: winning={ours['winning']} han={ours['han']} fu={ours['fu']}"
    if not ours["winning"]:
        return f"ours: not winning ({ours['notes'][0]}); reference: {ref.han} han {ref.fu} fu {ref.yaku}"
    mine = (ours["han"], ours["fu"], ours["points"]["main"], ours["points"]["additional"])
    theirs = (ref.han, ref.fu, ref.cost["main"], ref.cost["additional"])
    if mine == theirs:
        return None
    names = [f"{i['id']}:{i['value'] * i['count']}" for i in ours["items"]]
    return f"ours han/fu/main/additional {mine} {names}; reference {theirs} {ref.yaku} {ref.fu_details}"


#: Rules on which we differ from ``mahjong`` on purpose, each with the test that tells a hand is such a case.
KNOWN_DIFFERENCES = {
    "open_tsumo_fu": (
        "an open hand won by self-draw with no other fu and option open_pinfu_fu off: we count the 2 tsumo fu "
        "(30 fu): the standard fu table gives them to every self-draw but pinfu; mahjong adds tsumo fu only "
        "when some other fu is there (20 fu)"
    ),
}


def known_difference(hand: Hand, options: dict[str, Any], ours: dict[str, Any], ref: Any) -> str | None:
    """The key of ``KNOWN_DIFFERENCES`` that explains a disagreement, or None."""
    if (
        hand.is_open
        and hand.self_drawn
        and not options["open_pinfu_fu"]
        and ref.error is None
        and ours["winning"]
        and (ours["fu"], ref.fu) == (30, 20)
        and [d["reason"] for d in ours["fu_details"]] == ["base", "tsumo"]
    ):
        return "open_tsumo_fu"
    return None
