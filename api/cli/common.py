"""Command-line pieces shared by the verbs that score: options, situation flags, result printing."""

from __future__ import annotations

import argparse
import json
from typing import Any

from scoring import Hand, Score, ScoringError
from scoring.tiles import to_compact


def add_scoring_arguments(p: argparse.ArgumentParser) -> None:
    """--rules, --option and the situation flags that every scoring verb takes."""
    p.add_argument("--rules", required=True, help="rule set (see `mjscan rules`)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule-set option (repeatable)")
    s = p.add_argument_group("situation (each rule set reads the fields it knows)")
    s.add_argument("--tsumo", "--self-drawn", dest="self_drawn", action="store_true", help="won on a self-drawn tile")
    s.add_argument("--seat", dest="seat_wind", choices=list("ESWN"), help="seat wind")
    s.add_argument("--round", dest="round_wind", choices=list("ESWN"), help="round (prevalent) wind")
    s.add_argument("--flowers", help="bonus tiles set aside, e.g. 1f6f")
    s.add_argument("--dealer", action="store_true", default=None, help="the winner is the dealer")
    s.add_argument("--riichi", action="store_true", default=None, help="riichi declared")
    s.add_argument("--dora", dest="dora_indicators", help="dora indicators, e.g. 3m7z")
    s.add_argument("--ura", dest="ura_dora_indicators", help="ura dora indicators")
    s.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="any hand field of contracts.md, e.g. --set last_tile=true --set seat_index=2 (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="print the score JSON")


def parse_key_values(pairs: list[str], what: str) -> dict[str, Any]:
    """KEY=VALUE strings to a dict; values are read as JSON where they parse (true, 3, "x"), else as text."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ScoringError("bad_argument", f"{what} {pair!r} must be written KEY=VALUE")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def situation(args: argparse.Namespace) -> dict[str, Any]:
    """The hand fields given on the command line, as a partial hand object."""
    out: dict[str, Any] = {}
    if args.self_drawn:
        out["self_drawn"] = True
    for field in ("seat_wind", "round_wind", "flowers", "dora_indicators", "ura_dora_indicators"):
        if getattr(args, field) is not None:
            out[field] = getattr(args, field)
    for field in ("dealer", "riichi"):
        if getattr(args, field):
            out[field] = True
    out.update(parse_key_values(args.set, "--set"))
    return out


def apply_situation(hand: Hand, fields: dict[str, Any]) -> Hand:
    """The hand with the given fields replaced (read and checked as in the hand JSON)."""
    if not fields:
        return hand
    merged = hand.to_json()
    merged.update(fields)
    return Hand.from_json(merged)


def format_score(result: Score) -> str:
    """A score as text for a terminal."""
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    head = f"{result.rules}" + (f" ({opts})" if opts else "")
    verdict = "winning hand" if result.winning else "NOT a winning hand"
    lines = [f"{head}: {result.total} {result.unit}, {verdict}"]
    width = max((len(_item_name(i)) for i in result.items), default=0)
    for item in result.items:
        count = f" x{item.count}" if item.count != 1 else ""
        lines.append(f"  {_item_name(item):<{width}}  {item.value:>4}{count:<4} {to_compact(item.tiles)}")
    if result.arrangement:
        lines.append("arrangement: " + " ".join(to_compact(g) for g in result.arrangement))
    for key in ("han", "fu"):
        if key in result.extra:
            lines.append(f"{key}: {result.extra[key]}")
    if "points" in result.extra:
        lines.append("points: " + _flat(result.extra["points"]))
    if result.payments:
        lines.append("payments: " + _flat(result.payments))
    lines.extend(f"note: {n}" for n in result.notes)
    return "\n".join(lines)


def _item_name(item: Any) -> str:
    native = item.names.get("name_zh") or item.names.get("name_ja")
    return f"{item.name_en} ({native})" if native else item.name_en


def _flat(obj: Any) -> str:
    if isinstance(obj, dict):
        return ", ".join(f"{k} {_flat(v)}" for k, v in obj.items())
    return str(obj)
