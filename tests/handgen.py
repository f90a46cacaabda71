"""Seeded random generator of valid winning hands (``scoring.hand.Hand``), for differential tests and benchmarks.

``HandGen(seed).hand()`` draws one hand; ``HandGen(seed).hands(n)`` draws n. The same seed always gives the same
hands. Every hand it returns passes ``Hand.validate(hand_size=13)`` and is a complete win (13 tiles + the winning
tile): four sets and a pair (chows, pungs, kongs of every kind: claimed, concealed, added), seven pairs (with or
without four equal tiles as two pairs), thirteen orphans, nine gates, and the Chinese Official knitted shapes
(knitted straight + set + pair, honours and knitted tiles). About half the hands come from a theme that narrows the
tiles or seeds a pattern (one suit, honours, terminals, green tiles, shifted or repeated chows and pungs, ...)
so that rare patterns come up often.

The situation flags are set only where they can happen at a table:

- ``kong_replacement``: self-drawn, with a declared kong;
- ``robbing_kong``: won on a discard, and no other copy of the winning tile is in the hand or its melds (the
  robbed kong holds the other three); never on the last tile (no kong can be made then);
- ``fourth_tile``: no other copy of the winning tile among the concealed tiles (the other three are visible);
  always true when the player's own melds show the other three;
- ``last_tile``, ``self_drawn``, seat and round wind: free.

Options make the generator fit other games: ``knitted=False`` drops the Chinese Official knitted shapes,
``seven_pairs_four=False`` never uses four equal tiles as two pairs (riichi), ``flowers=False`` draws no bonus
tiles, ``red_fives=True`` writes some fives as red fives (``0m 0p 0s``), ``replacement_on_last_tile=False`` never
wins on a kong replacement that is also the last tile (riichi; the Chinese Official rules allow it).

``pymahjonggb_args(hand)`` turns a hand into the keyword arguments of the MCR reference scorer
``MahjongGB.MahjongFanCalculator`` (test-only dependency ``pymahjonggb``); ``mcr_reference(hand)`` calls it and
returns its fans as sorted ``(name_en, value, count)`` tuples, or None when that library does not call it a win.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from scoring.hand import Hand, Meld
from scoring.tiles import code_of, kind

TERMINALS = (0, 8, 9, 17, 18, 26)
HONOURS = tuple(range(27, 34))
ORPHANS = TERMINALS + HONOURS
GREEN = (19, 20, 21, 23, 25, 32)
REVERSIBLE = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31)
WINDS = "ESWN"

#: (theme, weight): a theme narrows the tile pool or seeds a pattern of sets
THEMES: tuple[tuple[str, int], ...] = (
    ("any", 30),
    ("one_suit", 8),
    ("one_suit_honours", 8),
    ("two_suits", 4),
    ("terminals_honours", 4),
    ("terminals", 1),
    ("dragon_chows", 1),
    ("honours", 2),
    ("simples", 5),
    ("green", 2),
    ("reversible", 2),
    ("evens", 2),
    ("low", 2),
    ("middle", 2),
    ("high", 2),
    ("pattern", 22),
    ("dense", 8),
    ("seven_pairs", 5),
    ("pairs_of_chows", 2),
    ("shifted_pairs", 1),
    ("thirteen_orphans", 2),
    ("nine_gates", 2),
    ("knitted_straight", 4),
    ("knitted_honours", 3),
)
_SPECIAL = {"knitted_straight", "knitted_honours"}


class HandGen:
    """A seeded source of random valid winning hands."""

    def __init__(
        self,
        seed: int = 0,
        *,
        knitted: bool = True,
        seven_pairs_four: bool = True,
        flowers: bool = True,
        red_fives: bool = False,
        replacement_on_last_tile: bool = True,
    ) -> None:
        self.rng = random.Random(seed)
        self.knitted = knitted
        self.seven_pairs_four = seven_pairs_four
        self.flowers = flowers
        self.red_fives = red_fives
        self.replacement_on_last_tile = replacement_on_last_tile
        themes = [(t, w) for t, w in THEMES if knitted or t not in _SPECIAL]
        self._themes = [t for t, _ in themes]
        self._weights = [w for _, w in themes]

    def hands(self, n: int) -> Iterator[Hand]:
        """n hands, one after the other."""
        for _ in range(n):
            yield self.hand()

    def hand(self, theme: str | None = None) -> Hand:
        """One valid winning hand, from ``theme`` (see THEMES) or a theme drawn at random."""
        while True:
            name = theme or self.rng.choices(self._themes, self._weights)[0]
            hand = self._draw(name)
            if hand is not None:
                return hand

    # ---- the tiles --------------------------------------------------------------------------------------
    def _draw(self, theme: str) -> Hand | None:
        rng = self.rng
        if theme == "seven_pairs":
            return self._closed_hand(self._seven_pairs())
        if theme == "pairs_of_chows":
            # seven pairs that are also sets and a pair (223344 ...): both readings must be weighed
            a, b = rng.sample((0, 9, 18), 2)
            r, q = rng.randrange(7), rng.randrange(7)
            return self._closed_hand(
                [k for k in (a + r, a + r + 1, a + r + 2, b + q, b + q + 1, b + q + 2) for _ in (0, 1)]
                + [rng.randrange(34)] * 2
            )
        if theme == "shifted_pairs":
            s = rng.randrange(3) * 9 + rng.randrange(3)
            return self._closed_hand([k for k in range(s, s + 7) for _ in range(2)])
        if theme == "thirteen_orphans":
            return self._closed_hand([*ORPHANS, rng.choice(ORPHANS)])
        if theme == "nine_gates":
            s = rng.randrange(3) * 9
            return self._closed_hand([s, s, s, *range(s + 1, s + 8), s + 8, s + 8, s + 8, s + rng.randrange(9)])
        if theme == "knitted_honours":
            body = list(rng.choice(_knitted_sets()))
            numbers = rng.randint(7, 9)
            return self._closed_hand(rng.sample(body, numbers) + rng.sample(HONOURS, 14 - numbers))
        if theme == "knitted_straight":
            body = list(rng.choice(_knitted_sets()))
            block = self._random_set(list(range(34)), chow_bias=0.5)
            pair = rng.randrange(34)
            return self._standard_hand([block], [pair, pair], extra=body)
        if theme == "dragon_chows":
            # the two "dragons" of terminal chows: 123 + 789 twice, in one suit or two, with a pair of fives
            a, b = rng.sample((0, 9, 18), 2)
            second = a if rng.random() < 0.5 else b
            sets = [("chow", a), ("chow", a + 6), ("chow", second), ("chow", second + 6)]
            five = a + 4 if second == a else 27 - a - b + 4
            return self._standard_hand(sets, [five, five])
        pool, chow_bias = self._pool(theme)
        sets = self._pattern() if theme == "pattern" else []
        while len(sets) < 4:
            sets.append(self._random_set(pool, chow_bias))
        pair = rng.choice(pool)
        return self._standard_hand(sets, [pair, pair])

    def _pool(self, theme: str) -> tuple[list[int], float]:
        """The tiles a theme may use and the chance that a set is a chow."""
        rng = self.rng
        s = rng.randrange(3) * 9
        other = (s + 9 * rng.randrange(1, 3)) % 27
        window = rng.randrange(6)
        pools: dict[str, list[int]] = {
            "one_suit": list(range(s, s + 9)),
            "one_suit_honours": [*range(s, s + 9), *HONOURS],
            "two_suits": [*range(s, s + 9), *range(other, other + 9)],
            "terminals_honours": list(ORPHANS),
            "terminals": list(TERMINALS),
            "honours": list(HONOURS),
            "simples": [k for k in range(27) if k % 9 not in (0, 8)],
            "green": list(GREEN),
            "reversible": list(REVERSIBLE),
            "evens": [k for k in range(27) if k % 9 in (1, 3, 5, 7)],
            "low": [k for k in range(27) if k % 9 < rng.choice((3, 4))],
            "middle": [k for k in range(27) if 3 <= k % 9 <= 5],
            "dense": [b + r for b in (s, other) for r in range(window, window + 4)],
            "high": [k for k in range(27) if k % 9 >= rng.choice((5, 6))],
        }
        bias = {"terminals_honours": 0.0, "terminals": 0.0, "honours": 0.0, "evens": 0.0, "dense": 0.85}.get(
            theme, rng.choice((0.2, 0.5, 0.8))
        )
        return pools.get(theme, list(range(34))), bias

    def _random_set(self, pool: list[int], chow_bias: float) -> tuple[str, int]:
        rng = self.rng
        starts = [k for k in pool if k < 27 and k % 9 <= 6 and k + 1 in pool and k + 2 in pool]
        if starts and rng.random() < chow_bias:
            return ("chow", rng.choice(starts))
        return ("pung", rng.choice(pool))

    def _pattern(self) -> list[tuple[str, int]]:
        """Two to four sets that make a pattern of sets (shifted, repeated or terminal chows, shifted or equal
        pungs, wind and dragon pungs, straights)."""
        rng = self.rng
        suits = rng.sample((0, 9, 18), 3)
        name = rng.choice(
            (
                "same_chows",
                "shifted_chows",
                "mixed_chows",
                "straight",
                "mixed_straight",
                "terminal_chows",
                "shifted_pungs",
                "same_rank_pungs",
                "winds",
                "dragons",
                "mixed_shifted",
            )
        )
        n = rng.randint(2, 4)
        r = rng.randrange(7)
        if name == "same_chows":
            return [("chow", suits[0] + r)] * n
        if name == "shifted_chows":
            step = rng.choice((1, 2))
            r = rng.randrange(7 - step * (n - 1))
            return [("chow", suits[0] + r + step * i) for i in range(n)]
        if name == "mixed_chows":
            return [("chow", suits[i % 3] + r) for i in range(n)]
        if name == "mixed_shifted":
            r = rng.randrange(5)
            return [("chow", suits[i] + r + i) for i in range(3)]
        if name == "straight":
            return [("chow", suits[0] + i) for i in (0, 3, 6)]
        if name == "mixed_straight":
            return [("chow", suits[i] + 3 * i) for i in range(3)]
        if name == "terminal_chows":
            return [("chow", suits[0]), ("chow", suits[0] + 6), ("chow", suits[1]), ("chow", suits[1] + 6)][:n]
        if name == "shifted_pungs":
            r = rng.randrange(10 - n)
            if rng.random() < 0.5:
                return [("pung", suits[0] + r + i) for i in range(n)]
            return [("pung", suits[i] + r + i) for i in range(min(n, 3))]
        if name == "same_rank_pungs":
            return [("pung", suits[i] + r) for i in range(min(n, 3))]
        if name == "winds":
            return [("pung", k) for k in rng.sample(range(27, 31), rng.randint(2, 4))]
        return [("pung", k) for k in rng.sample(range(31, 34), rng.randint(2, 3))]

    def _seven_pairs(self) -> list[int]:
        rng = self.rng
        pool = rng.choice((list(range(34)), list(range(34)), list(ORPHANS), list(HONOURS) + list(range(9))))
        if self.seven_pairs_four and rng.random() < 0.2:
            kinds = rng.sample(pool, 6)
            kinds.append(kinds[0])
        else:
            kinds = rng.sample(pool, 7)
        return [k for k in kinds for _ in range(2)]

    # ---- from tiles to a hand ---------------------------------------------------------------------------
    def _closed_hand(self, tiles: list[int]) -> Hand | None:
        """A hand of 14 concealed tiles (no melds), one of them the winning tile."""
        if max(Counter(tiles).values()) > 4:
            return None
        tiles = list(tiles)
        self.rng.shuffle(tiles)
        win = tiles.pop()
        return self._finish(Hand(concealed=[code_of(k) for k in sorted(tiles)], win_tile=code_of(win)))

    def _standard_hand(
        self, sets: list[tuple[str, int]], pair: list[int], extra: list[int] | None = None
    ) -> Hand | None:
        """Sets + pair (+ ``extra`` concealed tiles, the knitted straight): some sets become kongs, some are
        declared, and the winning tile is one of the concealed tiles."""
        rng = self.rng
        blocks: list[tuple[str, list[int]]] = []
        for t, k in sets:
            blocks.append(("chow", [k, k + 1, k + 2]) if t == "chow" else ("pung", [k, k, k]))
        counts = Counter(k for _, ks in blocks for k in ks) + Counter(pair) + Counter(extra or [])
        if max(counts.values()) > 4:
            return None
        open_rate = rng.choice((0.0, 0.0, 0.25, 0.5, 0.8, 1.0))
        kong_rate = rng.choice((0.0, 0.1, 0.3, 0.6))
        concealed = list(pair) + list(extra or [])
        melds: list[Meld] = []
        for t, ks in blocks:
            if t == "pung" and counts[ks[0]] == 3 and rng.random() < kong_rate:
                counts[ks[0]] += 1
                melds.append(self._kong(ks[0]))
            elif rng.random() < open_rate and (extra is None or not melds):
                melds.append(self._claimed(t, ks))
            else:
                concealed.extend(ks)
        rng.shuffle(melds)
        rng.shuffle(concealed)
        win = concealed.pop()
        return self._finish(Hand(concealed=[code_of(k) for k in sorted(concealed)], melds=melds, win_tile=code_of(win)))

    def _kong(self, k: int) -> Meld:
        rng = self.rng
        style = rng.choice(("concealed", "claimed", "added"))
        tiles = [code_of(k)] * 4
        if style == "concealed":
            return Meld("kong", tiles, open=False)
        return Meld("kong", tiles, open=True, from_=rng.choice(("left", "across", "right")), added=style == "added")

    def _claimed(self, t: str, ks: list[int]) -> Meld:
        rng = self.rng
        tiles = [code_of(k) for k in ks]
        if t == "chow":
            return Meld("chow", tiles, open=True, called=rng.choice(tiles), from_="left")
        return Meld("pung", tiles, open=True, called=tiles[0], from_=rng.choice(("left", "across", "right")))

    # ---- situation --------------------------------------------------------------------------------------
    def _finish(self, hand: Hand) -> Hand:
        rng = self.rng
        assert hand.win_tile is not None
        w = kind(hand.win_tile)
        in_concealed = sum(1 for c in hand.concealed if kind(c) == w)
        in_melds = sum(1 for m in hand.melds for c in m.tiles if kind(c) == w)
        hand.self_drawn = rng.random() < 0.4
        hand.last_tile = rng.random() < 0.06
        hand.seat_wind = rng.choice(WINDS)
        hand.round_wind = rng.choice(WINDS)
        has_kong = any(m.is_kong for m in hand.melds)
        if hand.self_drawn and has_kong and rng.random() < 0.3:
            hand.kong_replacement = self.replacement_on_last_tile or not hand.last_tile
        if not hand.self_drawn and not hand.last_tile and in_concealed + in_melds == 0 and rng.random() < 0.25:
            hand.robbing_kong = True
        if in_melds == 3 or (in_concealed == 0 and rng.random() < 0.15):
            hand.fourth_tile = True
        if self.flowers and rng.random() < 0.4:
            hand.flowers = sorted(rng.sample([f"{i}f" for i in range(1, 9)], rng.choice((1, 1, 1, 2, 2, 3, 4, 8))))
        if self.red_fives:
            _redden(hand, rng)
        return hand


def _knitted_sets() -> list[tuple[int, ...]]:
    """The six knitted straights (1-4-7, 2-5-8, 3-6-9 in three different suits)."""
    from itertools import permutations

    return [
        tuple(s * 9 + r for s, start in zip(p, (0, 1, 2), strict=True) for r in (start, start + 3, start + 6))
        for p in permutations(range(3))
    ]


def _redden(hand: Hand, rng: random.Random) -> None:
    """Write at most one five of each suit as its red five (0m 0p 0s), at random; always when the hand holds all
    four fives of a suit (a set with red fives has only three plain ones)."""
    for suit in "mps":
        five = f"5{suit}"
        places: list[tuple[str, int, int]] = [("c", i, 0) for i, c in enumerate(hand.concealed) if c == five]
        places += [("m", i, j) for i, m in enumerate(hand.melds) for j, c in enumerate(m.tiles) if c == five]
        if hand.win_tile == five:
            places.append(("w", 0, 0))
        if not places or (len(places) < 4 and rng.random() < 0.5):
            continue
        where, i, j = rng.choice(places)
        if where == "c":
            hand.concealed[i] = f"0{suit}"
        elif where == "m":
            hand.melds[i].tiles[j] = f"0{suit}"
        else:
            hand.win_tile = f"0{suit}"


# ---- the MCR reference scorer (pymahjonggb) ---------------------------------------------------------------

_LIB_HONOURS = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")  # East South West North White Green Red
_OFFER = {"left": 1, "across": 2, "right": 3, None: 1}


def _lib_tile(k: int) -> str:
    """pymahjonggb's code of a kind: W characters, B dots, T bamboo, F winds, J1 red J2 green J3 white."""
    if k < 27:
        return "WBT"[k // 9] + str(k % 9 + 1)
    return _LIB_HONOURS[k - 27]


def pymahjonggb_args(hand: Hand) -> dict[str, Any]:
    """The keyword arguments of ``MahjongGB.MahjongFanCalculator`` for a hand.

    An added kong is passed as a claimed kong (the library cannot say "added"); ``kong_replacement`` and
    ``robbing_kong`` both become ``isAboutKong`` (the library tells them apart by self-draw).
    """
    assert hand.win_tile is not None
    packs = []
    for m in hand.melds:
        ks = sorted(m.kinds)
        if m.type == "chow":
            offer = ks.index(kind(m.called)) + 1 if m.called else 1
            packs.append(("CHI", _lib_tile(ks[1]), offer))
        elif m.type == "pung":
            packs.append(("PENG", _lib_tile(ks[0]), _OFFER[m.from_]))
        else:
            packs.append(("GANG", _lib_tile(ks[0]), _OFFER[m.from_] if m.open else 0))
    return {
        "pack": tuple(packs),
        "hand": tuple(_lib_tile(kind(c)) for c in hand.concealed),
        "winTile": _lib_tile(kind(hand.win_tile)),
        "flowerCount": len(hand.flowers),
        "isSelfDrawn": hand.self_drawn,
        "is4thTile": hand.fourth_tile,
        "isAboutKong": hand.kong_replacement or hand.robbing_kong,
        "isWallLast": hand.last_tile,
        "seatWind": WINDS.index(hand.seat_wind),
        "prevalentWind": WINDS.index(hand.round_wind),
    }


def mcr_reference(hand: Hand) -> list[tuple[str, int, int]] | None:
    """pymahjonggb's fans for a hand as sorted (name_en, value, count); None when it does not call it a win."""
    from MahjongGB import MahjongFanCalculator

    try:
        fans = MahjongFanCalculator(**pymahjonggb_args(hand), verbose=True)
    except TypeError as exc:
        if "ERROR_NOT_WIN" in str(exc):
            return None
        raise
    return sorted((name_en, value, count) for value, count, _name_zh, name_en in fans)
