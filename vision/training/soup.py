"""Detector soups: one detector whose weights are the average of detectors trained on from one detector.

Detectors trained on (``--det-from``, ``--det-further``) from one detector end near it and near each other; the
uniform average of their weights (a "model soup"), or of one of them and the detector it was trained from, often
reads better than each, at the cost of one network. The detectors are averaged in the folded form they train on
in (``export.detector_from_onnx``: the batch norms folded into the convolutions), so the average is exactly that of
the weights trained. The classifiers must be the same files in every model; they are copied, byte for byte.

    python -m vision.training.soup --data ../shared/data --out DIR [--det-threshold T] MODEL_DIR MODEL_DIR ...

The result is written as the training command writes a model (``export.export_models``: checked against torch on
real photos, moved into place only once every check passed) with ``training.soup_of`` naming its ingredients.
models/HISTORY.md ("detector soups") tells what the soups tried read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import torch

from vision.detector import MODEL_JSON, classifier_files
from vision.training.data import load_yolo_split
from vision.training.detection import Picture
from vision.training.export import (
    ExportError,
    classifier_from_onnx,
    detector_from_onnx,
    export_models,
)
from vision.training.nets import TileDetector


class SoupError(ValueError):
    """Models that cannot be averaged: unreadable, other classifiers, or detectors of no common origin."""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_models(folders: list[Path]) -> tuple[list[dict[str, Any]], str]:
    """The ``model.json`` of each model folder, checked to be averaged: at least two, the same classifier files
    (names and bytes), the same detector input, and one detector all were trained on from (each model's detector
    is that one or was trained on from it, its ``training.detector_from``). Returns the descriptions and the
    version of that common detector; raises SoupError naming what does not fit."""
    if len(folders) < 2:
        raise SoupError("a soup needs at least two models")
    metas = []
    for folder in folders:
        path = folder / MODEL_JSON
        try:
            meta = json.loads(path.read_text())
            files = [folder / meta["detector"]["file"], *(folder / name for name in classifier_files(meta))]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SoupError(f"{path}: not a tile model's description ({exc})") from None
        missing = [str(f) for f in files if not f.is_file()]
        if missing:
            raise SoupError(f"{folder}: missing {', '.join(missing)}")
        metas.append(meta)
    first = metas[0]
    classifiers = [_digest(folders[0] / name) for name in classifier_files(first)]
    for folder, meta in zip(folders[1:], metas[1:], strict=True):
        if [_digest(folder / name) for name in classifier_files(meta)] != classifiers:
            raise SoupError(f"{folder}: its classifiers are not those of {folders[0]} (a soup averages detectors only)")
        if meta["detector"]["input"] != first["detector"]["input"]:
            raise SoupError(f"{folder}: detector input {meta['detector']['input']}, not {first['detector']['input']}")
    # in order (the versions first), so that the origin named is the same on every run
    origins = dict.fromkeys([m["version"] for m in metas] + [m["training"].get("detector_from") for m in metas])
    common = [v for v in origins if v and all(v in (m["version"], m["training"].get("detector_from")) for m in metas)]
    if not common:
        raise SoupError(
            "the detectors were not trained on from one detector (model.json training.detector_from): "
            + ", ".join(f"{f} from {m['training'].get('detector_from')}" for f, m in zip(folders, metas, strict=True))
        )
    return metas, common[0]


def average_detectors(detectors: list[TileDetector]) -> TileDetector:
    """The first detector with every floating-point weight replaced by the uniform average over ``detectors``
    (all of one shape, in the same form)."""
    states = [d.state_dict() for d in detectors]
    averaged = {
        name: torch.stack([s[name] for s in states]).mean(0) if value.is_floating_point() else value
        for name, value in states[0].items()
    }
    soup = detectors[0]
    soup.load_state_dict(averaged)
    return soup.eval()


def make_soup(
    folders: list[Path], out: Path, data: Path, command: list[str], threshold: float | None = None
) -> dict[str, Any]:
    """Average the detectors of the model ``folders`` (``read_models``) and write the model into ``out``, the
    classifiers of the first copied; ``data`` holds ``hk-photos/train``, whose first photos check the export
    against torch; ``command`` is the command line's arguments, recorded. ``threshold`` replaces the first
    model's detection threshold. Returns the description written; raises SoupError or ExportError."""
    metas, origin = read_models(folders)
    first = metas[0]
    soup = average_detectors(
        [detector_from_onnx(f / m["detector"]["file"]) for f, m in zip(folders, metas, strict=True)]
    )
    classifiers = [classifier_from_onnx(folders[0] / name) for name in classifier_files(first)]
    photos = load_yolo_split(data / "hk-photos" / "train", data / "hk-photos" / "classes.json")
    samples = [Picture(p.path.read_bytes(), p.boxes).decode() for p in photos[:3]]
    detector = {k: v for k, v in first["detector"].items() if k not in ("file", "input", "stride")}
    if threshold is not None:
        detector["threshold"] = threshold
    classifier = {k: v for k, v in first["classifier"].items() if k not in ("file", "files", "input")}
    training = {
        **first["training"],
        "version": f"{first['version']}-soup{len(folders)}",
        "command": " ".join(["python -m vision.training.soup", *command]),
        "detector_from": origin,
        "soup_of": [m["version"] for m in metas],
    }
    return export_models(
        soup,
        classifiers,
        out,
        first["detector"]["input"],
        {"detector": detector, "classifier": classifier},
        samples,
        training,
        np.zeros((0, 3, 1, 1), np.float32),
        kept_from=folders[0],
    )


def main(argv: list[str] | None = None) -> int:
    """The command line (module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m vision.training.soup", description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", type=Path, metavar="MODEL_DIR", help="model folders to average")
    parser.add_argument("--out", type=Path, required=True, help="model folder to write")
    parser.add_argument("--data", type=Path, required=True, help="the training data (its hk-photos/train)")
    parser.add_argument("--det-threshold", type=float, help="detection threshold (default: the first model's)")
    parser.add_argument("--force", action="store_true", help="replace a model already in --out")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    if (args.out / MODEL_JSON).exists() and not args.force:
        parser.error(f"{args.out} already holds a model; --force replaces it")
    try:
        meta = make_soup(args.models, args.out, args.data, argv, args.det_threshold)
    except (SoupError, ExportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps({"out": str(args.out), "version": meta["version"], "export": meta["export"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
