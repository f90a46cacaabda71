"""How well the hand is read from photos whose hand is known: the synthetic sets that
``python -m vision.training.render --layout hand`` writes (``DIR/hands/NNNNN.json``, the hand each picture
shows: ``vision.training.synth.scene_hand``).

    python -m vision.training.render --data ../shared/data --out DIR --count 300 --phone --layout hand
    python scripts/eval_hands.py DIR [--model-dir M] [--json] [--show N]

Each picture is recognised as ``mjscan recognize`` does, and the hand read is compared with the hand shown
(``vision.evaluate.compare_hands``): the concealed tiles, the melds (type, tiles, open), the winning tile and
the flowers. The figures are given for every picture, and for the pictures whose tiles were all read right
(the codes read equal the labels' as a multiset): there, what fails is the reading of the layout
(``vision.layout``), not of the tiles. ``--show N`` prints the first N of those failures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tqdm import tqdm

from vision.detector import TileModel
from vision.evaluate import HAND_PARTS, LabelError, compare_hands, list_images, read_classes, read_yolo_labels
from vision.recognize import recognize

#: The rows of the report: every picture, and those whose tiles were all read right.
SUBSETS = ("every picture", "tiles all read right")


def evaluate_hands(folder: Path, model: Any, *, progress: bool = True) -> dict[str, Any]:
    """Recognise every picture of a rendered set that has a hand file and compare the hands.

    Returns ``{"every picture": {"pictures": n, part: right, ...}, "tiles all read right": {...},
    "failures": [...]}`` (the failures of the second row, each with the parts wrong, the hand read and the
    hand shown). Raises ``LabelError`` for a folder without ``images``, ``labels``, ``hands`` or
    ``classes.json``.
    """
    for part in ("images", "labels", "hands"):
        if not (folder / part).is_dir():
            raise LabelError(f"{folder / part} does not exist: render the set with --layout hand")
    classes = read_classes(folder / "classes.json")
    paths = [p for p in list_images(folder / "images") if (folder / "hands" / f"{p.stem}.json").is_file()]
    if not paths:
        raise LabelError(f"no picture of {folder / 'images'} has a hand in {folder / 'hands'}")
    counts = {name: Counter() for name in SUBSETS}
    failures = []
    for path in tqdm(paths, desc="hands", unit="photo", disable=not progress):
        truth = json.loads((folder / "hands" / f"{path.stem}.json").read_text())
        rec = recognize(path, model)
        labels = read_yolo_labels(folder / "labels" / f"{path.stem}.txt", rec.width, rec.height, classes)
        tiles_right = Counter(t.code for t in rec.tiles) == Counter(labels.codes)
        parts = compare_hands(rec.hand, truth)
        for name in SUBSETS[: 2 if tiles_right else 1]:
            counts[name]["pictures"] += 1
            counts[name].update(part for part, right in parts.items() if right)
        if tiles_right and not parts["hand"]:
            wrong = [part for part in HAND_PARTS if not parts[part]]
            failures.append({"image": path.name, "wrong": wrong, "read": rec.hand, "shown": truth})
    report: dict[str, Any] = {
        name: {"pictures": counts[name]["pictures"], **{part: counts[name][part] for part in (*HAND_PARTS, "hand")}}
        for name in SUBSETS
    }
    report["failures"] = failures
    return report


def format_report(report: dict[str, Any]) -> str:
    """The report as a table: how many pictures have each part right, and the share."""
    columns = (*HAND_PARTS, "hand")
    lines = [f"{'':22s} {'pictures':>8s} " + " ".join(f"{c:>13s}" for c in columns)]
    for name in SUBSETS:
        row = report[name]
        n = row["pictures"]
        cells = " ".join(f"{row[c]:>5d} ({row[c] / n if n else 0:.3f})" for c in columns)
        lines.append(f"{name:22s} {n:>8d} {cells}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a set rendered with --layout hand (images, labels, hands)")
    parser.add_argument("--model-dir", type=Path, help="the tile model's folder (default: models/)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--show", type=int, default=0, help="print the first N failures of the layout")
    args = parser.parse_args(argv)
    try:
        report = evaluate_hands(args.folder, TileModel(args.model_dir), progress=not args.json)
    except LabelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(format_report(report))
    for failure in report["failures"][: args.show]:
        print(f"\n{failure['image']}: {', '.join(failure['wrong'])} wrong")
        print(f"  read:  {json.dumps(failure['read'])}")
        print(f"  shown: {json.dumps(failure['shown'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
