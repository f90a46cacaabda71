"""`mjscan evaluate`: measure the tile recogniser against labelled photos (YOLO labels).

mjscan evaluate --images valid/images --labels valid/labels --classes classes.json
mjscan evaluate --images DIR --labels DIR --classes classes.json --errors errors/ --json
mjscan evaluate --images set/images --labels set/labels --classes set/classes.json --unlabelled set/unlabelled
mjscan evaluate --images DIR --labels DIR --classes classes.json --as-recognized   # what `recognize` reports
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--images", required=True, type=Path, help="folder of photos (its subfolders too)")
    p.add_argument("--labels", required=True, type=Path, help="folder of YOLO label files (<photo stem>.txt)")
    p.add_argument(
        "--classes", required=True, type=Path, help="classes.json: class index -> tile code (object or list)"
    )
    p.add_argument(
        "--errors", type=Path, metavar="OUT_DIR", help="write an annotated picture of every image with errors"
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--model", type=Path, metavar="DIR", help="the tile model folder (default: models/)")
    p.add_argument(
        "--ignore-unlabelled",
        action="store_true",
        help="leave out predictions that touch no labelled box (tiles nobody labelled) instead of counting them wrong",
    )
    p.add_argument(
        "--unlabelled",
        type=Path,
        metavar="DIR",
        help="folder of YOLO files boxing the tiles the photos show but their labels leave out (a rendered set's "
        "unlabelled/): a prediction on one and on no labelled tile counts neither way",
    )
    p.add_argument("--limit", type=int, metavar="N", help="only the first N photos (by path)")
    p.add_argument(
        "--as-recognized",
        action="store_true",
        help="score the tiles as `mjscan recognize` reports them (after the hand's layout: blank faces read as 5z, "
        "stray face-down tiles dropped) instead of the detector's",
    )


def run(args: argparse.Namespace) -> int:
    from vision.detector import ModelError, ModelNotFoundError, TileModel
    from vision.evaluate import LabelError, evaluate_folder, read_classes
    from vision.recognize import as_recognized

    for folder, what in ((args.images, "--images"), (args.labels, "--labels")):
        if not folder.is_dir():
            print(f"mjscan evaluate: {what} {folder} is not a folder", file=sys.stderr)
            return 1
    try:
        read_classes(args.classes)
        model = TileModel(args.model)
    except (LabelError, ModelNotFoundError, ModelError) as exc:
        print(f"mjscan evaluate: {exc}", file=sys.stderr)
        return 1
    try:
        report = evaluate_folder(
            as_recognized(model) if args.as_recognized else model.detect,
            args.images,
            args.labels,
            args.classes,
            ignore_unlabelled=args.ignore_unlabelled,
            unlabelled=args.unlabelled,
            errors_dir=args.errors,
            limit=args.limit,
        )
    except LabelError as exc:
        print(f"mjscan evaluate: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"mjscan evaluate: cannot write the error pictures: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(json.dumps(report.to_json(), indent=2) if args.json else report.format())
    if args.errors is not None:
        print(f"error pictures written to {args.errors}", file=sys.stderr)
    return 0
