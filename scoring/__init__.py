"""mjscan's scorers: tiles, hands, the shared decomposition engine and one module per rule set.

>>> import scoring
>>> scoring.score("123m456p789s11z 234p", rules="mcr", options={"edition": "2006"}).total  # doctest: +SKIP
"""

from scoring import _native

_native.guard()  # before any compiled module is imported

from scoring.errors import HandError, OptionError, ScoringError  # noqa: E402
from scoring.hand import Hand, Meld, parse_compact  # noqa: E402
from scoring.registry import get, rulesets, score, unscorable  # noqa: E402
from scoring.result import Item, Score  # noqa: E402

compiled_modules = _native.compiled_modules

__all__ = [
    "Hand",
    "HandError",
    "Item",
    "Meld",
    "OptionError",
    "Score",
    "ScoringError",
    "compiled_modules",
    "get",
    "parse_compact",
    "rulesets",
    "score",
    "unscorable",
]
