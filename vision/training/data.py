"""The training sources under the shared data folder, read into plain arrays.

- ``hk-photos/{train,valid}``: YOLO labels (boxes, or polygons from the rotation augmentation, or empty files),
  class indices mapped to tile codes by ``hk-photos/classes.json``.
- ``hk-crops``: single-tile photos with ``labels.csv`` (image, code).
- ``art-riichi-cc0`` and ``art-riichi-flowers-ccby``: PNG exports of vector faces, ``Regular`` and ``Black``
  bodies, named ``Man1``, ``Pin5-Dora``, ``Flower3``, ``Back`` ...
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from vision.types import CLASS_INDEX

#: Art file stems that are tile faces, with their codes.
ART_CODES: dict[str, str] = {
    **{f"Man{n}": f"{n}m" for n in range(1, 10)},
    **{f"Pin{n}": f"{n}p" for n in range(1, 10)},
    **{f"Sou{n}": f"{n}s" for n in range(1, 10)},
    "Ton": "1z",
    "Nan": "2z",
    "Shaa": "3z",
    "Pei": "4z",
    "Haku": "5z",
    "Hatsu": "6z",
    "Chun": "7z",
    "Man5-Dora": "0m",
    "Pin5-Dora": "0p",
    "Sou5-Dora": "0s",
    **{f"Flower{n}": f"{n}f" for n in range(1, 5)},
    **{f"Season{n}": f"{n + 4}f" for n in range(1, 5)},
}

ART_FOLDERS = ("art-riichi-cc0", "art-riichi-flowers-ccby")


class DataError(ValueError):
    """A training source that is missing or unreadable."""


@dataclass
class LabeledImage:
    """One photo with its tile boxes (pixels, xyxy) and class indices into ``CLASSES``."""

    path: Path
    boxes: np.ndarray
    class_ids: np.ndarray

    @property
    def group(self) -> str:
        """The source photo this (possibly augmented) image was made from (Roboflow names ``X_jpg.rf.HASH``)."""
        return self.path.name.split(".rf.")[0]


@dataclass
class ArtSet:
    """One body style of the art (``Regular`` or ``Black``): face overlays, the front and the back body."""

    name: str
    front: np.ndarray
    back: np.ndarray
    faces: dict[str, np.ndarray]


def read_classes(path: Path) -> dict[int, int]:
    """A ``classes.json`` (source index -> tile code) as source index -> index into ``CLASSES``."""
    try:
        mapping = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"cannot read class map {path}: {exc}") from exc
    unknown = [code for code in mapping.values() if code not in CLASS_INDEX]
    if unknown:
        raise DataError(f"{path}: unknown tile codes {unknown}")
    return {int(k): CLASS_INDEX[v] for k, v in mapping.items()}


def parse_yolo_line(line: str, width: int, height: int) -> tuple[int, np.ndarray] | None:
    """One YOLO label line (``c x y w h`` or a polygon ``c x1 y1 x2 y2 ...``) as (class, pixel box xyxy)."""
    parts = line.split()
    if not parts:
        return None
    values = np.array([float(v) for v in parts[1:]], np.float64)
    if len(values) == 4:
        x, y, w, h = values
        box = np.array([x - w / 2, y - h / 2, x + w / 2, y + h / 2])
    elif len(values) >= 6 and len(values) % 2 == 0:
        xs, ys = values[0::2], values[1::2]
        box = np.array([xs.min(), ys.min(), xs.max(), ys.max()])
    else:
        raise DataError(f"bad YOLO label line: {line!r}")
    box = np.clip(box, 0.0, 1.0) * np.array([width, height, width, height])
    return int(parts[0]), box.astype(np.float32)


def load_yolo_split(split_dir: Path, classes_json: Path) -> list[LabeledImage]:
    """Every image of ``split_dir/images`` with its labels from ``split_dir/labels`` (missing file = no tiles)."""
    mapping = read_classes(classes_json)
    images_dir, labels_dir = split_dir / "images", split_dir / "labels"
    if not images_dir.is_dir():
        raise DataError(f"no images folder at {images_dir}")
    out = []
    for path in sorted(images_dir.iterdir()):
        if path.suffix.lower() not in (".jpg", ".jpeg", ".png", ".webp"):
            continue
        try:
            with Image.open(path) as header:
                width, height = header.size
        except OSError as exc:
            raise DataError(f"cannot read image {path}: {exc}") from exc
        boxes, ids = [], []
        label = labels_dir / (path.stem + ".txt")
        if label.is_file():
            for line in label.read_text().splitlines():
                parsed = parse_yolo_line(line, width, height)
                if parsed is None:
                    continue
                cls, box = parsed
                if cls not in mapping:
                    raise DataError(f"{label}: class {cls} not in {classes_json}")
                if box[2] - box[0] >= 2 and box[3] - box[1] >= 2:
                    boxes.append(box)
                    ids.append(mapping[cls])
        out.append(LabeledImage(path, np.array(boxes, np.float32).reshape(-1, 4), np.array(ids, np.int64).reshape(-1)))
    return out


def load_crops(crops_dir: Path) -> list[tuple[np.ndarray, int]]:
    """The single-tile photos of ``hk-crops`` as (RGB image, class index)."""
    table = crops_dir / "labels.csv"
    if not table.is_file():
        raise DataError(f"no labels.csv in {crops_dir}")
    out = []
    with table.open(newline="") as handle:
        for row in csv.DictReader(handle):
            image = cv2.imread(str(crops_dir / "images" / row["image"]))
            if image is None:
                raise DataError(f"cannot read {crops_dir / 'images' / row['image']}")
            out.append((cv2.cvtColor(image, cv2.COLOR_BGR2RGB), CLASS_INDEX[row["code"]]))
    return out


def _read_rgba(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise DataError(f"cannot read RGBA art {path}")
    return cv2.cvtColor(image, cv2.COLOR_BGRA2RGBA)


def load_art(data_dir: Path) -> list[ArtSet]:
    """The art faces of both art folders, one ``ArtSet`` per body style (a face found in both folders is read once).

    Flowers and seasons exist only in the ``Regular`` style; every code has a face in at least one set.
    """
    sets: dict[str, ArtSet] = {}
    for folder in ART_FOLDERS:
        export = data_dir / folder / "Export"
        if not export.is_dir():
            raise DataError(f"no art at {export}")
        for style_dir in sorted(p for p in export.iterdir() if p.is_dir()):
            for path in sorted(style_dir.glob("*.png")):
                name = style_dir.name
                if name not in sets:
                    sets[name] = ArtSet(
                        name, _read_rgba(style_dir / "Front.png"), _read_rgba(style_dir / "Back.png"), {}
                    )
                if path.stem in ART_CODES and ART_CODES[path.stem] not in sets[name].faces:
                    sets[name].faces[ART_CODES[path.stem]] = _read_rgba(path)
    missing = set(ART_CODES.values()) - {code for s in sets.values() for code in s.faces}
    if not sets or missing:
        raise DataError(f"art faces missing for {sorted(missing) or 'every tile'} under {data_dir}")
    return list(sets.values())
