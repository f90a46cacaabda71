"""The hand: what every scorer reads (the hand JSON of contracts.md), its parsing and its validation.

``Hand.from_json`` reads the contract's JSON object; ``parse_compact`` reads the command-line form
(see its docstring). ``Hand.validate`` checks what holds under every rule set (codes, copies, melds, the
winning tile); each rule set adds its own tile count through ``validate(hand_size=...)``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from scoring.errors import HandError
from scoring.fields import HAND_FIELDS
from scoring.tiles import KIND_OF, NUM_KINDS, TileError, code_of, is_flower, kind, normal, parse_tiles

MELD_TYPES: Final = ("chow", "pung", "kong")
FROM_VALUES: Final = ("left", "across", "right")


@dataclass
class Meld:
    """A declared set. ``tiles`` are codes (red fives kept); ``called`` is the claimed tile of an open meld,
    ``from_`` who it came from (left, across, right; JSON key ``from``); ``added`` marks a kong added to an
    open pung (加杠 / shouminkan). The tiles are kept in tile order, however they were written (978m is 789m)."""

    type: str
    tiles: list[str]
    open: bool = True
    called: str | None = None
    from_: str | None = None
    added: bool = False

    def __post_init__(self) -> None:
        self.tiles = sorted(self.tiles, key=lambda t: KIND_OF.get(t, 99))

    @property
    def kinds(self) -> list[int]:
        return [kind(t) for t in self.tiles]

    @property
    def first(self) -> int:
        """The lowest kind in the meld."""
        return min(self.kinds)

    @property
    def is_kong(self) -> bool:
        return self.type == "kong"

    @property
    def concealed_kong(self) -> bool:
        return self.type == "kong" and not self.open

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "tiles": list(self.tiles), "open": self.open}
        if self.called is not None:
            out["called"] = self.called
        if self.from_ is not None:
            out["from"] = self.from_
        if self.added:
            out["added"] = True
        return out


@dataclass
class Hand:
    """One hand at the moment of winning, as in contracts.md."""

    concealed: list[str] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    win_tile: str | None = None
    self_drawn: bool = False
    seat_wind: str = "E"
    round_wind: str = "E"
    flowers: list[str] = field(default_factory=list)
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    fourth_tile: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    dora_indicators: list[str] = field(default_factory=list)
    ura_dora_indicators: list[str] = field(default_factory=list)
    honba: int = 0
    riichi_sticks: int = 0
    dealer: bool = False
    dealer_streak: int = 0
    # rule-set fields (contracts.md): read only by the rule sets named there
    seat_index: int | None = None
    heavenly_ready: bool = False
    earthly_ready: bool = False
    heavenly_win: bool = False
    earthly_win: bool = False
    human_win: bool = False
    void_suit: str | None = None
    initial_hand: bool = False
    wild_indicator: str | None = None
    contract: Any = None
    #: fields a rule set of a later version may read; kept and written back untouched
    extra: dict[str, Any] = field(default_factory=dict)

    # ---- derived views used by the scorers -------------------------------------------------------
    @property
    def all_tiles(self) -> list[str]:
        """Concealed tiles, the winning tile and every meld tile (no flowers)."""
        out = list(self.concealed)
        if self.win_tile is not None:
            out.append(self.win_tile)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    @property
    def closed_kinds(self) -> list[int]:
        """Kinds of the concealed tiles plus the winning tile (the part the decomposer splits)."""
        out = [kind(t) for t in self.concealed]
        if self.win_tile is not None:
            out.append(kind(self.win_tile))
        return out

    @property
    def win_kind(self) -> int | None:
        return None if self.win_tile is None else kind(self.win_tile)

    @property
    def is_open(self) -> bool:
        """True when any meld was claimed from another player (a concealed kong keeps a hand closed)."""
        return any(m.open for m in self.melds)

    @property
    def tile_count(self) -> int:
        """Tiles in hand without the winning tile, a kong counting as 3 (13 in most games, 16 in Taiwan)."""
        return len(self.concealed) + 3 * len(self.melds)

    # ---- JSON ---------------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, obj: Any) -> Hand:
        """Read the contract's hand object. Raises HandError for anything it cannot read."""
        if not isinstance(obj, dict):
            raise HandError("bad_json", f"a hand must be a JSON object, not {type(obj).__name__}")
        known = {f.name for f in dataclasses.fields(cls)} - {"extra", "melds", "from_"}
        kwargs: dict[str, Any] = {"extra": {}}
        for key, value in obj.items():
            if key == "melds":
                if not isinstance(value, list):
                    raise HandError("bad_meld", "melds must be a list of meld objects")
                kwargs["melds"] = [_meld_from_json(m, i) for i, m in enumerate(value)]
            elif key in known:
                kwargs[key] = _field_value(key, value)
            else:
                kwargs["extra"][key] = value
        hand = cls(**kwargs)
        _move_flowers(hand)
        return hand

    def to_json(self) -> dict[str, Any]:
        """The contract's hand object; flags left at their defaults are omitted."""
        out: dict[str, Any] = {"concealed": list(self.concealed), "melds": [m.to_json() for m in self.melds]}
        defaults = Hand()
        for f in dataclasses.fields(self):
            if f.name in ("concealed", "melds", "extra"):
                continue
            value = getattr(self, f.name)
            if f.name in ("win_tile", "self_drawn", "seat_wind", "round_wind", "flowers") or value != getattr(
                defaults, f.name
            ):
                out[f.name] = list(value) if isinstance(value, list) else value
        out.update(self.extra)
        return out

    # ---- validation ---------------------------------------------------------------------------------
    def validate(self, hand_size: int | None = None, max_copies: int = 4, need_win_tile: bool = True) -> None:
        """Raise HandError if the hand cannot exist.

        hand_size: tiles held without the winning tile, a kong counting 3 (13 for most rule sets); None skips
        the count check. max_copies: copies of each tile kind in the set (4 in every standard set).
        The checks come in this order, the first failing one is reported: the winning tile, flowers among the
        concealed tiles, each meld, copies of a kind (lowest kind first), red fives, bonus tiles, the count.
        """
        win = self.win_tile
        if win is None:
            if need_win_tile:
                raise HandError("bad_win_tile", "the hand has no winning tile (win_tile)")
        elif _kind(win) >= NUM_KINDS:
            raise HandError("bad_win_tile", f"the winning tile {win} is a flower; flowers go in 'flowers'")
        counts = [0] * NUM_KINDS
        code = ""
        try:
            for code in self.concealed:
                k = KIND_OF[code]
                if k >= NUM_KINDS:
                    raise HandError("bad_field", f"{code} is a flower: list it in 'flowers', not in 'concealed'")
                counts[k] += 1
        except KeyError:
            kind(code)  # not a tile code: refused as ``kind`` words it
            raise
        if win is not None:
            counts[KIND_OF[win]] += 1
        for i, m in enumerate(self.melds):
            for k in _check_meld(m, i):
                counts[k] += 1
        if max(counts) > max_copies:
            for k, n in enumerate(counts):
                if n > max_copies and n:
                    raise HandError("too_many_copies", f"{n} copies of {code_of(k)}: a set has only {max_copies}")
        for red, five in _RED_FIVES:
            if counts[five] > 1 and _copies(self, red) > 1:  # two fives of the suit, both red
                reds = Counter(t for t in self.all_tiles if t[0] == "0")
                for code, n in reds.items():
                    if n > 1:
                        raise HandError("too_many_copies", f"{n} copies of the red five {code}: a set has one")
        if len(self.flowers) > 1 and len(set(self.flowers)) < len(self.flowers):
            for code, n in Counter(self.flowers).items():
                if n > 1:
                    raise HandError("too_many_copies", f"{n} copies of the bonus tile {code}: a set has one")
        if hand_size is not None and self.tile_count != hand_size:
            held = len(self.concealed) + (1 if self.win_tile else 0)
            raise HandError(
                "wrong_tile_count",
                f"wrong tile count: {held} concealed (winning tile included) and {len(self.melds)} meld(s) "
                f"make {self.tile_count + 1}; this rule set needs {hand_size + 1} (a kong counts as 3)",
            )


def _copies(hand: Hand, code: str) -> int:
    """How many times ``code`` is written among the concealed tiles, the winning tile and the melds."""
    return hand.concealed.count(code) + (hand.win_tile == code) + sum(m.tiles.count(code) for m in hand.melds)


_RED_FIVES: Final = (("0m", 4), ("0p", 13), ("0s", 22))


def _kind(code: str) -> int:
    """``kind`` by table lookup; an unknown code raises TileError as ``kind`` does."""
    try:
        return KIND_OF[code]
    except KeyError:
        return kind(code)


def _meld_from_json(obj: Any, index: int) -> Meld:
    where = f"meld {index + 1}"
    if not isinstance(obj, dict):
        raise HandError("bad_meld", f"{where} must be an object with 'type' and 'tiles'")
    unknown = set(obj) - {"type", "tiles", "open", "called", "from", "added"}
    if unknown:
        raise HandError("bad_meld", f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    mtype = obj.get("type")
    if mtype not in MELD_TYPES:
        raise HandError("bad_meld", f"{where}: type must be chow, pung or kong, not {mtype!r}")
    if "tiles" not in obj:
        raise HandError("bad_meld", f"{where} has no tiles")
    tiles = _tiles(obj["tiles"], f"{where} tiles")
    called = obj.get("called")
    if called is not None:
        called = _tile(called, f"{where} called")
    frm = obj.get("from")
    if frm is not None and frm not in FROM_VALUES:
        raise HandError("bad_meld", f"{where}: 'from' must be left, across or right, not {frm!r}")
    is_open = obj.get("open", True)
    added = obj.get("added", False)
    if not isinstance(is_open, bool) or not isinstance(added, bool):
        raise HandError("bad_meld", f"{where}: 'open' and 'added' must be true or false")
    return Meld(mtype, tiles, is_open, called, frm, added)


def _check_meld(m: Meld, index: int) -> list[int]:
    """The meld's kinds, sorted; HandError if it is no meld of its type."""
    try:
        ks = sorted(map(KIND_OF.__getitem__, m.tiles))
    except (KeyError, TypeError):  # not a tile code: refused as the checks below word it
        _meld_where(m, index)
        ks = sorted(m.kinds)
    n = len(ks)
    if n and ks[-1] >= NUM_KINDS:
        raise HandError("bad_meld", f"{_meld_where(m, index)}: flowers cannot be in a meld")
    if m.type == "chow":
        first = ks[0] if n else 0
        if n != 3 or first >= 27 or first // 9 != ks[2] // 9 or ks[1] != first + 1 or ks[2] != first + 2:
            raise HandError("bad_meld", f"{_meld_where(m, index)}: a chow is three consecutive tiles of one suit")
        if not m.open:
            raise HandError(
                "bad_meld", f"{_meld_where(m, index)}: a chow can only be declared by claiming a discard (open)"
            )
    elif m.type == "pung":
        if n != 3 or ks[0] != ks[2]:
            raise HandError("bad_meld", f"{_meld_where(m, index)}: a pung is three identical tiles")
        if not m.open:
            raise HandError(
                "bad_meld", f"{_meld_where(m, index)}: a concealed pung stays in 'concealed'; declared pungs are open"
            )
    else:
        if n != 4 or ks[0] != ks[3]:
            raise HandError("bad_meld", f"{_meld_where(m, index)}: a kong is four identical tiles")
        if m.added and not m.open:
            raise HandError("bad_meld", f"{_meld_where(m, index)}: an added kong extends an open pung, so it is open")
    called = m.called
    if called is not None:
        if not m.open:
            raise HandError("bad_meld", f"{_meld_where(m, index)}: a concealed kong has no called tile")
        k = KIND_OF.get(called) if isinstance(called, str) else None
        if k not in ks if k is not None else normal(called) not in [normal(t) for t in m.tiles]:
            raise HandError("bad_meld", f"{_meld_where(m, index)}: the called tile {called} is not in the meld")
    return ks


def _meld_where(m: Meld, index: int) -> str:
    """How a refusal names a meld: its place and its tiles."""
    return f"meld {index + 1} ({' '.join(m.tiles)})"


def _tile(value: Any, where: str) -> str:
    tiles = _tiles(value if isinstance(value, str) else [value], where)
    if len(tiles) != 1:
        raise HandError("unknown_tile", f"{where}: expected one tile, got {value!r}")
    return tiles[0]


def _tiles(value: Any, where: str) -> list[str]:
    if not isinstance(value, str | list):
        raise HandError("bad_field", f"{where}: expected a list of tile codes or a compact string")
    try:
        return parse_tiles(value)
    except TileError as exc:
        raise HandError("unknown_tile", f"{where}: {exc.message}") from None


def _field_value(key: str, value: Any) -> Any:
    """A field of the hand JSON read and checked: the tiles here, the situation fields by HAND_FIELDS."""
    if key == "concealed":
        return _tiles(value, key)
    if key == "win_tile":
        return None if value is None else _tile(value, key)
    return HAND_FIELDS[key].parse(value)


def _move_flowers(hand: Hand) -> None:
    """Bonus tiles written among the concealed tiles are set aside into ``flowers``."""
    flowers = [t for t in hand.concealed if is_flower(kind(t))]
    if flowers:
        hand.concealed = [t for t in hand.concealed if not is_flower(kind(t))]
        hand.flowers = hand.flowers + flowers


def parse_compact(text: str, win: str | None = None) -> Hand:
    """Read the command-line form of a hand.

    Space-separated groups. The first group is the concealed part INCLUDING the winning tile (flowers written
    there are set aside as bonus tiles); each further group is a declared meld, read by its shape:

    - ``234p`` an open chow, ``555z`` an open pung, ``7777z`` an open kong (claimed from a discard);
    - ``[7777z]`` a concealed kong (square brackets: it never left the hand);
    - ``2222p+`` an added kong (a tile added to an open pung).

    ``win`` names the winning tile, which must be in the concealed group; without it the last tile written in
    the concealed group is the winning tile. Example: ``"123m456p789s11z 234p"`` with ``win="4p"``.
    """
    groups = text.split()
    if not groups:
        raise HandError("bad_json", "empty hand: write e.g. '123m456p789s11z 234p' with --win 4p")
    try:
        concealed = parse_tiles(groups[0])
        melds = [_compact_meld(g) for g in groups[1:]]
    except TileError as exc:
        raise HandError("unknown_tile", exc.message) from None
    win_tile = _tile(win, "--win") if win is not None else None
    hand = Hand(concealed=concealed, melds=melds)
    _move_flowers(hand)
    if not hand.concealed:
        raise HandError("bad_win_tile", "no concealed tiles: the first group holds the winning tile")
    if win_tile is None:
        win_tile = hand.concealed.pop()
    elif win_tile in hand.concealed:
        hand.concealed.remove(win_tile)
    else:
        raise HandError(
            "bad_win_tile",
            f"the winning tile {win_tile} is not in the concealed group {groups[0]!r}: "
            "write every concealed tile there, the winning tile included",
        )
    hand.win_tile = win_tile
    return hand


def _compact_meld(group: str) -> Meld:
    concealed = group.startswith("[") and group.endswith("]")
    added = group.endswith("+")
    body = group[1:-1] if concealed else group[:-1] if added else group
    tiles = parse_tiles(body)
    ks = sorted(kind(t) for t in tiles)
    if len(tiles) == 4 and len(set(ks)) == 1:
        mtype = "kong"
    elif len(tiles) == 3 and len(set(ks)) == 1:
        mtype = "pung"
    elif len(tiles) == 3:
        mtype = "chow"
    else:
        raise HandError("bad_meld", f"{group!r} is not a meld: a chow or pung has 3 tiles, a kong 4")
    if concealed and mtype != "kong":
        raise HandError("bad_meld", f"{group!r}: only a kong can be declared concealed ([1111m])")
    if added and mtype != "kong":
        raise HandError("bad_meld", f"{group!r}: only a kong can be an added kong (2222p+)")
    return Meld(mtype, tiles, open=not concealed, added=added)
