"""Dataset formats as pure conversions of ``Detections``: YOLO, COCO and Label Studio.

Each function takes what the model found in one photo (or in many) and returns text or JSON-ready objects;
writing files is the batch labeller's job (``vision.label``). Boxes are clipped to the picture first, so
that every format says the same thing about the same photo.

- YOLO: one text line per tile, ``class cx cy w h`` normalised to [0, 1], class indices into ``CLASSES``
  (``classes_txt`` / ``data_yaml`` name them), the layout Ultralytics and Roboflow import.
- COCO: one detection document; ``bbox`` is ``[x, y, width, height]`` in pixels, categories 1..46 named by
  tile code in ``CLASSES`` order, each annotation carries the model's ``score``.
- Label Studio: one task per photo with the model's boxes as a prediction (``rectanglelabels`` in percent
  of the picture), for the labelling interface of ``labelstudio_config``.

A box scored under ``review_below`` is tagged for review: ``"review": true`` on a COCO annotation, the
region meta text ``review`` and the task field ``data.review`` in Label Studio, and a line of
``review_lines`` (the list written beside every format).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import quoteattr

import numpy as np

from vision.types import CLASSES, Detections

#: The names of the labelling interface's tags (``labelstudio_config``); the predictions refer to them.
LS_FROM_NAME, LS_TO_NAME = "tile", "image"
#: The region meta text that marks a box for review in Label Studio.
REVIEW_TAG = "review"


@dataclass(frozen=True)
class LabelledImage:
    """One labelled photo: its path relative to the source folder (POSIX), its size after EXIF orientation
    and the detections in its pixels."""

    path: str
    width: int
    height: int
    detections: Detections


def clip_boxes(boxes: np.ndarray, width: int, height: int) -> np.ndarray:
    """``boxes`` (N, 4) xyxy as float64, clipped to a ``width`` x ``height`` picture."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4).copy()
    b[:, [0, 2]] = b[:, [0, 2]].clip(0, width)
    b[:, [1, 3]] = b[:, [1, 3]].clip(0, height)
    return b


def yolo_lines(det: Detections, width: int, height: int) -> str:
    """YOLO label text: ``class cx cy w h`` per tile (6 decimals), normalised to [0, 1]."""
    if not len(det):
        return ""
    b = clip_boxes(det.boxes, width, height) / np.array([width, height, width, height], np.float64)
    cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    rows = zip(det.class_ids.tolist(), cx.tolist(), cy.tolist(), w.tolist(), h.tolist(), strict=True)
    return "".join(f"{c} {x:.6f} {y:.6f} {ww:.6f} {hh:.6f}\n" for c, x, y, ww, hh in rows)


def classes_txt() -> str:
    """``classes.txt``: one tile code per line, line n naming class index n."""
    return "".join(f"{code}\n" for code in CLASSES)


def data_yaml(root: str) -> str:
    """An Ultralytics / Roboflow ``data.yaml``: the dataset root, ``images/`` for training and validation
    (a first pass of labels is one split; divide it after review) and the 46 class names."""
    names = "\n".join(f"  {i}: {code!r}" for i, code in enumerate(CLASSES))
    return f"path: {_yaml_string(root)}\ntrain: images\nval: images\nnc: {len(CLASSES)}\nnames:\n{names}\n"


def _yaml_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def coco_document(
    images: Iterable[LabelledImage], review_below: float | None = None, image_root: str | None = None
) -> dict[str, Any]:
    """One COCO detection document: images (``file_name`` relative to ``image_root``), annotations (``bbox``
    x y w h in pixels, ``area``, ``score``) and the categories named by tile code (ids 1..46 in CLASSES
    order). Annotations scored under ``review_below`` carry ``"review": true``."""
    out_images: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    for image_id, item in enumerate(images, start=1):
        out_images.append({"id": image_id, "file_name": item.path, "width": item.width, "height": item.height})
        det = item.detections
        b = clip_boxes(det.boxes, item.width, item.height)
        for box, cls, score in zip(b.tolist(), det.class_ids.tolist(), det.scores.tolist(), strict=True):
            w, h = box[2] - box[0], box[3] - box[1]
            ann: dict[str, Any] = {
                "id": len(annotations) + 1,
                "image_id": image_id,
                "category_id": cls + 1,
                "bbox": [round(box[0], 2), round(box[1], 2), round(w, 2), round(h, 2)],
                "area": round(w * h, 2),
                "iscrowd": 0,
                "score": round(score, 4),
            }
            if review_below is not None and score < review_below:
                ann["review"] = True
            annotations.append(ann)
    info: dict[str, Any] = {"description": "mjscan pre-annotations", "version": "1.0"}
    if image_root is not None:
        info["image_root"] = image_root
    return {
        "info": info,
        "licenses": [],
        "images": out_images,
        "annotations": annotations,
        "categories": [{"id": i + 1, "name": code, "supercategory": "tile"} for i, code in enumerate(CLASSES)],
    }


def labelstudio_task(
    item: LabelledImage, image_url: str, model_version: str, review_below: float | None = None
) -> dict[str, Any]:
    """One Label Studio task with the model's boxes as a prediction (``rectanglelabels`` in percent).

    The prediction's ``score`` is that of its least sure tile (1.0 for a photo without tiles), so that
    sorting the Data Manager by prediction score brings the photos that need a look first. Boxes under
    ``review_below`` get the region meta text ``review``; ``data.review`` is true when any box needs review
    and ``data.review_count`` says how many, so a reviewer can filter on them.
    """
    det = item.detections
    b = clip_boxes(det.boxes, item.width, item.height)
    results: list[dict[str, Any]] = []
    to_review = 0
    for i, (box, cls, score) in enumerate(zip(b.tolist(), det.class_ids.tolist(), det.scores.tolist(), strict=True)):
        region: dict[str, Any] = {
            "id": f"t{i}",
            "type": "rectanglelabels",
            "from_name": LS_FROM_NAME,
            "to_name": LS_TO_NAME,
            "original_width": item.width,
            "original_height": item.height,
            "image_rotation": 0,
            "value": {
                "x": round(100 * box[0] / item.width, 4),
                "y": round(100 * box[1] / item.height, 4),
                "width": round(100 * (box[2] - box[0]) / item.width, 4),
                "height": round(100 * (box[3] - box[1]) / item.height, 4),
                "rotation": 0,
                "rectanglelabels": [CLASSES[cls]],
            },
            "score": round(score, 4),
        }
        if review_below is not None and score < review_below:
            region["meta"] = {"text": [REVIEW_TAG]}
            to_review += 1
        results.append(region)
    least = round(float(det.scores.min()), 4) if len(det) else 1.0
    return {
        "data": {"image": image_url, "path": item.path, "review": to_review > 0, "review_count": to_review},
        "predictions": [{"model_version": model_version, "score": least, "result": results}],
    }


def labelstudio_config() -> str:
    """The Label Studio labelling interface (XML) that the tasks' predictions refer to: the photo and one
    rectangle label per tile code."""
    labels = "\n".join(f"    <Label value={quoteattr(code)}/>" for code in CLASSES)
    return (
        "<View>\n"
        f'  <Image name="{LS_TO_NAME}" value="$image" zoom="true"/>\n'
        f'  <RectangleLabels name="{LS_FROM_NAME}" toName="{LS_TO_NAME}">\n{labels}\n  </RectangleLabels>\n'
        "</View>\n"
    )


def url_for(path: str, prefix: str) -> str:
    """The URL of a photo for Label Studio: ``prefix`` followed by the URL-quoted ``path`` (POSIX)."""
    return prefix + quote(path)


def review_lines(item: LabelledImage, review_below: float) -> list[str]:
    """The boxes of one photo scored under ``review_below``, one tab-separated line each: photo path, tile
    code, score and the box x1 y1 x2 y2 in pixels."""
    det = item.detections
    low = np.nonzero(det.scores < review_below)[0]
    b = clip_boxes(det.boxes, item.width, item.height)
    return [
        f"{item.path}\t{CLASSES[det.class_ids[i]]}\t{det.scores[i]:.4f}\t" + " ".join(f"{v:.1f}" for v in b[i])
        for i in low.tolist()
    ]
