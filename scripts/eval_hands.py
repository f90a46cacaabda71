"""How well the hand is read from photos whose hand is known: the synthetic sets that
``python -m vision.training.render --layout hand`` writes (``DIR/hands/NNNNN.json``, the hand each picture
shows: ``vision.training.synth.scene_hand``), or real photos whose labels box the hand alone (``--held``).

    python -m vision.training.render --data ../shared/data --out DIR --count 300 --phone --layout hand
    python scripts/eval_hands.py DIR [--model-dir M] [--json] [--show N] [--hand-size 13|16]
    python scripts/eval_hands.py ../shared/data/hk-photos/train --held [--classes C] [--show N]

Each picture is recognised as ``mjscan recognize`` does, and the hand read is compared with the hand shown
(``vision.evaluate.compare_hands``): the concealed tiles, the melds (type, tiles, open), the winning tile and
the flowers; ``--hand-size`` reads the layout knowing the hand's size, as ``mjscan analyze`` does with its
rule set's (13, or 16 for a set rendered with ``--hand-size 16``). The figures are given for every picture,
and for the pictures whose tiles were all read right (the codes read equal the labels' as a multiset): there,
what fails is the reading of the layout (``vision.layout``), not of the tiles. ``--show N`` prints the first N
of those failures.

``--held`` reads photos with no hand file, as hk-photos holds them (``images/``, ``labels/``, ``classes.json``
in the folder or beside it): of those with 13 to 17 labels (a hand, its flowers and its winning tile, whose
labels box the hand alone), how many have the tiles read equal to the labelled codes (the exact hands of
``mjscan evaluate``), and how many have the hand read (concealed tiles, melds, winning tile, flowers) holding
exactly the labelled codes: the second leaves out what the layout leaves out of the hand (tiles far from it,
face-down tiles in no kong) and counts what a user is scored on.
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
from vision.layout import HAND_SIZES
from vision.recognize import recognize

#: The rows of the report: every picture, and those whose tiles were all read right.
SUBSETS = ("every picture", "tiles all read right")
#: Label counts of a photo whose labels box a hand alone (``--held``): 13 or 14 tiles, up to 17 in 16-tile
#: rules, and its flowers.
HELD_LABELS = range(13, 18)


def evaluate_hands(folder: Path, model: Any, *, progress: bool = True, hand_size: int | None = None) -> dict[str, Any]:
    """Recognise every picture of a rendered set that has a hand file (knowing the hand's size where
    ``hand_size`` is given: ``vision.recognize.recognize``) and compare the hands.

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
        rec = recognize(path, model, hand_size=hand_size)
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


def held_tiles(hand: dict[str, Any]) -> list[str]:
    """The codes a hand holds: its concealed tiles, its melds' tiles, its winning tile and its flowers."""
    tiles = [*hand["concealed"], *(code for meld in hand["melds"] for code in meld["tiles"]), *hand["flowers"]]
    return tiles + ([hand["win_tile"]] if hand["win_tile"] else [])


def evaluate_held(folder: Path, classes_path: Path, model: Any, *, progress: bool = True) -> dict[str, Any]:
    """Recognise every photo of ``folder`` with 13 to 17 labels (``HELD_LABELS``) and count those whose tiles
    read, and those whose hand read, hold exactly the labelled codes. Returns ``{"photos": n, "tiles": a,
    "hand": b, "failures": [...]}`` (the photos whose hand holds other codes: the codes more and those less
    than the labels). Raises ``LabelError`` for a folder without ``images`` or ``labels``."""
    for part in ("images", "labels"):
        if not (folder / part).is_dir():
            raise LabelError(f"{folder / part} does not exist")
    classes = read_classes(classes_path)
    counts: Counter = Counter()
    failures = []
    for path in tqdm(list_images(folder / "images"), desc="hands", unit="photo", disable=not progress):
        label_file = folder / "labels" / path.relative_to(folder / "images").with_suffix(".txt")
        if not label_file.is_file():
            continue
        lines = [line for line in label_file.read_text(encoding="utf-8").splitlines() if line.strip()]
        if len(lines) not in HELD_LABELS:
            continue
        rec = recognize(path, model)
        labelled = Counter(read_yolo_labels(label_file, rec.width, rec.height, classes).codes)
        held = Counter(held_tiles(rec.hand))
        counts["photos"] += 1
        counts["tiles"] += Counter(t.code for t in rec.tiles) == labelled
        counts["hand"] += held == labelled
        if held != labelled:
            more, less = sorted((held - labelled).elements()), sorted((labelled - held).elements())
            failures.append({"image": path.name, "more": more, "less": less})
    return {"photos": counts["photos"], "tiles": counts["tiles"], "hand": counts["hand"], "failures": failures}


def format_held(report: dict[str, Any]) -> str:
    """The ``--held`` report: the photos, and how many read their labelled codes, tiles and hand."""
    n = report["photos"]
    return "\n".join(
        [
            f"photos with {HELD_LABELS.start} to {HELD_LABELS.stop - 1} labels: {n}",
            f"the tiles read are the labelled ones:    {report['tiles']:>5d} ({report['tiles'] / n if n else 0:.3f})",
            f"the hand read holds the labelled ones:   {report['hand']:>5d} ({report['hand'] / n if n else 0:.3f})",
        ]
    )


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
    parser.add_argument("--held", action="store_true", help="real photos, no hand files: see above")
    parser.add_argument(
        "--hand-size",
        type=int,
        choices=HAND_SIZES,
        help="read the hands knowing their size, as mjscan analyze does with its rule set's (default: unknown)",
    )
    parser.add_argument("--classes", type=Path, help="with --held: classes.json (default: in the folder or beside it)")
    args = parser.parse_args(argv)
    try:
        model = TileModel(args.model_dir)
        if args.held:
            classes = args.classes or next(
                (c for c in (args.folder / "classes.json", args.folder.parent / "classes.json") if c.is_file()),
                args.folder / "classes.json",
            )
            report = evaluate_held(args.folder, classes, model, progress=not args.json)
        else:
            report = evaluate_hands(args.folder, model, progress=not args.json, hand_size=args.hand_size)
    except LabelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    if args.held:
        print(format_held(report))
        for failure in report["failures"][: args.show]:
            more, less = " ".join(failure["more"]) or "-", " ".join(failure["less"]) or "-"
            print(f"{failure['image']}: read more {more}, less {less}")
        return 0
    print(format_report(report))
    for failure in report["failures"][: args.show]:
        print(f"\n{failure['image']}: {', '.join(failure['wrong'])} wrong")
        print(f"  read:  {json.dumps(failure['read'])}")
        print(f"  shown: {json.dumps(failure['shown'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
