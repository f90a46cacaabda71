"""`mjscan label` outputs, each format exported from a small folder (photos in four formats, a subfolder, a
corrupt photo, an empty one, a text file named .jpg, non-image files) and checked by the tools that read it:
YOLO lines parse and lie in [0, 1] and `mjscan evaluate` reads them back; the COCO document loads in
pycocotools and scores perfectly against itself; the Label Studio tasks match its import format (a JSON
schema of the task and prediction format written from Label Studio's documentation and its SDK's
validator, and the SDK itself where it is installed).
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote

import jsonschema
import numpy as np
import pytest
import yaml
from test_label_support import BAD, EXPECTED, MODEL_VERSION, NOT_PHOTOS, PHOTOS, TableDetector, detections, make_folder
from test_label_support import fingerprint as tree

from vision.evaluate import evaluate_folder, read_classes, read_yolo_labels
from vision.label import LabelJob, Summary, label_folder
from vision.types import CLASSES

MIN_SCORE, REVIEW_BELOW = 0.25, 0.5


@pytest.fixture(scope="module")
def src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_folder(tmp_path_factory.mktemp("label") / "photos").resolve()


def run(src: Path, out: Path, fmt: str, **kw) -> Summary:
    before = tree(src)
    summary = label_folder(LabelJob(src, out, fmt, MIN_SCORE, REVIEW_BELOW, **kw), TableDetector(src))
    assert tree(src) == before, "the source folder must not change"
    return summary


def check_summary(summary: Summary) -> None:
    """The counts every format reports for the test folder."""
    assert summary.done == len(PHOTOS) and summary.skipped == 0
    assert dict(summary.failed).keys() == BAD.keys()
    for path, reason in summary.failed:
        assert BAD[path] in reason, (path, reason)
    assert summary.not_images == NOT_PHOTOS
    kept = [t for tiles in EXPECTED.values() for t in tiles]
    assert dict(summary.classes) == {code: sum(t[0] == code for t in kept) for code, _, _ in kept}
    assert summary.low_confidence == sum(t[2] < REVIEW_BELOW for t in kept) == 1
    assert not summary.interrupted and not summary.error


# ---- YOLO ----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def yolo(src: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Summary]:
    out = tmp_path_factory.mktemp("yolo") / "out"
    return out, run(src, out, "yolo")


def test_yolo_summary(yolo: tuple[Path, Summary]) -> None:
    check_summary(yolo[1])


def test_yolo_lines_parse_and_lie_in_the_unit_square(yolo: tuple[Path, Summary]) -> None:
    out, _ = yolo
    files = sorted(p.relative_to(out / "labels").as_posix() for p in (out / "labels").rglob("*.txt"))
    assert files == sorted(str(Path(rel).with_suffix(".txt")) for rel in PHOTOS)
    for rel, tiles in EXPECTED.items():
        lines = (out / "labels" / Path(rel).with_suffix(".txt")).read_text().splitlines()
        assert len(lines) == len(tiles)
        for line, (code, _, _) in zip(lines, tiles, strict=True):
            parts = line.split()
            assert len(parts) == 5
            assert CLASSES[int(parts[0])] == code
            cx, cy, w, h = map(float, parts[1:])
            assert all(0.0 <= v <= 1.0 for v in (cx, cy, w, h)) and w > 0 and h > 0
            assert cx - w / 2 >= -1e-6 and cx + w / 2 <= 1 + 1e-6 and cy - h / 2 >= -1e-6 and cy + h / 2 <= 1 + 1e-6


def test_yolo_boxes_read_back_in_the_photo_pixels_after_exif_orientation(yolo: tuple[Path, Summary]) -> None:
    out, _ = yolo
    classes = read_classes(out / "classes.json")
    for rel, tiles in EXPECTED.items():
        (w, h), _ = PHOTOS[rel]
        truth = read_yolo_labels(out / "labels" / Path(rel).with_suffix(".txt"), w, h, classes)
        assert truth.codes == [t[0] for t in tiles]
        np.testing.assert_allclose(truth.boxes, np.array([t[1] for t in tiles]).reshape(-1, 4), atol=0.01)


def test_yolo_layout_for_ultralytics_and_roboflow(yolo: tuple[Path, Summary], src: Path) -> None:
    """images/<path> beside labels/<path>.txt, data.yaml rooted at OUT naming the 46 classes."""
    out, _ = yolo
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert Path(data["path"]) == out.resolve()
    assert data["train"] == data["val"] == "images"
    assert data["nc"] == len(CLASSES) and data["names"] == dict(enumerate(CLASSES))
    assert (out / "classes.txt").read_text().splitlines() == list(CLASSES)
    images = sorted(p.relative_to(out / "images").as_posix() for p in (out / "images").rglob("*") if not p.is_dir())
    assert images == sorted(PHOTOS)
    for rel in PHOTOS:
        link = out / "images" / rel
        assert link.is_symlink() and Path(os.readlink(link)) == src / rel
        ultralytics_label = str(link).replace(f"{os.sep}images{os.sep}", f"{os.sep}labels{os.sep}").rsplit(".", 1)[0]
        assert Path(ultralytics_label + ".txt").is_file()


def test_yolo_review_list_names_the_low_confidence_box(yolo: tuple[Path, Summary]) -> None:
    out, _ = yolo
    assert (out / "review.txt").read_text() == "hand.jpg\t2m\t0.4200\t100.0 100.0 160.0 180.0\n"


def test_mjscan_evaluate_accepts_the_yolo_output(yolo: tuple[Path, Summary]) -> None:
    """The labels round-trip: evaluating the same detections against them is perfect, from the top (every
    subfolder with it) and from each subfolder."""
    out, _ = yolo
    by_size = {PHOTOS[rel][0]: detections(tiles) for rel, tiles in EXPECTED.items()}

    def detect(rgb: np.ndarray):
        return by_size[(rgb.shape[1], rgb.shape[0])]

    for folder in ("", "sub", "sub/deeper"):
        report = evaluate_folder(
            detect, out / "images" / folder, out / "labels" / folder, out / "classes.json", progress=False
        )
        inside = [rel for rel in PHOTOS if Path(rel).is_relative_to(folder)]
        assert report.images == len(inside) and (folder != "" or len(inside) == len(PHOTOS))
        assert report.images_without_labels == 0
        assert report.total.fp == report.total.fn == 0
        assert report.total.tp == sum(len(EXPECTED[rel]) for rel in inside)


def test_copied_images_for_upload(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(src, out, "yolo", images="copy")
    for rel in PHOTOS:
        copy = out / "images" / rel
        assert not copy.is_symlink() and copy.read_bytes() == (src / rel).read_bytes()


# ---- COCO ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def coco(src: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Summary]:
    out = tmp_path_factory.mktemp("coco") / "out"
    return out, run(src, out, "coco")


def test_coco_summary(coco: tuple[Path, Summary]) -> None:
    check_summary(coco[1])
    assert not (coco[0] / "labels").exists() and not (coco[0] / "images").exists()


def test_coco_loads_in_pycocotools(coco: tuple[Path, Summary], src: Path) -> None:
    from pycocotools.coco import COCO

    gt = COCO(str(coco[0] / "annotations.json"))
    assert sorted(img["file_name"] for img in gt.dataset["images"]) == sorted(PHOTOS)
    assert [gt.cats[i]["name"] for i in sorted(gt.cats)] == list(CLASSES)
    assert gt.dataset["info"]["image_root"] == str(src)
    for img in gt.dataset["images"]:
        assert (img["width"], img["height"]) == PHOTOS[img["file_name"]][0]
        anns = gt.loadAnns(gt.getAnnIds(imgIds=[img["id"]]))
        tiles = EXPECTED[img["file_name"]]
        assert [gt.cats[a["category_id"]]["name"] for a in anns] == [t[0] for t in tiles]
        for a, (_, (x1, y1, x2, y2), score) in zip(anns, tiles, strict=True):
            assert a["bbox"] == pytest.approx([x1, y1, x2 - x1, y2 - y1], abs=0.01)
            assert a["area"] == pytest.approx((x2 - x1) * (y2 - y1), abs=0.1)
            assert a["score"] == pytest.approx(score, abs=1e-4)
            assert a.get("review", False) == (score < REVIEW_BELOW)


def test_coco_scores_perfectly_against_itself(coco: tuple[Path, Summary]) -> None:
    """COCOeval with the document as ground truth and its annotations as detections: AP 1.0."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    gt = COCO(str(coco[0] / "annotations.json"))
    dt = gt.loadRes(
        [{k: a[k] for k in ("image_id", "category_id", "bbox", "score")} for a in gt.dataset["annotations"]]
    )
    ev = COCOeval(gt, dt, "bbox")
    ev.evaluate()
    ev.accumulate()
    ev.summarize()
    assert ev.stats[0] == pytest.approx(1.0)


# ---- Label Studio -------------------------------------------------------------------------------------------

#: Label Studio's import format for pre-annotated image tasks, as far as this export uses it: the task's
#: ``data`` names the picture for the interface's ``$image``; each prediction has a ``model_version``, a
#: ``score`` in [0, 1] and ``result`` regions of type ``rectanglelabels`` from the ``tile`` control to the
#: ``image`` object, with the box in percent of the picture (x, y, width, height in [0, 100], rotation in
#: [0, 360]) and one label of the interface (the same rules the SDK's ``LabelInterface.validate_prediction``
#: applies).
LS_TASK_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["data", "predictions"],
        "properties": {
            "data": {
                "type": "object",
                "required": ["image"],
                "properties": {
                    "image": {"type": "string", "minLength": 1},
                    "path": {"type": "string"},
                    "review": {"type": "boolean"},
                    "review_count": {"type": "integer", "minimum": 0},
                },
            },
            "predictions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["model_version", "result"],
                    "properties": {
                        "model_version": {"type": "string"},
                        "score": {"type": "number", "minimum": 0, "maximum": 1},
                        "result": {"type": "array", "items": {"$ref": "#/$defs/region"}},
                    },
                },
            },
        },
    },
    "$defs": {
        "region": {
            "type": "object",
            "required": ["id", "type", "from_name", "to_name", "value", "original_width", "original_height"],
            "properties": {
                "id": {"type": "string", "minLength": 1},
                "type": {"const": "rectanglelabels"},
                "from_name": {"const": "tile"},
                "to_name": {"const": "image"},
                "original_width": {"type": "integer", "minimum": 1},
                "original_height": {"type": "integer", "minimum": 1},
                "image_rotation": {"type": "number"},
                "score": {"type": "number", "minimum": 0, "maximum": 1},
                "meta": {"type": "object", "properties": {"text": {"type": "array", "items": {"type": "string"}}}},
                "value": {
                    "type": "object",
                    "required": ["x", "y", "width", "height", "rectanglelabels"],
                    "properties": {
                        "x": {"type": "number", "minimum": 0, "maximum": 100},
                        "y": {"type": "number", "minimum": 0, "maximum": 100},
                        "width": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
                        "height": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
                        "rotation": {"type": "number", "minimum": 0, "maximum": 360},
                        "rectanglelabels": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 1,
                            "items": {"enum": list(CLASSES)},
                        },
                    },
                },
            },
        }
    },
}


@pytest.fixture(scope="module")
def labelstudio(src: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Summary]:
    out = tmp_path_factory.mktemp("ls") / "out"
    return out, run(src, out, "labelstudio")


def test_labelstudio_summary(labelstudio: tuple[Path, Summary]) -> None:
    check_summary(labelstudio[1])
    assert any("1 photo(s) are HEIC" in note for note in labelstudio[1].notes)


def test_labelstudio_tasks_match_the_import_schema(labelstudio: tuple[Path, Summary]) -> None:
    tasks = json.loads((labelstudio[0] / "tasks.json").read_text())
    jsonschema.validate(tasks, LS_TASK_SCHEMA)
    for task in tasks:
        for region in task["predictions"][0]["result"]:
            v = region["value"]
            assert v["x"] + v["width"] <= 100 + 1e-6 and v["y"] + v["height"] <= 100 + 1e-6


def test_the_schema_refuses_what_label_studio_refuses(labelstudio: tuple[Path, Summary]) -> None:
    """The schema is a real check: an unknown label, a box past the picture or a score above 1 fail it."""
    tasks = json.loads((labelstudio[0] / "tasks.json").read_text())
    first = next(t for t in tasks if t["predictions"][0]["result"])
    for path, bad in ((("value", "rectanglelabels"), ["10m"]), (("value", "x"), 140.0), (("score",), 1.5)):
        broken = json.loads(json.dumps(first))
        target = broken["predictions"][0]["result"][0]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = bad
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate([broken], LS_TASK_SCHEMA)


def test_labelstudio_boxes_urls_and_review_tags(labelstudio: tuple[Path, Summary], src: Path) -> None:
    tasks = {t["data"]["path"]: t for t in json.loads((labelstudio[0] / "tasks.json").read_text())}
    assert sorted(tasks) == sorted(PHOTOS)
    for rel, tiles in EXPECTED.items():
        task = tasks[rel]
        assert task["data"]["image"] == "/data/local-files/?d=" + quote(f"{src.name}/{rel}")
        prediction = task["predictions"][0]
        assert prediction["model_version"] == MODEL_VERSION
        assert prediction["score"] == pytest.approx(min((t[2] for t in tiles), default=1.0), abs=1e-4)
        (w, h), _ = PHOTOS[rel]
        for region, (code, (x1, y1, x2, y2), score) in zip(prediction["result"], tiles, strict=True):
            assert (region["original_width"], region["original_height"]) == (w, h)
            v = region["value"]
            assert v["rectanglelabels"] == [code]
            assert [v["x"], v["y"], v["width"], v["height"]] == pytest.approx(
                [100 * x1 / w, 100 * y1 / h, 100 * (x2 - x1) / w, 100 * (y2 - y1) / h], abs=1e-3
            )
            assert ("review" in region.get("meta", {}).get("text", [])) == (score < REVIEW_BELOW)
        assert task["data"]["review"] == any(t[2] < REVIEW_BELOW for t in tiles)
        assert task["data"]["review_count"] == sum(t[2] < REVIEW_BELOW for t in tiles)


def test_labelstudio_config_names_every_tile_code(labelstudio: tuple[Path, Summary]) -> None:
    view = ET.fromstring((labelstudio[0] / "labelstudio_config.xml").read_text())
    image, labels = view.find("Image"), view.find("RectangleLabels")
    assert image is not None and labels is not None
    assert image.get("name") == labels.get("toName") == "image" and image.get("value") == "$image"
    assert labels.get("name") == "tile"
    assert [label.get("value") for label in labels] == list(CLASSES)


def test_labelstudio_sdk_validates_the_tasks(labelstudio: tuple[Path, Summary]) -> None:
    """Label Studio's own validator, where label-studio-sdk is installed (it is not in the test extra)."""
    interface = pytest.importorskip("label_studio_sdk.label_interface")
    li = interface.LabelInterface((labelstudio[0] / "labelstudio_config.xml").read_text())
    for task in json.loads((labelstudio[0] / "tasks.json").read_text()):
        assert li.validate_task({"data": task["data"]})
        for prediction in task["predictions"]:
            assert li.validate_prediction(prediction, return_errors=True) == []


def test_labelstudio_root_and_prefix(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(src, out, "labelstudio", ls_root=src, ls_url_prefix="https://photos.example/")
    tasks = json.loads((out / "tasks.json").read_text())
    assert {t["data"]["image"] for t in tasks} == {"https://photos.example/" + quote(rel) for rel in PHOTOS}
