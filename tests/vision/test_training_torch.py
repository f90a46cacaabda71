"""The training side of the tile model that needs torch (the ``train`` extra): detector targets and training
windows, classifier crops and their augmentation, and a two-step training run exported to ONNX and read back
by the runtime. Skipped where torch is not installed (the runtime and CI need no torch).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("torch")

from test_training import small_pool  # noqa: E402

from vision.training import synth  # noqa: E402
from vision.training.classification import (  # noqa: E402
    BANK_SIZE,
    CropBank,
    _swap_ink,
    augment,
    bank_from_image,
    source_weights,
)
from vision.training.detection import Picture, encode, make_targets, sample_window  # noqa: E402
from vision.types import CLASS_INDEX, CLASSES  # noqa: E402


@pytest.fixture(scope="module")
def pool() -> synth.FacePool:
    return small_pool()


def _pictures(pool: synth.FacePool, count: int, seed: int) -> list[Picture]:
    """``count`` small synthetic scenes (192 px) as training pictures."""
    renderer, rng = synth.SceneRenderer(pool, size=192), np.random.default_rng(seed)
    return [Picture(encode(s.image), s.boxes) for s in (renderer.render(rng) for _ in range(count))]


def _small_bank(pool: synth.FacePool, seed: int) -> tuple[list, CropBank]:
    """Two small synthetic scenes (192 px) and the crop bank cut from them, with "not a tile" places."""
    rng = np.random.default_rng(seed)
    scenes = [synth.SceneRenderer(pool, size=192).render(rng) for _ in range(2)]
    bank = CropBank.concat(
        [bank_from_image(s.image, s.boxes, s.class_ids, s.orientation, 1, rng, 2, 2) for s in scenes]
    )
    return scenes, bank


def _same_weights(a, b) -> bool:
    """Whether two networks hold the same weights and buffers, to the bit."""
    import torch

    return all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values(), strict=True))


# ------------------------------------------------------------------------------------------ targets and crops


def test_heatmap_peaks_at_the_box_centre_and_regresses_the_box():
    box = np.array([[40, 64, 88, 128]], np.float32)
    heat, target, weight, counted = make_targets(box, 192)
    assert heat.shape == (1, 24, 24) and counted.shape == (24, 24) and counted.all()
    i, j = np.unravel_index(np.argmax(heat[0]), heat[0].shape)
    assert heat[0, i, j] == 1.0 and (i, j) == (12, 8)
    assert np.allclose(target[:, i, j], box[0]) and weight[i, j] > 0
    assert weight[0, 0] == 0


def test_a_tile_shown_unlabelled_is_learnt_neither_as_tile_nor_as_table():
    import torch

    from vision.training.detection import focal_loss

    box = np.array([[40, 64, 88, 128]], np.float32)
    shown = np.array([[120, 40, 168, 104]], np.float32)  # centre cell (row 9, column 18)
    heat, target, weight, counted = make_targets(box, 192, ignored=shown)
    plain = make_targets(box, 192)
    for got, want in zip((heat, target, weight), plain, strict=False):  # the labelled tile's targets as they were
        assert np.array_equal(got, want)
    # every cell of its box (columns 15 to 20, rows 5 to 12), no other
    assert (counted == 0).sum() == 48 and not counted[5:13, 15:21].any()
    # a box too small to hold a cell's centre still has its centre's cell ignored
    assert make_targets(box, 192, ignored=np.array([[3, 3, 5, 5]], np.float32))[3][0, 0] == 0
    # a peak read on it costs nothing where it is ignored, and costs where it is learnt as table
    low = torch.full((1, 1, 24, 24), -6.0)
    peak = low.clone()
    peak[0, 0, 9, 18] = 4.0
    heat_t, counted_t = torch.from_numpy(heat[None]), torch.from_numpy(counted[None])
    assert focal_loss(peak, heat_t, counted_t) == focal_loss(low, heat_t, counted_t)
    assert focal_loss(peak, heat_t) > focal_loss(low, heat_t) + 1


def test_training_window_keeps_boxes_on_their_tiles():
    image = np.zeros((400, 400, 3), np.uint8)
    box = np.array([[100, 150, 160, 230]], np.float32)
    image[150:230, 100:160] = 255
    picture = Picture(encode(image), box)
    rng = np.random.default_rng(0)
    for _ in range(10):
        window, boxes, _ = sample_window(rng, picture, 256)
        for x1, y1, x2, y2 in boxes.astype(int):
            inner = window[y1 + 3 : y2 - 3, x1 + 3 : x2 - 3]
            if inner.size:
                assert inner.mean() > 100  # the box still covers the white tile after scale, turn and flip


def test_a_training_window_carries_the_tiles_shown_unlabelled_or_cut_off_apart_and_draws_as_before():
    image = np.zeros((400, 400, 3), np.uint8)
    image[150:230, 100:160] = 255  # the labelled tile
    image[100:180, 250:300] = 255  # a face shown but not labelled
    plain = Picture(encode(image), np.array([[100, 150, 160, 230]], np.float32))
    shown = Picture(plain.jpeg, plain.boxes, np.array([[250, 100, 300, 180]], np.float32))
    cut_off = found_shown = 0
    for seed in range(40):
        window, boxes, ignored = sample_window(np.random.default_rng(seed), shown, 160)
        before, before_boxes, cut = sample_window(np.random.default_rng(seed), plain, 160)
        # the same draws: the same window and labelled boxes as without the unlabelled face (never labelled)
        assert np.array_equal(window, before) and np.array_equal(boxes, before_boxes)
        # the labelled tile where the window cuts it mostly off, then the unlabelled face where the window shows it
        assert len(cut) <= 1 and np.array_equal(ignored[: len(cut)], cut) and len(ignored) <= len(cut) + 1
        cut_off += len(cut)
        found_shown += len(ignored) - len(cut)
        for x1, y1, x2, y2 in ignored:
            middle = window[int((y1 + y2) / 2), int((x1 + x2) / 2)]
            assert middle.mean() > 100  # on a white tile, not on the black table
    assert cut_off and found_shown


def test_a_spoilt_window_is_blurred_shaken_noised_or_squeezed_as_its_draws_say():
    import cv2

    from vision.training.detection import spoil

    window = np.zeros((96, 96, 3), np.uint8)
    window[::8] = 255  # stripes: blur and JPEG both soften them
    sharp = cv2.Laplacian(window, cv2.CV_64F).var()
    spoilt = [spoil(np.random.default_rng(seed), window.copy()) for seed in range(300)]
    assert all(s.dtype == np.uint8 and s.shape == window.shape and s.flags.c_contiguous for s in spoilt)
    # the same draws spoil alike; about 0.6 x 0.7 x 0.7 = 0.29 of the windows are left as they are
    assert np.array_equal(spoilt[7], spoil(np.random.default_rng(7), window.copy()))
    kept = np.mean([np.array_equal(s, window) for s in spoilt])
    assert 0.2 < kept < 0.4
    assert np.mean([cv2.Laplacian(s, cv2.CV_64F).var() < 0.5 * sharp for s in spoilt]) > 0.3


def test_spoilt_or_ignoring_batches_keep_their_targets_and_go_with_the_stage_keys_asked_for(pool: synth.FacePool):
    import torch

    from vision.training.__main__ import stage_key
    from vision.training.detection import make_batch

    pictures = _pictures(pool, 2, seed=3)
    plain = make_batch(np.random.default_rng([5, 0]), pictures[:1], pictures[1:], 6, 96, 0.5)
    spoilt = make_batch(np.random.default_rng([5, 0]), pictures[:1], pictures[1:], 6, 96, 0.5, spoilt=True)
    again = make_batch(np.random.default_rng([5, 0]), pictures[:1], pictures[1:], 6, 96, 0.5, spoilt=True)
    assert all(torch.equal(a, b) for a, b in zip(spoilt, again, strict=True))  # drawn from the batch's numbers
    # the first window is drawn before any spoiling: the same window and targets, its picture spoilt or not
    assert torch.equal(plain[1][0], spoilt[1][0]) and torch.equal(plain[2][0], spoilt[2][0])
    assert not torch.equal(plain[0], spoilt[0])
    # ignoring the tiles shown unlabelled: the same windows and targets, fewer cells learnt as table
    shown = [Picture(p.jpeg, p.boxes, p.boxes[:1] + 4) for p in pictures]  # (a face placed beside the first tile)
    counted = make_batch(np.random.default_rng([5, 0]), shown[:1], shown[1:], 6, 96, 0.5)
    ignoring = make_batch(np.random.default_rng([5, 0]), shown[:1], shown[1:], 6, 96, 0.5, ignore=True)
    assert all(torch.equal(a, b) for a, b in zip(counted[:4], ignoring[:4], strict=True))
    assert torch.all(counted[4] == 1) and torch.all(plain[4] == 1) and ignoring[4].sum() < counted[4].sum()
    # --det-spoil-from, --det-ignore-from: the stages from it on carry it in their keys; runs without it keep theirs
    assert [stage_key("spoilt_from", None, stage) for stage in range(3)] == [{}, {}, {}]
    assert [stage_key("spoilt_from", 2, stage) for stage in range(4)] == [{}, {}, {"spoilt_from": 2}] + [
        {"spoilt_from": 2}
    ]
    assert [stage_key("ignored_from", 0, stage) for stage in range(2)] == [{"ignored_from": 0}] * 2


def test_augmented_crop_turns_with_its_orientation_label():
    stored = np.zeros((BANK_SIZE, BANK_SIZE, 3), np.uint8)
    stored[: BANK_SIZE // 2] = 255  # the top of the tile is white

    class QuarterTurn:
        """A generator that always turns once and otherwise behaves like numpy's."""

        def __init__(self) -> None:
            self.rng = np.random.default_rng(0)

        def integers(self, *args, **kwargs):
            return 1 if args == (4,) else self.rng.integers(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(self.rng, name)

    out, turn = augment(QuarterTurn(), stored, 0, CLASS_INDEX["1m"])
    assert turn == 1
    assert out[:, 40:].mean() > out[:, :24].mean() + 100  # the white top now lies on the right


def test_ink_swap_recolours_the_strokes_and_leaves_the_table():
    import cv2

    crop = np.zeros((64, 64, 3), np.uint8)
    crop[:] = (40, 120, 60)  # green felt around the tile
    crop[8:56, 8:56] = 225  # the face
    crop[16:28, 16:48] = (30, 30, 30)  # a black stroke
    crop[36:48, 16:48] = (40, 60, 200)  # a blue stroke

    def saturation(out: np.ndarray, rows: slice) -> float:
        return float(cv2.cvtColor(out, cv2.COLOR_RGB2HSV)[rows, 20:44, 1].mean())

    modes = set()
    for seed in range(20):
        out = _swap_ink(np.random.default_rng(seed), crop)
        change = np.abs(out.astype(int) - crop)
        assert change[:6].max() <= 2 and change[:, :6].max() <= 2  # the felt, up to the colour conversions' rounding
        assert np.abs(out[10:14, 10:54].astype(int) - 225).max() <= 2  # the bare face
        if saturation(out, slice(18, 26)) > 100:
            modes.add("black strokes coloured")
            assert np.abs(out[38:46, 20:44].astype(int) - crop[38:46, 20:44]).max() <= 3
        else:
            assert saturation(out, slice(38, 46)) < 50 and out[38:46, 20:44].mean() < 100
            modes.add("coloured strokes black")
    assert len(modes) == 2


def test_crop_bank_marks_negatives_apart():
    image = np.full((200, 200, 3), 90, np.uint8)
    boxes = np.array([[20, 20, 50, 60], [120, 100, 150, 140]], np.float32)
    bank = bank_from_image(image, boxes, np.array([1, 2]), np.array([0, -1]), 1, np.random.default_rng(0), 3, 2)
    assert bank.crops.shape[1:] == (BANK_SIZE, BANK_SIZE, 3)
    assert list(bank.source[:2]) == [1, 1] and set(bank.source[2:]) <= {2}
    assert np.all(bank.class_ids[2:] == len(CLASSES))
    weights = source_weights(CropBank.concat([bank]), {1: 0.5, 2: 0.5})
    assert math.isclose(weights.sum(), 1.0) and math.isclose(weights[bank.source == 1].sum(), 0.5)


# ------------------------------------------------------------------------------------------ training smoke test


def test_the_bfloat16_forward_pass_is_bfloat16_and_close_to_float32():
    import torch

    from vision.training.classification import NUM_OUTPUTS
    from vision.training.loop import autocast
    from vision.training.nets import TileClassifier

    torch.manual_seed(0)
    net = TileClassifier(NUM_OUTPUTS).eval()
    x = torch.rand(4, 3, 64, 64) * 255
    with torch.no_grad():
        exact = net(x)[0]
        with autocast(True):
            low = net(x)[0]
        with autocast(False):
            plain = net(x)[0]
    assert low.dtype == torch.bfloat16 and plain.dtype == torch.float32
    assert torch.equal(plain, exact)
    error = (low.float() - exact).abs().max().item()
    assert 0 < error < 0.05 * exact.abs().max().item()


@pytest.mark.parametrize("bf16", [False, True])
def test_two_training_steps_export_an_onnx_model_the_runtime_reads(pool: synth.FacePool, tmp_path: Path, bf16: bool):
    import torch

    onnx = pytest.importorskip("onnx")
    from vision.detector import TileModel, crop_tiles
    from vision.training.classification import train_classifier
    from vision.training.detection import train_detector
    from vision.training.export import ExportError, export_models

    torch.set_num_threads(1)
    renderer = synth.SceneRenderer(pool, size=256)
    rng = np.random.default_rng(0)
    scenes = [renderer.render(rng) for _ in range(3)]
    pictures = [Picture(encode(s.image), s.boxes) for s in scenes]
    detector = train_detector(pictures, pictures, steps=2, seed=0, batch=2, crop=128, bf16=bf16)
    bank = CropBank.concat(
        [bank_from_image(s.image, s.boxes, s.class_ids, s.orientation, 1, rng, 2, 2) for s in scenes]
    )
    classifiers = [train_classifier(bank, {1: 0.8, 2: 0.2}, steps, seed=0, batch=8, bf16=bf16) for steps in (2, 3)]
    settings = {
        "detector": {"threshold": 0.001, "nms_iou": 0.6, "max_tiles": 50},
        "classifier": {"margin": 0.1, "reject": 1.1, "batch": 8},
    }
    crops = np.concatenate([crop_tiles(s.image, s.boxes) for s in scenes])
    (tmp_path / "model.json").write_text("the model already there")
    with pytest.raises(ExportError, match="8-bit classifier agrees"):
        export_models(detector, classifiers, tmp_path, 256, settings, [scenes[0].image], {}, crops, 1.01)
    # a failed export leaves the folder as it was: no file of the new model, no staging folder
    assert [path.name for path in tmp_path.iterdir()] == ["model.json"]
    assert (tmp_path / "model.json").read_text() == "the model already there"
    # two training steps leave the classes nearly even, so the int8 network need not agree with this one
    samples = [scenes[0].image]
    meta = export_models(detector, classifiers, tmp_path, 256, settings, samples, {"version": "test"}, crops, 0)
    assert meta["export"]["max_diff_vs_torch"]["detector"] < 2e-3
    int8 = meta["export"]["classifier_int8"]
    assert int8["calibration_crops"] + int8["checked_crops"] == len(crops)
    assert len(int8["agreement"]) == 2 and all(0 <= share <= 1 for share in int8["agreement"])
    files = ["tile_classifier.onnx", "tile_classifier-2.onnx"]
    assert meta["classifier"]["files"] == files
    for name in files:
        ops = {node.op_type for node in onnx.load(str(tmp_path / name)).graph.node}
        assert "QuantizeLinear" in ops and "DequantizeLinear" in ops
    assert not list(tmp_path.glob("*.float.onnx"))
    model = TileModel(tmp_path, threads=1)
    assert model.info["version"] == "test" and model.info["files"] == ["tile_detector.onnx", *files]
    found = model.detect(scenes[1].image)
    assert 1 <= len(found) <= 50
    assert found.boxes.shape == (len(found), 4) and found.orientation.shape == (len(found),)
    # the two classifiers differ, and the runtime reads the mean of their probabilities
    alone = [model._session(tmp_path / name).run(None, {"crops": crops[:4]})[0] for name in files]
    assert not np.allclose(alone[0], alone[1])
    np.testing.assert_allclose(model._classify_crops(crops[:4])[0], (alone[0] + alone[1]) / 2, atol=1e-6)
    # the classifiers taken from it and not trained on are copied as they are, with the figures of their export
    kept = tmp_path / "kept"
    again = export_models(
        detector, classifiers, kept, 256, settings, samples, {"version": "k"}, crops, kept_from=tmp_path
    )
    assert all((kept / name).read_bytes() == (tmp_path / name).read_bytes() for name in files)
    assert again["export"]["classifier_int8"] == int8 and again["classifier"]["files"] == files
    # so is a detector taken from it and not trained on (the network handed over is not written)
    kept = tmp_path / "kept-detector"
    other = train_detector(pictures, pictures, steps=1, seed=5, batch=2, crop=128, bf16=bf16)
    again = export_models(other, classifiers, kept, 256, settings, samples, {}, crops, 0, detector_from=tmp_path)
    assert (kept / "tile_detector.onnx").read_bytes() == (tmp_path / "tile_detector.onnx").read_bytes()
    assert again["export"]["max_diff_vs_torch"]["detector"] == meta["export"]["max_diff_vs_torch"]["detector"]
    export_models(other, classifiers, kept, 256, settings, samples, {}, crops, 0)
    assert (kept / "tile_detector.onnx").read_bytes() != (tmp_path / "tile_detector.onnx").read_bytes()
    with pytest.raises(ExportError, match="holds 2 classifiers, not 1"):
        export_models(detector, classifiers[:1], kept, 256, settings, samples, {}, crops, kept_from=tmp_path)
    # a model of one classifier exported over it leaves no file of the second behind
    export_models(detector, classifiers[:1], tmp_path, 256, settings, samples, {"version": "one"}, crops, 0)
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "kept",
        "kept-detector",
        "model.json",
        "tile_classifier.onnx",
        "tile_detector.onnx",
    ]


def test_a_detector_trained_with_batch_workers_equals_one_trained_without(pool: synth.FacePool):
    import torch

    from vision.training.detection import train_detector

    torch.set_num_threads(1)
    pictures = _pictures(pool, 3, seed=3)
    # each batch is drawn from its own step's random numbers: three workers making steps 0-3-6, 1-4, 2-5 must
    # hand them back in step order for the weights to come out the same
    alone, shared = (
        train_detector(pictures, pictures, steps=7, seed=5, batch=2, crop=96, workers=workers).state_dict()
        for workers in (0, 3)
    )
    assert alone.keys() == shared.keys()
    assert all(torch.equal(alone[name], shared[name]) for name in alone)


def test_batches_made_from_their_index_go_on_from_any_batch_with_or_without_workers():
    from vision.training.loop import produce

    assert list(produce(lambda index: index * 10, 7, workers=0, first=3)) == [30, 40, 50, 60]
    assert list(produce(lambda index: index * 10, 7, workers=2, first=3)) == [30, 40, 50, 60]
    assert list(produce(lambda index: index * 10, 7, workers=2)) == [0, 10, 20, 30, 40, 50, 60]


@pytest.mark.parametrize("network", ["detector", "classifier"])
def test_a_stage_stopped_midway_goes_on_from_its_snapshot_to_the_same_weights(
    pool: synth.FacePool, tmp_path: Path, network: str
):
    import torch

    from vision.training.classification import train_classifier
    from vision.training.detection import train_detector
    from vision.training.loop import Snapshots

    torch.set_num_threads(1)
    if network == "detector":
        pictures = _pictures(pool, 2, seed=3)

        def train(snapshots, progress=None):
            return train_detector(
                pictures, pictures, steps=5, seed=5, batch=2, crop=96, snapshots=snapshots, progress=progress
            )
    else:  # its dropout draws from torch's random numbers, which the snapshot holds too
        rng = np.random.default_rng(4)
        scenes = [synth.SceneRenderer(pool, size=192).render(rng) for _ in range(2)]
        bank = CropBank.concat(
            [bank_from_image(s.image, s.boxes, s.class_ids, s.orientation, 1, rng, 2, 2) for s in scenes]
        )

        def train(snapshots, progress=None):
            return train_classifier(
                bank, {1: 0.8, 2: 0.2}, steps=5, seed=0, batch=8, width=8, snapshots=snapshots, progress=progress
            )

    path = tmp_path / "stage.snapshot.pt"
    whole = train(Snapshots(path, {"steps": 5}, every=2))
    # snapshots after batches 2 and 4; none after the last one, the finished network being the stage's weights
    assert torch.load(path, weights_only=True)["done"] == 4
    steps: list[int] = []
    resumed = train(Snapshots(path, {"steps": 5}, every=2), lambda step, losses: steps.append(step))
    assert steps == [4] and _same_weights(whole, resumed)
    # a snapshot of other settings, or a run not asked to resume, starts from the first batch
    for snapshots in (Snapshots(path, {"steps": 6}, every=2), Snapshots(path, {"steps": 5}, every=2, resume=False)):
        steps.clear()
        assert snapshots.found() == 0
        assert _same_weights(whole, train(snapshots, lambda step, losses: steps.append(step)))
        assert steps == [0, 1, 2, 3, 4]
    # going on from batch 2 (an earlier snapshot, kept aside) gives the same weights as well
    early = tmp_path / "early.snapshot.pt"
    train(Snapshots(early, {"steps": 5}, every=3))
    steps.clear()
    assert _same_weights(whole, train(Snapshots(early, {"steps": 5}, every=3), lambda s, _: steps.append(s)))
    assert steps == [3, 4]
    with pytest.raises(ValueError, match="1 or more"):
        Snapshots(path, {}, every=0)


def test_a_snapshot_is_read_once_to_tell_and_take_back_its_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import torch

    from vision.training.loop import Snapshots

    def parts():
        net = torch.nn.Linear(3, 2)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        return net, opt, torch.optim.lr_scheduler.StepLR(opt, 1)

    net, opt, sched = parts()
    Snapshots(tmp_path / "s.pt", {"steps": 9}, every=3).after(6, 9, net, opt, sched)
    reads: list[Path] = []
    load = torch.load
    monkeypatch.setattr(torch, "load", lambda path, **kw: reads.append(path) or load(path, **kw))
    snapshots = Snapshots(tmp_path / "s.pt", {"steps": 9}, every=3)
    other, opt2, sched2 = parts()
    assert snapshots.found() == 6 and snapshots.restore(other, opt2, sched2) == 6
    assert len(reads) == 1 and torch.equal(other.weight, net.weight)
    # a snapshot written anew is read anew
    snapshots.after(3, 9, other, opt2, sched2)
    assert snapshots.found() == 3 and len(reads) == 2


def test_the_training_command_goes_on_from_a_snapshot_and_deletes_it_once_the_stage_is_saved(
    tmp_path: Path, capsys: pytest.CaptureFixture
):
    import argparse

    import torch

    from vision.training.__main__ import _bar, _load_stage, _save_stage, _snapshots
    from vision.training.classification import NUM_OUTPUTS
    from vision.training.nets import TileClassifier

    args = argparse.Namespace(work=tmp_path, resume=True, snapshot_every=500)
    assert _snapshots(argparse.Namespace(work=tmp_path, resume=True, snapshot_every=0), "classifier", {}) == (None, 0)
    snapshots, done = _snapshots(args, "classifier", {"width": 8})
    assert snapshots.path == tmp_path / "classifier.snapshot.pt" and snapshots.every == 500
    assert _bar(1000, "train classifier", done).n == 0 and capsys.readouterr().out == ""
    net = TileClassifier(NUM_OUTPUTS, 8)
    opt = torch.optim.AdamW(net.parameters())
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, total_steps=1000)
    snapshots.after(500, 1000, net, opt, sched)  # a run stopped after batch 500
    snapshots, done = _snapshots(args, "classifier", {"width": 8})
    assert "going on from batch 500" in capsys.readouterr().out
    assert _bar(1000, "train classifier", done).n == 500  # the bar and its rate start there
    _save_stage(args, "classifier", {"width": 8}, net, snapshots)
    assert not snapshots.path.exists() and _same_weights(net, _load_stage(args, "classifier", {"width": 8}))


def test_a_detector_trained_further_starts_from_its_folded_form_keeps_its_norms_frozen_and_resumes(
    pool: synth.FacePool, tmp_path: Path
):
    import argparse
    import copy

    import torch

    from vision.training.__main__ import _load_stage, _save_stage
    from vision.training.detection import train_detector
    from vision.training.nets import TileDetector, fold_batch_norm

    torch.manual_seed(0)
    net = TileDetector()
    for module in net.modules():  # norms with statistics of their own, as training leaves them
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-1, 1)
            module.running_var.uniform_(0.5, 2)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.5, 0.5)
    net.eval()
    x = torch.rand(1, 3, 96, 128) * 255
    folded = fold_batch_norm(copy.deepcopy(net))
    with torch.no_grad():
        for before, after in zip(net(x), folded(x), strict=True):
            torch.testing.assert_close(after, before, atol=1e-5, rtol=1e-5)
    norms = [m for m in folded.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert all(torch.all(m.running_mean == 0) and torch.all(m.running_var == 1) for m in norms)
    # folding again changes nothing: the form the ONNX export gives is its own folded form
    again = fold_batch_norm(copy.deepcopy(folded))
    assert all(
        torch.allclose(a, b) for a, b in zip(folded.state_dict().values(), again.state_dict().values(), strict=True)
    )
    torch.set_num_threads(1)
    pictures = _pictures(pool, 2, seed=3)
    trained = train_detector(pictures, pictures, steps=3, seed=5, batch=2, crop=96, start=folded)
    assert trained is folded and not trained.training
    # the weights moved, the norms' statistics did not
    assert not torch.equal(trained.stem[0][0].weight, again.stem[0][0].weight)
    assert all(torch.all(m.running_mean == 0) and torch.all(m.running_var == 1) for m in norms)
    # a run resumed with the same settings takes the stage back as a detector
    args = argparse.Namespace(work=tmp_path, resume=True)
    _save_stage(args, "detector-further-2", {"further": [3, 3], "width": 16}, trained)
    assert _load_stage(args, "detector-further-2", {"further": [3, 4], "width": 16}) is None  # other settings
    resumed = _load_stage(args, "detector-further-2", {"further": [3, 3], "width": 16})
    assert isinstance(resumed, TileDetector) and _same_weights(trained, resumed)


def test_a_detector_of_another_width_trains_exports_and_resumes_at_that_width(pool: synth.FacePool, tmp_path: Path):
    import argparse

    import torch

    from vision.training.__main__ import _load_stage, _save_stage
    from vision.training.detection import train_detector
    from vision.training.export import ExportError, verify
    from vision.training.nets import DetectorExport

    torch.set_num_threads(1)
    pictures = _pictures(pool, 2, seed=6)
    net = train_detector(pictures, pictures, steps=2, seed=0, batch=2, crop=96, width=8)
    # stages of 8, 16, 24, 40 and 64 channels, a feature pyramid of 24
    assert net.stem[0][0].out_channels == 8 and net.s32[0][0].out_channels == 64 and net.out_hm.in_channels == 24
    path = tmp_path / "detector.onnx"
    export = DetectorExport(net).eval()
    x = np.random.default_rng(0).uniform(0, 255, (1, 3, 128, 128)).astype(np.float32)
    with torch.no_grad():
        heat, sides = export(torch.from_numpy(x))
    assert heat.shape == (1, 1, 16, 16) and sides.shape == (1, 4, 16, 16)
    torch.onnx.export(export, torch.from_numpy(x), path, opset_version=17, dynamo=False)
    verify(export, path, [x], atol=2e-3)  # onnxruntime gives torch's outputs, of the same shapes
    with pytest.raises(ExportError, match="output of shape"):
        verify(lambda t: tuple(out[..., :8] for out in export(t)), path, [x], atol=2e-3)
    args = argparse.Namespace(work=tmp_path, resume=True)
    _save_stage(args, "detector", {"width": 8}, net)
    assert _load_stage(args, "detector", {"width": 16}) is None  # saved with other settings
    assert _same_weights(net, _load_stage(args, "detector", {"width": 8}))


def test_a_classifier_of_another_width_trains_and_resumes_at_that_width(pool: synth.FacePool, tmp_path: Path):
    import argparse

    import torch

    from vision.training.__main__ import _load_stage, _save_stage
    from vision.training.classification import evaluate_bank, train_classifier

    torch.set_num_threads(1)
    _, bank = _small_bank(pool, 4)
    net = train_classifier(bank, {1: 0.8, 2: 0.2}, steps=2, seed=0, batch=8, width=8)
    assert net.features[0][0].out_channels == 8 and net.classes.in_features == 48  # stages of 8, 16, 32, 48
    # the check of the training command: one classifier averaged with itself scores as it does alone
    assert evaluate_bank([net, net], bank) == evaluate_bank([net], bank)
    args = argparse.Namespace(work=tmp_path, resume=True)
    _save_stage(args, "classifier", {"width": 8}, net)
    assert _load_stage(args, "classifier", {"width": 16}) is None  # saved with other settings
    assert _same_weights(net, _load_stage(args, "classifier", {"width": 8}))


def test_blur_blurs_its_share_of_the_crops_out_of_focus_or_shaken_and_leaves_the_rest():
    import cv2

    from vision.training.classification import blur

    crop = np.zeros((64, 64, 3), np.uint8)
    crop[::8] = 255
    crop[:, ::8] = 255  # a grid: blur softens it whichever way it runs
    sharp = cv2.Laplacian(crop, cv2.CV_64F).var()
    out = [blur(np.random.default_rng(seed), crop.copy(), 0.4) for seed in range(400)]
    assert all(o.shape == crop.shape and o.dtype == np.uint8 for o in out)
    assert np.array_equal(out[3], blur(np.random.default_rng(3), crop.copy(), 0.4))  # the same draws blur alike
    kept = [np.array_equal(o, crop) for o in out]
    assert 0.5 < np.mean(kept) < 0.7  # 0.6 left as they were
    assert all(cv2.Laplacian(o, cv2.CV_64F).var() < 0.6 * sharp for o, same in zip(out, kept, strict=True) if not same)
    assert all(np.array_equal(blur(np.random.default_rng(seed), crop.copy(), 0.0), crop) for seed in range(20))


def test_shrink_shows_its_share_of_the_crops_as_tiles_photographed_small_and_leaves_the_rest():
    import cv2

    from vision.training.classification import shrink

    crop = np.zeros((64, 64, 3), np.uint8)
    crop[::4] = 255
    crop[:, ::4] = 255  # a fine grid: a crop taken down to 12 to 36 pixels loses it
    sharp = cv2.Laplacian(crop, cv2.CV_64F).var()
    out = [shrink(np.random.default_rng(seed), crop.copy(), 0.5) for seed in range(200)]
    assert all(o.shape == crop.shape and o.dtype == np.uint8 for o in out)
    assert np.array_equal(out[7], shrink(np.random.default_rng(7), crop.copy(), 0.5))  # the same draws alike
    kept = [np.array_equal(o, crop) for o in out]
    assert 0.4 < np.mean(kept) < 0.6
    assert all(cv2.Laplacian(o, cv2.CV_64F).var() < 0.5 * sharp for o, same in zip(out, kept, strict=True) if not same)
    assert all(np.array_equal(shrink(np.random.default_rng(seed), crop.copy(), 0.0), crop) for seed in range(20))


def test_a_classifier_comes_back_from_its_onnx_file_float_or_8_bit_and_trains_on_blurred_with_frozen_norms(
    pool: synth.FacePool, tmp_path: Path
):
    import onnxruntime as ort
    import torch

    from vision.detector import crop_tiles
    from vision.training.classification import make_batch, train_classifier
    from vision.training.export import ExportError, _export, classifier_from_onnx, quantize_classifier
    from vision.training.nets import ClassifierExport, DetectorExport, TileDetector

    torch.set_num_threads(1)
    scenes, bank = _small_bank(pool, 8)
    net = train_classifier(bank, {1: 0.8, 2: 0.2}, steps=2, seed=0, batch=8, width=8)
    names = {"input": "crops", "outputs": ["classes", "orientation"], "dynamic": {"crops": {0: "n"}}}
    crops = np.concatenate([crop_tiles(s.image, s.boxes) for s in scenes])
    exported = ClassifierExport(net).eval()
    for file, quantised in (("float.onnx", False), ("int8.onnx", True)):
        path = tmp_path / file
        _export(exported, torch.zeros(2, 3, 64, 64), path, names)
        if quantised:
            quantize_classifier(exported, path, crops, crops, 0.0)
        back = classifier_from_onnx(path)
        assert back.features[0][0].out_channels == 8 and not back.training  # its width read from the file
        expected = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"crops": crops})
        with torch.no_grad():
            got = [torch.softmax(out, 1).numpy() for out in back(torch.from_numpy(crops))]
        for want, have in zip(expected, got, strict=True):  # the 8-bit file rounds its activations too
            np.testing.assert_allclose(have, want, atol=0.05 if quantised else 1e-5)
    norms = [m for m in back.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert all(torch.all(m.running_mean == 0) and torch.all(m.running_var == 1) for m in norms)
    # trained on from the file, its norms stay frozen and its weights move; the crops are blurred as asked
    weights = back.features[0][0].weight.clone()
    plain = make_batch(np.random.default_rng([2, 0]), bank, np.full(len(bank), 1 / len(bank)), 16)
    blurred = make_batch(np.random.default_rng([2, 0]), bank, np.full(len(bank), 1 / len(bank)), 16, True)
    assert torch.equal(plain[1], blurred[1]) and not torch.equal(plain[0], blurred[0])
    small = make_batch(np.random.default_rng([2, 0]), bank, np.full(len(bank), 1 / len(bank)), 16, True, 1.0)
    assert torch.equal(plain[1], small[1]) and not torch.equal(blurred[0], small[0])  # the same crops, shrunk
    trained = train_classifier(bank, {1: 0.8, 2: 0.2}, steps=2, seed=1, batch=8, start=back, blurred=True)
    assert trained is back and not trained.training
    assert not torch.equal(trained.features[0][0].weight, weights)
    assert all(torch.all(m.running_mean == 0) and torch.all(m.running_var == 1) for m in norms)
    # files that hold no classifier
    detector = tmp_path / "detector.onnx"
    _export(
        DetectorExport(TileDetector(8)).eval(),
        torch.zeros(1, 3, 64, 64),
        detector,
        {"input": "image", "outputs": ["heat", "sides"], "dynamic": {}},
    )
    with pytest.raises(ExportError, match="not a tile classifier"):
        classifier_from_onnx(detector)
    (tmp_path / "junk.onnx").write_bytes(b"not a model")
    with pytest.raises(ExportError, match="not an ONNX file"):
        classifier_from_onnx(tmp_path / "junk.onnx")


def test_a_detector_comes_back_from_its_onnx_file_folded_and_trains_on(pool: synth.FacePool, tmp_path: Path):
    import onnxruntime as ort
    import torch

    from vision.training.classification import NUM_OUTPUTS
    from vision.training.detection import train_detector
    from vision.training.export import ExportError, _export, detector_from_onnx
    from vision.training.nets import ClassifierExport, DetectorExport, TileClassifier, TileDetector

    torch.manual_seed(0)
    net = TileDetector(8)
    for module in net.modules():  # norms with statistics of their own, as training leaves them
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-1, 1)
            module.running_var.uniform_(0.5, 2)
            module.bias.data.uniform_(-0.5, 0.5)
    path = tmp_path / "detector.onnx"
    names = {"input": "image", "outputs": ["heat", "sides"], "dynamic": {"image": {2: "h", 3: "w"}}}
    _export(DetectorExport(net).eval(), torch.zeros(1, 3, 64, 64), path, names)
    back = detector_from_onnx(path)
    assert back.stem[0][0].out_channels == 8 and not back.training  # its width read from the file
    x = np.random.default_rng(0).uniform(0, 255, (1, 3, 96, 128)).astype(np.float32)
    expected = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"image": x})
    with torch.no_grad():
        got = [out.numpy() for out in DetectorExport(back)(torch.from_numpy(x))]
    for want, have in zip(expected, got, strict=True):
        np.testing.assert_allclose(have, want, rtol=1e-4, atol=1e-5)
    norms = [m for m in back.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert all(torch.all(m.running_mean == 0) and torch.all(m.running_var == 1) for m in norms)
    # trained on from the file, its norms stay frozen and its weights move
    torch.set_num_threads(1)
    weights = back.stem[0][0].weight.clone()
    pictures = _pictures(pool, 2, seed=3)
    trained = train_detector(pictures, pictures, steps=2, seed=1, batch=2, crop=96, start=back, ignore=True)
    assert trained is back and not torch.equal(trained.stem[0][0].weight, weights)
    assert all(torch.all(m.running_mean == 0) and torch.all(m.running_var == 1) for m in norms)
    # files that hold no detector
    classifier = tmp_path / "classifier.onnx"
    _export(
        ClassifierExport(TileClassifier(NUM_OUTPUTS, 8)).eval(),
        torch.zeros(2, 3, 64, 64),
        classifier,
        {"input": "crops", "outputs": ["classes", "orientation"], "dynamic": {}},
    )
    with pytest.raises(ExportError, match="not a tile detector"):
        detector_from_onnx(classifier)
    (tmp_path / "junk.onnx").write_bytes(b"not a model")
    with pytest.raises(ExportError, match="not an ONNX file"):
        detector_from_onnx(tmp_path / "junk.onnx")


def test_the_training_command_refuses_a_device_it_lacks_negative_workers_and_thin_or_empty_classifiers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    import torch

    from vision.training.__main__ import main

    where = ["--data", str(tmp_path / "no-data"), "--out", str(tmp_path / "out"), "--printed-faces", "0"]
    with pytest.raises(SystemExit) as stop:
        main([*where, "--workers", "-2"])
    assert stop.value.code == 2 and "--workers -2: give 0 or more processes" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--det-further", "18000", "-1"])
    assert (
        stop.value.code == 2
        and "--det-further 18000 -1: give 1 or more batches for each stage" in capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as stop:
        main([*where, "--det-further", "18000", "--det-spoil-from", "2"])
    assert stop.value.code == 2 and "--det-spoil-from 2: give a detector stage from 0" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--det-threshold", "1.2"])
    assert stop.value.code == 2 and "--det-threshold 1.2: give a score between 0 and 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--det-width", "3"])
    assert stop.value.code == 2 and "--det-width 3: give 4 channels or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--cls-width", "2"])
    assert stop.value.code == 2 and "--cls-width 2: give 4 channels or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--snapshot-every", "-5"])
    assert stop.value.code == 2 and "--snapshot-every -5: give 0 (never) or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--cls-steps", "300", "0"])
    assert stop.value.code == 2 and "--cls-steps 300 0: give 1 or more batches" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--cls-further", "-4"])
    assert stop.value.code == 2 and "--cls-further -4: give 0 (none) or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--cls-small", "0.5"])
    assert stop.value.code == 2 and "--cls-small 0.5: the crops of --cls-further are shrunk" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--cls-further", "10", "--cls-small", "2"])
    assert stop.value.code == 2 and "'2' is not a share from 0 to 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:  # taken as they are, without --cls-further, from a model
        main([*where, "--cls-from", str(tmp_path)])
    assert stop.value.code == 2 and f"--cls-from {tmp_path}: no model this project trained there" in (
        capsys.readouterr().err
    )
    for further in ([], ["--det-further", "600"]):  # taken as it is, or trained on
        with pytest.raises(SystemExit) as stop:
            main([*where, "--det-from", str(tmp_path), *further])
        assert stop.value.code == 2 and f"--det-from {tmp_path}: no model this project trained there" in (
            capsys.readouterr().err
        )
    with pytest.raises(SystemExit) as stop:
        main([*where, "--det-further", "600", "--det-ignore-from", "2"])
    assert stop.value.code == 2 and "--det-ignore-from 2: give a detector stage from 0" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main([*where, "--cls-from", str(tmp_path), "--cls-further", "600"])
    assert stop.value.code == 2 and f"--cls-from {tmp_path}: no model this project trained there" in (
        capsys.readouterr().err
    )
    model = tmp_path / "model"
    model.mkdir()
    training = {"version": "v", "training": {"classifier_steps": [300, 400], "classifier_width": 8}}
    (model / "model.json").write_text(json.dumps({**training, "classifier": {"files": ["a.onnx", "b.onnx"]}}))
    (model / "a.onnx").write_bytes(b"")
    with pytest.raises(SystemExit) as stop:
        main([*where, "--cls-from", str(model), "--cls-further", "600"])
    assert stop.value.code == 2 and "names classifier files it does not hold" in capsys.readouterr().err
    (model / "b.onnx").write_bytes(b"")  # both files there (empty: ONNX of no graph): refused before the data
    assert main([*where, "--cls-from", str(model), "--cls-further", "600"]) == 2
    error = capsys.readouterr().err
    assert "error: --cls-from:" in error and "a.onnx: not a tile classifier" in error and "no-data" not in error
    # the detector of a model: its stages stand for the first ones, numbered on by --det-spoil-from and the like
    detector = {"detector_steps": 900, "detector_further_steps": [300], "detector_width": 8}
    training["training"].update(detector)
    (model / "model.json").write_text(json.dumps({**training, "detector": {"file": "d.onnx"}}))
    with pytest.raises(SystemExit) as stop:
        main([*where, "--det-from", str(model), "--det-further", "600"])
    assert stop.value.code == 2 and "names a detector file it does not hold" in capsys.readouterr().err
    (model / "d.onnx").write_bytes(b"")
    with pytest.raises(SystemExit) as stop:
        main([*where, "--det-from", str(model), "--det-further", "600", "--det-ignore-from", "3"])
    assert stop.value.code == 2 and "--det-ignore-from 3: give a detector stage from 0 (the first) to 2" in (
        capsys.readouterr().err
    )
    for further in ([], ["--det-further", "600", "--det-ignore-from", "2"]):  # as it is, or trained on
        assert main([*where, "--det-from", str(model), *further]) == 2
        error = capsys.readouterr().err
        assert "error: --det-from:" in error and "d.onnx: not a tile detector" in error and "no-data" not in error
    with pytest.raises(SystemExit) as stop:  # a field of the wrong kind
        training["training"]["detector_width"] = [8]
        (model / "model.json").write_text(json.dumps({**training, "detector": {"file": "d.onnx"}}))
        main([*where, "--det-from", str(model)])
    assert stop.value.code == 2 and f"--det-from {model}: no model this project trained there" in (
        capsys.readouterr().err
    )
    refused = [("abacus", "unknown device")] + ([] if torch.cuda.is_available() else [("cuda", "no CUDA GPU")])
    for device, message in refused:  # refused before any data is read
        assert main([*where, "--device", device]) == 2
        assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_training_device_must_exist_here():
    import torch

    from vision.training.loop import device_of

    assert device_of("cpu").type == "cpu"
    with pytest.raises(ValueError, match="unknown device"):
        device_of("abacus")
    with pytest.raises(ValueError, match="'cpu' or 'cuda'"):
        device_of("meta")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA GPU"):
            device_of("cuda")


def _data_folder(root: Path) -> Path:
    """A data folder as the training command reads it, small: drawn faces as the art (``test_training``), one
    crop, and three synthetic scenes as the real photos, with their YOLO labels."""
    from test_training import _body, _face

    from vision.training.data import ART_CODES

    style = root / "art-riichi-cc0" / "Export" / "Regular"
    style.mkdir(parents=True)
    (root / "art-riichi-flowers-ccby" / "Export").mkdir(parents=True)
    for stem, code in ART_CODES.items():
        cv2.imwrite(str(style / f"{stem}.png"), cv2.cvtColor(_face(code), cv2.COLOR_RGBA2BGRA))
    for stem, colour in (("Front", (240, 240, 235)), ("Back", (220, 120, 40))):
        cv2.imwrite(str(style / f"{stem}.png"), cv2.cvtColor(_body(colour), cv2.COLOR_RGBA2BGRA))
    (root / "hk-crops" / "images").mkdir(parents=True)
    cv2.imwrite(str(root / "hk-crops" / "images" / "1.jpg"), cv2.cvtColor(_face("7z"), cv2.COLOR_RGBA2BGR))
    (root / "hk-crops" / "labels.csv").write_text("image,code\n1.jpg,7z\n")
    train = root / "hk-photos" / "train"
    (train / "images").mkdir(parents=True)
    (train / "labels").mkdir()
    (root / "hk-photos" / "classes.json").write_text(json.dumps(dict(enumerate(CLASSES[:-1]))))
    renderer, rng = synth.SceneRenderer(small_pool(), size=256), np.random.default_rng(4)
    for number in range(3):
        scene = renderer.render(rng)
        cv2.imwrite(str(train / "images" / f"{number}.jpg"), cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR))
        lines = [
            f"{c} {(x0 + x1) / 512} {(y0 + y1) / 512} {(x1 - x0) / 256} {(y1 - y0) / 256}"
            for c, (x0, y0, x1, y1) in zip(scene.class_ids, scene.boxes, strict=True)
            if c < len(CLASSES) - 1  # the source labels no face-down tile
        ]
        (train / "labels" / f"{number}.txt").write_text("\n".join(lines))
    return root


def _source_model(pool: synth.FacePool, folder: Path) -> Path:
    """A small model exported into ``folder`` as the training command writes one (version "source"), its
    detector and classifier trained a step or two."""
    import torch

    from vision.detector import crop_tiles
    from vision.training.classification import train_classifier
    from vision.training.detection import train_detector
    from vision.training.export import export_models

    torch.set_num_threads(1)
    scenes, bank = _small_bank(pool, 8)
    pictures = [Picture(encode(s.image), s.boxes) for s in scenes]
    training = {
        "version": "source",
        "detector_steps": 900,
        "detector_further_steps": [300],
        "detector_spoilt_from": 1,
        "detector_width": 8,
        "classifier_steps": [500],
        "classifier_further_steps": 200,
        "classifier_width": 8,
    }
    export_models(
        train_detector(pictures, pictures, steps=1, seed=0, batch=2, crop=96, width=8),
        [train_classifier(bank, {1: 0.8, 2: 0.2}, steps=2, seed=0, batch=8, width=8)],
        folder,
        512,
        {"detector": {"threshold": 0.4, "nms_iou": 0.6, "max_tiles": 50}, "classifier": {"margin": 0.1, "reject": 1.1}},
        [scenes[0].image],
        training,
        np.concatenate([crop_tiles(s.image, s.boxes) for s in scenes]),
        0,
    )
    return folder


def _small_run(data: Path, work: Path) -> list[str]:
    """The training command's arguments for a small run on ``data`` (``_data_folder``) with the work folder
    ``work``."""
    where = ["--data", str(data), "--work", str(work), "--printed-faces", "0", "--scenes", "2"]
    return [*where, "--check-scenes", "1", "--threads", "1"]


def test_the_training_command_takes_a_models_networks_as_they_are_or_trains_them_on(
    pool: synth.FacePool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from vision.training.__main__ import main

    data = _data_folder(tmp_path / "data")
    source = _source_model(pool, tmp_path / "source")
    files = ["tile_detector.onnx", "tile_classifier.onnx"]
    where = _small_run(data, tmp_path / "work")
    # both taken as they are: copied byte for byte, described as the model describes them
    out = tmp_path / "kept"
    assert main([*where, "--out", str(out), "--det-from", str(source), "--cls-from", str(source)]) == 0
    assert all((out / name).read_bytes() == (source / name).read_bytes() for name in files)
    assert not (tmp_path / "work" / "scenes.pkl").exists()  # nothing trains: no training scene is rendered
    meta = json.loads((out / "model.json").read_text())["training"]
    assert meta["detector_from"] == meta["classifiers_from"] == "source"
    assert meta["detector_steps"] == 900 and meta["detector_further_steps"] == [300]
    assert meta["detector_spoilt_from"] == 1 and meta["version"].endswith("-n2-900+300x500f200-w8-dw8-sp1")
    # its detector trained on one stage more (spoilt, as the model's last one was), its classifier kept
    out = tmp_path / "further"
    argv = [*where, "--out", str(out), "--det-from", str(source), "--det-further", "1", "--cls-from", str(source)]
    assert main(argv) == 0
    assert (out / files[0]).read_bytes() != (source / files[0]).read_bytes()
    assert (out / files[1]).read_bytes() == (source / files[1]).read_bytes()
    assert (tmp_path / "work" / "scenes.pkl").exists()
    meta = json.loads((out / "model.json").read_text())["training"]
    assert meta["detector_further_steps"] == [300, 1] and meta["version"].endswith("-900+300+1x500f200-w8-dw8-sp1")
    assert json.loads((tmp_path / "work" / "detector-further-2.json").read_text())["spoilt_from"] == 1
    # its classifier trained on: the batches trained further are the model's and this run's (a classifier
    # trained two batches is no network its 8-bit form can agree with)
    from vision.training import export

    export_as_is = export.export_models
    monkeypatch.setattr(export, "export_models", lambda *a, **k: export_as_is(*a, **k, min_agreement=0))
    out = tmp_path / "classifier-further"
    argv = [*where, "--out", str(out), "--det-from", str(source), "--cls-from", str(source), "--cls-further", "1"]
    assert main(argv) == 0
    assert (out / files[1]).read_bytes() != (source / files[1]).read_bytes()
    meta = json.loads((out / "model.json").read_text())["training"]
    assert meta["classifier_further_steps"] == 201 and meta["version"].endswith("-900+300x500f201-w8-dw8-sp1")
    assert meta["classifier_small"] == 0 and "small" not in json.loads(
        (tmp_path / "work" / "classifier-500-further.json").read_text()
    )
    # trained on with crops shown as small tiles: a stage of its own, told by its key and the version
    out = tmp_path / "classifier-small"
    argv = [*where, "--out", str(out), "--det-from", str(source), "--cls-from", str(source), "--cls-further", "1"]
    assert main([*argv, "--cls-small", "0.5"]) == 0
    meta = json.loads((out / "model.json").read_text())["training"]
    assert meta["classifier_small"] == 0.5 and meta["version"].endswith("-900+300x500f201-w8-dw8-sp1-sm50")
    assert json.loads((tmp_path / "work" / "classifier-500-further.json").read_text())["small"] == 0.5


def test_a_soup_averages_the_detectors_trained_on_from_one_and_keeps_the_classifiers(
    pool: synth.FacePool, tmp_path: Path, capsys: pytest.CaptureFixture
):
    import shutil

    import torch

    from vision.training.__main__ import main as train
    from vision.training.export import detector_from_onnx
    from vision.training.soup import SoupError, main, read_models

    data = _data_folder(tmp_path / "data")
    source = _source_model(pool, tmp_path / "source")
    further = tmp_path / "further"
    argv = ["--out", str(further), "--det-from", str(source), "--det-further", "1", "--cls-from", str(source)]
    assert train([*_small_run(data, tmp_path / "work"), *argv]) == 0
    out = tmp_path / "soup"
    assert main(["--data", str(data), "--out", str(out), "--det-threshold", "0.3", str(source), str(further)]) == 0
    assert (out / "tile_classifier.onnx").read_bytes() == (source / "tile_classifier.onnx").read_bytes()
    meta = json.loads((out / "model.json").read_text())
    further_version = json.loads((further / "model.json").read_text())["version"]
    assert meta["training"]["soup_of"] == ["source", further_version] and meta["version"] == "source-soup2"
    assert meta["training"]["detector_from"] == "source" and meta["detector"]["threshold"] == 0.3
    assert meta["training"]["command"].endswith(f"--det-threshold 0.3 {source} {further}")
    ingredients = [detector_from_onnx(f / "tile_detector.onnx").state_dict() for f in (source, further)]
    for name, value in detector_from_onnx(out / "tile_detector.onnx").state_dict().items():
        first, second = ingredients[0][name], ingredients[1][name]
        expected = (first + second) / 2 if value.is_floating_point() else first
        assert torch.allclose(value, expected, atol=1e-6), name
    # the runtime reads it
    from vision.detector import TileModel

    model = TileModel(out, threads=1)
    assert model.info["version"] == "source-soup2" and model.info["files"][0] == "tile_detector.onnx"
    photo = cv2.imread(str(data / "hk-photos" / "train" / "images" / "0.jpg"))
    assert model.detect(cv2.cvtColor(photo, cv2.COLOR_BGR2RGB)).boxes.shape[1:] == (4,)
    # an existing model is kept unless asked
    with pytest.raises(SystemExit):
        main(["--data", str(data), "--out", str(out), str(source), str(further)])
    assert "--force replaces it" in capsys.readouterr().err
    # what cannot be averaged
    with pytest.raises(SoupError, match="at least two"):
        read_models([source])
    other = tmp_path / "other-classifier"
    shutil.copytree(further, other)
    (other / "tile_classifier.onnx").write_bytes((other / "tile_classifier.onnx").read_bytes() + b"\0")
    with pytest.raises(SoupError, match="its classifiers are not those"):
        read_models([source, other])
    unrelated = tmp_path / "unrelated"
    shutil.copytree(further, unrelated)
    description = json.loads((unrelated / "model.json").read_text())
    description["training"]["detector_from"] = "elsewhere"
    (unrelated / "model.json").write_text(json.dumps(description))
    with pytest.raises(SoupError, match="not trained on from one detector"):
        read_models([source, unrelated])
    assert main(["--data", str(data), "--out", str(tmp_path / "x"), str(source), str(unrelated)]) == 1
    assert "error: the detectors were not trained on from one detector" in capsys.readouterr().err
