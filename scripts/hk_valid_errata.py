"""A copy of hk-photos/valid with the source's known label errors mended, to measure against right labels.

The source labels 137 of the 6,469 tiles of hk-photos/valid as other tiles (the model card, "Figures"): 118 in
seven photos whose every tile is labelled 1p, 19 elsewhere; and one tile carries two labels. No reader reaches F1
0.98 against those labels. ``datasets/hk-valid-errata.csv`` lists them, one row each: ``photo`` (the label
file's stem), ``line`` (its line number, from 1), ``label`` (the code the source gives there, checked so that a
changed source is noticed), ``fix`` (the right code, or ``drop`` for a second label on one tile) and what the
photo shows. Each was looked at on the photo, its corner index read where it has one. This writes the set with
them mended: the photos linked, their labels copied with the fixes.

    python scripts/hk_valid_errata.py --valid ../shared/data/hk-photos/valid --out valid-mended
    mjscan evaluate --images valid-mended/images --labels valid-mended/labels \\
        --classes ../shared/data/hk-photos/classes.json --ignore-unlabelled

The errors were found among the tiles a model read otherwise than their labels, so a label wrong the way a
model reads wrong stays unfound: a figure on the mended set is a reading against the labels known right, not
against a set labelled again from scratch.
"""

from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import dataclass
from pathlib import Path

from vision.evaluate import LabelError, list_images, read_classes
from vision.types import CLASS_INDEX

ERRATA = Path(__file__).resolve().parent.parent / "datasets" / "hk-valid-errata.csv"
COLUMNS = ("photo", "line", "label", "fix")
DROP = "drop"


@dataclass(frozen=True)
class Erratum:
    """One wrong label of the source: the photo (label file stem), its line (from 1), the code the source gives
    and the right one (``DROP``: a second label on one tile)."""

    photo: str
    line: int
    label: str
    fix: str


def read_errata(path: Path) -> list[Erratum]:
    """The rows of an errata file. Raises LabelError for a file that is not one."""
    try:
        with path.open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as exc:
        raise LabelError(f"{path}: cannot read it ({exc})") from None
    if not rows or any(column not in rows[0] for column in COLUMNS):
        raise LabelError(f"{path}: expected the columns {', '.join(COLUMNS)}")
    out = []
    for n, row in enumerate(rows, start=2):
        line = row["line"].strip()
        if not line.isdigit() or int(line) < 1:
            raise LabelError(f"{path}:{n}: line {line!r} is not a line number")
        if row["label"] not in CLASS_INDEX or (row["fix"] != DROP and row["fix"] not in CLASS_INDEX):
            raise LabelError(f"{path}:{n}: label and fix are tile codes (fix may be {DROP!r})")
        out.append(Erratum(row["photo"], int(line), row["label"], row["fix"]))
    return out


def mend(valid: Path, classes: dict[int, str], errata: list[Erratum], out: Path) -> dict[str, int]:
    """Write ``out/images`` (links to the photos of ``valid``) and ``out/labels`` (their labels with ``errata``
    applied). Counts of what was done. Raises LabelError, before writing anything, where a row names no photo or
    line of ``valid`` or its label is not what the source says there."""
    index = {code: cls for cls, code in classes.items()}
    photos = {p.stem: p for p in list_images(valid / "images")}
    if not photos:
        raise LabelError(f"no photos in {valid / 'images'}")
    by_photo: dict[str, list[Erratum]] = {}
    for e in errata:
        if e.photo not in photos:
            raise LabelError(f"the errata name {e.photo}, which is not in {valid / 'images'}")
        by_photo.setdefault(e.photo, []).append(e)
    counts = {"photos": len(photos), "mended": 0, "dropped": 0}
    labels: dict[str, list[str]] = {}
    for stem in sorted(photos):
        label_file = valid / "labels" / f"{stem}.txt"
        lines = label_file.read_text(encoding="utf-8").splitlines() if label_file.is_file() else []
        for e in by_photo.get(stem, []):
            parts = lines[e.line - 1].split() if e.line <= len(lines) else []
            if not parts or not parts[0].isdigit() or classes.get(int(parts[0])) != e.label:
                raise LabelError(f"{label_file}:{e.line}: the errata expect {e.label} there; the source changed")
            lines[e.line - 1] = "" if e.fix == DROP else " ".join([str(index[e.fix]), *parts[1:]])
            counts["dropped" if e.fix == DROP else "mended"] += 1
        labels[stem] = [line for line in lines if line]
    (out / "images").mkdir(parents=True)
    (out / "labels").mkdir()
    for stem, lines in labels.items():
        (out / "images" / photos[stem].name).symlink_to(photos[stem].resolve())
        (out / "labels" / f"{stem}.txt").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--valid", type=Path, required=True, help="hk-photos/valid (images/, labels/)")
    parser.add_argument("--classes", type=Path, help="its classes.json (default: the one beside --valid)")
    parser.add_argument("--errata", type=Path, default=ERRATA, help=f"the errata (default: {ERRATA.name})")
    parser.add_argument("--out", type=Path, required=True, help="a new (or empty) folder for the mended set")
    args = parser.parse_args(argv)
    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        print(f"error: {args.out} is not an empty folder: nothing is overwritten", file=sys.stderr)
        return 2
    try:
        classes = read_classes(args.classes or args.valid.parent / "classes.json")
        counts = mend(args.valid, classes, read_errata(args.errata), args.out)
    except LabelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{counts['photos']} photos in {args.out}: {counts['mended']} labels mended, {counts['dropped']} dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
