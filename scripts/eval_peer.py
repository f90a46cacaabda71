"""The evaluation of `mjscan evaluate`, run for our tile model and for the peer model beside it.

The peer is the PyPI package ``mahjong-detector`` (0.0.6, MIT): a YOLOv8 detector exported to ONNX
(``mahjong_detector/model.onnx``, 640 x 640 input, run with onnxruntime on a grey, contrast-stretched,
letterboxed picture; 34 riichi classes, no red fives, flowers or backs; boxes kept above confidence 0.5).
It ships its weights, so it runs here without a network. Both models are scored on the 34 classes the
peer knows (labels of other tiles, and predictions on them, are left out; see ``vision.evaluate``).

    pip install -e '.[peer]'
    python scripts/eval_peer.py --images DIR --labels DIR --classes classes.json [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from vision.evaluate import EvaluationReport, LabelError, add_set_arguments, evaluate_folder
from vision.types import CLASS_INDEX, Detections

#: The peer's class names in its own order, as our codes.
PEER_CODES: dict[str, str] = {
    **{f"{n}{s}": f"{n}{s}" for s in "mps" for n in range(1, 10)},
    "tou": "1z",
    "nan": "2z",
    "sha": "3z",
    "pe": "4z",
    "haku": "5z",
    "hatsu": "6z",
    "chun": "7z",
}


class PeerDetector:
    """``mahjong_detector`` as a detector callable: RGB array -> Detections (our codes, image pixels)."""

    def __init__(self) -> None:
        from mahjong_detector.predict import CLASS_NAMES

        unknown = [name for name in CLASS_NAMES if name not in PEER_CODES]
        if unknown:
            raise RuntimeError(f"mahjong-detector has classes this script does not know: {unknown}")
        self.class_ids = np.array([CLASS_INDEX[PEER_CODES[name]] for name in CLASS_NAMES], np.int64)

    def __call__(self, rgb: np.ndarray) -> Detections:
        from mahjong_detector.predict import predict
        from mahjong_detector.preprocess import preprocess_image
        from PIL import Image

        picture, padding = preprocess_image(Image.fromarray(rgb))
        found = predict(picture, padding)
        n = len(found)
        return Detections(
            np.array([[d.x1, d.y1, d.x2, d.y2] for d in found], np.float32).reshape(n, 4),
            np.array([d.confidence for d in found], np.float32),
            self.class_ids[np.array([d.class_id for d in found], np.int64)] if n else np.zeros(0, np.int64),
            np.zeros(n, bool),
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_set_arguments(p)
    p.add_argument("--model-dir", type=Path, help="our tile model folder (default: models/)")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N photos")
    p.add_argument("--json", action="store_true", help="print both reports as JSON")
    args = p.parse_args(argv)
    try:
        peer = PeerDetector()
    except ImportError:
        print("the peer model is not installed: pip install -e '.[peer]' (mahjong-detector)", file=sys.stderr)
        return 2
    codes = set(PEER_CODES.values())
    common = {"codes": codes, "limit": args.limit}
    try:
        reports: dict[str, EvaluationReport | None] = {"ours": None, "peer": None}
        ours = _our_detector(args.model_dir)
        if ours is not None:
            print("our model:", file=sys.stderr)
            reports["ours"] = evaluate_folder(ours, args.images, args.labels, args.classes, **common)
        print("peer model (mahjong-detector):", file=sys.stderr)
        reports["peer"] = evaluate_folder(peer, args.images, args.labels, args.classes, **common)
    except LabelError as exc:
        print(f"eval_peer: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({k: r.to_json() if r else None for k, r in reports.items()}, indent=2))
    else:
        print(side_by_side(reports))
    return 0


def _our_detector(model_dir: Path | None) -> Any:
    from vision.detector import ModelError, ModelNotFoundError, TileModel

    try:
        return TileModel(model_dir).detect
    except (ModelNotFoundError, ModelError) as exc:
        print(f"our model cannot be loaded ({exc}): the peer alone is measured", file=sys.stderr)
        return None


def side_by_side(reports: dict[str, EvaluationReport | None]) -> str:
    """The headline figures of both models in two columns."""

    def cell(r: EvaluationReport | None, what: str) -> str:
        if r is None:
            return "-"
        if what == "hands":
            acc = r.hand_accuracy
            return f"{r.hands_exact}/{r.hands_checked}" + (f" = {acc:.3f}" if acc is not None else "")
        if what == "detect_ms":
            return f"{np.median(r.detect_ms):.0f} ms" if r.detect_ms else "-"
        if what in ("images", "labels", "predictions"):
            return str(getattr(r, what))
        return f"{getattr(r, what):.4f}"

    rows = [
        ("images", "images"),
        ("labelled tiles (34 classes)", "labels"),
        ("predicted tiles", "predictions"),
        ("tile precision", "precision"),
        ("tile recall", "recall"),
        ("tile F1", "f1"),
        ("exact hands (13/14 labels)", "hands"),
        ("detect time, median", "detect_ms"),
    ]
    lines = [f"{'':30s} {'mjscan':>16s} {'mahjong-detector':>18s}"]
    for title, what in rows:
        lines.append(f"{title:30s} {cell(reports['ours'], what):>16s} {cell(reports['peer'], what):>18s}")
    lines.append("scored on the 34 classes both know; red fives, flowers and backs left out (IoU >= 0.5)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
