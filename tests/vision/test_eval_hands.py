"""``scripts/eval_hands.py`` and ``vision.evaluate.compare_hands``: the hand read against the hand shown."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from labelled import SAMPLE, LabelModel

from vision.evaluate import LabelError, compare_hands
from vision.recognize import recognize

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("eval_hands", ROOT / "scripts" / "eval_hands.py")
eval_hands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(eval_hands)

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
