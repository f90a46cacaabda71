"""The `mjscan` command line.

One module per verb (`api/cli/<verb>.py`), each with `add_arguments(parser)` and `run(args) -> int`.
Verbs are imported only when used, so `mjscan score` never loads the vision model.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

#: Every verb of the contract (../shared/notes/contracts.md), with its one-line help.
COMMANDS: dict[str, str] = {
    "recognize": "read the tiles in one or more photos",
    "score": "score a hand under a rule set",
    "analyze": "recognise a photo and score the hand in it",
    "rules": "list the rule sets, their options and the situation flags they read",
    "evaluate": "measure the recogniser against labelled photos",
    "label": "label a folder of photos (YOLO, COCO or Label Studio)",
    "serve": "run the HTTP API and the web page",
}


def _load(verb: str):
    try:
        return importlib.import_module(f"api.cli.{verb}")
    except ModuleNotFoundError as exc:
        if exc.name == f"api.cli.{verb}":
            return None
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mjscan", description="Read a mahjong hand from a photo and score it.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for verb, text in COMMANDS.items():
        module = _load(verb)
        shown = text if module is not None else f"{text} (not built yet)"
        p = sub.add_parser(verb, help=shown, description=shown)
        if module is not None:
            module.add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    module = _load(args.command)
    if module is None:
        print(f"mjscan {args.command}: not built yet in this version of mjscan", file=sys.stderr)
        return 2
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
