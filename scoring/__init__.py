"""mjscan's scorers: tiles, hands, the shared decomposition engine and one module per rule set.

>>> import scoring
>>> scoring.score("123m456p789s11z 234p", rules="mcr", options={"edition": "2006"}).total  # doctest: +SKIP
"""

from scoring.errors import HandError, OptionError, ScoringError
from scoring.hand import Hand, Meld, parse_compact
from scoring.registry import get, rulesets, score, unscorable
from scoring.result import Item, Score

__all__ = [
    "Hand",
    "HandError",
    "Item",
    "Meld",
    "OptionError",
    "Score",
    "ScoringError",
    "get",
    "parse_compact",
    "rulesets",
    "score",
    "unscorable",
]
