"""A labelled set of stretched pictures made from real photos, for tuning how stretched photos are read.

Some photos of hk-photos/valid are a row of tiles stretched into a square (tiles 10 to 12 times too tall, or
too wide where the row was turned). This makes pictures like them from photos training may read: from each
photo holding a single row of 12 to 18 tiles, the band around the row is cut, every second one turned a
quarter round, and stretched to 640 x 640; the labels follow, with ``classes.json`` (the model's 46 classes,
as ``python -m vision.training.render`` writes it). Photos are taken in a shuffled order (--seed).

    python scripts/stretched_rows.py --images ../shared/data/hk-photos/train/images \\
        --labels ../shared/data/hk-photos/train/labels --classes ../shared/data/hk-photos/classes.json \\
        --out stretched-rows --count 60
    mjscan evaluate --images stretched-rows/images --labels stretched-rows/labels \\
        --classes stretched-rows/classes.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.evaluate import LabelError, add_set_arguments, classes_for_new_set, list_images, read_yolo_labels
from vision.export import yolo_lines
from vision.types import CLASS_INDEX, CLASSES, Detections

SIDE = 640


def stretched_row(image: np.ndarray, boxes: np.ndarray, turn: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """The band around the single row of tiles ``boxes`` (xyxy pixels) of ``image``, turned a quarter round
    clockwise where ``turn``, stretched to ``SIDE`` x ``SIDE``, with the boxes moved alike; None where the
    boxes are not 12 to 18 tiles in one row at least five times as long as it is high."""
    if not 12 <= len(boxes) <= 18:
        return None
    h, w = image.shape[:2]
    middles = (boxes[:, 1] + boxes[:, 3]) / 2
    if np.ptp(middles) > 0.5 * float(np.median(boxes[:, 3] - boxes[:, 1])):
        return None
    x1, y1 = max(0, int(boxes[:, 0].min()) - 3), max(0, int(boxes[:, 1].min()) - 3)
    x2, y2 = min(w, int(boxes[:, 2].max()) + 3), min(h, int(boxes[:, 3].max()) + 3)
    if x2 - x1 < 5 * (y2 - y1):
        return None
    band = image[y1:y2, x1:x2]
    moved = boxes - np.array([x1, y1, x1, y1], np.float32)
    if turn:
        high = band.shape[0]
        band = cv2.rotate(band, cv2.ROTATE_90_CLOCKWISE)
        moved = np.stack([high - moved[:, 3], moved[:, 0], high - moved[:, 1], moved[:, 2]], axis=1)
    bh, bw = band.shape[:2]
    out = cv2.resize(band, (SIDE, SIDE), interpolation=cv2.INTER_AREA if bw > SIDE else cv2.INTER_LINEAR)
    return out, moved * np.array([SIDE / bw, SIDE / bh, SIDE / bw, SIDE / bh], np.float32)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_set_arguments(parser)
    parser.add_argument("--out", type=Path, required=True, help="new or empty folder for images/ and labels/")
    parser.add_argument("--count", type=int, default=60, help="pictures to make (default 60)")
    parser.add_argument("--seed", type=int, default=5, help="order the photos are taken in (default 5)")
    args = parser.parse_args(argv)
    if args.count < 1:
        print("error: --count must be at least 1", file=sys.stderr)
        return 2
    try:
        classes = classes_for_new_set(args.classes, args.out)
    except LabelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    photos = list_images(args.images)
    np.random.default_rng(args.seed).shuffle(photos)
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    (args.out / "labels").mkdir(exist_ok=True)
    (args.out / "classes.json").write_text(json.dumps({str(i): c for i, c in enumerate(CLASSES)}, indent=1) + "\n")
    made = 0
    with tqdm(total=args.count, desc="stretched rows", unit="picture") as bar:
        for photo in photos:
            if made == args.count:
                break
            label = args.labels / f"{photo.stem}.txt"
            image = cv2.imread(str(photo))
            if image is None or not label.is_file():
                continue
            truth = read_yolo_labels(label, image.shape[1], image.shape[0], classes)
            picture = stretched_row(image, truth.boxes, turn=made % 2 == 1)
            if picture is None:
                continue
            out, boxes = picture
            cv2.imwrite(str(args.out / "images" / f"{made:03d}.jpg"), out, [cv2.IMWRITE_JPEG_QUALITY, 90])
            n = len(boxes)
            ids = np.array([CLASS_INDEX[code] for code in truth.codes], np.int64)
            tiles = Detections(boxes, np.ones(n, np.float32), ids, np.zeros(n, bool))
            (args.out / "labels" / f"{made:03d}.txt").write_text(yolo_lines(tiles, SIDE, SIDE))
            made += 1
            bar.update()
    print(f"{made} pictures in {args.out}" + ("" if made == args.count else f" (of {args.count} asked: too few rows)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
