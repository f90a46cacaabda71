"""The data types that flow through the vision pipeline.

`Detections` is the one type every detector produces and every consumer (layout, annotation,
evaluation, dataset export) reads: parallel numpy arrays, one row per tile found. ``box_iou`` is the overlap of
boxes they all measure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: The 46 classes of the tile model, in model output order: 34 tile kinds, red fives,
#: flowers and seasons, and a face-down tile. Codes are those of contracts.md.
CLASSES: tuple[str, ...] = (
    *(f"{n}m" for n in range(1, 10)),
    *(f"{n}p" for n in range(1, 10)),
    *(f"{n}s" for n in range(1, 10)),
    *(f"{n}z" for n in range(1, 8)),
    "0m",
    "0p",
    "0s",
    *(f"{n}f" for n in range(1, 9)),
    "back",
)
CLASS_INDEX: dict[str, int] = {code: i for i, code in enumerate(CLASSES)}


@dataclass
class Detections:
    """Tiles found in one image, in pixel coordinates of that image.

    boxes: (N, 4) float32 x1, y1, x2, y2. scores: (N,) float32 in [0, 1].
    class_ids: (N,) int indices into CLASSES. rotated: (N,) bool, the tile lies sideways
    (its long side horizontal in an upright row), as a claimed tile in a called meld does.
    orientation: (N,) int16 how far the face is turned clockwise in the image: 0, 90, 180 or 270 degrees
    (its top points up, right, down, left); when not given, 90 where ``rotated`` and 0 elsewhere.
    face_down: (N,) bool the tile shows its back; when not given, where the class is ``back``.
    turns: (N, 4) float32 the classifier's probabilities of those four turns, in that order (a face lying
    between two quarter turns, as in a row running across the picture's diagonal, shares its probability
    between them); when not given, all on ``orientation``.
    probs: (N, 46) float32 the classifiers' probabilities of the classes (``CLASSES``), from which the codes were
    read (a code changed after, as a blank face read as the white dragon, leaves them as read); when not given,
    all on ``class_ids``.
    """

    boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    scores: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))
    class_ids: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.int64))
    rotated: np.ndarray = field(default_factory=lambda: np.zeros((0,), bool))
    orientation: np.ndarray | None = None
    face_down: np.ndarray | None = None
    turns: np.ndarray | None = None
    probs: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.orientation is None:
            self.orientation = np.where(np.asarray(self.rotated, bool), 90, 0).astype(np.int16)
        if self.face_down is None:
            self.face_down = np.asarray(self.class_ids) == CLASS_INDEX["back"]
        if self.turns is None:
            quarter = (np.asarray(self.orientation, np.int64) // 90) % 4
            self.turns = np.eye(4, dtype=np.float32)[quarter].reshape(-1, 4)
        if self.probs is None:
            self.probs = np.eye(len(CLASSES), dtype=np.float32)[np.asarray(self.class_ids, np.int64)].reshape(
                -1, len(CLASSES)
            )

    def __len__(self) -> int:
        return int(self.boxes.shape[0])

    @property
    def codes(self) -> list[str]:
        return [CLASSES[i] for i in self.class_ids]

    @staticmethod
    def concat(parts: list[Detections]) -> Detections:
        """The detections of ``parts`` one after the other."""
        return Detections(
            np.concatenate([p.boxes for p in parts]).astype(np.float32),
            np.concatenate([p.scores for p in parts]).astype(np.float32),
            np.concatenate([p.class_ids for p in parts]).astype(np.int64),
            np.concatenate([p.rotated for p in parts]).astype(bool),
            np.concatenate([p.orientation for p in parts]).astype(np.int16),
            np.concatenate([p.face_down for p in parts]).astype(bool),
            np.concatenate([p.turns for p in parts]).astype(np.float32),
            np.concatenate([p.probs for p in parts]).astype(np.float32),
        )

    def subset(self, mask: np.ndarray) -> Detections:
        """The detections selected by a boolean mask or an index array."""
        return Detections(
            self.boxes[mask],
            self.scores[mask],
            self.class_ids[mask],
            self.rotated[mask],
            self.orientation[mask],
            self.face_down[mask],
            self.turns[mask],
            self.probs[mask],
        )


def box_intersection(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The area shared by every box of ``a`` (N, 4) with every box of ``b`` (M, 4), xyxy: an (N, M) array."""
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    return np.prod(np.clip(rb - lt, 0, None), axis=2)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over union of every box of ``a`` (N, 4) with every box of ``b`` (M, 4), xyxy: an (N, M)
    array (0 where both boxes are empty)."""
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    inter = box_intersection(a, b)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
