"""``scripts/tilted_photos.py``: real photos of hands turned as a rolled phone takes them, and their labels."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from labelled import SAMPLE, sample, script

from vision.evaluate import read_classes, read_yolo_labels

tilted_photos = script("tilted_photos")
#: The sample photos as the script's options name them.
SET = [
    f"--{name}={SAMPLE / part}"
    for name, part in (("images", "images"), ("labels", "labels"), ("classes", "classes.json"))
]


def test_a_photo_turned_a_quarter_keeps_every_pixel_and_its_boxes_follow():
    image, truth = sample("row-flower")
    picture, boxes = tilted_photos.tilted(image, truth.boxes, 90.0, seed=0)
    assert picture.shape[:2] == image.shape[1::-1]
    np.testing.assert_array_equal(picture, cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE))
    h, w = image.shape[:2]
    x1, y1, x2, y2 = truth.boxes.T
    expected = np.stack([y1, w - x2, y2, w - x1], axis=1)  # anticlockwise: x becomes the distance from the right
    np.testing.assert_allclose(boxes, expected, atol=1.0)


def test_a_turned_box_holds_its_tile_and_the_corners_are_table():
    image, truth = sample("row-flower")
    picture, boxes = tilted_photos.tilted(image, truth.boxes, 30.0, seed=0)
    h, w = image.shape[:2]
    c, s = np.cos(np.radians(30)), np.sin(np.radians(30))
    assert picture.shape[:2] == (int(np.ceil(w * s + h * c)), int(np.ceil(w * c + h * s)))
    # each box is as large as a box turned 30 degrees needs, and its middle is the label's middle turned
    sides = truth.boxes[:, 2:] - truth.boxes[:, :2]
    np.testing.assert_allclose(boxes[:, 2] - boxes[:, 0], sides[:, 0] * c + sides[:, 1] * s, rtol=1e-4)
    turn, _ = tilted_photos.tilt(image.shape, 30.0)
    middles = np.c_[(truth.boxes[:, :2] + truth.boxes[:, 2:]) / 2, np.ones(len(boxes))] @ turn.T
    np.testing.assert_allclose((boxes[:, :2] + boxes[:, 2:]) / 2, middles, atol=1e-3)
    # the corner outside the turned photo is a plain table of the border's colour, with noise
    corner = picture[:10, :10].reshape(-1, 3).astype(float)
    assert corner.std(axis=0).max() < 8
    sides = [image[:8], image[-8:], image[:, :8], image[:, -8:]]
    border = np.median(np.concatenate([side.reshape(-1, 3) for side in sides]), axis=0)
    assert np.abs(corner.mean(axis=0) - border).max() < 4


def test_stretched_pictures_are_told_from_photos():
    _, truth = sample("row-flower")
    assert not tilted_photos.stretched(truth.boxes)
    tall = truth.boxes * np.array([1, 6, 1, 6], np.float32)
    assert tilted_photos.stretched(tall)


def test_the_script_writes_a_folder_per_angle_of_the_hand_photos(tmp_path: Path):
    out = tmp_path / "tilted"
    assert tilted_photos.main([*SET, "--out", str(out), "--degrees", "0,25"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["t0", "t25"]
    classes = read_classes(out / "t25" / "classes.json")
    hands = sorted(p.stem for p in (out / "t0" / "images").iterdir())
    # the grid's 24 labels are no hand: the other photos are
    assert hands == ["diagonal-row", "row-discard", "row-flower", "table-meld-row"]
    for name in hands:
        original = read_yolo_labels(SAMPLE / "labels" / f"{name}.txt", 1, 1, read_classes(SAMPLE / "classes.json"))
        image = cv2.imread(str(out / "t25" / "images" / f"{name}.jpg"))
        turned = read_yolo_labels(out / "t25" / "labels" / f"{name}.txt", image.shape[1], image.shape[0], classes)
        assert sorted(turned.codes) == sorted(original.codes)
        assert turned.boxes.min() >= 0 and turned.boxes[:, 2].max() <= image.shape[1]
    assert json.loads((out / "t0" / "classes.json").read_text())["0"] == "1m"


def test_the_script_refuses_a_folder_in_use_and_bad_angles(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    (tmp_path / "kept.txt").write_text("mine")
    assert tilted_photos.main([*SET, "--out", str(tmp_path)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert (tmp_path / "kept.txt").read_text() == "mine"
    with pytest.raises(SystemExit):
        tilted_photos.main([*SET, "--out", str(tmp_path / "new"), "--degrees", "ten"])
    assert "comma-separated" in capsys.readouterr().err
