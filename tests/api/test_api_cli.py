"""`mjscan analyze`: its refusals are one line and a non-zero exit, before any model is loaded."""

from __future__ import annotations

import json

import pytest
from api_samples import jpeg_bytes

from api.cli import main as mjscan


def test_unknown_rules_are_refused_before_the_photo(tmp_path, capsys):
    assert mjscan(["analyze", str(tmp_path / "none.jpg"), "--rules", "no_such_rules"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjscan analyze: unknown rule set 'no_such_rules'") and err.count("\n") == 1


def test_missing_photo(tmp_path, capsys):
    assert mjscan(["analyze", str(tmp_path / "none.jpg"), "--rules", "riichi"]) == 1
    assert "no such photo" in capsys.readouterr().err


def test_annotate_never_overwrites(tmp_path, capsys):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(jpeg_bytes(64, 48))
    existing = tmp_path / "out.jpg"
    existing.write_bytes(b"keep me")
    assert mjscan(["analyze", str(photo), "--rules", "riichi", "--annotate", str(existing)]) == 1
    assert "exists" in capsys.readouterr().err
    assert existing.read_bytes() == b"keep me"
    assert mjscan(["analyze", str(photo), "--rules", "riichi", "--annotate", str(photo), "--overwrite"]) == 1
    assert "is the photo itself" in capsys.readouterr().err
    assert mjscan(["analyze", str(photo), "--rules", "riichi", "--annotate", str(tmp_path / "out.png")]) == 1
    assert "JPEG" in capsys.readouterr().err


def test_bad_situation_is_refused(tmp_path, capsys):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(jpeg_bytes(64, 48))
    assert mjscan(["analyze", str(photo), "--rules", "riichi", "--set", "seat_wind=X"]) == 1
    assert "seat_wind" in capsys.readouterr().err


def test_analyze_prints_recognition_and_score_as_json(tile_model, photo, tmp_path, capsys):
    out = tmp_path / "annotated.jpg"
    code = mjscan(["analyze", str(photo), "--rules", "riichi", "--tsumo", "--json", "--annotate", str(out)])
    body = json.loads(capsys.readouterr().out)
    assert set(body) == {"recognition", "score", "annotated_image"}
    assert body["annotated_image"] == str(out) and out.stat().st_size > 0
    assert code == (0 if body["score"]["ok"] else 1)


@pytest.mark.parametrize("text", ["not a photo", ""])
def test_unreadable_photo_is_one_line(tile_model, tmp_path, capsys, text):
    photo = tmp_path / "IMG_1.jpg"
    photo.write_text(text)
    assert mjscan(["analyze", str(photo), "--rules", "riichi"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjscan analyze: ") and "Traceback" not in err
