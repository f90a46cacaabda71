"""Photos of hands as taken with the phone rolled: labelled real photos turned by a few angles, to read with
``scripts/eval_hands.py --held``.

A player photographs a hand from wherever they sit, so its rows seldom run along the picture's sides. This turns
each photo whose labels box a hand alone (13 to 17 tiles, as ``eval_hands.py --held`` counts them) by each angle
given, anticlockwise about its middle, onto a picture just large enough to hold it all; the corners are a plain
table of the colour of the photo's border, with sensor noise (sigma 4). Photos whose labelled tiles are far from
a tile's proportions (a dataset's picture stretched into a square: turning it would shear its tiles, which no
camera does) are left out. Each angle gets a folder ``tDEGREES`` with ``images/``, ``labels/`` and
``classes.json`` (the model's 46 classes).

    python scripts/tilted_photos.py --images ../shared/data/hk-photos/train/images \\
        --labels ../shared/data/hk-photos/train/labels --classes ../shared/data/hk-photos/classes.json \\
        --out tilted --degrees 0,20,35
    python scripts/eval_hands.py tilted/t20 --held

A turned label is the upright box around the label box turned: for a tile boxed tightly upright, the box around
the tile turned, but larger than the tile's own box for a tile that already lay slanted. So the labels serve
``--held``, which compares the codes read with the labelled ones, and not ``mjscan evaluate``, whose boxes must
overlap by half.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.detector import TILE_ASPECT_RANGE, tile_aspect
from vision.evaluate import LabelError, add_set_arguments, classes_for_new_set, list_images, read_yolo_labels
from vision.export import yolo_lines
from vision.types import CLASS_INDEX, CLASSES, Detections

#: The labels of a photo of a hand alone, as ``scripts/eval_hands.py --held`` reads them.
HAND_LABELS = range(13, 18)


def tilt(shape: tuple[int, ...], degrees: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The affine map (2 x 3) turning a picture of ``shape`` ``degrees`` anticlockwise about its middle onto a
    picture just large enough to hold it all, and that picture's size (height, width)."""
    h, w = shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    size = (int(np.ceil(w * sin + h * cos)), int(np.ceil(w * cos + h * sin)))
    turn[0, 2] += size[1] / 2 - w / 2
    turn[1, 2] += size[0] / 2 - h / 2
    return turn, size


def tilted(image: np.ndarray, boxes: np.ndarray, degrees: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``image`` (H, W, 3 uint8) turned ``degrees`` anticlockwise (``tilt``), its corners a plain table of its
    border's median colour with noise drawn from ``seed``, and ``boxes`` (xyxy pixels) turned alike: each the
    upright box around the box turned."""
    turn, (h, w) = tilt(image.shape, degrees)
    edge = np.concatenate([image[:8], image[-8:], image[:, :8].transpose(1, 0, 2), image[:, -8:].transpose(1, 0, 2)], 1)
    table = np.median(edge.reshape(-1, 3), axis=0)
    noise = np.random.default_rng(seed).normal(0.0, 4.0, (h, w, 3))
    picture = np.clip(table + noise, 0, 255).astype(np.uint8)
    warp = turn.copy()  # the map of pixel indices, whose pixels' middles lie half a pixel in from the boxes' edges
    warp[:, 2] += turn[:, :2] @ np.array([0.5, 0.5]) - 0.5
    turned = cv2.warpAffine(image, warp, (w, h), flags=cv2.INTER_LINEAR)
    inside = cv2.warpAffine(np.full(image.shape[:2], 255, np.uint8), warp, (w, h), flags=cv2.INTER_NEAREST) > 0
    picture[inside] = turned[inside]
    x1, y1, x2, y2 = np.asarray(boxes, np.float64).reshape(-1, 4).T
    corners = np.stack([np.stack([x, y, np.ones_like(x)], -1) for x, y in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))], 1)
    points = corners @ turn.T  # (N, 4, 2)
    return picture, np.concatenate([points.min(axis=1), points.max(axis=1)], axis=1).astype(np.float32)


def stretched(boxes: np.ndarray) -> bool:
    """Whether the tiles ``boxes`` (xyxy) box are far from a tile's proportions (``vision.detector.tile_aspect``
    outside ``TILE_ASPECT_RANGE``), as in a picture stretched into a square."""
    return not TILE_ASPECT_RANGE[0] <= tile_aspect(boxes) <= TILE_ASPECT_RANGE[1]


def _angles(text: str) -> list[float]:
    try:
        angles = [float(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of degrees: {text!r}") from None
    if any(not -180 <= a <= 180 for a in angles) or len(set(angles)) != len(angles):
        raise argparse.ArgumentTypeError("each angle once, from -180 to 180 degrees")
    return angles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_set_arguments(parser)
    parser.add_argument("--out", type=Path, required=True, help="new or empty folder for a folder per angle")
    parser.add_argument(
        "--degrees", type=_angles, default=[0.0, 20.0, 35.0], help="angles, anticlockwise (default 0,20,35)"
    )
    args = parser.parse_args(argv)
    try:
        classes = classes_for_new_set(args.classes, args.out)
    except LabelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    hands = []
    for photo in list_images(args.images):
        label = args.labels / photo.relative_to(args.images).with_suffix(".txt")
        image = cv2.imread(str(photo))
        if image is None or not label.is_file():
            continue
        truth = read_yolo_labels(label, image.shape[1], image.shape[0], classes)
        if len(truth.boxes) in HAND_LABELS and not stretched(truth.boxes):
            hands.append((photo, image, truth))
    if not hands:
        print(f"error: no photo under {args.images} has 13 to 17 labels in {args.labels}", file=sys.stderr)
        return 2
    names = json.dumps({str(i): c for i, c in enumerate(CLASSES)}, indent=1) + "\n"
    for degrees in args.degrees:
        folder = args.out / f"t{degrees:g}"
        (folder / "images").mkdir(parents=True)
        (folder / "labels").mkdir()
        (folder / "classes.json").write_text(names)
        for k, (photo, image, truth) in enumerate(tqdm(hands, desc=f"turned {degrees:g} degrees", unit="photo")):
            picture, boxes = tilted(image, truth.boxes, degrees, seed=k)
            cv2.imwrite(str(folder / "images" / f"{photo.stem}.jpg"), picture, [cv2.IMWRITE_JPEG_QUALITY, 95])
            n = len(boxes)
            ids = np.array([CLASS_INDEX[code] for code in truth.codes], np.int64)
            tiles = Detections(boxes, np.ones(n, np.float32), ids, np.zeros(n, bool))
            (folder / "labels" / f"{photo.stem}.txt").write_text(yolo_lines(tiles, picture.shape[1], picture.shape[0]))
    ways = len(args.degrees)
    print(f"{len(hands)} photos turned {ways} way{'' if ways == 1 else 's'} in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
