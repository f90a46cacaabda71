"""The folder runner of `mjscan label`: resume writes nothing new, Ctrl-C stops cleanly and a rerun continues,
N worker processes give the same files as one, the source folder is never touched, nothing a person changed
is overwritten, and bad jobs get a clear message (command line included)."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from scenes import scene
from test_label_support import BAD, PHOTOS, TableDetector, contents, make_folder
from test_label_support import fingerprint as tree

from api.cli import label as label_cli
from api.cli import main
from vision import label
from vision.detector import DEFAULT_MODEL_DIR
from vision.label import LabelError, LabelJob, ModelDetector, Summary, label_folder

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "hk-sample" / "images"


@pytest.fixture
def src(tmp_path: Path) -> Path:
    return make_folder(tmp_path / "photos").resolve()


def run(
    src: Path, out: Path, fmt: str = "yolo", factory: TableDetector | None = None, workers: int = 1, **kw
) -> Summary:
    before = tree(src)
    summary = label_folder(LabelJob(src, out, fmt, **kw), factory or TableDetector(src), workers=workers)
    assert tree(src) == before, "the source folder must not change"
    return summary


@pytest.mark.parametrize("fmt", ["yolo", "coco", "labelstudio"])
def test_a_resumed_run_writes_nothing_new(src: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "out"
    first = run(src, out, fmt)
    assert first.done == len(PHOTOS) and first.written
    after_first = tree(out)
    resumed = run(src, out, fmt, resume=True)
    assert (resumed.done, resumed.skipped) == (0, len(PHOTOS))
    assert resumed.written == [] and tree(out) == after_first
    assert resumed.classes == first.classes and resumed.low_confidence == first.low_confidence
    assert sorted(resumed.failed) == sorted(first.failed)  # bad photos are tried again, and fail again


def test_a_full_rerun_rewrites_no_file_whose_content_is_the_same(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(src, out)
    after_first = tree(out)
    again = run(src, out)
    assert again.done == len(PHOTOS) and again.written == [] and tree(out) == after_first


def test_resume_relabels_a_photo_that_changed_and_one_whose_labels_are_gone(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(src, out)
    later = time.time() + 5
    os.utime(src / "table.png", (later, later))
    (out / "labels" / "sub" / "meld.txt").unlink()
    resumed = run(src, out, resume=True)
    assert (resumed.done, resumed.skipped) == (2, len(PHOTOS) - 2)
    assert (out / "labels" / "sub" / "meld.txt").is_file()
    assert run(src, out, resume=True).done == 0


def test_resume_relabels_when_the_settings_differ(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(src, out)
    stricter = run(src, out, resume=True, min_score=0.5)
    assert stricter.done == len(PHOTOS) and stricter.skipped == 0
    assert "2m" not in stricter.classes  # scored 0.42
    assert "2m" not in (out / "labels" / "hand.txt").read_text().split()[0::5]


def test_records_serve_every_format_on_resume(src: Path, tmp_path: Path) -> None:
    """Labelled for YOLO, resumed as COCO: the model does not run again."""
    out = tmp_path / "out"
    run(src, out, "yolo")
    coco = run(src, out, "coco", resume=True)
    assert (coco.done, coco.skipped) == (0, len(PHOTOS))
    assert len(json.loads((out / "annotations.json").read_text())["images"]) == len(PHOTOS)


def test_ctrl_c_stops_cleanly_and_a_rerun_continues(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    stopped = run(src, out, factory=TableDetector(src, fail_after=4))
    assert stopped.interrupted
    assert stopped.done + len(stopped.failed) == 4
    assert stopped.left == len(PHOTOS) + len(BAD) - 4
    assert f"{stopped.left} photo(s) not labelled" in stopped.report() and "--resume" in stopped.report()
    assert not list(out.rglob("*.tmp")), "no half-written file is left"
    continued = run(src, out, resume=True)
    assert continued.skipped == stopped.done
    assert continued.done == len(PHOTOS) - stopped.done
    assert not continued.interrupted
    fresh = tmp_path / "fresh"
    run(src, fresh)
    assert contents(out) == contents(fresh)


def test_two_worker_processes_write_the_same_files_as_one(src: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    s1 = run(src, one, "labelstudio")
    s2 = run(src, two, "labelstudio", workers=2)
    assert contents(one) == contents(two)
    assert (s1.done, s1.failed, s1.classes, s1.low_confidence) == (s2.done, s2.failed, s2.classes, s2.low_confidence)


def test_ctrl_c_with_worker_processes(tmp_path: Path) -> None:
    """A real SIGINT to a run with 2 workers: it stops after the photos in flight, says how to continue, and
    a resumed run labels exactly the rest. Each worker's photos after its first wait until the signal is sent,
    so photos are left to do when it comes however slowly this test reads the child's output."""
    src = make_folder(tmp_path / "photos").resolve()
    go = tmp_path / "signal-sent"
    script = tmp_path / "slow_label.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import signal, sys, time
            sys.path.insert(0, {str(Path(__file__).parent)!r})
            from dataclasses import dataclass
            from pathlib import Path
            from test_label_support import TableDetector
            from vision.label import LabelJob, label_folder

            @dataclass(frozen=True)
            class Slow(TableDetector):
                def __call__(self, threads=None):
                    detect = super().__call__(threads)
                    calls = [0]

                    def slow(path):
                        calls[0] += 1
                        if calls[0] > 1:  # each worker's first photo at once, the others once the signal is sent
                            deadline = time.monotonic() + 60
                            while not Path({str(go)!r}).exists() and time.monotonic() < deadline:
                                time.sleep(0.05)
                        return detect(path)
                    return slow

            def progress(results, total):
                for r in results:
                    print("result", r.path, flush=True)
                    yield r

            if __name__ == "__main__":
                # Ctrl-C raises KeyboardInterrupt, as in a Python started from a shell, whatever this test's
                # process was left with (Python keeps SIGINT ignored when it starts with it ignored)
                signal.signal(signal.SIGINT, signal.default_int_handler)
                src = Path({str(src)!r})
                job = LabelJob(src, Path({str(tmp_path / "out")!r}))
                s = label_folder(job, Slow(src), workers=2, progress=progress)
                print("summary", s.done, len(s.failed), s.interrupted, s.left, flush=True)
            """
        )
    )
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    seen = proc.stdout.readline()
    assert seen.startswith("result"), seen
    proc.send_signal(signal.SIGINT)
    time.sleep(0.5)
    go.touch()
    rest, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    summary = [line for line in rest.splitlines() if line.startswith("summary")]
    assert summary, rest
    done, failed, interrupted, left = summary[0].split()[1:]
    assert interrupted == "True" and int(done) + int(failed) + int(left) == len(PHOTOS) + len(BAD)
    assert int(left) > 0
    continued = run(src, tmp_path / "out", resume=True)
    assert continued.skipped == int(done) and continued.done == len(PHOTOS) - int(done)


def test_a_label_file_a_person_corrected_is_kept(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(src, out)
    corrected = out / "labels" / "hand.txt"
    corrected.write_text("0 0.5 0.5 0.1 0.1\n")
    again = run(src, out)
    assert corrected.read_text() == "0 0.5 0.5 0.1 0.1\n"
    assert any(p == "hand.jpg" and "changed after mjscan wrote it" in r for p, r in again.failed)


def test_a_folder_file_a_person_changed_gets_the_new_version_beside_it(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(src, out, "coco")
    (out / "annotations.json").write_text('{"edited": true}\n')
    stricter = run(src, out, "coco", min_score=0.9)
    assert (out / "annotations.json").read_text() == '{"edited": true}\n'
    new = json.loads((out / "annotations.mjscan-new.json").read_text())
    assert all(a["score"] >= 0.9 for a in new["annotations"])
    assert stricter.kept and "annotations.mjscan-new.json" in stricter.kept[0]


def test_two_photos_with_one_yolo_label_file(src: Path, tmp_path: Path) -> None:
    (src / "hand.png").write_bytes((src / "table.png").read_bytes())
    summary = run(src, tmp_path / "out")
    assert any(p == "hand.png" and "hand.jpg" in r and "rename" in r for p, r in summary.failed)
    assert summary.done == len(PHOTOS)


@pytest.mark.parametrize(
    "where, message",
    [
        ("photos/out", "inside the source folder"),
        ("photos", "inside the source folder"),
        ("elsewhere", "not empty and holds no earlier"),
    ],
)
def test_jobs_that_would_write_into_the_photos_or_over_other_files(src: Path, tmp_path: Path, where, message) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "my-labels.txt").write_text("mine\n")
    before = tree(tmp_path)
    with pytest.raises(LabelError, match=message):
        label_folder(LabelJob(src, tmp_path / where), TableDetector(src))
    assert tree(tmp_path) == before


def test_source_inside_the_output_tree(tmp_path: Path) -> None:
    src = make_folder(tmp_path / "out" / "images").resolve()
    with pytest.raises(LabelError, match="where the labeller writes"):
        label_folder(LabelJob(src, tmp_path / "out"), TableDetector(src))


def test_the_command_line_offers_the_runner_s_choices() -> None:
    assert label_cli.FORMATS == label.FORMATS and label_cli.IMAGE_MODES == label.IMAGE_MODES
    assert label_cli.LS_LOCAL_FILES == label.LS_LOCAL_FILES


def test_cli_refusals_are_messages_not_tracebacks(src: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cases = [
        ([str(tmp_path / "nowhere"), "--out", str(tmp_path / "o1")], "no such folder"),
        ([str(src / "hand.jpg"), "--out", str(tmp_path / "o2")], "is a file"),
        ([str(src), "--out", str(tmp_path / "o3"), "--min-score", "3"], "between 0 and 1"),
        ([str(src), "--out", str(tmp_path / "o4"), "--workers", "0"], "at least 1"),
        ([str(src), "--out", str(tmp_path / "o5"), "--model", str(tmp_path / "no-model")], "no tile model"),
        ([str(src), "--out", str(tmp_path / "o6"), "--address", "ray://x:1"], "--engine ray"),
    ]
    for argv, message in cases:
        assert main(["label", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (argv, err)
    assert not any((tmp_path / f"o{i}").exists() for i in range(1, 7)), "a refused job creates nothing"


@pytest.mark.skipif(not (DEFAULT_MODEL_DIR / "model.json").is_file(), reason="no tile model in models/")
def test_cli_with_the_tile_model_round_trips_through_mjscan_evaluate(tmp_path: Path, capsys) -> None:
    """The real model on the committed sample photos (and a cut-off copy): `mjscan label` labels them in 2
    workers, and `mjscan evaluate` of the same model against those labels finds every box again."""
    src = tmp_path / "photos"
    shutil.copytree(SAMPLE, src)
    (src / "cut.jpg").write_bytes((SAMPLE / "row-flower.jpg").read_bytes()[:3000])
    out = tmp_path / "out"
    argv = ["label", str(src), "--out", str(out), "--min-score", "0", "--workers", "2", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["done"] == len(list(SAMPLE.glob("*.jpg"))) and summary["tiles_total"] > 0
    assert [f["path"] for f in summary["failed"]] == ["cut.jpg"]
    argv = ["evaluate", "--images", str(out / "images"), "--labels", str(out / "labels")]
    assert main([*argv, "--classes", str(out / "classes.json"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["labels"] == summary["tiles_total"] and report["f1"] == pytest.approx(1.0)


def test_the_model_detector_gives_the_tiles_as_recognize_reports_them(monkeypatch, tmp_path: Path):
    # a stray face-down tile (a tile's side), and a blank face read face down in the concealed row
    found = scene("back / 123m4pback6p789s11z55z _ 5z")
    found.scores[0] = 0.4
    recognize_module = importlib.import_module("vision.recognize")
    monkeypatch.setattr(recognize_module, "detect_photo", lambda path, model, max_pixels: (1000, 1000, found))
    width, height, got = ModelDetector()(threads=1)(tmp_path / "hand.jpg")
    assert (width, height) == (1000, 1000)
    assert len(got) == len(found) - 1 and "back" not in got.codes and got.codes.count("5z") == 4
    assert not got.face_down.any()


def test_the_model_detector_version_names_the_reading_code(monkeypatch, tmp_path: Path):
    """Records made by other reading code are out of date: the version they keep names that code."""
    recognize_module = importlib.import_module("vision.recognize")
    digest = recognize_module.reader_digest()
    assert len(digest) == 8 and int(digest, 16) >= 0
    assert ModelDetector().version.endswith(f" reader {digest}")
    copy = tmp_path / "project"
    for name in recognize_module.READER_SOURCES:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(recognize_module._ROOT / name, copy / name)
    (copy / "vision" / "other.py").write_text("# not reading code\n")
    monkeypatch.setattr(recognize_module, "_ROOT", copy)
    read_anew = recognize_module.reader_digest.__wrapped__
    assert read_anew() == digest  # the same code, found elsewhere
    layout = copy / "vision" / "layout.py"
    layout.write_text(layout.read_text() + "\n# a rule changed\n")
    assert read_anew() != digest
