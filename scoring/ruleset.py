"""What a rule set is: its options, the situation fields it reads, and one ``evaluate`` method.

Each rule set lives in its own module of ``scoring/rules/`` and exposes ``RULESET`` (an instance of a
``RuleSet`` subclass). The registry (``scoring.registry``) finds them, so adding a rule set needs no change
anywhere else: not in the registry, the CLI or the API.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from scoring.errors import OptionError
from scoring.fields import HAND_FIELDS, Field, read_fields
from scoring.hand import Hand
from scoring.result import Score

SOURCE: Final = "source"
PRACTICE: Final = "common practice"
DOCS: Final = Path(__file__).parent / "docs"


@dataclass(frozen=True)
class Option:
    """One option of a rule set.

    kind: ``bool``, ``int``, ``float`` or ``str``. choices: the allowed values (None: any of that kind).
    origin: where the default comes from: ``source`` (stated in the source documents) or ``common practice``.
    """

    name: str
    default: Any
    help: str
    kind: str = "str"
    choices: tuple[Any, ...] | None = None
    origin: str = SOURCE
    minimum: float | None = None

    def parse(self, value: Any) -> Any:
        """The option's value from JSON or from a command-line string; OptionError if it is not allowed."""
        v = value
        try:
            if self.kind == "bool":
                if isinstance(v, str):
                    low = v.strip().lower()
                    if low not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                        raise ValueError
                    v = low in ("true", "1", "yes", "on")
                elif not isinstance(v, bool):
                    raise ValueError
            elif self.kind == "int":
                if isinstance(v, bool) or (isinstance(v, float) and not v.is_integer()):
                    raise ValueError
                v = int(v)
            elif self.kind == "float":
                if isinstance(v, bool):
                    raise ValueError
                v = float(v)
            else:
                if not isinstance(v, str | int):
                    raise ValueError
                v = str(v)
        except (TypeError, ValueError):
            raise OptionError("bad_option", f"option {self.name} must be {self._expected()}, not {value!r}") from None
        if self.choices is not None and v not in self.choices:
            raise OptionError("bad_option", f"option {self.name} must be {self._expected()}, not {value!r}")
        if self.minimum is not None and v < self.minimum:
            raise OptionError("bad_option", f"option {self.name} must be at least {self.minimum}, not {value!r}")
        return v

    def _expected(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        return {"bool": "true or false", "int": "a whole number", "float": "a number"}.get(self.kind, "text")

    def describe(self) -> dict[str, Any]:
        out = {"name": self.name, "type": self.kind, "default": self.default, "help": self.help}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        out["origin"] = self.origin
        return out


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); the other rule sets subclass it
class RuleSet(ABC):
    """A rule set. Subclasses set the class attributes and implement ``evaluate``."""

    name: ClassVar[str]
    title: ClassVar[str]
    unit: ClassVar[str]
    #: tiles held without the winning tile, a kong counting 3
    hand_size: ClassVar[int] = 13
    options: ClassVar[tuple[Option, ...]] = ()
    #: the fields of contracts.md (scoring.fields.HAND_FIELDS) this rule set reads besides the tiles
    situation: ClassVar[tuple[str, ...]] = ()
    #: fields of this rule set's own, beyond contracts.md (kept in ``Hand.extra``; read them with ``own``)
    own_fields: ClassVar[tuple[Field, ...]] = ()
    #: "complete" (everything from the sources), or "partial: ..." saying what comes from common practice
    completeness: ClassVar[str] = "complete"
    summary: ClassVar[str] = ""

    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Every option with its value: the given ones checked and parsed, the others at their defaults."""
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise OptionError(
                "unknown_option",
                f"unknown option(s) for {self.name}: {', '.join(unknown)} (options: {names})",
            )
        return {name: (o.parse(given[name]) if name in given else o.default) for name, o in known.items()}

    def own(self, hand: Hand) -> dict[str, Any]:
        """This rule set's own fields of the hand, read and checked (defaults where not given)."""
        return read_fields(self.own_fields, hand.extra)

    def fields(self) -> list[Field]:
        """Every situation field this rule set reads, with its kind."""
        return [HAND_FIELDS[name] for name in self.situation] + list(self.own_fields)

    def validate(self, hand: Hand, options: dict[str, Any]) -> None:
        """Refuse a hand that cannot exist in this game (HandError). Override to add the game's own checks."""
        hand.validate(hand_size=self.hand_size)

    @abstractmethod
    def evaluate(self, hand: Hand, options: dict[str, Any]) -> Score:
        """Score a valid hand with resolved options."""

    def score(self, hand: Hand, options: dict[str, Any] | None = None) -> Score:
        """Check the options and the hand, then score it."""
        opts = self.resolve_options(options)
        self.validate(hand, opts)
        return self.evaluate(hand, opts)

    def card(self) -> str:
        """The rule card (markdown): every rule marked source or common practice. Empty if none is written."""
        path = DOCS / f"{self.name}.md"
        return path.read_text(encoding="utf-8") if path.exists() else ""

    def describe(self) -> dict[str, Any]:
        """The rule set as ``/v1/rules`` and ``mjscan rules`` show it."""
        return {
            "name": self.name,
            "title": self.title,
            "unit": self.unit,
            "tiles": self.hand_size + 1,
            "scorable": True,
            "completeness": self.completeness,
            "summary": self.summary,
            "options": [o.describe() for o in self.options],
            "situation": [f.name for f in self.fields()],
            "fields": [f.describe() for f in self.fields()],
        }


@dataclass(frozen=True)
class Unscorable:
    """A game the sources describe but do not let us score; listed so that users learn why."""

    name: str
    title: str
    reason: str

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "scorable": False,
            "completeness": self.reason,
            "options": [],
            "situation": [],
            "fields": [],
        }
