"""Differential test of edition=2006 against the reference scorer pymahjonggb on 2,000 seeded random hands of
every shape (tests/handgen.py): the same total and the same multiset of (name_en, value, count) on every hand.
``scripts/diff_mcr.py`` runs the same comparison on 50,000 hands. The same hands under edition=1998 must give a
consistent result (the 8-fan minimum without flowers, fans listed once, tiles from the hand)."""

from __future__ import annotations

import pytest

import scoring
from scoring.hand import Hand
from scoring.rules.mcr_fans import BY_ID
from scoring.tiles import normal
from tests import handgen

pytest.importorskip("MahjongGB", reason="the reference scorer pymahjonggb is in the test extra")
N_HANDS = 2000
SEED = 2006


@pytest.fixture(scope="module")
def hands() -> list[Hand]:
    return list(handgen.HandGen(SEED).hands(N_HANDS))


def test_2006_equals_the_reference_scorer(hands: list[Hand]) -> None:
    reference = handgen.mcr_reference
    disagreements = []
    for hand in hands:
        result = scoring.score(hand, "mcr", {"edition": "2006"})
        ours = sorted((item.name_en, item.value, item.count) for item in result.items)
        theirs = reference(hand)
        assert theirs is not None, "the generator makes winning hands only"
        if ours != theirs or result.total != sum(v * n for _, v, n in theirs):
            disagreements.append((hand.to_json(), ours, theirs))
    assert not disagreements, f"{len(disagreements)} of {len(hands)} disagree, first: {disagreements[0]}"


def test_1998_results_are_consistent(hands: list[Hand]) -> None:
    for hand in hands:
        result = scoring.score(hand, "mcr")
        assert result.options["edition"] == "1998"
        flowers = len(hand.flowers)
        assert result.total == sum(i.value * i.count for i in result.items)
        assert result.winning == (result.total - flowers >= 8)
        assert len({i.id for i in result.items}) == len(result.items)
        held = {normal(c) for c in hand.all_tiles} | set(hand.flowers)
        for item in result.items:
            assert item.value == BY_ID[item.id].value
            assert set(item.tiles) <= held, item.id
        assert bool(result.payments) == result.winning
