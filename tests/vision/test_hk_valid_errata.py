"""``scripts/hk_valid_errata.py``: hk-photos/valid with the source's known label errors mended."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from labelled import SAMPLE, script

from vision.evaluate import LabelError, read_classes

errata = script("hk_valid_errata")

#: The sample photos under their names in the source's valid split (datasets/README.md).
SOURCE_NAMES = {
    "row-flower": "379666913_866373728534631_7549096240212301978_n_jpg.rf.e30376c5ae5b3da08844f040e6cca9b0",
    "table-meld-row": "370280965_2015775748788044_2111708559817730528_n_jpg.rf.f1de4d65c922ba779be7a4220fea8141",
    "grid": "367749699_848989150106760_5345677025050704033_n_jpg.rf.a5d79f7e42d4296b0f7fe4499ecf056d",
    "row-discard": "394497921_713610487289095_3009443070908408719_n_jpg.rf.6eb8b56c333b4fb36944e23d112c1f91",
}
CLASSES = read_classes(SAMPLE / "classes.json")


@pytest.fixture
def valid(tmp_path: Path) -> Path:
    """The sample photos laid out as the source's valid split, under their source names."""
    root = tmp_path / "valid"
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for name, stem in SOURCE_NAMES.items():
        shutil.copy(SAMPLE / "images" / f"{name}.jpg", root / "images" / f"{stem}.jpg")
        shutil.copy(SAMPLE / "labels" / f"{name}.txt", root / "labels" / f"{stem}.txt")
    shutil.copy(SAMPLE / "classes.json", tmp_path / "classes.json")
    return root


def codes(path: Path) -> list[str]:
    return [CLASSES[int(line.split()[0])] for line in path.read_text().splitlines()]


def test_the_shipped_errata_mend_the_sample_photos_they_name(valid, tmp_path):
    shipped = errata.read_errata(errata.ERRATA)
    assert len(shipped) == 138 and sum(e.fix == errata.DROP for e in shipped) == 1
    mine = [e for e in shipped if e.photo in SOURCE_NAMES.values()]
    # the label errors datasets/README.md names: the autumn labelled 8f, the 2m labelled 3m, the 4p labelled 5p
    assert sorted((e.label, e.fix) for e in mine) == [("3m", "2m"), ("5p", "4p"), ("8f", "7f")]
    counts = errata.mend(valid, CLASSES, mine, tmp_path / "out")
    assert counts == {"photos": 4, "mended": 3, "dropped": 0}
    before = codes(valid / "labels" / f"{SOURCE_NAMES['row-flower']}.txt")
    after = codes(tmp_path / "out" / "labels" / f"{SOURCE_NAMES['row-flower']}.txt")
    assert [(a, b) for a, b in zip(before, after, strict=True) if a != b] == [("8f", "7f")]
    assert (tmp_path / "out" / "images" / f"{SOURCE_NAMES['grid']}.jpg").resolve().is_file()


def test_a_second_label_on_a_tile_is_dropped(valid, tmp_path):
    meld = SOURCE_NAMES["table-meld-row"]
    first = codes(valid / "labels" / f"{meld}.txt")[0]
    counts = errata.mend(valid, CLASSES, [errata.Erratum(meld, 1, first, errata.DROP)], tmp_path / "out")
    assert counts == {"photos": 4, "mended": 0, "dropped": 1}
    assert codes(tmp_path / "out" / "labels" / f"{meld}.txt") == codes(valid / "labels" / f"{meld}.txt")[1:]


def test_an_erratum_the_source_does_not_match_writes_nothing(valid, tmp_path):
    meld = SOURCE_NAMES["table-meld-row"]
    for row, message in (
        (errata.Erratum(meld, 9, "9s", "2m"), "expect 9s there"),
        (errata.Erratum(meld, 99, "3m", "2m"), "expect 3m there"),
        (errata.Erratum("no-such-photo", 1, "3m", "2m"), "no-such-photo"),
    ):
        with pytest.raises(LabelError, match=message):
            errata.mend(valid, CLASSES, [row], tmp_path / "out")
        assert not (tmp_path / "out").exists()


def test_the_command_refuses_a_folder_with_files_and_a_file_that_is_no_errata(valid, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert errata.main(["--valid", str(valid), "--out", str(out)]) == 2
    assert "not an empty folder" in capsys.readouterr().err and (out / "keep.txt").read_text() == "mine"
    bad = tmp_path / "bad.csv"
    bad.write_text("photo,line\nx,1\n")
    assert errata.main(["--valid", str(valid), "--errata", str(bad), "--out", str(tmp_path / "new")]) == 2
    assert "expected the columns" in capsys.readouterr().err
    bad.write_text("photo,line,label,fix\nx,,3m,2m\n")
    assert errata.main(["--valid", str(valid), "--errata", str(bad), "--out", str(tmp_path / "new")]) == 2
    assert "is not a line number" in capsys.readouterr().err
    bad.write_text("photo,line,label,fix\nx,3,3m,3q\n")
    assert errata.main(["--valid", str(valid), "--errata", str(bad), "--out", str(tmp_path / "new")]) == 2
    assert "are tile codes" in capsys.readouterr().err and not (tmp_path / "new").exists()


def test_the_command_writes_the_mended_set(valid, tmp_path, capsys):
    rows = tmp_path / "errata.csv"
    rows.write_text(f"photo,line,label,fix,what\n{SOURCE_NAMES['table-meld-row']},9,3m,2m,a 2m\n")
    assert errata.main(["--valid", str(valid), "--errata", str(rows), "--out", str(tmp_path / "new")]) == 0
    printed = capsys.readouterr().out
    assert "4 photos" in printed and "1 labels mended, 0 dropped" in printed
    assert codes(tmp_path / "new" / "labels" / f"{SOURCE_NAMES['table-meld-row']}.txt")[8] == "2m"
