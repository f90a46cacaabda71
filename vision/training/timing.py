"""Time the tile model on photos: ``python -m vision.training.timing PHOTO... [--model DIR] [--threads 2]``.

Each photo is timed as given and resized to 640 x 640 and to 4032 x 3024 (a 12-megapixel phone photo, its
pixels interpolated from the photo), the decoded RGB array handed to ``TileModel.detect``: the figures are
the detector (resize, network, decoding) and the classifier (crops and network), without JPEG decoding.
Needs onnxruntime only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.detector import ModelError, ModelNotFoundError, TileModel


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.timing", description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="+", type=Path, help="photos to time (JPEG, PNG)")
    parser.add_argument("--model", type=Path, help="model folder (default: models/)")
    parser.add_argument("--threads", type=int, default=2, help="onnxruntime threads (default 2)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per photo and size (default 5)")
    args = parser.parse_args(argv)
    try:
        model = TileModel(args.model, threads=args.threads)
    except (ModelNotFoundError, ModelError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    images = []
    for path in args.photos:
        image = cv2.imread(str(path))
        if image is None:
            print(f"error: cannot read {path}", file=sys.stderr)
            return 2
        images.append(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    sizes = {"640x640": (640, 640), "4032x3024 (12 MP)": (4032, 3024)}
    model.detect(images[0])  # first run allocates
    print(f"model {model.info['name']} {model.info['version']}, {args.threads} threads, {len(images)} photos")
    for label, (w, h) in sizes.items():
        figures: dict[str, list[float]] = {"detect": [], "classify": [], "total": []}
        tiles = []
        for image in images:
            resized = cv2.resize(image, (w, h), interpolation=cv2.INTER_CUBIC if w > image.shape[1] else cv2.INTER_AREA)
            for _ in range(args.repeat):
                timings: dict[str, float] = {}
                start = time.perf_counter()
                found = model.detect(resized, timings)
                figures["total"].append((time.perf_counter() - start) * 1000)
                figures["detect"].append(timings["detect"])
                figures["classify"].append(timings["classify"])
                tiles.append(len(found))
        parts = ", ".join(
            f"{k} median {statistics.median(v):.1f} ms p95 {_percentile(v, 95):.1f} ms" for k, v in figures.items()
        )
        print(f"{label}: {parts}; {np.mean(tiles):.1f} tiles per photo")
    return 0


if __name__ == "__main__":
    sys.exit(main())
