"""``scripts/eval_robustness.py``: photos spoilt as bad photos are, and the model's reading of them scored."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from labelled import SAMPLE, script

from vision.detector import TileModel
from vision.evaluate import GroundTruth, evaluate_folder
from vision.io import load_image

eval_robustness = script("eval_robustness")
WAYS = eval_robustness.DEGRADATIONS
ARGS = [
    "--images",
    str(SAMPLE / "images"),
    "--labels",
    str(SAMPLE / "labels"),
    "--classes",
    str(SAMPLE / "classes.json"),
]


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    return load_image(SAMPLE / "images" / "row-flower.jpg")


def _spoil(name: str, rgb: np.ndarray) -> np.ndarray:
    return WAYS[name](rgb, np.random.default_rng(0))


def _sharpness(rgb: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), cv2.CV_64F).var())


def test_every_way_spoils_the_photo_into_a_picture_of_the_same_kind(photo):
    h, w = photo.shape[:2]
    for name, way in WAYS.items():
        out = way(photo, np.random.default_rng(0))
        assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3, name
        assert out.shape[:2] == ((round(h / 2), round(w / 2)) if name == "low-res" else (h, w)), name
        if name != "as taken":
            assert out.shape != photo.shape or np.abs(out.astype(int) - photo).mean() > 1.0, name
        # the same photo and seed give the same picture
        assert np.array_equal(out, way(photo, np.random.default_rng(0))), name


def test_each_way_does_what_its_name_says(photo):
    mean = photo.reshape(-1, 3).mean(axis=0)
    assert _sharpness(_spoil("defocus", photo)) < 0.5 * _sharpness(photo)
    assert _sharpness(_spoil("shake", photo)) < 0.5 * _sharpness(photo)
    assert _spoil("dim", photo).mean() < 0.7 * photo.mean()
    assert _spoil("overexposed", photo).mean() > 1.15 * photo.mean()
    assert (_spoil("overexposed", photo) == 255).mean() > (photo == 255).mean()
    lamp = _spoil("lamp", photo).reshape(-1, 3).mean(axis=0)
    assert lamp[0] == pytest.approx(mean[0], abs=1.0) and lamp[2] < 0.8 * mean[2]
    noisy = _spoil("noise", photo).astype(int) - photo
    assert 10 < noisy.std() < 16
    h, w = photo.shape[:2]
    shaded = _spoil("shadow", photo).astype(float) / np.maximum(photo, 1)
    assert shaded[: h // 8, : w // 8].mean() > 0.95 and shaded[-h // 8 :, -w // 8 :].mean() < 0.7
    glared = _spoil("glare", photo).astype(int) - photo
    assert glared[h // 2 - 5 : h // 2 + 5, w // 2 - 5 : w // 2 + 5].mean() > 40 and glared[:20, :20].mean() < 2
    squeezed = _spoil("squeezed", photo)
    assert 2 < np.abs(squeezed.astype(int) - photo).mean() < 20


def test_a_far_way_lays_the_photo_at_its_own_size_in_the_middle_of_a_plain_table(photo):
    h, w = photo.shape[:2]
    sides = (photo[:8], photo[-8:], photo[:, :8], photo[:, -8:])
    edge = np.concatenate([side.reshape(-1, 3) for side in sides])
    for name, factor in (("far2", 2), ("far3", 3)):
        out = eval_robustness.AFAR[name](photo, np.random.default_rng(0))
        assert out.dtype == np.uint8 and out.shape == (h * factor, w * factor, 3), name
        top, left = (h * factor - h) // 2, (w * factor - w) // 2
        assert np.array_equal(out[top : top + h, left : left + w], photo), name
        table = out[: top - 1].reshape(-1, 3).astype(float)
        assert np.allclose(table.mean(axis=0), np.median(edge, axis=0), atol=4.0), name
        assert 2 < table.std(axis=0).mean() < 6, name
        assert np.array_equal(out, eval_robustness.AFAR[name](photo, np.random.default_rng(0))), name
    # asked for by name only: the default run is the ten ways of the card's tables
    assert not set(eval_robustness.AFAR) & set(WAYS)


def test_noise_drawn_a_block_of_rows_at_a_time_is_the_noise_of_one_draw(photo):
    tall = np.concatenate([photo] * 3)[: eval_robustness.NOISE_ROWS * 2 + 7]  # three blocks, the last short
    blocks = eval_robustness._noisy(tall, np.random.default_rng(4), 6.0)
    once = np.random.default_rng(4).normal(0.0, 6.0, tall.shape)
    assert np.array_equal(blocks, np.clip(tall.astype(np.float32) + once, 0, 255).astype(np.uint8))


def test_labels_follow_a_photo_laid_in_a_larger_picture():
    truth = GroundTruth(
        np.array([[10, 20, 30, 60]], np.float32), ["1m"], unlabelled=np.array([[0, 0, 5, 5]], np.float32)
    )
    moved = eval_robustness._placed(truth, (100, 200, 3), (300, 600, 3))
    assert moved.codes == ["1m"] and np.allclose(moved.boxes, [[210, 120, 230, 160]])
    assert np.allclose(moved.unlabelled, [[200, 100, 205, 105]])


def test_labels_turn_with_a_photo_whose_turn_was_lost():
    """A box drawn on a photo 100 high and 200 wide lands, turned with it, where the turned label says."""
    photo = np.zeros((100, 200, 3), np.uint8)
    photo[20:60, 10:30] = 255
    truth = GroundTruth(
        np.array([[10, 20, 30, 60]], np.float32), ["1m"], unlabelled=np.array([[0, 0, 5, 5]], np.float32)
    )
    for name in ("turned90", "turned180", "turned270"):
        picture, moved = eval_robustness.spoilt(name, "a.jpg", photo, truth)
        ys, xs = np.nonzero(picture[..., 0])
        assert np.allclose(moved.boxes, [[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]]), name
        assert moved.codes == ["1m"] and moved.unlabelled.shape == (1, 4), name
    # asked for by name only, as the far ways
    assert not set(eval_robustness.TURNED) & set(WAYS)


def test_labels_follow_a_picture_made_smaller():
    truth = GroundTruth(np.array([[10, 20, 30, 60]], np.float32), ["1m"])
    scaled = eval_robustness._scaled(truth, (100, 200, 3), (50, 100, 3))
    assert scaled.codes == ["1m"] and np.allclose(scaled.boxes, [[5, 10, 15, 30]])
    assert eval_robustness._scaled(truth, (100, 200, 3), (100, 200, 3)) is truth


def test_a_tile_shown_but_not_labelled_counts_neither_way_and_follows_a_smaller_picture(tmp_path):
    """row-flower with one tile's label moved to ``unlabelled/``: its reading counts neither way, in the photo as
    taken and in the one made smaller, as ``mjscan evaluate --unlabelled`` counts it."""
    images, labels, unlabelled = (tmp_path / name for name in ("images", "labels", "unlabelled"))
    for folder in (images, labels, unlabelled):
        folder.mkdir()
    (images / "row-flower.jpg").write_bytes((SAMPLE / "images" / "row-flower.jpg").read_bytes())
    first, *rest = (SAMPLE / "labels" / "row-flower.txt").read_text().splitlines()
    (labels / "row-flower.txt").write_text("\n".join(rest) + "\n")
    (unlabelled / "row-flower.txt").write_text(first + "\n")
    model = TileModel()
    args = (model, images, labels, SAMPLE / "classes.json")
    plain, _ = eval_robustness.evaluate_robustness(*args, names=["as taken", "low-res"], progress=False)
    kind, _ = eval_robustness.evaluate_robustness(
        *args, names=["as taken", "low-res"], unlabelled=unlabelled, progress=False
    )
    report = evaluate_folder(
        model.detect, images, labels, SAMPLE / "classes.json", unlabelled=unlabelled, progress=False
    )
    assert kind["as taken"]["f1"] == round(report.f1, 4) and kind["as taken"]["on_unlabelled_tiles"] == 1
    for way in ("as taken", "low-res"):
        assert plain[way]["on_unlabelled_tiles"] == 0 and kind[way]["on_unlabelled_tiles"] == 1, way
        assert kind[way]["fp"] == plain[way]["fp"] - 1 and kind[way]["tp"] == plain[way]["tp"], way


def test_the_photos_as_taken_score_as_mjscan_evaluate_scores_them():
    model = TileModel()
    figures, errors = eval_robustness.evaluate_robustness(
        model,
        SAMPLE / "images",
        SAMPLE / "labels",
        SAMPLE / "classes.json",
        names=["as taken", "glare"],
        progress=False,
    )
    report = evaluate_folder(
        model.detect, SAMPLE / "images", SAMPLE / "labels", SAMPLE / "classes.json", progress=False
    )
    assert figures["as taken"]["f1"] == round(report.f1, 4)
    assert figures["as taken"]["tp"] == report.total.tp
    assert figures["as taken"]["wrong_codes"] + figures["as taken"]["missed"] == report.total.fn
    assert sorted(errors) == sorted(p.name for p in (SAMPLE / "images").iterdir())
    # the spoilt copies are what is read: glare burns tiles out, which no model reads (the bundled one reads the
    # sample photos shaken as well as taken)
    assert figures["glare"]["f1"] < figures["as taken"]["f1"]


def test_the_script_prints_a_table_and_draws_a_sheet(tmp_path, capsys):
    sheet = tmp_path / "sheet.jpg"
    assert eval_robustness.main([*ARGS, "--only", "dim,low-res", "--limit", "2", "--sheet", str(sheet)]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0].split()[:3] == ["way", "F1", "change"]
    assert [line.split()[0] for line in lines[1:]] == ["as", "dim", "low-res"]
    assert "sheet of" in out.err
    picture = load_image(sheet)
    assert picture.shape[:2] == (480, 3 * 480)  # three cells in a row
    # a hand from afar is read (the sample photos: as well as taken) and drawn at the photo's size
    far_sheet = tmp_path / "far.jpg"
    assert eval_robustness.main([*ARGS, "--only", "far3", "--limit", "2", "--json", "--sheet", str(far_sheet)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["far3"]["recall"] >= figures["as taken"]["recall"] - 0.05 and figures["far3"]["tp"] > 20
    assert load_image(far_sheet).shape[:2] == (480, 2 * 480)
    # a sheet never overwrites a file; --json gives the figures
    assert eval_robustness.main([*ARGS, "--only", "dim", "--limit", "1", "--sheet", str(sheet)]) == 2
    assert "exists" in capsys.readouterr().err
    assert eval_robustness.main([*ARGS, "--only", "dim", "--limit", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert list(figures) == ["as taken", "dim"] and {"f1", "wrong_codes", "missed"} <= set(figures["dim"])


def test_bad_requests_are_refused_clearly(tmp_path, capsys):
    assert eval_robustness.main([*ARGS, "--only", "fog"]) == 2
    assert "unknown ways fog" in capsys.readouterr().err
    assert eval_robustness.main([*ARGS, "--limit", "0"]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert eval_robustness.main(["--images", str(empty), *ARGS[2:]]) == 2
    assert "no labelled photos" in capsys.readouterr().err
    assert eval_robustness.main([*ARGS, "--sheet", str(tmp_path / "s.jpg"), "--sheet-photo", "nope.jpg"]) == 2
    assert "nope.jpg" in capsys.readouterr().err
    assert eval_robustness.main([*ARGS, "--unlabelled", str(tmp_path / "none")]) == 2
    assert f"--unlabelled {tmp_path / 'none'} is not a folder" in capsys.readouterr().err


def test_the_sheet_shows_a_photo_read_right_as_taken_that_the_ways_spoil_most():
    errors = {
        "a.jpg": {"as taken": 0, "shake": 2, "dim": 1},
        "b.jpg": {"as taken": 3, "shake": 9, "dim": 9},  # spoilt most, but read wrong as taken
        "c.jpg": {"as taken": 0, "shake": 4, "dim": 0},
    }
    assert eval_robustness._sheet_photo(errors, None) == "c.jpg"
    assert eval_robustness._sheet_photo(errors, "b.jpg") == "b.jpg"
    # where no photo is read right as taken, the one read worst all told
    assert eval_robustness._sheet_photo({k: v for k, v in errors.items() if k == "b.jpg"}, None) == "b.jpg"
