"""Finds every rule set in ``scoring/rules/`` and scores hands by rule-set name."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

import scoring.rules
from scoring.errors import OptionError
from scoring.hand import Hand, parse_compact
from scoring.result import Score
from scoring.ruleset import RuleSet, Unscorable

#: The order rule sets are listed in (the page offers the first by default); others follow by name.
LISTING_ORDER = ("mcr", "riichi", "taiwan16", "sichuan", "changsha", "cixi", "datong", "gangu", "club5", "folk")


@cache
def _discover() -> tuple[dict[str, RuleSet], dict[str, Unscorable]]:
    scorable: dict[str, RuleSet] = {}
    unscorable: dict[str, Unscorable] = {}
    for info in sorted(pkgutil.iter_modules(scoring.rules.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"scoring.rules.{info.name}")
        rs = getattr(module, "RULESET", None)
        if isinstance(rs, RuleSet):
            scorable[rs.name] = rs
        for u in getattr(module, "UNSCORABLE", ()):
            unscorable[u.name] = u
    rank = {name: i for i, name in enumerate(LISTING_ORDER)}
    ordered = dict(sorted(scorable.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))
    return ordered, unscorable


def rulesets() -> dict[str, RuleSet]:
    """Every scorable rule set by name."""
    return dict(_discover()[0])


def unscorable() -> dict[str, Unscorable]:
    """Games named in the sources that cannot be scored, with the reason."""
    return dict(_discover()[1])


def get(name: str) -> RuleSet:
    """The rule set called ``name``; OptionError(unknown_rules) if there is none."""
    found = _discover()[0].get(name)
    if found is None:
        un = _discover()[1].get(name)
        if un is not None:
            raise OptionError("unknown_rules", f"{name} ({un.title}) cannot be scored: {un.reason}")
        known = ", ".join(sorted(_discover()[0])) or "none yet"
        raise OptionError("unknown_rules", f"unknown rule set {name!r} (known: {known})")
    return found


def score(hand: Hand | dict[str, Any] | str, rules: str, options: dict[str, Any] | None = None) -> Score:
    """Score a hand (a Hand, the contract's hand object, or the compact form) under a rule set.

    Raises a ScoringError subclass (HandError, OptionError) for anything it refuses.
    """
    rs = get(rules)
    if isinstance(hand, str):
        hand = parse_compact(hand)
    elif not isinstance(hand, Hand):
        hand = Hand.from_json(hand)
    return rs.score(hand, options)
