"""ONNX export of the detector and the classifiers, checked against torch, and the model description ``model.json``.

A model holds one classifier or several (trained for different numbers of batches or from other seeds), whose
outputs the runtime averages. Each classifier is stored quantised to 8-bit integers (static, per-channel
weights, calibrated on real tile crops cut as the runtime cuts them): it reads a crop about 2.5 times as fast as
in float32 on the 2-core machine and gives the float network's class on 99.6 % of the real crops held apart for
an earlier model and on all of them for both bundled classifiers (the agreement of each classifier is in its
model's `model.json`, `export.classifier_int8`).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch

from vision.detector import MODEL_JSON, classifier_files
from vision.training.classification import NUM_OUTPUTS
from vision.training.nets import CROP, STRIDE, ClassifierExport, DetectorExport, TileClassifier, TileDetector
from vision.types import CLASSES

DETECTOR_FILE = "tile_detector.onnx"
CLASSIFIER_FILE = "tile_classifier.onnx"
OPSET = 17
#: The quantised classifier must give the float network's likeliest class on at least this share of the
#: crops held apart from its calibration.
MIN_INT8_AGREEMENT = 0.98


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
    relative above); raises beyond ``atol``, or where an output's shape differs."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    worst = 0.0
    for x in inputs:
        with torch.no_grad():
            expected = [t.numpy() for t in module(torch.from_numpy(x))]
        got = session.run(None, {name: x})
        for e, g in zip(expected, got, strict=True):
            if e.shape != g.shape:
                raise ExportError(f"{path.name}: onnxruntime gives an output of shape {g.shape}, torch {e.shape}")
            worst = max(worst, float(np.max(np.abs(e - g) / np.maximum(1.0, np.abs(e)))))
    if worst > atol:
        raise ExportError(f"{path.name}: onnxruntime differs from torch by {worst:.2e} (allowed {atol:.0e})")
    return worst


def quantize_classifier(
    module: torch.nn.Module,
    path: Path,
    calibration: np.ndarray,
    check: np.ndarray,
    min_agreement: float = MIN_INT8_AGREEMENT,
) -> float:
    """Replace the float classifier at ``path`` by its 8-bit quantisation (QDQ, per-channel weights, activation
    ranges from the ``calibration`` crops). Returns the share of the ``check`` crops given the same likeliest
    class as torch; raises ``ExportError`` under ``min_agreement``."""
    import onnxruntime as ort
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Crops(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches = iter(np.array_split(calibration, max(1, len(calibration) // 32)))

        def get_next(self) -> dict[str, np.ndarray] | None:
            batch = next(self.batches, None)
            return None if batch is None else {"crops": np.ascontiguousarray(batch)}

    prepared = path.with_suffix(".float.onnx")
    quant_pre_process(str(path), str(prepared))
    try:
        quantize_static(
            str(prepared),
            str(path),
            Crops(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
        )
    finally:
        prepared.unlink()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    with torch.no_grad():
        expected = module(torch.from_numpy(check))[0].numpy().argmax(axis=1)
    got = session.run(None, {"crops": check})[0].argmax(axis=1)
    agreement = float(np.mean(expected == got))
    if agreement < min_agreement:
        raise ExportError(
            f"{path.name}: the 8-bit classifier agrees with torch on {agreement:.1%} of the crops "
            f"(at least {min_agreement:.0%} needed)"
        )
    return agreement


def _onnx_layers(path: Path) -> tuple[dict[str, np.ndarray], list, list]:
    """The values of an ONNX file's initializers (quantised weights as the float values they stand for, under the
    names of their dequantised outputs) and its Conv and Gemm nodes, in the order the network runs them. Raises
    ExportError for a file that is not ONNX."""
    import onnx
    from google.protobuf.message import DecodeError
    from onnx import numpy_helper

    try:
        graph = onnx.load(str(path)).graph
    except (OSError, ValueError, DecodeError) as exc:
        raise ExportError(f"{path}: not an ONNX file ({exc})") from None
    values = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in graph.initializer}
    for node in graph.node:  # the quantised weights: (q - zero point) x scale, per output channel
        if node.op_type == "DequantizeLinear" and node.input[0] in values:
            q, scale, zero = (values[name] for name in node.input[:3])
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            shape = [1] * q.ndim
            if scale.ndim:
                shape[axis] = -1
            values[node.output[0]] = (q - zero.reshape(shape)) * scale.reshape(shape)
    convs = [node for node in graph.node if node.op_type == "Conv"]
    gemms = [node for node in graph.node if node.op_type == "Gemm"]
    return values, convs, gemms


def _load_folded(net: torch.nn.Module, values: dict[str, np.ndarray], nodes: list, side: int, what: str) -> None:
    """The weights of an exported network's Conv and Gemm ``nodes`` (in the order it runs them) copied into
    ``net`` (a fresh network of the same shape, ``side`` the side of a square picture it reads) in its folded
    form (``nets.fold_batch_norm``: each batch norm after its convolution keeps only a shift, the
    convolution's bias). Raises ExportError where the layers do not match, naming the network as ``what``."""
    order: list[torch.nn.Module] = []
    hooks = [
        module.register_forward_hook(lambda module, _inputs, _output: order.append(module))
        for module in net.modules()
        if isinstance(module, torch.nn.Conv2d | torch.nn.Linear)
    ]
    with torch.no_grad():
        net.eval()(torch.zeros(1, 3, side, side))
    for hook in hooks:
        hook.remove()
    norm_after = {
        conv: norm
        for module in net.modules()
        if isinstance(module, torch.nn.Sequential)
        for conv, norm in zip(list(module.children()), list(module.children())[1:], strict=False)
        if isinstance(conv, torch.nn.Conv2d) and isinstance(norm, torch.nn.BatchNorm2d)
    }
    mismatch = ExportError(f"its layers are not those of a {what} of its width")
    if len(order) != len(nodes):
        raise mismatch
    with torch.no_grad():
        for layer, node in zip(order, nodes, strict=True):
            weight, bias = (torch.from_numpy(values[name]).float() for name in node.input[1:3])
            if isinstance(layer, torch.nn.Linear) and not next((a.i for a in node.attribute if a.name == "transB"), 0):
                weight = weight.T
            if weight.shape != layer.weight.shape or bias.shape[0] != weight.shape[0]:
                raise mismatch
            layer.weight.copy_(weight)
            norm = norm_after.get(layer)
            if norm is None:
                layer.bias.copy_(bias)
            else:  # the folded norm: mean 0, variance 1, scale sqrt(1 + eps), the convolution's bias as its shift
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0)
                norm.weight.fill_(math.sqrt(1.0 + norm.eps))
                norm.bias.copy_(bias)


def classifier_from_onnx(path: Path) -> TileClassifier:
    """The classifier an exported ONNX file holds (``export_models``: float or quantised to 8 bits) as a torch
    network in its folded form (``nets.fold_batch_norm``: each batch norm after its convolution keeps only a
    shift), its width read from the file; quantised weights come back as the float values they stand for. For
    training on the classifiers of a model whose torch weights are gone (``--cls-from``). Raises ExportError
    for a file that does not hold a classifier of ``TileClassifier``'s shape."""
    values, convs, gemms = _onnx_layers(path)
    if not convs or len(gemms) != 2 or any(name not in values for node in convs + gemms for name in node.input[1:3]):
        raise ExportError(f"{path}: not a tile classifier exported by this project")
    net = TileClassifier(NUM_OUTPUTS, int(values[convs[0].input[1]].shape[0]))
    try:
        _load_folded(net, values, convs + gemms, CROP, "tile classifier")
    except ExportError as exc:
        raise ExportError(f"{path}: {exc}") from None
    return net.eval()


def detector_from_onnx(path: Path) -> TileDetector:
    """The detector an exported ONNX file holds (``export_models``) as a torch network in its folded form, as
    ``classifier_from_onnx`` gives a classifier: for training on the detector of a model whose torch weights are
    gone (``--det-from``). Raises ExportError for a file that does not hold a detector of ``TileDetector``'s
    shape."""
    values, convs, gemms = _onnx_layers(path)
    if not convs or gemms or any(name not in values for node in convs for name in node.input[1:3]):
        raise ExportError(f"{path}: not a tile detector exported by this project")
    net = TileDetector(int(values[convs[0].input[1]].shape[0]))
    try:
        _load_folded(net, values, convs, 64, "tile detector")
    except ExportError as exc:
        raise ExportError(f"{path}: {exc}") from None
    return net.eval()


def classifier_names(count: int) -> list[str]:
    """The file names of a model's ``count`` classifiers: ``tile_classifier.onnx``, then
    ``tile_classifier-2.onnx`` and on."""
    stem, suffix = CLASSIFIER_FILE.rsplit(".", 1)
    return [CLASSIFIER_FILE, *(f"{stem}-{number}.{suffix}" for number in range(2, count + 1))]


def _classifier_files_of(folder: Path) -> list[str]:
    """The classifier files the model in ``folder`` names (none where it holds no readable model)."""
    try:
        return [Path(name).name for name in classifier_files(json.loads((folder / MODEL_JSON).read_text()))]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def export_models(
    detector: TileDetector,
    classifiers: list[TileClassifier],
    out_dir: Path,
    detect_size: int,
    settings: dict[str, Any],
    samples: list[np.ndarray],
    training: dict[str, Any],
    crops: np.ndarray,
    min_agreement: float = MIN_INT8_AGREEMENT,
    kept_from: Path | None = None,
    detector_from: Path | None = None,
) -> dict[str, Any]:
    """Write the ONNX files (the detector, each classifier: ``classifier_names``) and ``model.json`` into
    ``out_dir``; check each file against torch on real pictures (``samples``: RGB uint8 arrays) and random
    inputs. Each classifier is then quantised (``quantize_classifier``), calibrated on the first half of
    ``crops`` (real tile crops (N, 3, CROP, CROP) float32, as ``vision.detector.crop_tiles`` cuts them) and
    checked on the second half (``min_agreement``). With ``kept_from``, the model folder ``classifiers`` were
    read from (``classifier_from_onnx``) with nothing trained on them, its classifier files are copied instead,
    byte for byte, with the figures of their export in its ``model.json``; ``detector_from`` does the same for
    the detector of the model folder ``detector`` was read from (``detector_from_onnx``) with nothing trained on it.
    The files are written to a folder of their own inside ``out_dir`` and moved into place only once every
    check has passed, so a failed export (ExportError) leaves a model already there as it was. Returns the
    description written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir, prefix=".export-") as folder:
        staging = Path(folder)
        if detector_from is not None:
            det_diff = _copy_detector(detector_from, staging)
        else:
            det_diff = _export_detector(detector, staging, detect_size, samples)
        files = classifier_names(len(classifiers))
        if kept_from is not None:
            cls_diff, int8 = _copy_classifiers(kept_from, staging, files)
        else:
            cls_diff, int8 = _export_classifiers(classifiers, staging, files, samples, crops, min_agreement)
        meta = {
            "name": "mjscan-tiles",
            "version": training.get("version", "1"),
            "classes": list(CLASSES),
            "detector": {"file": DETECTOR_FILE, "input": detect_size, "stride": STRIDE, **settings["detector"]},
            "classifier": {"files": files, "input": CROP, **settings["classifier"]},
            "export": {
                "opset": OPSET,
                # the classifier's: the largest of them; the agreement: one for each classifier file
                "max_diff_vs_torch": {"detector": det_diff, "classifier": cls_diff},
                "classifier_int8": int8,
            },
            "training": training,
        }
        (staging / MODEL_JSON).write_text(json.dumps(meta, indent=1) + "\n")
        replaced = _classifier_files_of(out_dir)
        for name in (DETECTOR_FILE, *files, MODEL_JSON):
            os.replace(staging / name, out_dir / name)
        for name in set(replaced) - set(files):  # a replaced model's further classifiers
            (out_dir / name).unlink(missing_ok=True)
    return meta


def _export_detector(detector: TileDetector, staging: Path, detect_size: int, samples: list[np.ndarray]) -> float:
    """The detector exported into ``staging`` and checked against torch (``export_models``); the largest
    difference from torch."""
    import cv2

    det = DetectorExport(detector).eval()
    det_path = staging / DETECTOR_FILE
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
    rng = np.random.default_rng(0)
    det_inputs = [
        cv2.resize(s, (detect_size, detect_size)).transpose(2, 0, 1)[None].astype(np.float32) for s in samples[:3]
    ]
    det_inputs.append(rng.uniform(0, 255, (1, 3, detect_size, detect_size)).astype(np.float32))
    return verify(det, det_path, det_inputs, atol=2e-3)


def _copy_detector(source: Path, staging: Path) -> float:
    """The detector file of the model in ``source`` copied into ``staging``, with the largest difference from
    torch of its export as its ``model.json`` gives it."""
    meta = json.loads((source / MODEL_JSON).read_text())
    shutil.copyfile(source / meta["detector"]["file"], staging / DETECTOR_FILE)
    return meta["export"]["max_diff_vs_torch"]["detector"]


def _copy_classifiers(source: Path, staging: Path, files: list[str]) -> tuple[float, dict[str, Any]]:
    """The classifier files of the model in ``source`` copied into ``staging`` as ``files``, with the figures of
    their export (the largest difference from torch, the 8-bit agreement) as its ``model.json`` gives them."""
    meta = json.loads((source / MODEL_JSON).read_text())
    sources = classifier_files(meta)
    if len(sources) != len(files):
        raise ExportError(f"{source}: its model holds {len(sources)} classifiers, not {len(files)}")
    for name, copy in zip(sources, files, strict=True):
        shutil.copyfile(source / name, staging / copy)
    return meta["export"]["max_diff_vs_torch"]["classifier"], meta["export"]["classifier_int8"]


def _export_classifiers(
    classifiers: list[TileClassifier],
    staging: Path,
    files: list[str],
    samples: list[np.ndarray],
    crops: np.ndarray,
    min_agreement: float,
) -> tuple[float, dict[str, Any]]:
    """Each classifier exported into ``staging`` as ``files``, checked against torch and quantised
    (``export_models``); the largest difference from torch and the figures of the quantisation."""
    import cv2

    rng = np.random.default_rng(1)
    cls_inputs = [
        cv2.resize(s, (CROP, CROP)).transpose(2, 0, 1)[None].astype(np.float32).repeat(3, axis=0) for s in samples[:2]
    ]
    cls_inputs.append(rng.uniform(0, 255, (5, 3, CROP, CROP)).astype(np.float32))
    if len(crops) < 2:
        raise ExportError("the classifier's quantisation needs real tile crops to calibrate and check it")
    half = len(crops) // 2
    cls_diff, agreements = 0.0, []
    for classifier, name in zip(classifiers, files, strict=True):
        cls = ClassifierExport(classifier).eval()
        _export(
            cls,
            torch.zeros(2, 3, CROP, CROP),
            staging / name,
            {
                "input": "crops",
                "outputs": ["classes", "orientation"],
                "dynamic": {"crops": {0: "n"}, "classes": {0: "n"}, "orientation": {0: "n"}},
            },
        )
        cls_diff = max(cls_diff, verify(cls, staging / name, cls_inputs, atol=1e-4))
        agreements.append(quantize_classifier(cls, staging / name, crops[:half], crops[half:], min_agreement))
    return cls_diff, {"calibration_crops": half, "checked_crops": len(crops) - half, "agreement": agreements}
