"""``scripts/stretched_rows.py``: stretched pictures made from a real photo of a row, and their labels."""

from __future__ import annotations

import cv2
import numpy as np
from labelled import SAMPLE, sample, script

from vision.evaluate import read_classes, read_yolo_labels

stretched_rows = script("stretched_rows")


def test_a_row_is_stretched_into_a_square_and_its_boxes_follow():
    image, truth = sample("row-flower")
    out, boxes = stretched_rows.stretched_row(image, truth.boxes, turn=False)
    assert out.shape == (640, 640, 3) and len(boxes) == len(truth.boxes)
    sides = boxes[:, 2:] - boxes[:, :2]
    assert np.all(sides[:, 0] / sides[:, 1] < 0.2)  # tiles now many times as tall as wide
    assert boxes.min() >= 0 and boxes.max() <= 640
    # the picture under the first tile's box is what the photo shows under it
    first = out[int(boxes[0, 1]) : int(boxes[0, 3]), int(boxes[0, 0]) : int(boxes[0, 2])]
    x1, y1, x2, y2 = truth.boxes[0].astype(int)
    original = cv2.resize(image[y1:y2, x1:x2], (first.shape[1], first.shape[0]))
    assert np.abs(first.astype(int) - original.astype(int)).mean() < 25


def test_a_turned_row_has_its_tiles_lying_across_the_picture():
    image, truth = sample("row-flower")
    out, boxes = stretched_rows.stretched_row(image, truth.boxes, turn=True)
    sides = boxes[:, 2:] - boxes[:, :2]
    assert np.all(sides[:, 0] / sides[:, 1] > 5)
    assert np.all(np.diff((boxes[:, 1] + boxes[:, 3])[np.argsort(truth.boxes[:, 0])]) > 0)  # left to right: down


def test_pictures_that_are_not_one_row_are_left_out():
    image, truth = sample("grid")
    assert stretched_rows.stretched_row(image, truth.boxes, turn=False) is None


def test_the_command_writes_pictures_and_labels_and_keeps_a_folder_with_files(tmp_path):
    args = ["--images", str(SAMPLE / "images"), "--labels", str(SAMPLE / "labels")]
    args += ["--classes", str(SAMPLE / "classes.json"), "--count", "1"]
    assert stretched_rows.main([*args, "--out", str(tmp_path / "set")]) == 0
    (label,) = (tmp_path / "set" / "labels").iterdir()
    assert (tmp_path / "set" / "images" / f"{label.stem}.jpg").is_file()
    assert all(len(line.split()) == 5 for line in label.read_text().splitlines())
    # the labels are in the model's classes, which the folder's classes.json names
    classes = read_classes(tmp_path / "set" / "classes.json")
    image = cv2.imread(str(tmp_path / "set" / "images" / f"{label.stem}.jpg"))
    made = read_yolo_labels(label, image.shape[1], image.shape[0], classes)
    sources = [sorted(sample(path.stem)[1].codes) for path in (SAMPLE / "images").glob("*.jpg")]
    assert sorted(made.codes) in sources  # the codes of the photo the row was cut from
    assert stretched_rows.main([*args, "--out", str(tmp_path / "set")]) == 2
    assert stretched_rows.main([*args[:-1], "0", "--out", str(tmp_path / "none")]) == 2
