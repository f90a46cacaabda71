"""The score: what every rule set returns (the score JSON of contracts.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(init=False)  # the __init__ below is compiled with the module (setup.py); a generated one is not
class Item:
    """One pattern counted: ``value`` per occurrence, ``count`` occurrences, ``tiles`` the codes that made it.

    ``names`` carries the pattern's names in other languages (e.g. ``{"name_zh": "清龙"}`` or
    ``{"name_ja": "平和"}``) and ``extra`` any rule-set specific fields; both are written flat into the JSON.
    """

    id: str
    name_en: str
    value: int
    count: int = 1
    tiles: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        id: str,
        name_en: str,
        value: int,
        count: int = 1,
        tiles: list[str] | None = None,
        names: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.name_en = name_en
        self.value = value
        self.count = count
        self.tiles = [] if tiles is None else tiles
        self.names = {} if names is None else names
        self.extra = {} if extra is None else extra

    @property
    def points(self) -> int:
        return self.value * self.count

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name_en": self.name_en, **self.names}
        out.update({"value": self.value, "count": self.count, "tiles": list(self.tiles)})
        out.update(self.extra)
        return out


@dataclass(init=False)  # as Item: a compiled __init__
class Score:
    """The result of scoring one hand. ``extra`` holds rule-set fields written at the top level of the JSON
    (riichi: han, fu, fu_details, points)."""

    rules: str
    options: dict[str, Any]
    winning: bool
    unit: str
    total: int
    items: list[Item] = field(default_factory=list)
    arrangement: list[list[str]] = field(default_factory=list)
    payments: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        rules: str,
        options: dict[str, Any],
        winning: bool,
        unit: str,
        total: int,
        items: list[Item] | None = None,
        arrangement: list[list[str]] | None = None,
        payments: dict[str, Any] | None = None,
        notes: list[str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.rules = rules
        self.options = options
        self.winning = winning
        self.unit = unit
        self.total = total
        self.items = [] if items is None else items
        self.arrangement = [] if arrangement is None else arrangement
        self.payments = {} if payments is None else payments
        self.notes = [] if notes is None else notes
        self.extra = {} if extra is None else extra

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": True,
            "rules": self.rules,
            "options": dict(self.options),
            "winning": self.winning,
            "unit": self.unit,
            "total": self.total,
            "items": [i.to_json() for i in self.items],
            "arrangement": [list(g) for g in self.arrangement],
            "payments": dict(self.payments),
            "notes": list(self.notes),
        }
        out.update(self.extra)
        return out
