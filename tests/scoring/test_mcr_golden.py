"""Regression under edition=2006: the 214 upstream test hands of the reference fan calculator (MIT; see
data/mcr_golden_README.md), 111 of them the rulebook's own examples. Each must score the total and the fans that
library computes (its Chinese names, its wait fans called 独听・边张 / 独听・嵌张 / 独听・单钓)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import scoring
from scoring.hand import Hand

GOLDEN = json.loads((Path(__file__).parent / "data" / "mcr_golden.json").read_text(encoding="utf-8"))
#: the upstream names of the wait fans; every other fan has the name_zh mjscan prints
UPSTREAM_NAME = {"edge_wait": "独听・边张", "closed_wait": "独听・嵌张", "single_wait": "独听・单钓"}
_NOT_HAND = ("id", "upstream_string", "expect_cpp", "kong_win", "wall_last")


def golden_hand(case: dict[str, Any]) -> Hand:
    """The contract hand of a golden case: the upstream "about kong" flag is kong_replacement when self-drawn
    and robbing_kong on a discard; "wall last" is last_tile."""
    obj = {k: v for k, v in case.items() if k not in _NOT_HAND}
    if case["kong_win"]:
        obj["kong_replacement" if case["self_drawn"] else "robbing_kong"] = True
    obj["last_tile"] = case["wall_last"]
    return Hand.from_json(obj)


def test_the_copy_is_whole() -> None:
    assert len(GOLDEN) == 214


@pytest.mark.parametrize("case", GOLDEN, ids=[c["id"] for c in GOLDEN])
def test_golden_hand(case: dict[str, Any]) -> None:
    result = scoring.score(golden_hand(case), "mcr", {"edition": "2006"})
    fans = Counter(f"{UPSTREAM_NAME.get(i.id, i.names['name_zh'])}*{i.count}" for i in result.items)
    assert result.total == case["expect_cpp"]["total_fan"]
    assert fans == Counter(case["expect_cpp"]["fans_zh"])
