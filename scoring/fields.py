"""Situation fields: the kind of value each field of the hand JSON takes.

``HAND_FIELDS`` describes the fields of contracts.md (``scoring.Hand`` reads and checks them). A rule set that
reads fields of its own (kept in ``Hand.extra``) declares them as ``Field`` objects in ``RuleSet.own_fields``;
``RuleSet.own(hand)`` reads and checks them, and ``/v1/rules`` / ``mjscan rules --json`` show every field
with its kind so that the web page can draw a control for it without knowing the rule set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.errors import HandError
from scoring.tiles import TileError, parse_tiles

#: The kinds of value a field can take; the page draws one control per kind.
KINDS = ("bool", "int", "wind", "seat", "suit", "tile", "tiles", "ints", "any")
_CHOICES = {"wind": ("E", "S", "W", "N"), "seat": ("left", "across", "right"), "suit": ("m", "p", "s")}


@dataclass(frozen=True)
class Field:
    """One situation field. kind: one of KINDS (``seat`` = another player seen from the winner: left, across,
    right; ``ints`` = a list of whole numbers). choices: the allowed values where the kind alone does not say;
    minimum/maximum bound ``int`` and ``ints``. A None default means "not given"."""

    name: str
    kind: str
    default: Any = None
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    @property
    def allowed(self) -> tuple[Any, ...] | None:
        return self.choices if self.choices is not None else _CHOICES.get(self.kind)

    def parse(self, value: Any) -> Any:
        """The field's value checked (tiles parsed to codes); HandError(bad_field) naming the field if wrong."""
        if value is None and self.default is None:
            return None
        ok: bool | None
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "int":
            ok = self._int(value)
        elif self.kind == "ints":
            ok = isinstance(value, list) and all(self._int(v) for v in value)
        elif self.kind in ("tile", "tiles"):
            value, ok = self._tiles(value)
            if ok is None:
                raise HandError("unknown_tile", f"{self.name}: {value}")
        else:
            ok = self.kind == "any" or isinstance(value, str)
        allowed = self.allowed
        if ok and allowed is not None:
            ok = all(v in allowed for v in value) if isinstance(value, list) else value in allowed
        if not ok:
            raise HandError("bad_field", f"{self.name} must be {self.expected()}, not {value!r}")
        return value

    def expected(self) -> str:
        """What the field takes, in words (for messages)."""
        allowed = self.allowed
        if allowed is not None and self.kind not in ("tiles", "ints"):
            return "one of " + ", ".join(str(c) for c in allowed)
        bounds = ""
        if self.minimum is not None or self.maximum is not None:
            bounds = f" from {self.minimum if self.minimum is not None else '...'}"
            bounds += f" to {self.maximum if self.maximum is not None else '...'}"
        return {
            "bool": "true or false",
            "int": "a whole number" + bounds,
            "ints": "a list of whole numbers" + bounds,
            "tile": "one tile code such as 3p",
            "tiles": "a list of tile codes (or compact text such as 3m7z)",
        }.get(self.kind, "text")

    def _int(self, v: Any) -> bool:
        if not isinstance(v, int) or isinstance(v, bool):
            return False
        return (self.minimum is None or v >= self.minimum) and (self.maximum is None or v <= self.maximum)

    def _tiles(self, value: Any) -> tuple[Any, bool | None]:
        """(codes, True), (value, False) for a value of the wrong type, or (message, None) for a bad code."""
        if not isinstance(value, str | list):
            return value, False
        try:
            codes = parse_tiles(value)
        except TileError as exc:
            return exc.message, None
        if self.kind == "tile":
            return (codes[0], True) if len(codes) == 1 else (value, False)
        return codes, True

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.kind, "default": self.default}
        allowed = self.allowed
        if allowed is not None:
            out["choices"] = list(allowed)
        if self.help:
            out["help"] = self.help
        return out


def read_fields(fields: tuple[Field, ...], values: dict[str, Any]) -> dict[str, Any]:
    """Each field's value from ``values`` (e.g. ``Hand.extra``), checked, or its default where not given."""
    return {f.name: f.parse(values[f.name]) if f.name in values else f.default for f in fields}


#: The situation fields of contracts.md.
HAND_FIELDS: dict[str, Field] = {
    f.name: f
    for f in (
        Field("self_drawn", "bool", False, "won on a self-drawn tile"),
        Field("seat_wind", "wind", "E", "the winner's seat wind"),
        Field("round_wind", "wind", "E", "the round (prevalent) wind"),
        Field("flowers", "tiles", [], "bonus tiles set aside (1f-8f)"),
        Field("last_tile", "bool", False, "won on the last tile of the wall or its discard"),
        Field("kong_replacement", "bool", False, "won on the replacement tile after a kong"),
        Field("robbing_kong", "bool", False, "won on a tile added to a pung to make a kong"),
        Field("fourth_tile", "bool", False, "the other three copies of the winning tile are visible"),
        Field("riichi", "bool", False, "riichi declared"),
        Field("double_riichi", "bool", False, "double riichi (declared on the first turn)"),
        Field("ippatsu", "bool", False, "won within one turn of riichi"),
        Field("dora_indicators", "tiles", [], "dora indicators"),
        Field("ura_dora_indicators", "tiles", [], "ura dora indicators (after riichi)"),
        Field("honba", "int", 0, "counters on the table", minimum=0),
        Field("riichi_sticks", "int", 0, "riichi sticks on the table", minimum=0),
        Field("dealer", "bool", False, "the winner is the dealer"),
        Field("dealer_streak", "int", 0, "how many times the dealer has repeated", minimum=0),
        Field("seat_index", "int", None, "0-3 counted from the seat whose wall was broken", (0, 1, 2, 3)),
        Field("heavenly_ready", "bool", False, "天聽 declared"),
        Field("earthly_ready", "bool", False, "地聽 declared"),
        Field("heavenly_win", "bool", False, "天胡 / tenhou: the dealer wins on the dealt hand"),
        Field("earthly_win", "bool", False, "地胡 / chiihou"),
        Field("human_win", "bool", False, "人胡 / renhou"),
        Field("void_suit", "suit", None, "the suit declared void at the start (定缺)"),
        Field("initial_hand", "bool", False, "score an initial-hand win on the dealt tiles"),
        Field("wild_indicator", "tile", None, "the tile turned up after the deal; the next in its cycle is wild"),
        Field("contract", "any", None, "the dealer's declared contract (口子)"),
    )
}
