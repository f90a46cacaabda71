"""Render a synthetic test set as YOLO files: ``python -m vision.training.render --data DATA_DIR --out DIR``.

Writes ``DIR/images/NNNNN.jpg``, ``DIR/labels/NNNNN.txt`` (``class x y w h``, normalised) and
``DIR/classes.json`` (class index -> tile code, the 46 classes of the model), the layout ``mjscan evaluate``
reads; for each picture of a hand ``DIR/hands/NNNNN.json``, the hand it shows (``synth.scene_hand``), which
``scripts/eval_hands.py`` compares with the hand read; and for each picture showing faces or backs its labels
leave out (seen too obliquely, mostly hidden, cut by the picture's edge: ``Scene.unlabelled_boxes``)
``DIR/unlabelled/NNNNN.txt``, their boxes as YOLO lines, which ``mjscan evaluate --unlabelled`` reads.
``--faces art`` (the default) prints riichi-style faces only; ``hk`` and ``mixed`` add real Hong Kong faces;
``printed`` prints each set anew from the fonts under ``--fonts`` (``vision/training/faces.py``), and with
``--drawings unseen`` draws their dots and bamboo in ways training never draws (the same scenes as without it,
seed for seed). ``--hands winning`` lays out complete hands (four sets and a pair, or seven pairs) instead of
tiles drawn at random; ``--discards`` strews discards on the table beyond each hand, ``--discards pond`` lays
them in a riichi pond, touching rows of 6 (labelled, left out of its hand file); ``--hand-size 16`` lays out
Taiwanese hands of 16 tiles and the winning one. Use a seed
that training never used (training draws its scenes from ``--seed`` of ``python -m vision.training``, default
1, through numpy's SeedSequence; the default here is 20260601).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.layout import HAND_SIZES
from vision.training.data import DataError, load_art, load_crops
from vision.training.faces import DEFAULT_FONT_FOLDER, FacePrinter, FontError
from vision.training.synth import LAYOUTS, FacePool, SceneRenderer
from vision.types import CLASSES

DEFAULT_SEED = 20260601


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m vision.training.render", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder (art and hk-crops)")
    parser.add_argument("--out", type=Path, required=True, help="folder to write (must be empty or new)")
    parser.add_argument("--count", type=int, default=300, help="pictures to render (default 300)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument(
        "--faces", choices=["art", "hk", "mixed", "printed"], default="art", help="face source (default art)"
    )
    parser.add_argument(
        "--fonts",
        type=Path,
        default=DEFAULT_FONT_FOLDER,
        help=f"folder of the fonts that --faces printed prints with (default {DEFAULT_FONT_FOLDER})",
    )
    parser.add_argument(
        "--drawings",
        choices=["seen", "unseen"],
        default="seen",
        help="how --faces printed draws the dots and bamboo: as training does (default), or in ways it never does "
        "(coins, suns, beads; rods, leafy stems), the scenes otherwise the same",
    )
    parser.add_argument("--layout", choices=LAYOUTS, help="one arrangement only (default: all, mixed)")
    parser.add_argument(
        "--hands",
        choices=["random", "winning"],
        default="random",
        help="the tiles of a hand: drawn at random (default), or making a complete hand (four sets and a pair, "
        "or seven pairs), as the photo of a won hand shows; winning needs --layout hand",
    )
    parser.add_argument(
        "--discards",
        nargs="?",
        const="strewn",
        choices=["strewn", "pond"],
        help="lay discards beyond each hand, as a photo taken at the table shows them (labelled, no part of the "
        "hand): 4 to 12 strewn on the table, turned at random (strewn, the default), or 6 to 18 in a riichi pond, "
        "touching rows of 6 (pond); needs --layout hand",
    )
    parser.add_argument(
        "--hand-size",
        type=int,
        choices=HAND_SIZES,
        default=13,
        help="tiles in a hand before its winning one: 13 (default), or 16 as Taiwanese rules play (up to five "
        "melds; with --hands winning, five sets and a pair); needs --layout hand",
    )
    parser.add_argument("--size", type=int, default=640, help="picture side in pixels (default 640)")
    parser.add_argument(
        "--phone",
        action="store_true",
        help="only scenes as a player photographs a hand: the camera in front of standing tiles, above flat "
        "ones, the whole layout in the picture, tiles 40 to 150 px across at 640 where it fits, no stretch "
        "(default: the spread training draws from, down to 12 px tiles, grazing views and stretched pictures)",
    )
    return parser


def write_yolo(out: Path, index: int, image: np.ndarray, boxes: np.ndarray, class_ids: np.ndarray) -> None:
    """One picture and its label file."""
    name = f"{index:05d}"
    cv2.imwrite(
        str(out / "images" / f"{name}.jpg"), cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92]
    )
    write_boxes(out / "labels" / f"{name}.txt", image.shape[:2], boxes, class_ids)


def write_boxes(path: Path, size: tuple[int, int], boxes: np.ndarray, class_ids: np.ndarray) -> None:
    """Boxes (xyxy, pixels of a picture of ``size``, height and width) as a YOLO label file."""
    h, w = size
    lines = []
    for (x1, y1, x2, y2), cls in zip(boxes, class_ids, strict=True):
        cx, cy, bw, bh = (x1 + x2) / 2 / w, (y1 + y2) / 2 / h, (x2 - x1) / w, (y2 - y1) / h
        lines.append(f"{int(cls)} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
    path.write_text("\n".join(lines) + ("\n" if lines else ""))


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        print(f"error: {args.out} is not empty; choose a new folder", file=sys.stderr)
        return 2
    if args.count < 1:
        print("error: --count must be at least 1", file=sys.stderr)
        return 2
    if args.drawings == "unseen" and args.faces != "printed":
        print("error: --drawings unseen draws printed sets: add --faces printed", file=sys.stderr)
        return 2
    if args.hands == "winning" and args.layout != "hand":
        print("error: --hands winning lays out hands: add --layout hand", file=sys.stderr)
        return 2
    if args.discards and args.layout != "hand":
        print("error: --discards lays discards beside hands: add --layout hand", file=sys.stderr)
        return 2
    if args.hand_size != 13 and args.layout != "hand":
        print("error: --hand-size lays out hands: add --layout hand", file=sys.stderr)
        return 2
    try:
        unseen = args.drawings == "unseen"
        printer = FacePrinter.from_folder(args.fonts, unseen) if args.faces == "printed" else None
        pool = FacePool(load_art(args.data), load_crops(args.data / "hk-crops"), printer=printer)
    except (DataError, FontError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    (args.out / "labels").mkdir(exist_ok=True)
    (args.out / "classes.json").write_text(json.dumps({str(i): c for i, c in enumerate(CLASSES)}, indent=1) + "\n")
    renderer = SceneRenderer(
        pool,
        args.size,
        phone=args.phone,
        winning=args.hands == "winning",
        discards=args.discards,
        hand_size=args.hand_size,
    )
    rng = np.random.default_rng(args.seed)
    tiles = 0
    for index in tqdm(range(args.count), desc="render", unit="picture", dynamic_ncols=True):
        scene = renderer.render(rng, args.faces, args.layout)
        write_yolo(args.out, index, scene.image, scene.boxes, scene.class_ids)
        if scene.hand is not None:
            (args.out / "hands").mkdir(exist_ok=True)
            (args.out / "hands" / f"{index:05d}.json").write_text(json.dumps(scene.hand) + "\n")
        if len(scene.unlabelled_boxes):
            (args.out / "unlabelled").mkdir(exist_ok=True)
            path = args.out / "unlabelled" / f"{index:05d}.txt"
            write_boxes(path, scene.image.shape[:2], scene.unlabelled_boxes, scene.unlabelled_class_ids)
        tiles += len(scene.boxes)
    print(f"wrote {args.count} pictures with {tiles} tiles to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
