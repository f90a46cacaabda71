"""How the tile model's reading holds up when a photo is taken badly: out of focus, shaken, in a dim room, under
a warm lamp, with a lamp's glare or a shadow across the tiles, squeezed hard by a chat app, or from a cheap
camera; and, asked for by name, how far off the hand may be in a photo (``far2`` ... ``far8``) and how a photo
reads whose turn was lost on the way (``turned90`` ... ``turned270``).

    python scripts/eval_robustness.py --images DIR/images --labels DIR/labels --classes DIR/classes.json \\
        [--model-dir M] [--ignore-unlabelled] [--unlabelled DIR/unlabelled] [--only defocus,dim] [--limit N] \\
        [--json] [--sheet sheet.jpg]

Every photo is decoded as ``mjscan evaluate`` decodes it, then spoilt each way of ``DEGRADATIONS`` in turn
(fixed strengths, relative to the photo's long side where a size matters; the noise is drawn from the photo's
name, so a run gives the same figures every time), read by the model and scored against its labels as
``mjscan evaluate`` scores (``vision.evaluate``). The table gives, for each way, the tile F1 and its change from
the photo as it is, precision, recall, exact hands (13 or 14 labels), and where the tiles lost went: found with a
wrong code, or not found. The ways of ``AFAR`` and ``TURNED`` are read only where ``--only`` names them
(``--only far3,turned90``).
``--sheet`` writes one photo spoilt every way with its errors drawn (of the photos read right as taken, the one
the ways spoil most; or ``--sheet-photo NAME``), to look at.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont
from tqdm import tqdm

from vision.annotate import to_jpeg
from vision.detector import TileModel
from vision.evaluate import (
    Evaluation,
    GroundTruth,
    ImageMatch,
    LabelError,
    add_set_arguments,
    error_image,
    list_images,
    match_image,
    read_classes,
    read_unlabelled,
    read_yolo_labels,
)
from vision.io import ImageError, decode_image
from vision.recognize import DECODE_SIDE

Degrade = Callable[[np.ndarray, np.random.Generator], np.ndarray]

#: Light is mixed and dimmed in linear light, not in the photo's gamma-encoded values.
GAMMA = 2.2
#: Rows of a picture given their noise at a time (``_noisy``): 256 rows of a 5,120-pixel table draw 31 MB.
NOISE_ROWS = 256


def _linear(rgb: np.ndarray) -> np.ndarray:
    return (rgb.astype(np.float32) / 255.0) ** GAMMA


def _encoded(linear: np.ndarray) -> np.ndarray:
    return (np.clip(linear, 0.0, 1.0) ** (1.0 / GAMMA) * 255.0 + 0.5).astype(np.uint8)


def _noisy(rgb: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """``rgb`` with Gaussian noise of ``sigma`` on every channel, drawn ``NOISE_ROWS`` rows at a time: the same
    numbers as one draw over the whole picture (the generator gives them in order), without its float64 copy of
    the picture (630 MB for a table 8 times as large as a 640-pixel photo)."""
    out = np.empty(rgb.shape, np.uint8)
    for top in range(0, rgb.shape[0], NOISE_ROWS):
        rows = rgb[top : top + NOISE_ROWS]
        out[top : top + NOISE_ROWS] = np.clip(rows.astype(np.float32) + rng.normal(0.0, sigma, rows.shape), 0, 255)
    return out


def defocus(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Out of focus: a Gaussian blur of 0.3 % of the long side (1.9 pixels on a 640-pixel photo)."""
    return cv2.GaussianBlur(rgb, (0, 0), 0.003 * max(rgb.shape[:2]))


def shake(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A shaken hand: motion blur along a line 1.2 % of the long side long, 20 degrees from the horizontal."""
    length = max(3, round(0.012 * max(rgb.shape[:2])) | 1)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), 20, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(rgb, -1, kernel / kernel.sum())


def dim(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A dim room: a quarter of the light, and the sensor noise a phone's camera then shows (sigma 6)."""
    return _noisy(_encoded(_linear(rgb) * 0.25), rng, 6.0)


def noise(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Heavy sensor noise: Gaussian, sigma 15 of 255, every channel apart."""
    return _noisy(rgb, rng, 15.0)


def overexposed(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Too much light: 1.8 times the light, the brightest parts burnt out."""
    return _encoded(_linear(rgb) * 1.8)


def lamp(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A warm tungsten lamp, the camera's white balance not correcting it: green 0.75 and blue 0.45 of red."""
    return _encoded(_linear(rgb) * np.array([1.0, 0.75, 0.45], np.float32))


def shadow(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A shadow over half the photo: 0.35 of the light beyond a soft edge through the middle, 30 degrees from
    the vertical, 4 % of the long side wide."""
    h, w = rgb.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    across = (xs - w / 2) * np.cos(np.radians(30)) + (ys - h / 2) * np.sin(np.radians(30))
    dark = 1.0 / (1.0 + np.exp(-across / (0.01 * max(h, w))))
    return _encoded(_linear(rgb) * (1.0 - 0.65 * dark)[..., None])


def glare(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp's glare on the tiles: a white highlight in the middle of the photo, as bright as white where it
    peaks and falling off over a fifth of the long side."""
    h, w = rgb.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-(((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / (2 * (0.2 * max(h, w) / 2) ** 2)))
    return _encoded(_linear(rgb) + spot[..., None])


def squeezed(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Squeezed hard by a chat app: JPEG at quality 12."""
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 12])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def low_res(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A cheap camera, or the hand far off in a wide photo: half the pixels a side (the labels scale with it)."""
    h, w = rgb.shape[:2]
    return cv2.resize(rgb, (max(1, round(w / 2)), max(1, round(h / 2))), interpolation=cv2.INTER_AREA)


def far(factor: int) -> Degrade:
    """The hand from afar, at the same sharpness: the photo laid at its own size in the middle of a picture
    ``factor`` times as wide and as high, around it a plain table of the colour of the photo's border (its median)
    with sensor noise (sigma 4). A real table around a hand shows more (other tiles, hands, cups) than this."""

    def spoil(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        h, w = rgb.shape[:2]
        edge = np.concatenate(
            [rgb[:8].reshape(-1, 3), rgb[-8:].reshape(-1, 3), rgb[:, :8].reshape(-1, 3), rgb[:, -8:].reshape(-1, 3)]
        )
        table = np.median(edge, axis=0).astype(np.float32)
        picture = _noisy(np.broadcast_to(table, (h * factor, w * factor, 3)), rng, 4.0)
        top, left = _placed_at(rgb.shape, picture.shape)
        picture[top : top + h, left : left + w] = rgb
        return picture

    return spoil


#: The ways a photo is spoilt, by name, in the order of the table; "as taken" is the photo itself. A way giving a
#: smaller picture scales the photo down (its labels scale with it, ``_scaled``).
DEGRADATIONS: dict[str, Degrade] = {
    "as taken": lambda rgb, rng: rgb,
    "defocus": defocus,
    "shake": shake,
    "dim": dim,
    "noise": noise,
    "overexposed": overexposed,
    "lamp": lamp,
    "shadow": shadow,
    "glare": glare,
    "squeezed": squeezed,
    "low-res": low_res,
}
#: The hand a half, a third ... an eighth of the photo's width and height (``far``), read only where ``--only``
#: names them: how far off a hand the reading still finds, not a bad photo.
AFAR: dict[str, Degrade] = {f"far{factor}": far(factor) for factor in (2, 3, 4, 6, 8)}
#: A photo whose turn was lost on the way (its EXIF orientation dropped by an app that copied its pixels), shown
#: turned this many quarter turns anticlockwise; read only where ``--only`` names them.
TURNED: dict[str, int] = {"turned90": 1, "turned180": 2, "turned270": 3}
WAYS: dict[str, Degrade] = {
    **DEGRADATIONS,
    **AFAR,
    **{name: lambda rgb, rng, quarters=quarters: np.rot90(rgb, quarters) for name, quarters in TURNED.items()},
}


def _placed_at(photo: tuple[int, ...], picture: tuple[int, ...]) -> tuple[int, int]:
    """Where (top, left) a photo of shape ``photo`` lies in a larger picture of shape ``picture``: its middle."""
    return (picture[0] - photo[0]) // 2, (picture[1] - photo[1]) // 2


def _placed(truth: GroundTruth, photo: tuple[int, ...], picture: tuple[int, ...]) -> GroundTruth:
    """The labels of a photo of shape ``photo`` laid in the middle of a larger picture of shape ``picture``."""
    top, left = _placed_at(photo, picture)
    shift = np.array([left, top, left, top], np.float32)
    return replace(truth, boxes=truth.boxes + shift, unlabelled=truth.unlabelled + shift)


def _scaled(truth: GroundTruth, before: tuple[int, ...], after: tuple[int, ...]) -> GroundTruth:
    if before[:2] == after[:2]:
        return truth
    fy, fx = after[0] / before[0], after[1] / before[1]
    factor = np.array([fx, fy, fx, fy], np.float32)
    return replace(truth, boxes=truth.boxes * factor, unlabelled=truth.unlabelled * factor)


def _badness(m: ImageMatch) -> int:
    return len(m.false_negatives) + len(m.false_positives)


def _photos(images: Path, labels: Path) -> list[Path]:
    return [p for p in list_images(images) if (labels / p.relative_to(images).with_suffix(".txt")).is_file()]


def _read(
    path: Path, images: Path, labels: Path, class_map: dict[int, str], unlabelled: Path | None = None
) -> tuple[np.ndarray, GroundTruth]:
    relative = path.relative_to(images)
    rgb = decode_image(path, reduce_to=DECODE_SIDE).rgb
    height, width = rgb.shape[:2]
    truth = read_yolo_labels(labels / relative.with_suffix(".txt"), width, height, class_map)
    truth.unlabelled = read_unlabelled(unlabelled, relative, width, height, class_map)
    return rgb, truth


def _turned(truth: GroundTruth, shape: tuple[int, ...], quarters: int) -> GroundTruth:
    """The labels of a photo of ``shape`` turned ``quarters`` quarter turns anticlockwise (as ``numpy.rot90``)."""
    boxes, unlabelled, width = truth.boxes, truth.unlabelled, shape[1]
    for turn in range(quarters):
        boxes, unlabelled = (
            np.stack([b[:, 1], width - b[:, 2], b[:, 3], width - b[:, 0]], axis=1) for b in (boxes, unlabelled)
        )
        width = shape[0] if turn % 2 == 0 else shape[1]
    return replace(truth, boxes=boxes.astype(np.float32), unlabelled=unlabelled.astype(np.float32))


def spoilt(name: str, relative: str, rgb: np.ndarray, truth: GroundTruth) -> tuple[np.ndarray, GroundTruth]:
    """The photo ``rgb`` (its path ``relative`` seeds the noise) spoilt the way ``name``, and its labels."""
    rng = np.random.default_rng(zlib.crc32(f"{relative}:{name}".encode()))
    picture = np.ascontiguousarray(WAYS[name](rgb, rng))
    if name in TURNED:
        return picture, _turned(truth, rgb.shape, TURNED[name])
    if name in AFAR:
        return picture, _placed(truth, rgb.shape, picture.shape)
    return picture, _scaled(truth, rgb.shape, picture.shape)


def evaluate_robustness(
    model: Any,
    images: Path,
    labels: Path,
    classes: Path,
    *,
    names: list[str],
    ignore_unlabelled: bool = False,
    unlabelled: Path | None = None,
    limit: int | None = None,
    progress: bool = True,
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, int]]]:
    """Read every labelled photo of ``images`` spoilt each way of ``names`` and score the readings (a reading on
    a tile boxed in ``unlabelled``, shown but not labelled, counting neither way, as ``mjscan evaluate
    --unlabelled`` counts it).

    Returns the figures by way (``vision.evaluate.EvaluationReport.to_json()`` without the classes, plus
    ``wrong_codes`` and ``missed``: labelled tiles found with another code, and not found) and, by photo (its
    path under ``images``), the errors (tiles missed or read wrong, and extra boxes) of each way. Raises
    ``LabelError`` for a bad folder or classes file.
    """
    class_map = read_classes(classes)
    paths = _photos(images, labels)[:limit]
    if not paths:
        raise LabelError(f"no labelled photos in {images} (labels looked for in {labels})")
    evaluations = {name: Evaluation(ignore_unlabelled=ignore_unlabelled) for name in names}
    wrong = dict.fromkeys(names, 0)
    missed = dict.fromkeys(names, 0)
    errors: dict[str, dict[str, int]] = {}
    for path in tqdm(paths, desc="robustness", unit="photo", disable=not progress):
        relative = str(path.relative_to(images))
        try:
            rgb, truth = _read(path, images, labels, class_map, unlabelled)
        except ImageError as exc:
            print(f"skipped {relative}: {exc.message}", file=sys.stderr)
            continue
        errors[relative] = {}
        for name in names:
            picture, scaled = spoilt(name, relative, rgb, truth)
            m = evaluations[name].add(model.detect(picture), scaled)
            wrong[name] += len(m.confusions)
            missed[name] += len(m.false_negatives) - len(m.confusions)
            errors[relative][name] = _badness(m)
    figures = {}
    for name in names:
        report = evaluations[name].report().to_json()
        report.pop("per_class", None)
        figures[name] = {**report, "wrong_codes": wrong[name], "missed": missed[name]}
    return figures, errors


def table(figures: dict[str, dict[str, Any]]) -> str:
    """The figures as a text table, each way's F1 beside the photos' own (the first way)."""
    base = next(iter(figures.values()))["f1"]
    lines = [
        f"{'way':<12} {'F1':>6} {'change':>7} {'prec':>6} {'recall':>6} {'hands':>9} {'wrong code':>10} {'missed':>6}"
    ]
    for name, f in figures.items():
        hands = f"{f['hands']['exact']}/{f['hands']['checked']}" if f["hands"]["checked"] else "-"
        lines.append(
            f"{name:<12} {f['f1']:>6.4f} {f['f1'] - base:>+7.4f} {f['precision']:>6.3f} {f['recall']:>6.3f} "
            f"{hands:>9} {f['wrong_codes']:>10} {f['missed']:>6}"
        )
    return "\n".join(lines)


def sheet(
    model: Any,
    path: Path,
    images: Path,
    labels: Path,
    classes: Path,
    names: list[str],
    *,
    ignore_unlabelled: bool = False,
    unlabelled: Path | None = None,
    cell: int = 480,
) -> np.ndarray:
    """The photo ``path`` spoilt each way of ``names``, each picture with its errors drawn
    (``vision.evaluate.error_image``; scored as ``evaluate_robustness`` scores, ``ignore_unlabelled`` and
    ``unlabelled`` alike)
    under its name, in a grid four wide."""
    relative = str(path.relative_to(images))
    rgb, truth = _read(path, images, labels, read_classes(classes), unlabelled)
    font = ImageFont.load_default(20)
    cells = []
    for name in names:
        picture, scaled = spoilt(name, relative, rgb, truth)
        predicted = model.detect(picture)
        m = match_image(predicted, scaled, ignore_unlabelled=ignore_unlabelled)
        if name in AFAR:  # the photo's own part drawn, where the way laid it in a larger one
            top, left = _placed_at(rgb.shape, picture.shape)
            shift = np.array([left, top, left, top], np.float32)
            picture = picture[top : top + rgb.shape[0], left : left + rgb.shape[1]]
            predicted = replace(predicted, boxes=predicted.boxes - shift)
            scaled = truth
        elif name not in TURNED and picture.shape != rgb.shape:  # drawn at the photo's size (a turned one as read)
            up = rgb.shape[1] / picture.shape[1], rgb.shape[0] / picture.shape[0]
            factor = np.array([*up, *up], np.float32)
            picture = cv2.resize(picture, (rgb.shape[1], rgb.shape[0]), interpolation=cv2.INTER_NEAREST)
            predicted = replace(predicted, boxes=predicted.boxes * factor)
            scaled = truth
        drawn = Image.fromarray(error_image(picture, predicted, scaled, m))
        fit = min(cell / drawn.width, (cell - 28) / drawn.height)
        drawn = drawn.resize((round(drawn.width * fit), round(drawn.height * fit)), Image.BILINEAR)
        tile = Image.new("RGB", (cell, cell), (32, 32, 32))
        tile.paste(drawn, ((cell - drawn.width) // 2, 28))
        errors = _badness(m)
        ImageDraw.Draw(tile).text(
            (8, 4), f"{name}: {errors} error{'' if errors == 1 else 's'}", fill=(255, 255, 255), font=font
        )
        cells.append(tile)
    across = min(4, len(cells))
    grid = Image.new("RGB", (across * cell, -(-len(cells) // across) * cell), (16, 16, 16))
    for i, tile in enumerate(cells):
        grid.paste(tile, ((i % across) * cell, (i // across) * cell))
    return np.asarray(grid)


def _sheet_photo(errors: dict[str, dict[str, int]], chosen: str | None) -> str:
    """``chosen``, or, of the photos read without an error as taken (of all where none is), the one whose
    spoilt readings have the most errors all told."""
    if chosen is not None:
        if chosen not in errors:
            raise LabelError(f"--sheet-photo {chosen} is not among the labelled photos read")
        return chosen
    clean = [name for name, ways in errors.items() if ways["as taken"] == 0] or list(errors)
    return max(clean, key=lambda name: sum(errors[name].values()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_set_arguments(parser)
    parser.add_argument("--model-dir", type=Path, default=None, help="model folder (default: the bundled model)")
    parser.add_argument("--ignore-unlabelled", action="store_true", help="leave out predictions on unboxed tiles")
    parser.add_argument(
        "--unlabelled",
        type=Path,
        default=None,
        help="folder of YOLO files boxing the tiles the photos show but their labels leave out (a rendered set's "
        "unlabelled/): a reading on one counts neither way",
    )
    parser.add_argument(
        "--only",
        default=None,
        help="comma-separated ways (default every one but the far and turned ones): " + ", ".join(WAYS),
    )
    parser.add_argument("--limit", type=int, default=None, help="the first N labelled photos only")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--sheet", type=Path, default=None, help="write a JPEG of one photo spoilt every way (new file)"
    )
    parser.add_argument("--sheet-photo", default=None, help="the photo on the sheet (its path under --images)")
    args = parser.parse_args(argv)
    names = ["as taken"]
    if args.only:
        unknown = [n for n in args.only.split(",") if n not in WAYS]
        if unknown:
            print(f"error: unknown ways {', '.join(unknown)}; known: {', '.join(WAYS)}", file=sys.stderr)
            return 2
        names += [n for n in args.only.split(",") if n != "as taken"]
    else:
        names = list(DEGRADATIONS)
    if args.sheet is not None and args.sheet.exists():
        print(f"error: {args.sheet} exists; give a new file so nothing is overwritten", file=sys.stderr)
        return 2
    if args.unlabelled is not None and not args.unlabelled.is_dir():
        print(f"error: --unlabelled {args.unlabelled} is not a folder", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 1:
        print("error: --limit must be at least 1", file=sys.stderr)
        return 2
    if args.sheet_photo is not None and args.images / args.sheet_photo not in _photos(args.images, args.labels):
        print(f"error: --sheet-photo {args.sheet_photo} is not a labelled photo under {args.images}", file=sys.stderr)
        return 2
    try:
        model = TileModel(args.model_dir)
        figures, errors = evaluate_robustness(
            model,
            args.images,
            args.labels,
            args.classes,
            names=names,
            ignore_unlabelled=args.ignore_unlabelled,
            unlabelled=args.unlabelled,
            limit=args.limit,
        )
        if args.sheet is not None:
            photo = _sheet_photo(errors, args.sheet_photo)
            picture = sheet(
                model,
                args.images / photo,
                args.images,
                args.labels,
                args.classes,
                names,
                ignore_unlabelled=args.ignore_unlabelled,
                unlabelled=args.unlabelled,
            )
            args.sheet.write_bytes(to_jpeg(picture))
            print(f"sheet of {photo}: {args.sheet}", file=sys.stderr)
    except (LabelError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=2) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
