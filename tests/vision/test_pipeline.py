"""The whole pipeline with the real tile model on the committed photos (skipped where models/ has none)."""

from __future__ import annotations

import pytest
from labelled import SAMPLE, photos

from vision.evaluate import evaluate_folder
from vision.recognize import recognize


@pytest.fixture(scope="module")
def tile_model():
    from vision.detector import ModelError, ModelNotFoundError, TileModel

    try:
        return TileModel()
    except (ModelNotFoundError, ModelError) as exc:
        pytest.skip(f"no tile model: {exc}")


@pytest.mark.parametrize("photo", photos(), ids=lambda p: p.stem)
def test_recognition_of_a_committed_photo(tile_model, photo):
    rec = recognize(photo, model=tile_model)
    out = rec.to_json()
    assert (out["width"], out["height"]) == (640, 640)
    assert out["tiles"], "no tile found"
    for tile in out["tiles"]:
        x1, y1, x2, y2 = tile["box"]
        assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 640 and 0 <= tile["score"] <= 1
    assert sorted(rec.roles()) == list(range(len(rec.tiles)))


def test_most_labelled_tiles_are_found_with_their_code(tile_model):
    report = evaluate_folder(
        tile_model.detect, SAMPLE / "images", SAMPLE / "labels", SAMPLE / "classes.json", progress=False
    )
    assert report.recall >= 0.8 and report.precision >= 0.8, report.format(per_class=False)
