"""The games the sources describe but do not let us score (DIGEST §11, §12): listed with the reason, refused by name."""

from __future__ import annotations

import pytest

import scoring
from scoring import OptionError


@pytest.mark.parametrize(
    ("name", "words"),
    [
        # §12: "Procedural only. No fan table."; the title promises 番数计算 but no fan is listed
        ("online2p", "lists no fan"),
        # §11: tile set only, suits 1-10: "This variant needs '10' tiles in the tile recogniser"
        ("shiwan", "tiles numbered 10"),
    ],
)
def test_listed_with_the_reason_and_refused(name: str, words: str) -> None:
    entry = scoring.unscorable()[name]
    assert words in entry.reason
    assert entry.describe()["scorable"] is False and entry.describe()["completeness"] == entry.reason
    assert name not in scoring.rulesets()
    with pytest.raises(OptionError) as err:
        scoring.score("123m456p789s234m55z", name)
    assert err.value.code == "unknown_rules" and "cannot be scored" in err.value.message and words in err.value.message
