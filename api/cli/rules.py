"""`mjscan rules [RULES]`: the rule sets, their options, the fields they read and their completeness."""

from __future__ import annotations

import argparse
import json
import sys

from scoring import ScoringError, get, rulesets, unscorable


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="?", help="one rule set: show its options and its rule card")
    p.add_argument("--json", action="store_true", help="print JSON (as GET /v1/rules does)")


def run(args: argparse.Namespace) -> int:
    if args.name is not None:
        try:
            rs = get(args.name)
        except ScoringError as exc:
            print(f"mjscan rules: {exc.message}", file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps({**rs.describe(), "card": rs.card()}, ensure_ascii=False, indent=2))
            return 0
        print(_describe(rs.describe(), full=True))
        card = rs.card()
        if card:
            print("\n" + card)
        return 0
    entries = [rs.describe() for rs in rulesets().values()] + [u.describe() for u in unscorable().values()]
    if args.json:
        print(json.dumps(entries, ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(_describe(e, full=False) for e in entries))
    return 0


def _describe(d: dict, full: bool) -> str:
    lines = [f"{d['name']}: {d['title']}"]
    if not d["scorable"]:
        lines.append(f"  not scorable: {d['completeness']}")
        return "\n".join(lines)
    lines.append(f"  {d['tiles']} tiles, scored in {d['unit']}; completeness: {d['completeness']}")
    if full and d.get("summary"):
        lines.append(f"  {d['summary']}")
    for o in d["options"]:
        choices = f" [{'|'.join(str(c) for c in o['choices'])}]" if "choices" in o else ""
        lines.append(f"  option {o['name']}={o['default']}{choices} ({o['origin']}): {o['help']}")
    if d["situation"]:
        lines.append("  reads: " + ", ".join(d["situation"]))
    return "\n".join(lines)
