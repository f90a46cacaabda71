"""`mjscan score`: score hands given as JSON or in the compact form.

mjscan score --rules mcr "123m456p789s11z 234p" --win 4p --tsumo
mjscan score --rules riichi --hand hands.json          # one hand object or a list: prints JSON
echo '{"concealed": ...}' | mjscan score --rules mcr --hand -
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from api.cli.common import add_scoring_arguments, apply_situation, format_score, parse_key_values, situation
from scoring import Hand, ScoringError, get, parse_compact


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "compact",
        nargs="?",
        help="the hand in compact form: concealed tiles (winning tile included), then melds: "
        '"123m456p789s11z 234p"; [7777z] is a concealed kong, 2222p+ an added kong',
    )
    p.add_argument("--hand", metavar="FILE", help="a JSON file (or - for standard input) with a hand or a list")
    p.add_argument("--win", help="which concealed tile is the winning tile (default: the last one written)")
    add_scoring_arguments(p)


def run(args: argparse.Namespace) -> int:
    try:
        ruleset = get(args.rules)
        options = ruleset.resolve_options(parse_key_values(args.option, "--option"))
        fields = situation(args)
        if (args.hand is None) == (args.compact is None):
            raise ScoringError("bad_argument", 'give either a compact hand ("123m456p ...") or --hand FILE.json')
        if args.compact is not None:
            hand = apply_situation(parse_compact(args.compact, args.win), fields)
            result = ruleset.score(hand, options)
            print(json.dumps(result.to_json(), ensure_ascii=False, indent=2) if args.json else format_score(result))
            return 0
        if args.win is not None:
            raise ScoringError("bad_argument", "--win goes with the compact form; in JSON use win_tile")
        data = _read_json(args.hand)
    except ScoringError as exc:
        print(f"mjscan score: {exc.message}", file=sys.stderr)
        return 1
    hands = data if isinstance(data, list) else [data]
    results = [_score_one(ruleset, h, fields, options) for h in hands]
    print(json.dumps(results if isinstance(data, list) else results[0], ensure_ascii=False, indent=2))
    return 0 if all(r["ok"] for r in results) else 1


def _score_one(ruleset: Any, obj: Any, fields: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    try:
        if isinstance(obj, dict) and fields:
            obj = {**obj, **fields}
        return ruleset.score(Hand.from_json(obj), options).to_json()
    except ScoringError as exc:
        return exc.to_json()


def _read_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScoringError("bad_argument", f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScoringError("bad_json", f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScoringError("bad_json", f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
