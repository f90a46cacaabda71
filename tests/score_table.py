"""A worked table case of a rule set's tests and its check, shared by the rule sets whose tables give the
items, total, payments and notes of each hand (Sichuan, Changsha, Datong)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import scoring


@dataclass
class Case:
    """A hand with what it must score: items (id -> value x count; none: not a win), the total, and where
    given the payments (key -> value) and words each found in some note."""

    id: str
    cite: str
    hand: dict[str, Any]
    items: dict[str, int]
    total: int
    options: dict[str, Any] = field(default_factory=dict)
    payments: dict[str, Any] | None = None
    notes: tuple[str, ...] = ()


def check_table_case(case: Case, rules: str) -> None:
    """The hand scores exactly the case's items, total, payments and notes under ``rules``."""
    result = scoring.score(case.hand, rules, case.options).to_json()
    assert result["winning"] == bool(case.items), result["notes"]
    assert {i["id"]: i["value"] * i["count"] for i in result["items"]} == case.items
    assert result["total"] == case.total
    for key, value in (case.payments or {}).items():
        assert result["payments"][key] == value, key
    for words in case.notes:
        assert any(words in n for n in result["notes"]), (words, result["notes"])
