"""``scripts/eval_hands.py`` and ``vision.evaluate.compare_hands``: the hand read against the hand shown."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from labelled import SAMPLE, LabelModel, script

from vision.evaluate import LabelError, compare_hands
from vision.recognize import recognize
from vision.types import CLASS_INDEX, Detections

eval_hands = script("eval_hands")

SHOWN = {
    "concealed": ["1m", "2m", "3m", "5z"],
    "melds": [
        {"type": "chow", "tiles": ["4p", "5p", "6p"], "open": True},
        {"type": "kong", "tiles": ["7z", "7z", "7z", "7z"], "open": False},
    ],
    "win_tile": "5z",
    "flowers": ["1f", "6f"],
}


def test_hands_compare_as_multisets_part_by_part():
    read = {
        "concealed": ["5z", "3m", "2m", "1m"],
        "melds": [
            {"type": "kong", "tiles": ["7z", "7z", "7z", "7z"], "open": False},
            {"type": "chow", "tiles": ["6p", "5p", "4p"], "open": True, "called": "4p", "from": "left"},
        ],
        "win_tile": "5z",
        "flowers": ["6f", "1f"],
    }
    assert compare_hands(read, SHOWN) == dict.fromkeys(["concealed", "melds", "win_tile", "flowers", "hand"], True)
    opened = {**read, "melds": [{**m, "open": True} for m in read["melds"]]}
    assert compare_hands(opened, SHOWN)["melds"] is False
    swapped = {**read, "concealed": ["5z", "3m", "2m", "4p"], "win_tile": "1m"}
    parts = compare_hands(swapped, SHOWN)
    assert (parts["concealed"], parts["win_tile"], parts["flowers"], parts["hand"]) == (False, False, True, False)


def _set(tmp_path: Path, names: list[str]) -> Path:
    folder = tmp_path / "set"
    for part in ("images", "labels", "hands"):
        (folder / part).mkdir(parents=True)
    shutil.copy(SAMPLE / "classes.json", folder)
    for name in names:
        shutil.copy(SAMPLE / "images" / f"{name}.jpg", folder / "images")
        shutil.copy(SAMPLE / "labels" / f"{name}.txt", folder / "labels")
    return folder


def test_the_report_counts_each_part_and_lists_the_layouts_failures(tmp_path: Path):
    folder = _set(tmp_path, ["row-flower", "table-meld-row", "grid"])
    model = LabelModel()
    for name in ("row-flower", "table-meld-row"):  # grid has no hand file: left out
        hand = recognize(folder / "images" / f"{name}.jpg", model).hand
        if name == "table-meld-row":
            hand = {**hand, "win_tile": "9s"}  # another winning tile than the one the layout reads
        (folder / "hands" / f"{name}.json").write_text(json.dumps(hand))
    report = eval_hands.evaluate_hands(folder, model, progress=False)
    for row in eval_hands.SUBSETS:  # the stand-in model reads every tile right
        assert report[row] == {
            "pictures": 2,
            "concealed": 2,
            "melds": 2,
            "win_tile": 1,
            "flowers": 2,
            "hand": 1,
        }
    assert [(f["image"], f["wrong"]) for f in report["failures"]] == [("table-meld-row.jpg", ["win_tile"])]
    table = eval_hands.format_report(report)
    assert "every picture" in table and "1 (0.500)" in table


def test_a_folder_without_hands_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    folder = _set(tmp_path, ["row-flower"])
    with pytest.raises(LabelError, match="has a hand"):
        eval_hands.evaluate_hands(folder, LabelModel(), progress=False)
    (folder / "hands").rmdir()
    assert eval_hands.main([str(folder)]) == 2
    assert "render the set with --layout hand" in capsys.readouterr().err


class FarTile(LabelModel):
    """The stand-in model, with one more tile found: smaller than the hand's, far above it (a discard)."""

    def detect(self, rgb, timings=None):
        found = super().detect(rgb, timings)
        h, w = rgb.shape[:2]
        side = 0.6 * float(np.median(found.boxes[:, 3] - found.boxes[:, 1]))
        far = np.array([[w / 2, 0.02 * h, w / 2 + side, 0.02 * h + side]], np.float32)
        return Detections(
            np.vstack([found.boxes, far]),
            np.append(found.scores, 0.9).astype(np.float32),
            np.append(found.class_ids, CLASS_INDEX["9p"]),
            np.append(found.rotated, False),
        )


def test_held_counts_the_real_photos_whose_hand_holds_the_labelled_tiles(capsys: pytest.CaptureFixture[str]):
    # the sample photos with 13 to 17 labels: every one but the grid; row-discard labels the discard lying apart
    # from its hand, which the hand read leaves out
    discard = [{"image": "row-discard.jpg", "more": [], "less": ["8p"]}]
    assert eval_hands.evaluate_held(SAMPLE, SAMPLE / "classes.json", LabelModel(), progress=False) == {
        "photos": 4,
        "tiles": 4,
        "hand": 3,
        "failures": discard,
    }
    # a discard found far above the hand: the tiles read hold one more, the hand read does not
    report = eval_hands.evaluate_held(SAMPLE, SAMPLE / "classes.json", FarTile(), progress=False)
    assert report == {"photos": 4, "tiles": 0, "hand": 3, "failures": discard}
    hand = {"concealed": ["1m"], "melds": [{"tiles": ["2p"] * 3}], "win_tile": "3s", "flowers": ["5f"]}
    assert eval_hands.held_tiles(hand) == ["1m", "2p", "2p", "2p", "5f", "3s"]
    assert eval_hands.main([str(SAMPLE / "images"), "--held"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_the_hand_size_given_reads_each_picture_as_a_hand_of_that_size(tmp_path: Path, monkeypatch):
    folder = _set(tmp_path, ["row-flower"])
    model = LabelModel()
    (folder / "hands" / "row-flower.json").write_text(
        json.dumps(recognize(folder / "images" / "row-flower.jpg", model).hand)
    )
    sizes = []

    def recorded(path, model, hand_size=None):
        sizes.append(hand_size)
        return recognize(path, model, hand_size=hand_size)

    monkeypatch.setattr(eval_hands, "recognize", recorded)
    assert eval_hands.evaluate_hands(folder, model, progress=False, hand_size=16)["every picture"]["hand"] == 1
    assert sizes == [16]
