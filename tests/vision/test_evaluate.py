"""Evaluation metrics on hand-made cases, label reading, the folder evaluation and its error pictures."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.annotate import GREY
from vision.evaluate import (
    Evaluation,
    GroundTruth,
    LabelError,
    error_image,
    evaluate_folder,
    match_image,
    read_classes,
    read_yolo_labels,
)
from vision.io import load_image
from vision.types import CLASS_INDEX, Detections

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "hk-sample"


def dets(items: list[tuple[str, tuple[float, float, float, float], float]]) -> Detections:
    return Detections(
        np.array([b for _, b, _ in items], np.float32).reshape(-1, 4),
        np.array([s for _, _, s in items], np.float32),
        np.array([CLASS_INDEX[c] for c, _, _ in items], np.int64),
        np.zeros(len(items), bool),
    )


def truth(items: list[tuple[str, tuple[float, float, float, float]]]) -> GroundTruth:
    return GroundTruth(np.array([b for _, b in items], np.float32).reshape(-1, 4), [c for c, _ in items])


A, B, C = (0, 0, 10, 10), (20, 0, 30, 10), (40, 0, 50, 10)


def test_right_code_and_iou_at_least_half_is_a_hit():
    m = match_image(dets([("1m", (0, 0, 10, 10), 0.9), ("2m", (24, 0, 34, 10), 0.9)]), truth([("1m", A), ("2m", B)]))
    # (24..34) against (20..30): IoU 6/14 < 0.5, so 2m is both a miss and a false positive
    assert len(m.matches) == 1 and m.false_positives == [1] and m.false_negatives == [1]


def test_a_wrong_code_on_a_labelled_tile_is_a_confusion():
    ev = Evaluation()
    ev.add(dets([("1m", A, 0.9), ("3p", B, 0.8)]), truth([("1m", A), ("5p", B)]))
    r = ev.report()
    assert (r.total.tp, r.total.fp, r.total.fn) == (1, 1, 1)
    assert r.precision == 0.5 and r.recall == 0.5 and r.f1 == 0.5
    assert r.confusions == [("5p", "3p", 1)]
    assert r.errors == {"wrong_code": 1, "tile_missed": 0, "box_on_no_tile": 0}
    assert "errors: 1 found tiles with a wrong code, 0 tiles not found, 0 boxes" in r.format()
    assert r.per_class["5p"].fn == 1 and r.per_class["3p"].fp == 1 and r.per_class["1m"].tp == 1


def test_matching_is_one_to_one_best_score_first():
    m = match_image(dets([("1m", (1, 0, 11, 10), 0.6), ("1m", A, 0.9)]), truth([("1m", A)]))
    assert m.matches == [(1, 0)] and m.false_positives == [0]


def test_figures_over_several_images():
    ev = Evaluation()
    ev.add(dets([("1m", A, 0.9), ("2m", B, 0.9), ("3m", C, 0.9)]), truth([("1m", A), ("2m", B), ("3m", C)]))
    ev.add(dets([("1m", A, 0.9)]), truth([("1m", A), ("2m", B)]))
    r = ev.report()
    assert (r.total.tp, r.total.fp, r.total.fn) == (4, 0, 1)
    assert r.precision == 1.0 and r.recall == pytest.approx(0.8) and r.f1 == pytest.approx(8 / 9)
    assert r.per_class["2m"].recall == 0.5
    assert r.errors == {"wrong_code": 0, "tile_missed": 1, "box_on_no_tile": 0}
    assert r.to_json()["errors"] == r.errors


def test_labelled_tiles_are_counted_by_the_short_side_of_their_box():
    small, edge, large = (0, 0, 12, 19.5), (30, 0, 50, 20), (60, 0, 110, 40)
    ev = Evaluation()
    ev.add(dets([("1m", edge, 0.9), ("3m", large, 0.9)]), truth([("1m", small), ("1m", edge), ("2m", large)]))
    r = ev.report()
    bands = {band.name: band for band in r.by_size}
    assert list(bands) == ["under 20 px", "20-28 px", "28-36 px", "36-48 px", "48 px and over"]
    assert (bands["under 20 px"].labels, bands["under 20 px"].missed) == (1, 1)  # the short side, 12, counts
    assert (bands["20-28 px"].labels, bands["20-28 px"].right) == (1, 1)  # 20 is the band's lower end
    assert (bands["36-48 px"].labels, bands["36-48 px"].wrong_code, bands["36-48 px"].missed) == (1, 1, 0)
    assert sum(band.labels for band in r.by_size) == r.labels
    assert r.to_json()["by_size"][2] == {
        "from": 28,
        "to": 36,
        "labels": 0,
        "right": 0,
        "wrong_code": 0,
        "missed": 0,
        "recall": None,
    }
    text = r.format()
    assert "by tile size" in text and "36-48 px" in text and "28-36 px" not in text  # empty bands are not printed


def row(codes: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    tiles = [codes[i : i + 2] for i in range(0, len(codes), 2)]
    return [(c, (i * 20.0, 0.0, i * 20.0 + 18, 24.0)) for i, c in enumerate(tiles)]


HAND = "1m2m3m4p5p6p7s8s9s1z1z5z5z5z"


def test_exact_hand_counts_images_with_13_or_14_labels_and_compares_the_multisets():
    labels = truth(row(HAND))
    same = dets([(c, b, 0.9) for c, b in reversed(row(HAND))])
    ev = Evaluation()
    assert ev.add(same, labels).hand_exact
    wrong = row(HAND)
    wrong[0] = ("9m", wrong[0][1])
    assert not ev.add(dets([(c, b, 0.9) for c, b in wrong]), labels).hand_exact
    small = truth(row("1m2m3m"))
    assert not ev.add(dets([(c, b, 0.9) for c, b in row("1m2m3m")]), small).hand_checked
    r = ev.report()
    assert (r.hands_checked, r.hands_exact, r.hand_accuracy) == (2, 1, 0.5)


def test_predictions_where_nothing_is_labelled_are_counted_and_may_be_left_out():
    labels = truth([("1m", A)])
    pred = dets([("1m", A, 0.9), ("7z", (200, 200, 210, 210), 0.9)])
    strict = Evaluation()
    strict.add(pred, labels)
    assert strict.report().precision == 0.5 and strict.report().unlabelled_predictions == 1
    lenient = Evaluation(ignore_unlabelled=True)
    lenient.add(pred, labels)
    assert lenient.report().precision == 1.0 and lenient.report().unlabelled_predictions == 1


def test_a_prediction_on_a_tile_shown_but_not_labelled_counts_neither_way():
    labels = truth([("1m", A), ("5p", B)])
    labels.unlabelled = np.array([[100, 0, 110, 10], [20, 0, 30, 10]], np.float32)
    pred = dets(
        [
            ("1m", A, 0.9),
            ("7z", (101, 0, 111, 10), 0.8),  # 90 % of it on the unlabelled tile: left out
            ("3p", B, 0.7),  # on a labelled tile too (IoU 1): a confusion still
            ("2s", (106, 0, 116, 10), 0.6),  # 40 % on it: a box on no tile
        ]
    )
    m = match_image(pred, labels)
    assert m.on_unlabelled == 1 and m.left_out == [1] and m.pred_index == [0, 2, 3]
    # the error picture shows the reading left out, thin dashed grey, and says so below the photo
    black = np.zeros((60, 240, 3), np.uint8)
    shown, hidden = error_image(black, pred, labels, m), error_image(black, pred, labels, replace(m, left_out=[]))
    grey = np.all(shown == GREY, axis=2).sum()
    assert shown.shape[0] > hidden.shape[0] and grey > np.all(hidden == GREY, axis=2).sum()
    assert len(m.matches) == 1 and len(m.confusions) == 1 and len(m.false_positives) == 2
    ev = Evaluation()
    ev.add(pred, labels)
    r = ev.report()
    assert (r.total.tp, r.total.fp, r.total.fn, r.predictions, r.on_unlabelled_tiles) == (1, 2, 1, 3, 1)
    assert r.to_json()["on_unlabelled_tiles"] == 1
    assert "1 predictions lie on tiles shown but not labelled (--unlabelled): left out" in r.format()


def test_folder_evaluation_reads_the_unlabelled_tiles_beside_the_labels(tmp_path):
    images, labels, unlabelled = (tmp_path / name for name in ("images", "labels", "unlabelled"))
    for folder in (images, labels, unlabelled):
        folder.mkdir()
    Image.new("RGB", (100, 100), "green").save(images / "a.png")
    Image.new("RGB", (100, 100), "green").save(images / "b.png")
    (labels / "a.txt").write_text("0 0.1 0.1 0.1 0.1\n")
    (labels / "b.txt").write_text("0 0.1 0.1 0.1 0.1\n")
    (unlabelled / "a.txt").write_text("1 0.5 0.5 0.1 0.1\n")  # b has none

    def detect(rgb: np.ndarray) -> Detections:
        return dets([("1m", (5, 5, 15, 15), 0.9), ("2m", (45, 45, 55, 55), 0.8)])

    classes = {"0": "1m", "1": "2m"}
    plain = evaluate_folder(detect, images, labels, classes, progress=False)
    kind = evaluate_folder(detect, images, labels, classes, unlabelled=unlabelled, progress=False)
    assert (plain.total.fp, plain.on_unlabelled_tiles) == (2, 0)
    assert (kind.total.tp, kind.total.fp, kind.on_unlabelled_tiles) == (2, 1, 1)
    with pytest.raises(LabelError, match="unlabelled folder .* does not exist"):
        evaluate_folder(detect, images, labels, classes, unlabelled=tmp_path / "none", progress=False)


def test_codes_restrict_to_the_classes_a_model_knows():
    labels = truth([("1m", A), ("3f", B)])
    pred = dets([("1m", A, 0.9), ("2m", B, 0.8)])  # the peer cannot know 3f: its guess there is not counted
    ev = Evaluation(codes={"1m", "2m"})
    ev.add(pred, labels)
    r = ev.report()
    assert (r.total.tp, r.total.fp, r.total.fn, r.labels) == (1, 0, 0, 1)


def test_no_predictions_and_no_labels_is_perfect():
    ev = Evaluation()
    ev.add(Detections(), GroundTruth())
    assert ev.report().f1 == 1.0
    ev.add(Detections(), truth([("1m", A)]))
    assert ev.report().recall == 0.0


def test_read_classes_takes_a_dict_or_a_list(tmp_path):
    assert read_classes({"0": "5f", "1": "1m"}) == {0: "5f", 1: "1m"}
    assert read_classes(["1m", "back"]) == {0: "1m", 1: "back"}
    path = tmp_path / "classes.json"
    path.write_text(json.dumps(["2p"]))
    assert read_classes(path) == {0: "2p"}
    with pytest.raises(LabelError, match="no tile code"):
        read_classes({"0": "chun"})
    with pytest.raises(LabelError, match="not valid JSON"):
        path.write_text("{")
        read_classes(path)


def test_yolo_boxes_and_polygons(tmp_path):
    label = tmp_path / "a.txt"
    label.write_text("0 0.5 0.5 0.2 0.4\n\n1 0.1 0.1 0.3 0.1 0.3 0.3 0.1 0.3\n")
    gt = read_yolo_labels(label, 100, 200, {0: "1m", 1: "2p"})
    assert gt.codes == ["1m", "2p"]
    np.testing.assert_allclose(gt.boxes, [[40, 60, 60, 140], [10, 20, 30, 60]], atol=1e-4)


@pytest.mark.parametrize(
    ("line", "problem"), [("9 0.5 0.5 0.1 0.1", "not in classes"), ("0 0.5 0.5", "a line is"), ("0 a b c d", "numbers")]
)
def test_bad_label_lines_name_the_file_and_line(tmp_path, line, problem):
    label = tmp_path / "a.txt"
    label.write_text(line + "\n")
    with pytest.raises(LabelError, match=problem) as info:
        read_yolo_labels(label, 100, 100, {0: "1m"})
    assert "a.txt:1" in str(info.value)


class LabelReader:
    """A detector that answers with the labels of the photo it is shown (found by its pixels), with one
    tile misread: the evaluation of a folder must count exactly that."""

    def __init__(self, folder: Path) -> None:
        classes = read_classes(folder / "classes.json")
        self.answers = {}
        for photo in sorted((folder / "images").glob("*.jpg")):
            rgb = load_image(photo)
            gt = read_yolo_labels(folder / "labels" / (photo.stem + ".txt"), rgb.shape[1], rgb.shape[0], classes)
            self.answers[rgb.tobytes()] = gt

    def __call__(self, rgb: np.ndarray) -> Detections:
        gt = self.answers[rgb.tobytes()]
        ids = np.array([CLASS_INDEX[c] for c in gt.codes], np.int64)
        ids[0] = CLASS_INDEX["7z"] if gt.codes[0] != "7z" else CLASS_INDEX["6z"]
        return Detections(gt.boxes, np.full(len(ids), 0.9, np.float32), ids, np.zeros(len(ids), bool))


def test_folder_evaluation_counts_each_photo_and_writes_error_pictures(tmp_path):
    errors = tmp_path / "errors"
    r = evaluate_folder(
        LabelReader(SAMPLE),
        SAMPLE / "images",
        SAMPLE / "labels",
        SAMPLE / "classes.json",
        errors_dir=errors,
        progress=False,
    )
    photos = sorted((SAMPLE / "images").glob("*.jpg"))
    assert r.images == len(photos)
    assert r.total.fn == len(photos) and r.total.fp == len(photos) and len(r.confusions) >= 1
    assert r.total.tp == r.labels - len(photos)
    written = sorted(p.name for p in errors.iterdir())
    assert written == sorted(p.stem + ".jpg" for p in photos)
    with Image.open(errors / written[0]) as im:
        assert im.format == "JPEG"
    assert "precision" in r.format() and json.loads(json.dumps(r.to_json()))["images"] == len(photos)


def test_errors_folder_must_be_new_or_empty(tmp_path):
    (tmp_path / "old.jpg").write_bytes(b"x")
    with pytest.raises(LabelError, match="not empty"):
        evaluate_folder(
            LabelReader(SAMPLE), SAMPLE / "images", SAMPLE / "labels", SAMPLE / "classes.json", errors_dir=tmp_path
        )
    assert (tmp_path / "old.jpg").read_bytes() == b"x"


def test_missing_folders_are_refused(tmp_path):
    with pytest.raises(LabelError, match="does not exist"):
        evaluate_folder(LabelReader(SAMPLE), tmp_path / "nope", SAMPLE / "labels", SAMPLE / "classes.json")


def test_large_photos_are_decoded_as_the_pipeline_does_and_labels_follow(tmp_path):
    from labelled import LabelModel

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    Image.open(SAMPLE / "images" / "row-flower.jpg").resize((4032, 3024)).save(
        tmp_path / "images" / "big.jpg", quality=90
    )
    shutil.copy(SAMPLE / "labels" / "row-flower.txt", tmp_path / "labels" / "big.txt")
    model = LabelModel()
    r = evaluate_folder(
        lambda rgb: model.detect(rgb), tmp_path / "images", tmp_path / "labels", SAMPLE / "classes.json", progress=False
    )
    assert model.seen == [(1512, 2016)]
    assert r.f1 == 1.0 and r.labels == 15
