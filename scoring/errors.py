"""Errors a scorer refuses input with. Each has a machine-readable ``code`` and a message for people."""

from __future__ import annotations

from typing import Any


class ScoringError(ValueError):
    """Base of every refusal. ``to_json`` is the contract's refusal object."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"ok": False, "error": {"code": self.code, "message": self.message}}


class HandError(ScoringError):
    """A hand that cannot exist or cannot be read: unknown_tile, too_many_copies, bad_meld,
    wrong_tile_count, bad_win_tile, bad_field, bad_json, not_allowed (a shape or meld the game forbids)."""


class OptionError(ScoringError):
    """An unknown rule set (unknown_rules), an unknown option (unknown_option) or a bad value (bad_option)."""
