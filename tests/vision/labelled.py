"""The committed test photos and a stand-in for the tile model that answers with their labels."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from vision.evaluate import GroundTruth, read_classes, read_yolo_labels
from vision.io import load_image
from vision.types import CLASS_INDEX, Detections

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "datasets" / "hk-sample"


def photos() -> list[Path]:
    return sorted((SAMPLE / "images").glob("*.jpg"))


def sample(name: str) -> tuple[np.ndarray, GroundTruth]:
    """The committed photo ``name`` as OpenCV reads it (BGR) and its labels in its pixels."""
    image = cv2.imread(str(SAMPLE / "images" / f"{name}.jpg"))
    classes = read_classes(SAMPLE / "classes.json")
    return image, read_yolo_labels(SAMPLE / "labels" / f"{name}.txt", image.shape[1], image.shape[0], classes)


def script(name: str) -> ModuleType:
    """``scripts/NAME.py`` imported as the module ``name`` (registered in ``sys.modules``, where a dataclass of
    the script looks itself up)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class LabelModel:
    """Has ``TileModel.detect``'s signature; recognises a committed photo by its look (a small thumbnail)
    and answers with its labels, scaled to the picture it is given. ``tolerant``: a photo it does not know
    gets no tiles instead of an error. ``seen`` records (height, width) of every picture shown."""

    def __init__(self, tolerant: bool = False) -> None:
        classes = read_classes(SAMPLE / "classes.json")
        self.tolerant = tolerant
        self.seen: list[tuple[int, int]] = []
        self.labels = []
        for photo in photos():
            rgb = load_image(photo)
            gt = read_yolo_labels(SAMPLE / "labels" / (photo.stem + ".txt"), 1, 1, classes)
            self.labels.append((_thumb(rgb), gt))

    def detect(self, rgb: np.ndarray, timings: dict[str, float] | None = None) -> Detections:
        self.seen.append(rgb.shape[:2])
        if timings is not None:
            timings.update(detect=1.0, classify=1.0)
        thumb = _thumb(rgb)
        distance, gt = min(((float(np.abs(t - thumb).mean()), g) for t, g in self.labels), key=lambda x: x[0])
        if distance > 12:
            if self.tolerant:
                return Detections()
            raise AssertionError("LabelModel was shown a picture it does not know")
        h, w = rgb.shape[:2]
        boxes = gt.boxes * np.array([w, h, w, h], np.float32)
        n = len(gt.codes)
        return Detections(
            boxes, np.full(n, 0.9, np.float32), np.array([CLASS_INDEX[c] for c in gt.codes]), np.zeros(n, bool)
        )


def _thumb(rgb: np.ndarray) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.fromarray(rgb).resize((16, 16), Image.BILINEAR), np.float32)
