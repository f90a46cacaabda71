"""The tile model at run time: find the tiles in a photo and read each one (onnxruntime on the CPU).

The networks, in ``models/`` beside their description ``model.json``:

1. the detector sees the whole photo squeezed to a small square (512 x 512 by default; the stretch is the
   same one the real training photos had) and marks the centre and the box of every tile; where the tiles
   found there have proportions the training photos' tiles never had (a stretched picture), the photo is
   read again rescaled to give them the usual ones (on a grey margin where they reach its sides), and where
   they are small, the region holding them is read again enlarged; a large photo whose tiles are tiny or few
   there (a hand far off) is also read in four overlapping windows;
2. the classifier reads each tile cut from the photo at its own resolution (so a 12-megapixel photo gives
   sharp crops), normalised to 64 x 64: it names the tile (46 classes, or "not a tile", which drops the box)
   and says how the face is turned (0, 90, 180 or 270 degrees clockwise); a tile it reads unsure is read a
   second time turned half round. A model may hold several classifiers (``model.json``: ``classifier.files``),
   trained for different numbers of batches or from other seeds: each reads every crop and their probabilities
   are averaged.

The detector may read its input also mirrored (``model.json``: ``detector.flips``; it was trained on tiles
turned and mirrored every way) and average its outputs mirrored back: fewer missed and misplaced boxes for
one more detector pass per mirroring.

A tile read face down whose colour is that of the faces around it is read as the white dragon (``blank_faces``):
the riichi sets' white dragon is an empty face, and a back is coloured unlike its set's faces.

``TileModel(model_dir).detect(rgb)`` gives a ``Detections``. Nothing here imports torch.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.types import CLASSES, Detections, box_intersection, box_iou

#: The description of a model folder: names its files and the settings they were trained with.
MODEL_JSON = "model.json"
DEFAULT_MODEL_DIR = Path(__file__).resolve().parent.parent / "models"

#: The proportions (width over height, as the detector sees them) of the tiles in the real training photos:
#: median 1.0, 1st to 97th percentile of the tiles 0.4 to 1.6 (standing tiles seen from the front are about
#: 0.55). Tiles found outside this range (their median) mean a stretched picture, read again rescaled to the
#: median (``TileModel.detect``, ``TileModel.unstretched_shape``). The top was 1.8 (the 99th percentile): a
#: picture stretched tenfold may still show its tiles 1.7 times too wide once read again, and was left so. On
#: rows of tiles cut from hk-photos/train and stretched into squares (60 pictures, ``scripts/stretched_rows.py``)
#: 1.6 reads F1 0.916 -> 0.918 (hk-photos/valid 0.955 -> 0.956; synthetic phone photos seed 777 0.902 -> 0.901).
TILE_ASPECT = 1.0
TILE_ASPECT_RANGE = (0.4, 1.6)
#: A picture read again rescaled (stretched) whose tiles come within ``EDGE_SHARE`` of its sides lies on grey
#: with this many pixels around it. Without it a row of tiles filling the picture fills the input from edge to
#: edge (a row 10 times as wide as high, rescaled, is an input of 512 x 64), and the detector, trained on
#: windows where pictures end in grey, missed the tiles at the edges. On the 60 stretched rows cut from
#: hk-photos/train (``scripts/stretched_rows.py``), model 20261204-s1-c2-d30-p30-n8000-6600x13871: margin 0 /
#: 32 / 64 / 96 F1 0.852 / 0.901 / 0.913 / 0.916 (exact hands 3 / 22 / 23 / 23 of 24); synthetic phone photos
#: seed 777 0.951 either way (a margin on every re-read, near a side or not: 0.949), the wider synthetic spread
#: 0.814 / 0.812 / 0.811 / 0.811.
REREAD_MARGIN = 64
EDGE_SHARE = 0.02
#: A tile whose likeliest class has a lower probability is read again turned half round (``classify``): on
#: synthetic phone photos (seed 777) this corrected a tenth of the wrong codes for a few more milliseconds.
SECOND_LOOK_BELOW = 0.8
#: Fewer tiles than this say too little about the picture's stretch or its tiles' size to read it again.
MIN_TILES_TO_REREAD = 4
#: The stretch of a picture is judged from every box scoring at least this, weaker ones included: a picture
#: stretched tenfold may give only one or two boxes above the detector's threshold, but a score of them
#: above this one, all as stretched.
STRETCH_HINT_THRESHOLD = 0.2
#: Where the tiles of a reading are smaller than this at the detector's input (median side, pixels), the region
#: holding them (with ``ZOOM_MARGIN`` tiles around it) is read again enlarged to give them this size, the input
#: at most ``ZOOM_MAX_INPUT`` on its long side; the better of the two readings is kept (``TileModel.detect``).
#: On synthetic phone photos (seed 777; tiles 25 to 60 pixels at the input): F1 0.839 -> 0.853, exact hands
#: 91 -> 94 of 182. Checked again for 20261205-s1-c2-d30-p30-n8000-20000x30000-w32, seed 777: 56 / 64 pixels
#: with the input at most 640 px F1 0.9719 / 0.9720, 768 px 0.9708 / 0.9700, 896 px 0.9722 / 0.9711 (48 pixels,
#: 768 px: 0.9706): no trend, so 56 and 640 stay.
ZOOM_TILE = 56
ZOOM_MARGIN = 1.5
ZOOM_MAX_INPUT = 640
#: A photo at least ``WINDOWS_FROM`` pixels on its long side (as decoded) whose first reading finds fewer than
#: ``MIN_TILES_TO_REREAD`` tiles, or tiles under ``WINDOWS_BELOW`` pixels at the detector's input (median side),
#: is also read in 2 x 2 windows overlapping by ``WINDOWS_OVERLAP`` of its sides, each squeezed to the detector's
#: input (``TileModel.find_in_windows``): a hand far off in a large photo. Its tiles are then a few pixels at the
#: first reading, under the detector's output step, boxed too large or not at all, and the region read again
#: enlarged is misjudged; the windows' tiles give the region instead. hk-photos/valid with its labels mended, each
#: photo laid at its own size in the middle of a plain table 4, 6 and 8 times as large
#: (``scripts/eval_robustness.py --only far4,far6,far8``): F1 0.9875 / 0.9708 / 0.9669 against 0.9852 / 0.9257 /
#: 0.8122 without the windows (model card, "A hand from afar"). Pictures smaller than ``WINDOWS_FROM`` (every
#: rendered set at 640 pixels, hk-photos) are never read so.
WINDOWS_FROM = 1024
WINDOWS_BELOW = 20.0
WINDOWS_OVERLAP = 0.15
#: A tile of the zoomed reading boxed like one of the first (IoU at least this) keeps the first one's reading.
SAME_BOX_IOU = 0.85
#: The reading kept takes the tiles of the readings not kept (``TileModel.detect``) that score at least
#: ``BORROW_SCORE`` where it boxed nothing (IoU under ``BORROW_IOU`` with each of its boxes): the reading with
#: the surer tiles on average may still have missed some that another one found. Model
#: 20261204-s1-c2-d30-p30-n8000-14000x14000-w32, taking none / those scoring 0.25 / 0.4 / 0.45 / 0.5 / 0.55, on
#: synthetic phone photos seed 777: F1 0.9588 / 0.9567 / 0.9592 / 0.9603 / 0.9604 / 0.9597 (exact hands 152 /
#: 154 / 154 / 154 / 154 / 153 of 208); 0.45 with IoU 0.1 instead of 0.3: 0.9591. Checked again for model
#: 20261205-s1-c2-d30-p30-n8000-14000x22000-w32 (threshold 0.4): 0.4 / 0.45 / 0.5 / 0.55 / 0.6 give 0.964 /
#: 0.965 / 0.965 / 0.964 / 0.964.
BORROW_SCORE = 0.5
BORROW_IOU = 0.3
#: Nor does a tile of another reading join where it covers this share or more of a tile's box kept or taken before
#: it: a box over several tiles overlaps each of them little by IoU. For a box as large as the one it covers, this
#: is the IoU ``BORROW_IOU`` (0.3 = 0.46 / 1.54); it refuses larger boxes only. A hand far off in a large photo was
#: boxed by the first reading, which sees its tiles under the detector's output step, at up to three times their
#: size, and those boxes joined the windows' reading over its tiles (model card, "A hand far off in a large photo
#: is read in windows"). hk-photos/valid with its labels mended, laid at its size in a plain table 4, 6 and 8
#: times as large and saved as JPEG: boxes on no tile 38 / 199 / 144 -> 32 / 55 / 69, exact hands 65 / 50 / 50
#: -> 67 / 68 / 65 of 71; the 640-pixel sets (four synthetic seeds, the test seed, four printed sets, hk-photos/valid)
#: read the same tile for tile, but for one box on no tile fewer on the test seed (2026-12-07).
BORROW_COVER = 0.46
#: Two tiles of the same code boxed with at least this IoU are one tile boxed twice (the detector's own
#: suppression, class-blind, takes 0.6, so that tiles lying over each other stay apart): the weaker goes
#: (``drop_twins``). Model 20261205-s1-c2-d30-p30-n8000-14000x22000-w32 with none / 0.5 / 0.4 / 0.3 / 0.2, on
#: synthetic phone photos seed 777 (the set chosen on): F1 0.9650 / 0.9651 / 0.9655 / 0.9652 / 0.9610, exact
#: hands 157 / 157 / 159 / 157 / 149 of 208; test seed 0.9597 / 0.9598 / 0.9600 / 0.9597 / 0.9558 (hands 156 /
#: 156 / 155 / 155 / 148 of 204); hk-photos/valid 0.9674 -> 0.9675 (one more exact hand) at 0.5 and under.
#: Checked again for 20261205-s1-c2-d30-p30-n8000-20000x22000-w32 (threshold 0.45), seed 777: 0.9685 / 0.9685 /
#: 0.9689 / 0.9687 / 0.9661; and for …-20000x30000-w32: 0.9716 / 0.9716 / 0.9719 / 0.9716 / 0.9689.
TWIN_IOU = 0.4
#: ... and only where their centres lie closer than this share of the picture's tile spacing (the median over its
#: tiles of the distance from a tile's centre to the nearest one of another code). A row of standing tiles seen at a
#: grazing angle overlaps each tile's box with its neighbours' by IoU 0.4 or more, and two or three tiles of one code
#: side by side (a pair, a pung) were given as one. hk-photos/train, the photos whose labels box a hand alone (1,095;
#: ``scripts/eval_hands.py --held``), the hand read holding exactly the labelled tiles: 808 without this condition,
#: 832, 837, 839 and 839 with 0.6, 0.5, 0.4 and 0.3, 839 with no twin dropped at all; 0.4, the largest share at
#: that top, keeps dropping a tile boxed twice a third of a tile apart in a row (the 9p of hk-photos/valid
#: ``IMG_2759``). hk-photos/valid reads the same with it, the synthetic seeds within three tiles (2026-12-07; model
#: card, "Tiles of one code side by side").
TWIN_NEAR = 0.4
#: A tile read face down is a blank face, the white dragon 5z, where the commonest colour of the middle half of its
#: box (``_ground_colour``) lies within this RGB distance of the median of those of its ``BLANK_NEIGHBOURS``
#: nearest face-up tiles (``blank_faces``). Synthetic phone photos, seed 777, the bundled model: 4 of the 8 white
#: dragons read as backs lie at 5 to 6 from their neighbours, the other 4 at 102 to 315 (beside tiles of another
#: colour); the 100 backs read right at 61 and more, the 13 boxes on no tile read as backs at 47 and more. The
#: median colour instead of the commonest turned two pale backs of a concealed kong (riichi spread) into white
#: dragons.
BLANK_FACE_DISTANCE = 30.0
BLANK_NEIGHBOURS = 4
#: About how many pixels of a tile its ground colour is taken from (a tile of a 12-megapixel photo has 100,000).
GROUND_PIXELS = 2048
#: The mirrorings the detector's outputs can be averaged over (``model.json``: ``detector.flips``): the axes
#: of the input (N, C, H, W) each one reverses, and the order its box sides (left, top, right, bottom) take
#: once mirrored back.
FLIPS: dict[str, tuple[tuple[int, ...], list[int]]] = {
    "horizontal": ((3,), [2, 1, 0, 3]),
    "vertical": ((2,), [0, 3, 2, 1]),
}
#: The smallest side of the detector input: a rescaled picture thinner than this lies on a grey canvas (the
#: grey of the training windows' margins).
MIN_INPUT = 128


class ModelNotFoundError(FileNotFoundError):
    """The model folder or one of its files is missing."""


class ModelError(RuntimeError):
    """The model files exist but cannot be used (corrupt, or from an incompatible version)."""


def classifier_files(meta: dict[str, Any]) -> list[str]:
    """The classifier files a model description (``model.json``) names: ``classifier.files``, or the one
    ``classifier.file`` of model folders from before several classifiers."""
    cls = meta["classifier"]
    files = cls["files"] if "files" in cls else [cls["file"]]
    if not isinstance(files, list) or not files or not all(isinstance(name, str) for name in files):
        raise TypeError("classifier.files must list one file name or more")
    return list(files)


def _resize_to(image: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """``image`` resized to ``shape`` (height, width) without keeping its proportions, averaging pixels when
    shrinking.

    A picture more than twice the size on a side is first reduced bilinearly to twice the size: area averaging
    by a whole factor is fast, by any other costly (2016 x 1512 to 512 x 512: 3 ms this way, 13 ms directly,
    on the 2-core machine; F1 on hk-photos/valid enlarged threefold 0.959 either way).
    """
    h, w = image.shape[:2]
    th, tw = shape
    if h > 2 * th or w > 2 * tw:
        image = cv2.resize(image, (min(2 * tw, w), min(2 * th, h)), interpolation=cv2.INTER_LINEAR)
    shrink = image.shape[0] >= th and image.shape[1] >= tw
    return cv2.resize(image, (tw, th), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def _multiple(value: float, step: int) -> int:
    """``value`` rounded to a multiple of ``step``, at least ``step``."""
    return max(step, int(round(value / step)) * step)


def crop_tiles(image: np.ndarray, boxes: np.ndarray, size: int = 64, margin: float = 0.1) -> np.ndarray:
    """Each box of ``image`` with ``margin`` (a fraction of its width and height) added on every side, resized
    to ``size`` x ``size`` (not keeping proportions), as float32 (N, 3, size, size) in 0..255.

    Parts of a box outside the picture are filled by repeating its border.
    """
    out = np.empty((len(boxes), size, size, 3), np.uint8)
    h, w = image.shape[:2]
    for i, (x1, y1, x2, y2) in enumerate(np.asarray(boxes, np.float64)):
        bw, bh = max(x2 - x1, 1.0), max(y2 - y1, 1.0)
        ax1, ay1 = int(np.floor(x1 - margin * bw)), int(np.floor(y1 - margin * bh))
        ax2, ay2 = int(np.ceil(x2 + margin * bw)), int(np.ceil(y2 + margin * bh))
        cx1, cy1, cx2, cy2 = max(ax1, 0), max(ay1, 0), min(ax2, w), min(ay2, h)
        if cx2 - cx1 < 1 or cy2 - cy1 < 1:
            out[i] = 0
            continue
        crop = image[cy1:cy2, cx1:cx2]
        if (cx1, cy1, cx2, cy2) != (ax1, ay1, ax2, ay2):
            crop = cv2.copyMakeBorder(crop, cy1 - ay1, ay2 - cy2, cx1 - ax1, ax2 - cx2, cv2.BORDER_REPLICATE)
        shrink = crop.shape[0] > size and crop.shape[1] > size
        out[i] = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    return out.transpose(0, 3, 1, 2).astype(np.float32)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best first."""
    return _greedy_keep(np.argsort(-scores), box_iou(boxes, boxes) > iou)


def _greedy_keep(order: np.ndarray, suppresses: np.ndarray) -> np.ndarray:
    """The indices of ``order`` kept one after the other, each unless one kept before it suppresses it
    (``suppresses``, N x N, symmetric), in that order."""
    keep: list[int] = []
    suppressed = np.zeros(len(suppresses), bool)
    for i in order:
        if suppressed[i]:
            continue
        keep.append(int(i))
        suppressed |= suppresses[i]
    return np.array(keep, np.int64)


def local_peaks(heat: np.ndarray) -> np.ndarray:
    """``heat`` (h, w) where a cell is the largest of its 3 x 3 neighbourhood, zero elsewhere."""
    padded = np.pad(heat, 1, constant_values=-np.inf)
    h, w = heat.shape
    largest = np.max([padded[i : i + h, j : j + w] for i in range(3) for j in range(3)], axis=0)
    return np.where(heat >= largest, heat, 0.0)


def decode_heatmap(
    heat: np.ndarray, sides: np.ndarray, stride: int, threshold: float, max_tiles: int
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (xyxy, detector input pixels) and scores from the detector's outputs for one picture.

    heat: (h, w) tile-centre probabilities; a tile is a local maximum of at least ``threshold``.
    sides: (4, h, w) distances from each cell's centre to the left, top, right and bottom sides of its box,
    in input pixels.
    """
    peaks = local_peaks(heat)
    ys, xs = np.nonzero(peaks >= max(threshold, 1e-6))
    scores = peaks[ys, xs]
    if len(scores) > max_tiles:
        top = np.argsort(-scores)[:max_tiles]
        ys, xs, scores = ys[top], xs[top], scores[top]
    cx, cy = (xs + 0.5) * stride, (ys + 0.5) * stride
    d = sides[:, ys, xs]
    boxes = np.stack([cx - d[0], cy - d[1], cx + d[2], cy + d[3]], axis=1)
    return boxes.astype(np.float32), scores.astype(np.float32)


class TileModel:
    """The ONNX tile model: one onnxruntime session per network, created once.

    model_dir: the folder with ``model.json`` and the ONNX files (default: the repository's ``models/``).
    threads: onnxruntime threads per session (default: all cores, at most 4).
    """

    def __init__(self, model_dir: Path | None = None, threads: int | None = None) -> None:
        self.model_dir = Path(model_dir) if model_dir is not None else DEFAULT_MODEL_DIR
        self.meta = self.describe(self.model_dir)
        self.threads = threads or min(os.cpu_count() or 1, 4)
        det, cls = self.meta["detector"], self.meta["classifier"]
        self.input_size = int(det["input"])
        self.stride = int(det["stride"])
        self.threshold = float(det["threshold"])
        self.nms_iou = float(det["nms_iou"])
        self.max_tiles = int(det["max_tiles"])
        # model folders from before the mirrored readings read the input once
        self.flips = list(det.get("flips", []))
        self.crop_size = int(cls["input"])
        self.margin = float(cls["margin"])
        self.reject = float(cls["reject"])
        # model folders from before the floor was set keep every tile
        self.min_score = float(cls.get("min_score", 0.0))
        self.batch = int(cls.get("batch", 32))
        self._detector = self._session(self.model_dir / det["file"])
        self._classifiers = [self._session(self.model_dir / name) for name in classifier_files(self.meta)]

    @staticmethod
    def describe(model_dir: Path | None = None) -> dict[str, Any]:
        """The contents of ``model.json`` of a model folder, checked, without loading the networks."""
        folder = Path(model_dir) if model_dir is not None else DEFAULT_MODEL_DIR
        path = folder / MODEL_JSON
        if not path.is_file():
            raise ModelNotFoundError(
                f"no tile model in {folder}: {MODEL_JSON} is missing "
                "(train one with `python -m vision.training --data DATA_DIR --out models/`)"
            )
        try:
            meta = json.loads(path.read_text())
            files = [meta["detector"]["file"], *classifier_files(meta)]
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ModelError(f"{path} is not a tile model description: {exc}") from exc
        missing = [name for name in files if not (folder / name).is_file()]
        if missing:
            raise ModelNotFoundError(f"tile model files missing in {folder}: {', '.join(missing)}")
        unknown = set(meta["detector"].get("flips", [])) - set(FLIPS)
        if unknown:
            raise ModelError(f"{path}: unknown detector flips {sorted(unknown)} (known: {', '.join(FLIPS)})")
        if tuple(meta.get("classes", ())) != CLASSES:
            raise ModelError(f"{path}: the model's classes are not the 46 classes of this version of mjscan")
        return meta

    def _session(self, path: Path):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # threads sleep between runs instead of spinning: the cores are shared (server workers, other jobs)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for unreadable models
            raise ModelError(f"cannot load {path}: {exc}") from exc

    @property
    def info(self) -> dict[str, Any]:
        """Name, version, classes and files of the model, for ``/healthz`` and reports."""
        det = self.meta["detector"]
        return {
            "name": self.meta["name"],
            "version": self.meta["version"],
            "classes": list(CLASSES),
            "files": [det["file"], *classifier_files(self.meta)],
            "detector_input": self.input_size,
            "detector_flips": list(self.flips),
            "classifier_input": self.crop_size,
            "threads": self.threads,
        }

    def find(
        self,
        image: np.ndarray,
        shape: tuple[int, int] | None = None,
        threshold: float | None = None,
        margin: int = 0,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (xyxy, pixels of ``image``) and detection scores, before the tiles are read.

        shape: the picture's size at the detector (height, width), multiples of 32; default the square the
        detector was trained on, the photo squeezed to it.
        threshold: the lowest detection score kept (default the model's).
        margin: grey pixels (a multiple of 16) laid around the picture on every side; the picture also lies on
        grey where it is thinner than ``MIN_INPUT``.
        The detector reads the input once, and once more for each of the model's ``flips``, averaging the
        outputs mirrored back.
        """
        _check_image(image)
        h, w = image.shape[:2]
        shape = shape or (self.input_size, self.input_size)
        small = _resize_to(image, shape)
        if margin or min(shape) < MIN_INPUT:
            height, width = (max(side + 2 * margin, MIN_INPUT) for side in shape)
            canvas = np.full((height, width, 3), 114, np.uint8)
            canvas[margin : margin + shape[0], margin : margin + shape[1]] = small
            small = canvas
        x = np.ascontiguousarray(small.transpose(2, 0, 1)[None], np.float32)
        heat, sides = self._run_detector(x)
        for flip in self.flips:
            axes, order = FLIPS[flip]
            flipped_heat, flipped_sides = self._run_detector(np.ascontiguousarray(np.flip(x, axes)))
            heat = heat + np.flip(flipped_heat, axes)
            sides = sides + np.flip(flipped_sides[:, order], axes)
        heat, sides = heat / (len(self.flips) + 1), sides / (len(self.flips) + 1)
        threshold = self.threshold if threshold is None else threshold
        boxes, scores = decode_heatmap(heat[0, 0], sides[0], self.stride, threshold, self.max_tiles)
        if len(boxes):
            keep = nms(boxes, scores, self.nms_iou)
            boxes, scores = boxes[keep] - margin, scores[keep]
        boxes = boxes * np.array([w / shape[1], h / shape[0], w / shape[1], h / shape[0]], np.float32)
        boxes = np.clip(boxes, 0, [w, h, w, h]).astype(np.float32)
        return boxes, scores

    def find_in_windows(self, image: np.ndarray) -> tuple[tuple[int, int], np.ndarray, np.ndarray]:
        """The picture read in 2 x 2 windows overlapping by ``WINDOWS_OVERLAP`` of its sides, each squeezed to the
        detector's square (``find``); the boxes of all four (pixels of ``image``) with overlapping ones suppressed
        as ``find`` suppresses them. Returns the size (height, width) of an input that would show the whole
        picture at the windows' scale, the boxes and their scores."""
        h, w = image.shape[:2]
        wh, ww = round(h * (1 + WINDOWS_OVERLAP) / 2), round(w * (1 + WINDOWS_OVERLAP) / 2)
        boxes, scores = [], []
        for top in (0, h - wh):
            for left in (0, w - ww):
                found, found_scores = self.find(np.ascontiguousarray(image[top : top + wh, left : left + ww]))
                boxes.append(found + np.array([left, top, left, top], np.float32))
                scores.append(found_scores)
        all_boxes, all_scores = np.concatenate(boxes), np.concatenate(scores)
        keep = nms(all_boxes, all_scores, self.nms_iou) if len(all_boxes) else np.zeros(0, np.int64)
        shape = (round(self.input_size * h / wh), round(self.input_size * w / ww))
        return shape, all_boxes[keep], all_scores[keep]

    def _run_detector(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The detector's heatmap (1, 1, h, w) and box sides (1, 4, h, w) for one input (1, 3, H, W)."""
        heat, sides = self._detector.run(None, {self._detector.get_inputs()[0].name: x})
        return heat, sides

    @property
    def input_step(self) -> int:
        """What the sides of a detector input must be multiples of (its deepest stride, four times the output's)."""
        return self.stride * 4

    def unstretched_shape(
        self, boxes: np.ndarray, shape: tuple[int, int], size: tuple[int, int]
    ) -> tuple[int, int] | None:
        """The detector input (height, width) that gives the tiles in ``boxes`` (xyxy, pixels of a picture of
        ``size`` (height, width), found with the input ``shape``) the proportions of the training photos'
        tiles; None where they have them already (``TILE_ASPECT_RANGE``) or are fewer than
        ``MIN_TILES_TO_REREAD``."""
        if len(boxes) < MIN_TILES_TO_REREAD:
            return None
        (sh, sw), (h, w) = shape, size
        aspect = tile_aspect(boxes) * (sw / w) / (sh / h)
        if TILE_ASPECT_RANGE[0] <= aspect <= TILE_ASPECT_RANGE[1]:
            return None
        ratio = (sw / w) / (sh / h) * TILE_ASPECT / aspect  # x scale over y scale of the new input
        k = self.input_size / max(w * ratio, h)
        return (_multiple(h * k, self.input_step), _multiple(w * ratio * k, self.input_step))

    def zoom_window(
        self, boxes: np.ndarray, shape: tuple[int, int], size: tuple[int, int]
    ) -> tuple[tuple[int, int, int, int], tuple[int, int]] | None:
        """The region of a picture of ``size`` (height, width) to read again enlarged, and its detector input
        (height, width), for tiles in ``boxes`` (xyxy, picture pixels) found with the input ``shape``: the
        tiles' region with ``ZOOM_MARGIN`` tiles around it, scaled (keeping the proportions of ``shape``) to
        give them ``ZOOM_TILE`` pixels. None where they have that size already, where the input's limit
        ``ZOOM_MAX_INPUT`` leaves nothing to gain, or for fewer than ``MIN_TILES_TO_REREAD`` tiles."""
        if len(boxes) < MIN_TILES_TO_REREAD:
            return None
        (sh, sw), (h, w) = shape, size
        fx, fy = sw / w, sh / h
        bw, bh = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
        gain = ZOOM_TILE / max(_median_side(boxes, shape, size), 1e-3)
        mw, mh = ZOOM_MARGIN * float(np.median(bw)), ZOOM_MARGIN * float(np.median(bh))
        x1, y1 = max(0, int(boxes[:, 0].min() - mw)), max(0, int(boxes[:, 1].min() - mh))
        x2, y2 = min(w, int(np.ceil(boxes[:, 2].max() + mw))), min(h, int(np.ceil(boxes[:, 3].max() + mh)))
        height, width = (y2 - y1) * fy * gain, (x2 - x1) * fx * gain
        limit = min(1.0, ZOOM_MAX_INPUT / max(height, width))
        if gain * limit <= 1.05:
            return None
        return (x1, y1, x2, y2), (_multiple(height * limit, self.input_step), _multiple(width * limit, self.input_step))

    def classify(self, image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities (N, 47: the 46 classes then "not a tile") and orientation probabilities (N, 4:
        0, 90, 180, 270 degrees clockwise) of the tiles in ``boxes`` (xyxy, pixels of ``image``).

        A tile read with less than ``SECOND_LOOK_BELOW`` for its likeliest class is read a second time
        turned half round, and the two readings are averaged (the turn taken back).
        """
        _check_image(image)
        crops = crop_tiles(image, boxes, self.crop_size, self.margin)
        classes, turns = self._classify_crops(crops)
        unsure = np.nonzero(classes[:, : len(CLASSES)].max(axis=1, initial=0.0) < SECOND_LOOK_BELOW)[0]
        if len(unsure):
            again, again_turns = self._classify_crops(np.ascontiguousarray(crops[unsure, :, ::-1, ::-1]))
            classes[unsure] = (classes[unsure] + again) / 2
            turns[unsure] = (turns[unsure] + again_turns[:, [2, 3, 0, 1]]) / 2
        return classes, turns

    def _classify_crops(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The two outputs for crops (N, 3, size, size), in batches, averaged over the model's classifiers."""
        n = len(crops)
        classes = np.zeros((n, len(CLASSES) + 1), np.float32)
        turns = np.zeros((n, 4), np.float32)
        for classifier in self._classifiers:
            name = classifier.get_inputs()[0].name
            for start in range(0, n, self.batch):
                c, o = classifier.run(None, {name: crops[start : start + self.batch]})
                classes[start : start + len(c)] += c
                turns[start : start + len(c)] += o
        return classes / len(self._classifiers), turns / len(self._classifiers)

    def detect(self, image: np.ndarray, timings: dict[str, float] | None = None) -> Detections:
        """Every tile in an RGB uint8 picture (H, W, 3) of any size, in its pixels.

        ``scores`` are the detection score times the probability of the class read; ``rotated`` is true where
        the face lies sideways (turned 90 or 270 degrees), ``orientation`` gives the turn, ``face_down`` marks
        tiles showing their backs. ``timings`` (when given) receives "detect" and "classify" in milliseconds.

        Where the tiles found are far from the proportions the detector knows (a picture stretched, as
        datasets resized without keeping proportions hold, or flat tiles seen at a grazing angle), the photo
        is read again rescaled to give its tiles the usual proportions (at most twice), and the reading
        whose tiles have the higher mean score is kept. Where the tiles of that reading are small at the
        detector's input, the region holding them is read once more enlarged (``zoom_window``), and kept
        where its tiles score higher. A large photo whose first reading finds few or tiny tiles (a hand far off)
        is also read in four overlapping windows (``find_in_windows``, ``WINDOWS_FROM``): the region enlarged is
        then the one the windows' tiles give, and the windows' sure tiles join the answer where it has none (as
        ``borrow`` takes those of every reading not kept). Tiles scoring under the model's
        ``min_score`` are left out, and the reading kept takes the sure tiles the others found where it found
        none (``borrow``). A tile boxed twice under one code is given once (``drop_twins``).
        """
        size = image.shape[:2]
        shape = (self.input_size, self.input_size)
        spent = {"detect": 0.0, "classify": 0.0}

        def read(
            picture: np.ndarray, shape: tuple[int, int], offset: tuple[int, int], known=None, margin: int = 0
        ) -> tuple:
            """Boxes, classes and turns of one reading (the picture at ``shape`` with ``margin`` around it), its
            ``Detections``, and the boxes that hint at the picture's stretch (``STRETCH_HINT_THRESHOLD``); tiles
            boxed alike in the reading ``known`` keep what it read."""
            t0 = time.perf_counter()
            hints, det_scores = self.find(picture, shape, min(self.threshold, STRETCH_HINT_THRESHOLD), margin)
            hints = hints + np.array([*offset, *offset], np.float32)
            sure = det_scores >= self.threshold
            raw, reading = read_tiles(hints[sure], det_scores[sure], known, t0)
            return raw, reading, hints

        def read_tiles(boxes: np.ndarray, det_scores: np.ndarray, known, t0: float) -> tuple:
            """Classes and turns of the tiles ``boxes`` found since ``t0`` (those boxed alike in ``known`` keep
            what it read), and their ``Detections``."""
            t1 = time.perf_counter()
            probs = np.zeros((len(boxes), len(CLASSES) + 1), np.float32)
            turns = np.zeros((len(boxes), 4), np.float32)
            new = np.ones(len(boxes), bool)
            if known is not None and len(boxes) and len(known[0]):
                overlap = box_iou(boxes, known[0])
                same = overlap.max(axis=1) >= SAME_BOX_IOU
                twin = overlap.argmax(axis=1)[same]
                probs[same], turns[same] = known[1][twin], known[2][twin]
                new = ~same
            probs[new], turns[new] = self.classify(image, boxes[new])
            spent["detect"] += (t1 - t0) * 1000.0
            spent["classify"] += (time.perf_counter() - t1) * 1000.0
            return (boxes, probs, turns), self._readings(boxes, det_scores, probs, turns)

        readings = []
        margin = 0
        for _ in range(3):
            raw, reading, hints = read(image, shape, (0, 0), margin=margin)
            margin = REREAD_MARGIN if _touches_edge(hints, size) else 0
            readings.append((reading, shape, raw))
            next_shape = self.unstretched_shape(hints, shape, size)
            if next_shape is None or next_shape == shape:
                break
            shape = next_shape
        best, shape, raw = max(readings, key=lambda item: _quality(item[0]))
        others = [reading for reading, _, _ in readings if reading is not best]
        zoom = None
        first = readings[0][2][0]
        if max(size) >= WINDOWS_FROM and (
            len(first) < MIN_TILES_TO_REREAD or _median_side(first, readings[0][1], size) < WINDOWS_BELOW
        ):
            t0 = time.perf_counter()
            windows_shape, boxes, det_scores = self.find_in_windows(image)
            windows_raw, windows = read_tiles(boxes, det_scores, None, t0)
            others.append(windows)
            zoom = self.zoom_window(windows.boxes, windows_shape, size)
            if zoom is not None:
                raw = windows_raw
        if zoom is None:
            zoom = self.zoom_window(best.boxes, shape, size)
        if zoom is not None:
            (x1, y1, x2, y2), zoom_shape = zoom
            _, zoomed, _ = read(np.ascontiguousarray(image[y1:y2, x1:x2]), zoom_shape, (x1, y1), raw)
            kept = max(best, zoomed, key=_quality)
            others.append(best if kept is zoomed else zoomed)
            best = kept
        if timings is not None:
            timings.update(spent)
        return blank_faces(image, drop_twins(borrow(best.subset(best.scores >= self.min_score), others)))

    def _readings(self, boxes: np.ndarray, det_scores: np.ndarray, probs: np.ndarray, turns: np.ndarray) -> Detections:
        tile_probs = probs[:, : len(CLASSES)]
        keep = probs[:, len(CLASSES)] < self.reject
        class_ids = tile_probs.argmax(axis=1)
        scores = det_scores * tile_probs[np.arange(len(class_ids)), class_ids]
        orientation = turns.argmax(axis=1) * 90
        back = class_ids == CLASSES.index("back")
        sideways = (turns[:, 1] + turns[:, 3]) > 0.5
        order = np.argsort(-scores[keep], kind="stable")
        idx = np.nonzero(keep)[0][order]
        return Detections(
            boxes=boxes[idx].astype(np.float32),
            scores=scores[idx].astype(np.float32),
            class_ids=class_ids[idx].astype(np.int64),
            rotated=sideways[idx],
            orientation=orientation[idx].astype(np.int16),
            face_down=back[idx],
            turns=turns[idx].astype(np.float32),
            probs=tile_probs[idx].astype(np.float32),
        )


def borrow(kept: Detections, others: list[Detections]) -> Detections:
    """``kept`` with the tiles of ``others`` scoring at least ``BORROW_SCORE`` where neither it nor a tile
    taken before boxed anything (IoU under ``BORROW_IOU``, and covering under ``BORROW_COVER`` of each box), the
    surest first; ordered by score."""
    candidates = [reading.subset(reading.scores >= BORROW_SCORE) for reading in others]
    pool = Detections.concat([kept, *candidates])
    order = np.argsort(-pool.scores[len(kept) :], kind="stable") + len(kept)
    taken = list(range(len(kept)))
    for i in order:
        box, before = pool.boxes[i : i + 1], pool.boxes[taken]
        covered = box_intersection(box, before) / np.maximum(np.prod(before[:, 2:] - before[:, :2], axis=1), 1e-9)
        if not taken or (box_iou(box, before).max() < BORROW_IOU and covered.max() < BORROW_COVER):
            taken.append(int(i))
    chosen = np.array(taken, np.int64)
    return pool.subset(chosen[np.argsort(-pool.scores[chosen], kind="stable")])


def _ground_colour(image: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The commonest colour of the middle half of a box (xyxy) of ``image``: the mean of its pixels in the
    fullest bin of RGB cut in 8 levels a channel. A face's ground, not its ink, even where ink covers half of it
    (a median there is pulled towards the ink). A large box is read on a grid of about ``GROUND_PIXELS``
    pixels."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    height, width = image.shape[:2]
    left, top = min(max(int(x1 + w / 4), 0), width - 1), min(max(int(y1 + h / 4), 0), height - 1)
    right = max(min(int(np.ceil(x2 - w / 4)), width), left + 1)
    bottom = max(min(int(np.ceil(y2 - h / 4)), height), top + 1)
    step = max(1, int(np.sqrt((bottom - top) * (right - left) / GROUND_PIXELS)))
    pixels = image[top:bottom:step, left:right:step].reshape(-1, 3)
    bins = (pixels[:, 0] >> 5).astype(np.int64) * 64 + (pixels[:, 1] >> 5) * 8 + (pixels[:, 2] >> 5)
    return pixels[bins == np.bincount(bins).argmax()].mean(axis=0)


def blank_faces(image: np.ndarray, detections: Detections) -> Detections:
    """``detections`` of ``image`` with each tile read face down whose colour is that of the faces around it
    (``BLANK_FACE_DISTANCE``) read as the white dragon 5z, face up; unchanged where fewer than two tiles are
    face up."""
    back, white = CLASSES.index("back"), CLASSES.index("5z")
    backs = np.nonzero(detections.class_ids == back)[0]
    faces = np.nonzero(detections.class_ids != back)[0]
    if not len(backs) or len(faces) < 2:
        return detections
    centres = (detections.boxes[:, :2] + detections.boxes[:, 2:]) / 2
    colours: dict[int, np.ndarray] = {}  # of the faces next to a back only
    class_ids = detections.class_ids.copy()
    for i in backs:
        near = faces[np.argsort(np.linalg.norm(centres[faces] - centres[i], axis=1), kind="stable")[:BLANK_NEIGHBOURS]]
        for j in near:
            if j not in colours:
                colours[j] = _ground_colour(image, detections.boxes[j])
        around = np.median(np.array([colours[j] for j in near]), axis=0)
        if np.linalg.norm(_ground_colour(image, detections.boxes[i]) - around) < BLANK_FACE_DISTANCE:
            class_ids[i] = white
    if np.array_equal(class_ids, detections.class_ids):
        return detections
    return replace(detections, class_ids=class_ids, face_down=class_ids == back)


def drop_twins(detections: Detections) -> Detections:
    """``detections`` without each tile that a surer one of the same code boxes with IoU at least ``TWIN_IOU``
    and whose centre lies closer to it than ``TWIN_NEAR`` of the tile spacing (one tile boxed twice); where every
    tile has one code, no spacing is known and the IoU decides alone. The order is kept."""
    same = detections.class_ids[:, None] == detections.class_ids[None, :]
    twins = same & (box_iou(detections.boxes, detections.boxes) >= TWIN_IOU)
    if not same.all():
        centres = (detections.boxes[:, :2] + detections.boxes[:, 2:]) / 2
        apart = np.linalg.norm(centres[:, None] - centres[None, :], axis=2)
        spacing = float(np.median(np.where(same, np.inf, apart).min(axis=1)))
        twins &= apart < TWIN_NEAR * spacing
    return detections.subset(np.sort(_greedy_keep(np.argsort(-detections.scores, kind="stable"), twins)))


def tile_aspect(boxes: np.ndarray) -> float:
    """The median width over height of the tiles ``boxes`` (xyxy; the geometric median, so a ratio and its inverse
    weigh alike): about 1 for photos' tiles, far from ``TILE_ASPECT_RANGE`` in a stretched picture."""
    sides = np.maximum(boxes[:, 2:] - boxes[:, :2], 1e-3)
    return float(np.exp(np.median(np.log(sides[:, 0] / sides[:, 1]))))


def _median_side(boxes: np.ndarray, shape: tuple[int, int], size: tuple[int, int]) -> float:
    """The median side (the root of width times height) of tiles ``boxes`` (xyxy, pixels of a picture of ``size``
    (height, width)) at a detector input of ``shape`` (height, width)."""
    (sh, sw), (h, w) = shape, size
    fx, fy = sw / w, sh / h
    return float(np.median(np.sqrt((boxes[:, 2] - boxes[:, 0]) * fx * (boxes[:, 3] - boxes[:, 1]) * fy)))


def _touches_edge(boxes: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether any box (xyxy) comes within ``EDGE_SHARE`` of a side of a picture of ``size`` (height, width)."""
    h, w = size
    if not len(boxes):
        return False
    near = np.array([EDGE_SHARE * w, EDGE_SHARE * h, (1 - EDGE_SHARE) * w, (1 - EDGE_SHARE) * h])
    return bool(np.any(boxes[:, :2] <= near[:2]) or np.any(boxes[:, 2:] >= near[2:]))


def _quality(reading: Detections) -> float:
    """How well a reading went: the mean score of its tiles (a stretched picture read as it is gives many
    weak boxes; the same picture rescaled gives fewer, surer ones)."""
    return float(reading.scores.mean()) if len(reading.scores) else 0.0


def _check_image(image: np.ndarray) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("the tile model reads an RGB picture: a uint8 array of shape (height, width, 3)")
    if image.shape[0] < 8 or image.shape[1] < 8:
        raise ValueError(f"picture too small for the tile model: {image.shape[1]} x {image.shape[0]} pixels")
