"""Measuring a tile detector against labelled photos (YOLO labels).

The call for a folder of photos::

    from vision.detector import TileModel
    from vision.evaluate import evaluate_folder

    report = evaluate_folder(TileModel().detect, "valid/images", "valid/labels", "classes.json")
    print(report.format())          # or report.to_json()

``detect`` is any callable taking an H x W x 3 uint8 RGB array and returning ``vision.types.Detections``
in that array's pixels. For photos or renders already in memory, feed an ``Evaluation`` yourself::

    ev = Evaluation()
    ev.add(detect(rgb), GroundTruth.from_detections(labels))   # once per image
    report = ev.report()

What is counted:

- a labelled tile is found (true positive) when a predicted box of the same code overlaps it with
  IoU >= 0.5; predictions are matched greedily one to one, highest score first;
- precision, recall and F1 over all tiles, and per code;
- confusion pairs: a prediction of the wrong code on a labelled tile (IoU >= 0.5), counted as (label, prediction);
- exact-hand accuracy over the images with exactly 13 or 14 labels: the multiset of predicted codes
  equals the labelled one;
- the labelled tiles by size (``SIZE_BANDS``: the short side of the label's box in the picture read): how many
  were found, given a wrong code or missed, which tells a model that lacks pixels (the small bands lose most)
  from one that has not learnt a face (the large bands lose as much);
- predictions that touch no labelled box at all (IoU < 0.1 with every label) are counted as
  ``unlabelled_predictions``: some photos have tiles nobody boxed. They are false positives unless
  ``ignore_unlabelled`` is set;
- where a set also boxes the tiles its pictures show but its labels leave out (``unlabelled``: the rendered sets
  box faces seen too obliquely, mostly hidden or cut by the picture's edge), a prediction lying on one (at least
  ``ON_UNLABELLED`` of its area inside its box) and on no labelled tile (IoU < 0.5 with each) counts neither
  way: it is left out and counted as ``on_unlabelled_tiles``.

``codes`` restricts the evaluation to the codes a model knows (for a peer model with fewer classes):
labels of other codes are dropped together with any prediction on them, and images holding such labels
are left out of exact-hand accuracy.

The images folder is walked with its subfolders; the label file of ``images/a/b.jpg`` is ``labels/a/b.txt``
(the layout ``mjscan label --format yolo`` writes). A label line is ``class cx cy w h``
(normalised) or a polygon ``class x1 y1 x2 y2 x3 y3 ...`` read as its bounding box. ``classes.json`` maps
class index to tile code, as a dict (``{"0": "5f", ...}``) or a list.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from vision.annotate import GREEN, GREY, ORANGE, RED, Box, draw_boxes, to_jpeg
from vision.io import IMAGE_SUFFIXES, ImageError, decode_image
from vision.recognize import DECODE_SIDE
from vision.types import CLASS_INDEX, CLASSES, Detections, box_intersection, box_iou

Detector = Callable[[np.ndarray], Detections]

#: IoU at which a prediction counts as lying on a labelled tile.
IOU_THRESHOLD = 0.5
#: Below this IoU with every label a prediction is "unlabelled" (it lies where nobody boxed a tile).
UNLABELLED_IOU = 0.1
#: A prediction with at least this share of its area inside the box of a tile shown but not labelled lies on it.
ON_UNLABELLED = 0.5
#: Label counts of the images used for exact-hand accuracy.
HAND_SIZES = (13, 14)
#: Edges of the size bands of the report, in pixels: the short side of a labelled box in the picture read (a large
#: JPEG is read at reduced scale, ``DECODE_SIDE``).
SIZE_BANDS = (20, 28, 36, 48)


class LabelError(ValueError):
    """A label or classes file that cannot be read; the message names the file and line."""


@dataclass
class GroundTruth:
    """The labelled tiles of one image: boxes (N, 4) xyxy in pixels and their codes; ``unlabelled``: boxes (M, 4)
    of tiles the image shows that are not labelled (a prediction on one counts neither way)."""

    boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    codes: list[str] = field(default_factory=list)
    unlabelled: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))

    @classmethod
    def from_detections(cls, labels: Detections) -> GroundTruth:
        """Labels written as a Detections (e.g. by a scene renderer); scores and rotation are ignored."""
        return cls(np.asarray(labels.boxes, np.float32).reshape(-1, 4), labels.codes)

    def __len__(self) -> int:
        return len(self.codes)


@dataclass
class ImageMatch:
    """How the predictions of one image met its labels. Indices k (predictions) and j (labels) refer to
    those kept after the ``codes`` restriction: ``pred_codes[k]`` is ``predicted.codes[pred_index[k]]``.
    ``unlabelled``: how many kept predictions touch no labelled box (dropped when ``ignore_unlabelled``);
    ``left_out``: the predictions (indices into ``predicted``) that lay on a tile shown but not labelled
    (dropped)."""

    pred_codes: list[str]
    truth_codes: list[str]
    pred_index: list[int]
    truth_index: list[int]
    matches: list[tuple[int, int]]
    false_positives: list[int]
    false_negatives: list[int]
    confusions: list[tuple[int, int]]
    unlabelled: int
    hand_checked: bool
    hand_exact: bool
    left_out: list[int] = field(default_factory=list)

    @property
    def perfect(self) -> bool:
        return not self.false_positives and not self.false_negatives

    @property
    def on_unlabelled(self) -> int:
        """How many predictions lay on a tile shown but not labelled (dropped)."""
        return len(self.left_out)


def match_image(
    predicted: Detections,
    truth: GroundTruth,
    *,
    iou_threshold: float = IOU_THRESHOLD,
    codes: Iterable[str] | None = None,
    ignore_unlabelled: bool = False,
) -> ImageMatch:
    """Match one image's predictions to its labels (see the module docstring for the rules)."""
    known = set(codes) if codes is not None else None
    pred_boxes = np.asarray(predicted.boxes, np.float64).reshape(-1, 4)
    pred_codes = predicted.codes
    pred_scores = np.asarray(predicted.scores, np.float64).reshape(-1)
    keep_truth = [j for j, c in enumerate(truth.codes) if known is None or c in known]
    dropped_truth = sorted(set(range(len(truth))) - set(keep_truth))
    overlap_all = box_iou(pred_boxes, truth.boxes)
    keep_pred = []
    for i, code in enumerate(pred_codes):
        if known is not None and code not in known:
            continue
        if dropped_truth and overlap_all[i, dropped_truth].max() >= iou_threshold:
            continue
        keep_pred.append(i)
    left_out = []
    if len(truth.unlabelled) and keep_pred:
        inside = share_inside(pred_boxes[keep_pred], truth.unlabelled).max(axis=1) >= ON_UNLABELLED
        on_labels = overlap_all[keep_pred].max(axis=1, initial=0.0) >= iou_threshold
        leave = inside & ~on_labels
        left_out = [i for i, off in zip(keep_pred, leave, strict=True) if off]
        keep_pred = [i for i, off in zip(keep_pred, leave, strict=True) if not off]
    unlabelled_all = [i for i in keep_pred if len(truth) == 0 or overlap_all[i].max() < UNLABELLED_IOU]
    if ignore_unlabelled:
        drop = set(unlabelled_all)
        keep_pred = [i for i in keep_pred if i not in drop]
    p_codes = [pred_codes[i] for i in keep_pred]
    t_codes = [truth.codes[j] for j in keep_truth]
    overlap = (
        overlap_all[np.ix_(keep_pred, keep_truth)]
        if keep_pred and keep_truth
        else np.zeros((len(keep_pred), len(keep_truth)))
    )
    order = sorted(range(len(keep_pred)), key=lambda k: -pred_scores[keep_pred[k]])
    truth_free = np.ones(len(keep_truth), bool)
    matches: list[tuple[int, int]] = []
    unmatched: list[int] = []
    for k in order:
        candidates = [
            j
            for j in range(len(keep_truth))
            if truth_free[j] and t_codes[j] == p_codes[k] and overlap[k, j] >= iou_threshold
        ]
        if candidates:
            j = max(candidates, key=lambda j: overlap[k, j])
            truth_free[j] = False
            matches.append((k, j))
        else:
            unmatched.append(k)
    confusions: list[tuple[int, int]] = []
    confusion_free = truth_free.copy()
    for k in unmatched:
        candidates = [
            j
            for j in range(len(keep_truth))
            if confusion_free[j] and t_codes[j] != p_codes[k] and overlap[k, j] >= iou_threshold
        ]
        if candidates:
            j = max(candidates, key=lambda j: overlap[k, j])
            confusion_free[j] = False
            confusions.append((k, j))
    checked = len(truth) in HAND_SIZES and not dropped_truth
    return ImageMatch(
        pred_codes=p_codes,
        truth_codes=t_codes,
        pred_index=keep_pred,
        truth_index=keep_truth,
        matches=matches,
        false_positives=unmatched,
        false_negatives=[j for j in range(len(keep_truth)) if truth_free[j]],
        confusions=confusions,
        unlabelled=len(unlabelled_all),
        hand_checked=checked,
        hand_exact=checked and Counter(p_codes) == Counter(t_codes),
        left_out=left_out,
    )


def share_inside(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M): the share of the area of each box of ``a`` (N, 4, xyxy) that lies inside each box of ``b``."""
    a = np.asarray(a, np.float64).reshape(-1, 4)
    area = np.maximum((a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]), 1e-9)
    return box_intersection(a, b) / area[:, None]


@dataclass
class ClassFigures:
    """Counts and figures of one code."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def support(self) -> int:
        return self.tp + self.fn

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp, self.fn == 0)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.tp + self.fn, self.fp == 0)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "support": self.support,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


@dataclass
class SizeBand:
    """The labelled tiles whose box's short side is at least ``low`` and under ``high`` pixels (None: no upper
    end), and what became of them."""

    low: int
    high: int | None
    labels: int = 0
    right: int = 0
    wrong_code: int = 0

    @property
    def missed(self) -> int:
        return self.labels - self.right - self.wrong_code

    @property
    def name(self) -> str:
        if not self.low:
            return f"under {self.high} px"
        return f"{self.low} px and over" if self.high is None else f"{self.low}-{self.high} px"

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.low,
            "to": self.high,
            "labels": self.labels,
            "right": self.right,
            "wrong_code": self.wrong_code,
            "missed": self.missed,
            "recall": round(self.right / self.labels, 4) if self.labels else None,
        }


def _ratio(num: int, den: int, empty_is_perfect: bool) -> float:
    if den:
        return num / den
    return 1.0 if empty_is_perfect else 0.0


@dataclass
class EvaluationReport:
    """The figures of one evaluation; ``to_json()`` for machines, ``format()`` for people."""

    images: int
    labels: int
    predictions: int
    total: ClassFigures
    per_class: dict[str, ClassFigures]
    confusions: list[tuple[str, str, int]]
    hands_checked: int
    hands_exact: int
    unlabelled_predictions: int
    ignore_unlabelled: bool
    images_without_labels: int = 0
    on_unlabelled_tiles: int = 0
    unreadable: list[str] = field(default_factory=list)
    detect_ms: list[float] = field(default_factory=list)
    by_size: list[SizeBand] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.total.precision

    @property
    def recall(self) -> float:
        return self.total.recall

    @property
    def f1(self) -> float:
        return self.total.f1

    @property
    def errors(self) -> dict[str, int]:
        """Where the errors lie: a found tile given a wrong code (one false positive and one false negative
        each), a labelled tile no box found, a box where no labelled tile is."""
        wrong = sum(n for _, _, n in self.confusions)
        return {"wrong_code": wrong, "tile_missed": self.total.fn - wrong, "box_on_no_tile": self.total.fp - wrong}

    @property
    def hand_accuracy(self) -> float | None:
        """Exact-hand accuracy, or None when no image has 13 or 14 labels."""
        return self.hands_exact / self.hands_checked if self.hands_checked else None

    def to_json(self) -> dict[str, Any]:
        """All figures as a JSON-ready dict."""
        out: dict[str, Any] = {
            "images": self.images,
            "labels": self.labels,
            "predictions": self.predictions,
            **{k: v for k, v in self.total.to_json().items() if k != "support"},
            "errors": self.errors,
            "hands": {
                "checked": self.hands_checked,
                "exact": self.hands_exact,
                "accuracy": None if self.hand_accuracy is None else round(self.hand_accuracy, 4),
            },
            "per_class": {c: f.to_json() for c, f in sorted(self.per_class.items(), key=lambda kv: _code_order(kv[0]))},
            "confusions": [{"label": t, "predicted": p, "count": n} for t, p, n in self.confusions],
            "by_size": [band.to_json() for band in self.by_size],
            "unlabelled_predictions": self.unlabelled_predictions,
            "ignore_unlabelled": self.ignore_unlabelled,
            "on_unlabelled_tiles": self.on_unlabelled_tiles,
            "images_without_labels": self.images_without_labels,
            "unreadable": list(self.unreadable),
        }
        if self.detect_ms:
            out["detect_ms"] = {
                "median": round(statistics.median(self.detect_ms), 1),
                "p95": round(_percentile(self.detect_ms, 95), 1),
            }
        return out

    def format(self, per_class: bool = True, top_confusions: int = 15) -> str:
        """The figures as text for a terminal."""
        t = self.total
        lines = [
            f"images {self.images}, labelled tiles {self.labels}, predicted tiles {self.predictions}",
            f"tiles: precision {t.precision:.4f}  recall {t.recall:.4f}  F1 {t.f1:.4f}  "
            f"(tp {t.tp}, fp {t.fp}, fn {t.fn})",
        ]
        e = self.errors
        lines.append(
            f"errors: {e['wrong_code']} found tiles with a wrong code, {e['tile_missed']} tiles not found, "
            f"{e['box_on_no_tile']} boxes where no tile is"
        )
        acc = self.hand_accuracy
        lines.append(
            f"exact hands: {self.hands_exact}/{self.hands_checked}"
            + (f" = {acc:.4f}" if acc is not None else "")
            + " (images with 13 or 14 labels)"
        )
        if self.unlabelled_predictions:
            how = (
                "left out of precision"
                if self.ignore_unlabelled
                else "counted as false positives (--ignore-unlabelled leaves them out)"
            )
            lines.append(f"{self.unlabelled_predictions} predictions lie where no tile is labelled: {how}")
        if self.on_unlabelled_tiles:
            lines.append(
                f"{self.on_unlabelled_tiles} predictions lie on tiles shown but not labelled (--unlabelled): left out"
            )
        if self.images_without_labels:
            lines.append(f"{self.images_without_labels} images have no label file: read as photos without tiles")
        if self.unreadable:
            lines.append(f"{len(self.unreadable)} images could not be read: " + ", ".join(self.unreadable[:5]))
        if self.detect_ms:
            median, p95 = statistics.median(self.detect_ms), _percentile(self.detect_ms, 95)
            lines.append(f"detect time: median {median:.1f} ms, 95th percentile {p95:.1f} ms")
        if self.confusions:
            lines.append("confusions (label -> predicted: count):")
            lines.extend(f"  {tc:>4} -> {pc:<4} {n}" for tc, pc, n in self.confusions[:top_confusions])
            if len(self.confusions) > top_confusions:
                lines.append(f"  ... and {len(self.confusions) - top_confusions} more pairs")
        if any(band.labels for band in self.by_size):
            lines.append("by tile size (the short side of the label):")
            lines.append(f"  {'':>14}  {'labels':>7}  {'right':>7}  {'wrong code':>10}  {'missed':>7}  recall")
            lines.extend(
                f"  {band.name:>14}  {band.labels:7d}  {band.right:7d}  {band.wrong_code:10d}  {band.missed:7d}"
                f"  {band.right / band.labels:.4f}"
                for band in self.by_size
                if band.labels
            )
        if per_class and self.per_class:
            lines.append("per code:   support    prec  recall      F1")
            for code, f in sorted(self.per_class.items(), key=lambda kv: _code_order(kv[0])):
                lines.append(f"  {code:>4}    {f.support:7d}  {f.precision:.4f}  {f.recall:.4f}  {f.f1:.4f}")
        return "\n".join(lines)


def _code_order(code: str) -> int:
    return CLASS_INDEX.get(code, len(CLASSES))


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, np.float64), q))


class Evaluation:
    """Accumulates image matches into an EvaluationReport."""

    def __init__(
        self,
        *,
        iou_threshold: float = IOU_THRESHOLD,
        codes: Iterable[str] | None = None,
        ignore_unlabelled: bool = False,
    ) -> None:
        self.iou_threshold = iou_threshold
        self.codes = None if codes is None else frozenset(codes)
        self.ignore_unlabelled = ignore_unlabelled
        self._per_class: dict[str, ClassFigures] = {}
        self._confusions: Counter[tuple[str, str]] = Counter()
        self._images = self._labels = self._predictions = self._unlabelled = self._on_unlabelled = 0
        self._hands_checked = self._hands_exact = 0
        self.images_without_labels = 0
        self.unreadable: list[str] = []
        self.detect_ms: list[float] = []
        self._bands = [SizeBand(low, high) for low, high in zip((0, *SIZE_BANDS), (*SIZE_BANDS, None), strict=True)]

    def add(self, predicted: Detections, truth: GroundTruth) -> ImageMatch:
        """Score one image and add it to the totals."""
        m = match_image(
            predicted,
            truth,
            iou_threshold=self.iou_threshold,
            codes=self.codes,
            ignore_unlabelled=self.ignore_unlabelled,
        )
        self._images += 1
        self._labels += len(m.truth_codes)
        self._predictions += len(m.pred_codes)
        self._unlabelled += m.unlabelled
        self._on_unlabelled += m.on_unlabelled
        for k, _ in m.matches:
            self._cls(m.pred_codes[k]).tp += 1
        for k in m.false_positives:
            self._cls(m.pred_codes[k]).fp += 1
        for j in m.false_negatives:
            self._cls(m.truth_codes[j]).fn += 1
        for k, j in m.confusions:
            self._confusions[(m.truth_codes[j], m.pred_codes[k])] += 1
        right, wrong = {j for _, j in m.matches}, {j for _, j in m.confusions}
        boxes = truth.boxes[m.truth_index].reshape(-1, 4)
        sides = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        for j, number in enumerate(np.searchsorted(SIZE_BANDS, sides, side="right")):
            band = self._bands[number]
            band.labels += 1
            band.right += j in right
            band.wrong_code += j in wrong
        self._hands_checked += m.hand_checked
        self._hands_exact += m.hand_exact
        return m

    def _cls(self, code: str) -> ClassFigures:
        return self._per_class.setdefault(code, ClassFigures())

    def report(self) -> EvaluationReport:
        """The figures so far."""
        total = ClassFigures(
            sum(f.tp for f in self._per_class.values()),
            sum(f.fp for f in self._per_class.values()),
            sum(f.fn for f in self._per_class.values()),
        )
        return EvaluationReport(
            images=self._images,
            labels=self._labels,
            predictions=self._predictions,
            total=total,
            per_class=dict(self._per_class),
            confusions=[(t, p, n) for (t, p), n in sorted(self._confusions.items(), key=lambda kv: (-kv[1], kv[0]))],
            hands_checked=self._hands_checked,
            hands_exact=self._hands_exact,
            unlabelled_predictions=self._unlabelled,
            ignore_unlabelled=self.ignore_unlabelled,
            images_without_labels=self.images_without_labels,
            on_unlabelled_tiles=self._on_unlabelled,
            unreadable=list(self.unreadable),
            detect_ms=list(self.detect_ms),
            by_size=[replace(band) for band in self._bands],
        )


def read_classes(source: str | Path | Mapping[Any, str] | Sequence[str]) -> dict[int, str]:
    """classes.json (a path, or its loaded content): class index -> tile code. Raises LabelError."""
    where = "classes"
    if isinstance(source, str | Path):
        where = str(source)
        try:
            source = json.loads(Path(source).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise LabelError(f"{where}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise LabelError(f"{where}: cannot read it ({exc})") from None
        except json.JSONDecodeError as exc:
            raise LabelError(f"{where} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if isinstance(source, Mapping):
        items = list(source.items())
    elif isinstance(source, Sequence) and not isinstance(source, str):
        items = list(enumerate(source))
    else:
        raise LabelError(f"{where} must map class index to tile code: a JSON object or list")
    out: dict[int, str] = {}
    for key, code in items:
        try:
            index = int(key)
        except (TypeError, ValueError):
            raise LabelError(f"{where}: class index {key!r} is not a whole number") from None
        if code not in CLASS_INDEX:
            raise LabelError(f"{where}: class {index} is {code!r}, which is no tile code (like 3p, 7z, 2f, back)")
        out[index] = code
    return out


def read_yolo_labels(path: str | Path, width: int, height: int, classes: Mapping[int, str]) -> GroundTruth:
    """A YOLO label file as boxes in pixels of a width x height image. Raises LabelError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelError(f"{path}: cannot read it ({exc})") from None
    boxes: list[tuple[float, float, float, float]] = []
    codes: list[str] = []
    for n, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls = int(parts[0])
            values = [float(v) for v in parts[1:]]
        except ValueError:
            raise LabelError(f"{path}:{n}: expected numbers, got {line.strip()!r}") from None
        if cls not in classes:
            raise LabelError(f"{path}:{n}: class {cls} is not in classes.json")
        if len(values) == 4:
            cx, cy, w, h = values
            x1, y1, x2, y2 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
        elif len(values) >= 6 and len(values) % 2 == 0:
            xs, ys = values[0::2], values[1::2]
            x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
        else:
            raise LabelError(f"{path}:{n}: a line is 'class cx cy w h' or a polygon 'class x1 y1 x2 y2 x3 y3 ...'")
        x1, x2 = (min(max(v, 0.0), 1.0) * width for v in (x1, x2))
        y1, y2 = (min(max(v, 0.0), 1.0) * height for v in (y1, y2))
        if x2 <= x1 or y2 <= y1:
            raise LabelError(f"{path}:{n}: the box has no area")
        boxes.append((x1, y1, x2, y2))
        codes.append(classes[cls])
    return GroundTruth(np.asarray(boxes, np.float32).reshape(-1, 4), codes)


def read_unlabelled(
    folder: Path | None, relative: Path, width: int, height: int, classes: Mapping[int, str]
) -> np.ndarray:
    """The boxes (M, 4, pixels of a width x height image) of the tiles the photo ``relative`` (its path under the
    images folder) shows but its labels leave out: the YOLO file of the same path in ``folder``; none (0, 4) where
    ``folder`` is None or holds no such file. Raises LabelError."""
    path = folder / relative.with_suffix(".txt") if folder is not None else None
    if path is None or not path.is_file():
        return np.zeros((0, 4), np.float32)
    return read_yolo_labels(path, width, height, classes).boxes


#: The parts of a hand ``compare_hands`` checks, in the order reported.
HAND_PARTS = ("concealed", "melds", "win_tile", "flowers")


def compare_hands(read: Mapping[str, Any], truth: Mapping[str, Any]) -> dict[str, bool]:
    """Which parts of a hand read from a photo (the ``hand`` of the recognition JSON) are those of the hand it
    shows: ``concealed`` and ``flowers`` as multisets, ``melds`` as a multiset of (type, its tiles as a multiset,
    open or not), ``win_tile``; and ``hand``, all four."""

    def melds(hand: Mapping[str, Any]) -> Counter:
        return Counter((m["type"], tuple(sorted(m["tiles"])), bool(m.get("open", True))) for m in hand["melds"])

    parts = {
        "concealed": Counter(read["concealed"]) == Counter(truth["concealed"]),
        "melds": melds(read) == melds(truth),
        "win_tile": read["win_tile"] == truth["win_tile"],
        "flowers": Counter(read["flowers"]) == Counter(truth["flowers"]),
    }
    return {**parts, "hand": all(parts.values())}


def add_set_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that name a labelled set, as the evaluation scripts take them: ``--images``, ``--labels`` (its
    YOLO label files) and ``--classes`` (its classes.json), all three required."""
    parser.add_argument("--images", type=Path, required=True, help="folder of photos")
    parser.add_argument("--labels", type=Path, required=True, help="folder of YOLO label files")
    parser.add_argument("--classes", type=Path, required=True, help="classes.json: class index -> tile code")


def classes_for_new_set(classes: Path, out: Path) -> dict[int, str]:
    """The classes of a labelled set (``read_classes``) that a script makes a new set from in ``out``, once ``out``
    is known to be new or empty, so that nothing is written over. Raises LabelError."""
    if out.exists() and any(out.iterdir()):
        raise LabelError(f"{out} is not empty")
    return read_classes(classes)


def list_images(folder: str | Path) -> list[Path]:
    """The photos in a folder and its subfolders (by suffix), sorted by their path."""
    return sorted(p for p in Path(folder).rglob("*") if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def evaluate_folder(
    detect: Detector,
    images: str | Path,
    labels: str | Path,
    classes: str | Path | Mapping[Any, str] | Sequence[str],
    *,
    iou_threshold: float = IOU_THRESHOLD,
    codes: Iterable[str] | None = None,
    ignore_unlabelled: bool = False,
    unlabelled: str | Path | None = None,
    errors_dir: str | Path | None = None,
    limit: int | None = None,
    progress: bool = True,
    reduce_to: int | None = DECODE_SIDE,
) -> EvaluationReport:
    """Run ``detect`` on every photo of a folder and score it against the YOLO labels.

    Each photo is decoded as ``vision.recognize`` decodes it (a large JPEG at reduced scale, long side at
    least ``reduce_to``; None decodes every photo whole), and the labels are scaled to the decoded picture.
    errors_dir: a folder (new or empty) that receives an annotated picture of every image with a miss or a
    false positive (see ``error_image``). limit: the first N photos only. progress: a progress bar on
    standard error. Raises LabelError for bad folders, classes or label files; a photo that cannot be read
    is listed in the report's ``unreadable`` and skipped. unlabelled: a folder of YOLO files, laid out as
    ``labels``, boxing the tiles each photo shows but its labels leave out (a photo without one has none), as
    ``python -m vision.training.render`` writes them.
    """
    class_map = read_classes(classes)
    images, labels = Path(images), Path(labels)
    unlabelled = Path(unlabelled) if unlabelled is not None else None
    for folder, what in ((images, "images"), (labels, "labels"), (unlabelled, "unlabelled")):
        if folder is not None and not folder.is_dir():
            raise LabelError(f"{what} folder {folder} does not exist")
    out_dir = _prepare_errors_dir(errors_dir) if errors_dir is not None else None
    paths = list_images(images)[:limit]
    if not paths:
        raise LabelError(f"no photos ({', '.join(IMAGE_SUFFIXES)}) in {images}")
    ev = Evaluation(iou_threshold=iou_threshold, codes=codes, ignore_unlabelled=ignore_unlabelled)
    for path in tqdm(paths, desc="evaluate", unit="photo", disable=not progress):
        try:
            decoded = decode_image(path, reduce_to=reduce_to)
        except ImageError as exc:
            ev.unreadable.append(f"{path.relative_to(images)} ({exc.message})")
            continue
        relative = path.relative_to(images)
        label_path = labels / relative.with_suffix(".txt")
        height, width = decoded.rgb.shape[:2]
        if label_path.is_file():
            truth = read_yolo_labels(label_path, width, height, class_map)
        else:
            truth = GroundTruth()
            ev.images_without_labels += 1
        truth.unlabelled = read_unlabelled(unlabelled, relative, width, height, class_map)
        start = time.perf_counter()
        predicted = detect(decoded.rgb)
        ev.detect_ms.append((time.perf_counter() - start) * 1000.0)
        m = ev.add(predicted, truth)
        if out_dir is not None and not m.perfect:
            picture = to_jpeg(error_image(decoded.rgb, predicted, truth, m))
            (out_dir / "__".join(relative.with_suffix(".jpg").parts)).write_bytes(picture)
    return ev.report()


def _prepare_errors_dir(folder: str | Path) -> Path:
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise LabelError(f"--errors {out} is a file; give a folder")
    if out.is_dir() and any(out.iterdir()):
        raise LabelError(f"the errors folder {out} is not empty; give a new or empty folder so nothing is overwritten")
    out.mkdir(parents=True, exist_ok=True)
    return out


def error_image(rgb: np.ndarray, predicted: Detections, truth: GroundTruth, match: ImageMatch) -> np.ndarray:
    """A picture of one image's errors: found tiles thin green, missed labels red (``miss label``), wrong or
    extra predictions dashed orange (``predicted≠label`` for a confusion, ``predicted?`` for an extra box), and
    predictions left out as lying on a tile shown but not labelled thin dashed grey (``predicted (unlabelled)``)."""
    confused = dict(match.confusions)
    boxes: list[Box] = []
    for _, j in match.matches:
        boxes.append(Box(_box(truth.boxes[match.truth_index[j]]), match.truth_codes[j], GREEN, thick=0.5))
    misread = {j for _, j in match.confusions}
    for j in match.false_negatives:
        text = "" if j in misread else "miss " + match.truth_codes[j]
        boxes.append(Box(_box(truth.boxes[match.truth_index[j]]), text, RED))
    for k in match.false_positives:
        code = match.pred_codes[k]
        text = f"{code}≠{match.truth_codes[confused[k]]}" if k in confused else code + "?"
        boxes.append(Box(_box(predicted.boxes[match.pred_index[k]]), text, ORANGE, dashed=True))
    for i in match.left_out:
        code = predicted.codes[i] + " (unlabelled)"
        boxes.append(Box(_box(predicted.boxes[i]), code, GREY, thick=0.5, dashed=True))
    lines = [f"found {len(match.matches)} of {len(match.truth_codes)}; wrong or extra {len(match.false_positives)}"]
    if match.left_out:
        lines.append(f"{len(match.left_out)} on tiles shown but not labelled, left out")
    return draw_boxes(rgb, boxes, lines=lines)


def _box(row: np.ndarray) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = (float(v) for v in row)
    return (x1, y1, x2, y2)
