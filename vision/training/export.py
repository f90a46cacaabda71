"""ONNX export of the two networks, checked against torch, and the model description ``model.json``."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch

from vision.detector import MODEL_JSON
from vision.training.nets import CROP, STRIDE, ClassifierExport, DetectorExport, TileClassifier, TileDetector
from vision.types import CLASSES

DETECTOR_FILE = "tile_detector.onnx"
CLASSIFIER_FILE = "tile_classifier.onnx"
OPSET = 17


class ExportError(RuntimeError):
    """The ONNX model does not give the outputs of the torch model."""


def _export(module: torch.nn.Module, example: torch.Tensor, path: Path, names: dict[str, Any]) -> None:
    module.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            module,
            (example,),
            str(path),
            input_names=[names["input"]],
            output_names=names["outputs"],
            dynamic_axes=names["dynamic"],
            opset_version=OPSET,
            dynamo=False,
        )


def verify(module: torch.nn.Module, path: Path, inputs: list[np.ndarray], atol: float) -> float:
    """The largest difference between torch's and onnxruntime's outputs on ``inputs`` (absolute below 1,
    relative above); raises beyond ``atol``."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    worst = 0.0
    for x in inputs:
        with torch.no_grad():
            expected = [t.numpy() for t in module(torch.from_numpy(x))]
        got = session.run(None, {name: x})
        for e, g in zip(expected, got, strict=True):
            worst = max(worst, float(np.max(np.abs(e - g) / np.maximum(1.0, np.abs(e)))))
    if worst > atol:
        raise ExportError(f"{path.name}: onnxruntime differs from torch by {worst:.2e} (allowed {atol:.0e})")
    return worst


def export_models(
    detector: TileDetector,
    classifier: TileClassifier,
    out_dir: Path,
    detect_size: int,
    settings: dict[str, Any],
    samples: list[np.ndarray],
    training: dict[str, Any],
) -> dict[str, Any]:
    """Write both ONNX files and ``model.json`` into ``out_dir``; check each file against torch on real
    pictures (``samples``: RGB uint8 arrays) and random inputs. Returns the description written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    det = DetectorExport(detector).eval()
    cls = ClassifierExport(classifier).eval()
    det_path, cls_path = out_dir / DETECTOR_FILE, out_dir / CLASSIFIER_FILE
    _export(
        det,
        torch.zeros(1, 3, detect_size, detect_size),
        det_path,
        {
            "input": "image",
            "outputs": ["heat", "sides"],
            "dynamic": {"image": {2: "height", 3: "width"}, "heat": {2: "h", 3: "w"}, "sides": {2: "h", 3: "w"}},
        },
    )
    _export(
        cls,
        torch.zeros(2, 3, CROP, CROP),
        cls_path,
        {
            "input": "crops",
            "outputs": ["classes", "orientation"],
            "dynamic": {"crops": {0: "n"}, "classes": {0: "n"}, "orientation": {0: "n"}},
        },
    )
    import cv2

    rng = np.random.default_rng(0)
    det_inputs = [
        cv2.resize(s, (detect_size, detect_size)).transpose(2, 0, 1)[None].astype(np.float32) for s in samples[:3]
    ]
    det_inputs.append(rng.uniform(0, 255, (1, 3, detect_size, detect_size)).astype(np.float32))
    cls_inputs = [
        cv2.resize(s, (CROP, CROP)).transpose(2, 0, 1)[None].astype(np.float32).repeat(3, axis=0) for s in samples[:2]
    ]
    cls_inputs.append(rng.uniform(0, 255, (5, 3, CROP, CROP)).astype(np.float32))
    det_diff = verify(det, det_path, det_inputs, atol=2e-3)
    cls_diff = verify(cls, cls_path, cls_inputs, atol=1e-4)
    meta = {
        "name": "mjscan-tiles",
        "version": training.get("version", "1"),
        "classes": list(CLASSES),
        "detector": {"file": DETECTOR_FILE, "input": detect_size, "stride": STRIDE, **settings["detector"]},
        "classifier": {"file": CLASSIFIER_FILE, "input": CROP, **settings["classifier"]},
        "export": {"opset": OPSET, "max_diff_vs_torch": {"detector": det_diff, "classifier": cls_diff}},
        "training": training,
    }
    (out_dir / MODEL_JSON).write_text(json.dumps(meta, indent=1) + "\n")
    return meta
