"""`mjscan analyze`: recognise the hand in a photo and score it (the same function as POST /v1/analyze).

mjscan analyze IMG_0412.jpg --rules riichi --tsumo --seat S --dora 3m --annotate scored.jpg
mjscan analyze IMG_0412.jpg --rules mcr --option edition=2006 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from api.cli.common import add_scoring_arguments, format_score, parse_key_values, situation
from api.cli.recognize import describe, write_new
from scoring import ScoringError

if TYPE_CHECKING:
    from api.analysis import Analysis


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("photo", type=Path, help="the photo (JPEG, PNG, WebP or HEIC)")
    add_scoring_arguments(p)
    p.add_argument("--annotate", metavar="OUT.jpg", type=Path, help="write the photo with tiles and patterns drawn")
    p.add_argument("--overwrite", action="store_true", help="let --annotate replace an existing file")
    p.add_argument("--model-dir", type=Path, help="folder of the tile model (default: the models/ that ships)")
    p.add_argument(
        "--max-pixels", type=int, help="largest picture decoded, in pixels (default: the photo reader's limit)"
    )


def run(args: argparse.Namespace) -> int:
    from api import analysis
    from vision.io import DEFAULT_MAX_PIXELS, ImageError

    try:
        ruleset, options = analysis.check_rules(args.rules, parse_key_values(args.option, "--option"))
        fields = situation(args)
        analysis.check_situation(fields)
        _check_paths(args)
        model = analysis.load_model(args.model_dir)
        result = analysis.analyze(
            args.photo,
            model,
            ruleset=ruleset,
            options=options,
            situation=fields,
            max_pixels=args.max_pixels or DEFAULT_MAX_PIXELS,
            annotate=args.annotate is not None,
        )
    except (ScoringError, ImageError, analysis.NoModel) as exc:
        print(f"mjscan analyze: {exc.message}", file=sys.stderr)
        return 1
    written = None
    if args.annotate is not None and result.annotated_jpeg is not None:
        try:
            write_new(args.annotate, result.annotated_jpeg)
        except OSError as exc:
            print(f"mjscan analyze: cannot write {args.annotate}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        written = str(args.annotate)
    if args.json:
        out = {**result.to_json(), "annotated_image": written}
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(_describe(result))
        if written:
            print(f"wrote {written}")
    return 0 if result.score is not None else 1


def _check_paths(args: argparse.Namespace) -> None:
    """The photo is there and --annotate names a new JPEG in an existing folder (before the model loads)."""
    if not args.photo.is_file():
        raise ScoringError("bad_argument", f"{args.photo}: no such photo")
    out: Path | None = args.annotate
    if out is None:
        return
    if out.exists() and out.resolve() == args.photo.resolve():
        raise ScoringError("bad_argument", f"--annotate {out} is the photo itself: name another file")
    if out.exists() and not args.overwrite:
        raise ScoringError("bad_argument", f"{out} exists: name another file, or add --overwrite")
    if out.suffix.lower() not in (".jpg", ".jpeg"):
        raise ScoringError("bad_argument", f"--annotate writes a JPEG: name it .jpg, not {out.name}")
    if not out.parent.is_dir():
        raise ScoringError("bad_argument", f"--annotate {out}: the folder {out.parent} does not exist")


def _describe(result: Analysis) -> str:
    lines = [describe(result.recognition.to_json())]
    if result.score is not None:
        lines.append(format_score(result.score))
    elif result.refusal is not None:
        lines.append(f"not scored: {result.refusal.message}")
    return "\n".join(lines)
