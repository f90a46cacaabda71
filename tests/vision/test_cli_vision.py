"""`mjscan recognize` and `mjscan evaluate`: output, annotated files (never over an input or an existing
file), one-line errors. The model is the label-reading stand-in of labelled.py, installed as the default."""

from __future__ import annotations

import json
import shutil
import sys

import pytest
from labelled import SAMPLE, LabelModel
from PIL import Image
from scenes import scene

from api.cli import main
from api.cli.recognize import hand_text
from scoring import parse_compact
from vision.recognize import from_detections
from vision.types import CLASS_INDEX

ROW = SAMPLE / "images" / "row-flower.jpg"
MELD = SAMPLE / "images" / "table-meld-row.jpg"


@pytest.fixture
def model(monkeypatch):
    stand_in = LabelModel()
    # the module, not the function vision.recognize that the package exports under the same name
    monkeypatch.setattr(sys.modules["vision.recognize"], "_default_model", stand_in)
    return stand_in


def test_text_output_shows_tiles_hand_warnings_and_times(model, capsys):
    assert main(["recognize", str(MELD)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("table-meld-row.jpg: 640 x 640, 14 tiles")
    assert "  tiles:" in out and "  hand:" in out and "pung 111m" in out and "  time:" in out


def test_json_is_one_object_or_a_list(model, capsys):
    assert main(["recognize", str(ROW), "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["image"] == "row-flower.jpg" and "hand" in one
    assert main(["recognize", str(ROW), str(MELD), "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert [r["image"] for r in both] == ["row-flower.jpg", "table-meld-row.jpg"]


def test_rules_read_the_hand_as_that_tables_size(model, capsys):
    assert main(["recognize", str(ROW), "--json"]) == 0
    assert not any(w.startswith("found") for w in json.loads(capsys.readouterr().out)["warnings"])
    assert main(["recognize", str(ROW), "--json", "--rules", "taiwan16"]) == 0
    assert "found 14 tiles; a complete hand has 17" in json.loads(capsys.readouterr().out)["warnings"]
    assert main(["recognize", str(ROW), "--rules", "no_such_rules"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjscan recognize: unknown rule set 'no_such_rules'") and err.count("\n") == 1


def test_annotate_one_photo_writes_a_jpeg_and_says_so(model, tmp_path, capsys):
    out = tmp_path / "out.jpg"
    assert main(["recognize", str(ROW), "--annotate", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    with Image.open(out) as im:
        assert im.format == "JPEG"


def test_annotate_never_overwrites_an_input_or_an_existing_file(model, tmp_path, capsys):
    photo = tmp_path / "p.jpg"
    shutil.copy(ROW, photo)
    before = photo.read_bytes()
    assert main(["recognize", str(photo), "--annotate", str(photo), "--overwrite"]) == 1
    assert "would write over the photo" in capsys.readouterr().err
    assert photo.read_bytes() == before
    taken = tmp_path / "taken.jpg"
    taken.write_bytes(b"keep me")
    assert main(["recognize", str(photo), "--annotate", str(taken)]) == 1
    assert "exists" in capsys.readouterr().err and taken.read_bytes() == b"keep me"
    assert main(["recognize", str(photo), "--annotate", str(taken), "--overwrite"]) == 0
    assert taken.read_bytes() != b"keep me"


def test_several_photos_annotate_into_a_folder_or_a_pattern(model, tmp_path, capsys):
    folder = tmp_path / "ann"
    assert main(["recognize", str(ROW), str(MELD), "--annotate", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["row-flower.annotated.jpg", "table-meld-row.annotated.jpg"]
    assert f"wrote {folder / 'row-flower.annotated.jpg'}" in capsys.readouterr().out
    pattern = str(tmp_path / "{stem}-tiles.jpg")
    assert main(["recognize", str(ROW), str(MELD), "--annotate", pattern, "--json"]) == 0
    captured = capsys.readouterr()
    assert (tmp_path / "row-flower-tiles.jpg").is_file() and (tmp_path / "table-meld-row-tiles.jpg").is_file()
    assert [r["annotated_image"] for r in json.loads(captured.out)] == [
        str(tmp_path / "row-flower-tiles.jpg"),
        str(tmp_path / "table-meld-row-tiles.jpg"),
    ]
    assert "wrote" in captured.err


def test_one_file_for_several_photos_is_refused(model, tmp_path, capsys):
    assert main(["recognize", str(ROW), str(MELD), "--annotate", str(tmp_path / "x.jpg")]) == 1
    assert "names one file for 2 photos" in capsys.readouterr().err


def test_a_bad_file_among_several_gives_one_line_and_the_others_still_come(model, tmp_path, capsys):
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    assert main(["recognize", str(text), str(ROW), str(tmp_path / "missing.jpg"), "--json"]) == 1
    captured = capsys.readouterr()
    results = json.loads(captured.out)
    assert [r.get("error", {}).get("code") for r in results] == ["not_an_image", None, "not_found"]
    errors = captured.err.strip().splitlines()
    assert len(errors) == 2 and all(line.startswith("mjscan recognize: ") for line in errors)
    assert "Traceback" not in captured.err


def test_missing_model_is_one_line(tmp_path, capsys):
    assert main(["recognize", str(ROW), "--model-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no tile model" in err


def test_evaluate_missing_model_and_bad_folders_are_one_line(tmp_path, capsys):
    classes = str(SAMPLE / "classes.json")
    args = ["evaluate", "--images", str(SAMPLE / "images"), "--labels", str(SAMPLE / "labels"), "--classes", classes]
    assert main([*args, "--model", str(tmp_path)]) == 1
    assert "no tile model" in capsys.readouterr().err
    assert main(["evaluate", "--images", str(tmp_path / "no"), "--labels", str(tmp_path), "--classes", classes]) == 1
    assert capsys.readouterr().err == f"mjscan evaluate: --images {tmp_path / 'no'} is not a folder\n"
    assert main([*args, "--unlabelled", str(tmp_path / "no")]) == 1
    assert capsys.readouterr().err == f"mjscan evaluate: unlabelled folder {tmp_path / 'no'} does not exist\n"


def test_evaluate_can_score_the_tiles_as_recognized(capsys):
    classes = str(SAMPLE / "classes.json")
    args = ["evaluate", "--images", str(SAMPLE / "images"), "--labels", str(SAMPLE / "labels"), "--classes", classes]
    assert main([*args, "--json"]) == 0
    detected = json.loads(capsys.readouterr().out)
    assert main([*args, "--json", "--as-recognized"]) == 0
    recognized = json.loads(capsys.readouterr().out)
    assert recognized["labels"] == detected["labels"] > 0
    assert recognized["f1"] == pytest.approx(detected["f1"], abs=0.02)


@pytest.mark.parametrize(
    "text",
    ["1f 123m456p1z _ 1z _ 4s>56s _ back7z7zback", "123m456p789s11z55z _ 5z", "123m456p789s1z _ 1z / 2p2p>^2p"],
)
def test_hand_text_is_the_compact_form_mjscan_score_reads(text):
    hand = from_detections(scene(text), 1000, 1000).hand
    parsed = parse_compact(hand_text(hand)).to_json()
    assert sorted(parsed["concealed"]) == sorted(hand["concealed"])
    assert parsed["concealed"] == sorted(parsed["concealed"], key=lambda c: CLASS_INDEX[c])  # in tile order
    assert parsed["win_tile"] == hand["win_tile"]
    assert sorted(parsed["flowers"]) == sorted(hand["flowers"])
    assert [(m["type"], m["open"], m.get("added", False)) for m in parsed["melds"]] == [
        (m["type"], m["open"], m.get("added", False)) for m in hand["melds"]
    ]
