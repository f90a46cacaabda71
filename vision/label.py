"""Batch labelling: run the tile model over a folder of photos and write YOLO, COCO or Label Studio files.

The source folder is only read. Every photo's result is kept as a small JSON record under
``OUT/.mjscan/records/<photo path>.json``; the per-photo files (the record, and for YOLO the label file and
the photo's entry in ``OUT/images/``) are written as soon as the photo is done, so an interrupted run loses
nothing it finished. The one-file formats (COCO, Label Studio) and the folder files (``classes.txt``,
``data.yaml``, ``review.txt``) are assembled from the records at the end.

Every file is written atomically (a temporary file in the same folder, then a rename), and a file that
already holds the same text is left alone, so a rerun that finds nothing new writes nothing. Files that a
person changed after mjscan wrote them are never overwritten: a changed YOLO label file is kept (the photo is
reported), a changed folder file gets its new version beside it (``annotations.mjscan-new.json``).

``resume`` skips a photo whose outputs exist and were made from the photo as it is now (its record keeps the
photo's size and modification time, so a photo that was replaced, even by an older file, is labelled again)
by the same model with the same ``min_score``. The records do not depend on the format, so a folder
labelled for YOLO can be resumed as COCO or Label Studio without running the model again.

``label_folder`` runs the photos in this process or in N worker processes (one ONNX session each);
``vision.label_ray`` runs the same per-photo function as a Ray Data pipeline. Both share ``plan``,
``consume`` and ``finish``, so they give the same files and the same summary.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from vision.export import (
    LabelledImage,
    classes_txt,
    clip_boxes,
    coco_document,
    data_yaml,
    labelstudio_config,
    labelstudio_task,
    review_lines,
    url_for,
    yolo_lines,
)
from vision.io import DEFAULT_MAX_PIXELS, IMAGE_SUFFIXES, ImageError
from vision.types import CLASS_INDEX, CLASSES, Detections

FORMATS = ("yolo", "coco", "labelstudio")
#: How the YOLO layout gets its ``images/`` tree: links to the photos, copies, or none.
IMAGE_MODES = ("link", "copy", "none")
STATE = Path(".mjscan")
RECORDS = STATE / "records"
MANIFEST = STATE / "written.json"
#: The smallest box side kept, in pixels: thinner boxes (after clipping to the picture) are no tile.
MIN_SIDE = 1.0
#: Label Studio's URL prefix for files served from its local storage (LOCAL_FILES_DOCUMENT_ROOT).
LS_LOCAL_FILES = "/data/local-files/?d="


class LabelError(ValueError):
    """A labelling job that cannot start (bad folders or options); the message says why."""


@dataclass(frozen=True)
class LabelJob:
    """What to label and how.

    min_score: boxes scored below it are dropped. review_below: boxes below it are kept but tagged for
    review. resume: skip photos whose outputs are up to date. images (YOLO): ``link`` makes ``OUT/images/``
    a tree of symbolic links to the photos, ``copy`` copies them (for uploading or moving the dataset),
    ``none`` writes no images tree. ls_url_prefix and ls_root (Label Studio): a photo's URL is the prefix
    followed by its path relative to ls_root (default: the source folder's parent, which is what Label
    Studio's LOCAL_FILES_DOCUMENT_ROOT should be set to).
    """

    src: Path
    out: Path
    fmt: str = "yolo"
    min_score: float = 0.25
    review_below: float = 0.5
    resume: bool = False
    images: str = "link"
    ls_url_prefix: str = LS_LOCAL_FILES
    ls_root: Path | None = None

    def prepared(self) -> LabelJob:
        """The job with absolute folders, checked (nothing is created yet). Raises LabelError."""
        if self.fmt not in FORMATS:
            raise LabelError(f"unknown format {self.fmt!r}: choose yolo, coco or labelstudio")
        if self.images not in IMAGE_MODES:
            raise LabelError(f"unknown images mode {self.images!r}: choose link, copy or none")
        for name, value in (("--min-score", self.min_score), ("--review-below", self.review_below)):
            if not 0.0 <= value <= 1.0:
                raise LabelError(f"{name} is a score between 0 and 1, not {value}")
        if not self.src.exists():
            raise LabelError(f"{self.src}: no such folder")
        if not self.src.is_dir():
            raise LabelError(f"{self.src} is a file; give the folder of photos")
        src, out = self.src.resolve(), self.out.resolve()
        if out == src or src in out.parents:
            raise LabelError(
                f"the output folder {self.out} is inside the source folder {self.src}: mjscan never writes "
                "into the photos' folder; choose another --out"
            )
        for inner in (out / "images", out / "labels", out / STATE):
            if src == inner or inner in src.parents:
                raise LabelError(f"the source folder {self.src} lies in {inner}, where the labeller writes")
        if out.exists() and not out.is_dir():
            raise LabelError(f"--out {self.out} is a file; give a folder")
        if out.is_dir() and not (out / STATE).is_dir() and any(out.iterdir()):
            raise LabelError(
                f"{self.out} is not empty and holds no earlier `mjscan label` output: choose a new or empty "
                "folder, so that nothing in it is overwritten"
            )
        root = (self.ls_root or src.parent).resolve()
        if root != src and root not in src.parents:
            raise LabelError(f"--ls-root {self.ls_root} must be the source folder or a folder above it")
        return replace(self, src=src, out=out, ls_root=root)

    def settings(self, model_version: str) -> dict[str, Any]:
        """What a photo's record depends on: a record made with other settings is not up to date. The model's
        version names the code that read the photo too (``ModelDetector.version``)."""
        return {"model": model_version, "min_score": self.min_score}


@dataclass
class PhotoResult:
    """What happened to one photo: ``status`` is done, skipped (resume: outputs up to date) or failed
    (``reason`` says why). ``classes``: tiles per code in its labels; ``low_confidence``: boxes to review."""

    path: str
    status: str
    reason: str = ""
    classes: dict[str, int] = field(default_factory=dict)
    low_confidence: int = 0

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready dict (how the Ray engine ships it to the driver)."""
        return {
            "path": self.path,
            "status": self.status,
            "reason": self.reason,
            "classes": self.classes,
            "low_confidence": self.low_confidence,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PhotoResult:
        """The inverse of ``to_json``."""
        return cls(data["path"], data["status"], data["reason"], dict(data["classes"]), int(data["low_confidence"]))


@dataclass
class Summary:
    """The end-of-run account: counts, failures with their reason, tiles per class, boxes to review.

    ``tiles`` and ``low_confidence`` count over every photo in the output (labelled now or up to date).
    ``interrupted``: stopped by Ctrl-C; ``error``: stopped by a failure that is no photo's fault; ``left``:
    photos not labelled because the run stopped.
    """

    done: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    not_images: list[str] = field(default_factory=list)
    classes: Counter[str] = field(default_factory=Counter)
    low_confidence: int = 0
    interrupted: bool = False
    error: str = ""
    left: int = 0
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, r: PhotoResult) -> None:
        """Count one photo's result."""
        if r.status == "failed":
            self.failed.append((r.path, r.reason))
            return
        if r.status == "skipped":
            self.skipped += 1
        else:
            self.done += 1
        self.classes.update(r.classes)
        self.low_confidence += r.low_confidence

    @property
    def stopped_early(self) -> bool:
        return self.interrupted or bool(self.error)

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict (``mjscan label --json``)."""
        return {
            "done": self.done,
            "skipped": self.skipped,
            "failed": [{"path": p, "reason": r} for p, r in sorted(self.failed)],
            "not_images": self.not_images,
            "tiles": {c: self.classes[c] for c in CLASSES if self.classes[c]},
            "tiles_total": sum(self.classes.values()),
            "low_confidence": self.low_confidence,
            "interrupted": self.interrupted,
            "error": self.error or None,
            "left": self.left,
            "written": self.written,
            "kept": self.kept,
            "notes": self.notes,
            "seconds": round(self.seconds, 2),
        }

    def report(self) -> str:
        """The summary as text for a terminal."""
        rate = f" in {self.seconds:.1f} s ({self.done / self.seconds:.2f} images/s)" if self.seconds > 0 else ""
        lines = [
            f"images labelled: {self.done}{rate}, up to date (skipped): {self.skipped}, failed: {len(self.failed)}"
        ]
        lines += [f"  failed {p}: {r}" for p, r in sorted(self.failed)]
        if self.not_images:
            lines.append(f"not photos by their name (left alone): {len(self.not_images)}")
            lines += [f"  {p}" for p in self.not_images[:10]]
            if len(self.not_images) > 10:
                lines.append(f"  ... and {len(self.not_images) - 10} more")
        total = sum(self.classes.values())
        lines.append(f"tiles in the labels: {total}, low confidence (tagged for review): {self.low_confidence}")
        if total:
            lines.append("  " + "  ".join(f"{c}:{self.classes[c]}" for c in CLASSES if self.classes[c]))
        lines += [f"wrote {w}" for w in self.written]
        lines += [f"kept {k}" for k in self.kept]
        lines += [f"note: {n}" for n in self.notes]
        if self.error:
            lines.append(f"stopped: {self.error}")
        if self.interrupted and not self.left:
            lines.append("interrupted after the last photo: nothing is left to label")
        elif self.stopped_early:
            lines.append(
                f"stopped before the end: {self.left} photo(s) not labelled; run the same command with "
                "--resume to continue"
            )
        return "\n".join(lines)


# ---- files -------------------------------------------------------------------------------------------------


def find_photos(src: Path) -> tuple[list[str], list[str]]:
    """Photos under ``src`` (recursively, by suffix; hidden files and folders skipped) and the other files,
    both as sorted POSIX paths relative to ``src``."""
    photos, others = [], []
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            rel = (Path(root) / name).relative_to(src).as_posix()
            (photos if Path(name).suffix.lower() in IMAGE_SUFFIXES else others).append(rel)
    return photos, others


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_atomic(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` through a temporary file and a rename; a file that already holds exactly
    that text is left alone. Returns True when the file was written."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def record_path(out: Path, rel: str) -> Path:
    """Where a photo's record lives."""
    return out / RECORDS / (rel + ".json")


def yolo_path(out: Path, rel: str) -> Path:
    """A photo's YOLO label file: ``labels/<path with .txt>``, beside ``images/<path>``."""
    return out / "labels" / Path(rel).with_suffix(".txt")


def read_record(out: Path, rel: str) -> dict[str, Any] | None:
    """A photo's stored record, or None when there is none (or it cannot be read)."""
    try:
        return json.loads(record_path(out, rel).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def record_image(record: dict[str, Any]) -> LabelledImage:
    """The labelled photo a record describes."""
    tiles = record["tiles"]
    det = Detections(
        np.array([t["box"] for t in tiles], np.float32).reshape(-1, 4),
        np.array([t["score"] for t in tiles], np.float32),
        np.array([CLASS_INDEX[t["code"]] for t in tiles], np.int64),
        np.array([t["rotated"] for t in tiles], bool),
        np.array([t["orientation"] for t in tiles], np.int16),
        np.array([t["face_down"] for t in tiles], bool),
    )
    return LabelledImage(record["path"], record["width"], record["height"], det)


def photo_stamp(path: Path) -> dict[str, int]:
    """What identifies a photo's version: its size and modification time (ns). Raises OSError."""
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _image_in_place(job: LabelJob, rel: str) -> bool:
    target, dest = job.src / rel, job.out / "images" / rel
    if job.images == "link":
        return dest.is_symlink() and os.readlink(dest) == str(target)
    try:
        copy, photo = dest.lstat(), target.stat()
    except OSError:
        return False
    return not dest.is_symlink() and (copy.st_size, copy.st_mtime_ns) == (photo.st_size, photo.st_mtime_ns)


def _place_image(job: LabelJob, rel: str) -> None:
    """The photo's entry in ``OUT/images/``: a symbolic link to it or a copy (with the photo's times),
    replaced atomically."""
    if _image_in_place(job, rel):
        return
    target, dest = job.src / rel, job.out / "images" / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.parent / f".{dest.name}.{os.getpid()}.tmp"
    tmp.unlink(missing_ok=True)
    try:
        if job.images == "link":
            tmp.symlink_to(target)
        else:
            shutil.copy2(target, tmp)
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# ---- the detector ----------------------------------------------------------------------------------------

#: Reads a photo and finds its tiles: (width, height after EXIF orientation, detections in those pixels).
#: Raises ImageError (or OSError) for a photo it cannot read.
Detector = Callable[[Path], tuple[int, int, Detections]]


class DetectorFactory(Protocol):
    """Makes a Detector in each worker (so it must pickle) and names the model for the records."""

    @property
    def version(self) -> str: ...

    def __call__(self, threads: int | None = None) -> Detector: ...


@dataclass(frozen=True)
class ModelDetector:
    """The Detector factory of the ONNX tile model: each photo is decoded and read as ``mjscan recognize``
    reads it (``vision.recognize.detect_photo``: EXIF orientation, at most ``max_pixels``, a large JPEG
    decoded at reduced scale), with one ``vision.detector.TileModel`` session per worker, and its tiles
    given as ``mjscan recognize`` gives them (``vision.recognize.settle``: a tile boxed twice once, a blank
    face read face down as ``5z``, stray face-down tiles dropped)."""

    model_dir: Path | None = None
    max_pixels: int = DEFAULT_MAX_PIXELS

    @property
    def version(self) -> str:
        """The model's name and version and the version of the code reading photos with it
        (``vision.recognize.reader_digest``): Label Studio's ``model_version``, and part of each photo's record,
        so that ``--resume`` labels again what another model or other reading code labelled. Raises
        ModelNotFoundError or ModelError when the model folder is missing or broken."""
        from vision.detector import TileModel
        from vision.recognize import reader_digest

        meta = TileModel.describe(self.model_dir)
        named = " ".join(part for part in (meta.get("name", "tile model"), meta.get("version", "")) if part)
        return f"{named} reader {reader_digest()}"

    def __call__(self, threads: int | None = None) -> Detector:
        """Load the model (``threads`` onnxruntime threads) and return the Detector that uses it."""
        from vision.detector import TileModel
        from vision.recognize import detect_photo, settle

        model = TileModel(self.model_dir, threads=threads)
        max_pixels = self.max_pixels

        def detect(path: Path) -> tuple[int, int, Detections]:
            width, height, detections = detect_photo(path, model, max_pixels=max_pixels)
            return width, height, settle(detections)[0]

        return detect


# ---- one photo -------------------------------------------------------------------------------------------


def label_photo(job: LabelJob, rel: str, detect: Detector, model_version: str) -> PhotoResult:
    """Label one photo of a prepared job and write its files. Never raises for a bad photo: it becomes a
    failed result with the reason."""
    photo = job.src / rel
    try:
        stamp = photo_stamp(photo)
        width, height, det = detect(photo)
    except ImageError as exc:
        return PhotoResult(rel, "failed", exc.message)
    except OSError as exc:
        return PhotoResult(rel, "failed", f"cannot read it ({exc.strerror or exc})")
    except ValueError as exc:
        return PhotoResult(rel, "failed", str(exc))
    except Exception as exc:  # one photo that breaks the model must not stop a long run; its reason is kept
        return PhotoResult(rel, "failed", f"the model failed on it ({type(exc).__name__}: {exc})")
    det = _kept(det, width, height, job.min_score)
    record: dict[str, Any] = {
        "path": rel,
        "width": width,
        "height": height,
        "photo": stamp,
        "settings": job.settings(model_version),
        "tiles": [
            {
                "code": CLASSES[c],
                "box": [round(v, 2) for v in b],
                "score": round(s, 4),
                "rotated": r,
                "orientation": o,
                "face_down": f,
            }
            for b, c, s, r, o, f in zip(
                det.boxes.tolist(),
                det.class_ids.tolist(),
                det.scores.tolist(),
                det.rotated.tolist(),
                det.orientation.tolist(),
                det.face_down.tolist(),
                strict=True,
            )
        ],
    }
    try:
        if job.fmt == "yolo":
            text = yolo_lines(det, width, height)
            label = yolo_path(job.out, rel)
            if _edited(label, text, read_record(job.out, rel)):
                return PhotoResult(
                    rel,
                    "failed",
                    f"{label.relative_to(job.out)} was changed after mjscan wrote "
                    "it: kept as it is (delete it to label this photo again)",
                )
            write_atomic(label, text)
            record["label_sha256"] = sha256(text)
            if job.images != "none":
                _place_image(job, rel)
        write_atomic(record_path(job.out, rel), json.dumps(record, indent=1) + "\n")
    except OSError as exc:
        return PhotoResult(rel, "failed", f"cannot write its labels ({exc.strerror or exc})")
    return _result(rel, "done", det.class_ids, det.scores, job.review_below)


def _kept(det: Detections, width: int, height: int, min_score: float) -> Detections:
    """The boxes scored at least ``min_score``, clipped to the picture, at least MIN_SIDE on each side."""
    boxes = clip_boxes(det.boxes, width, height)
    keep = (det.scores >= min_score) & (boxes[:, 2] - boxes[:, 0] >= MIN_SIDE) & (boxes[:, 3] - boxes[:, 1] >= MIN_SIDE)
    out = det.subset(keep)
    out.boxes = boxes[keep].astype(np.float32)
    return out


def _edited(label: Path, text: str, old_record: dict[str, Any] | None) -> bool:
    """True when ``label`` exists with other content than ``text`` and is not what mjscan last wrote."""
    try:
        current = label.read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError):
        return True
    if current == text:
        return False
    return old_record is None or old_record.get("label_sha256") != sha256(current)


def _result(rel: str, status: str, class_ids: Iterable[int], scores: np.ndarray, review_below: float) -> PhotoResult:
    counts = Counter(CLASSES[int(c)] for c in class_ids)
    return PhotoResult(rel, status, classes=dict(counts), low_confidence=int((np.asarray(scores) < review_below).sum()))


def up_to_date(job: LabelJob, rel: str, model_version: str) -> PhotoResult | None:
    """The skipped result of a photo whose outputs exist and were made from the photo as it is now, with the
    same settings; None when it needs labelling."""
    try:
        stamp = photo_stamp(job.src / rel)
    except OSError:
        return None
    record = read_record(job.out, rel)
    if record is None or record.get("photo") != stamp or record.get("settings") != job.settings(model_version):
        return None
    if job.fmt == "yolo":
        if not yolo_path(job.out, rel).is_file():
            return None
        if job.images != "none" and not _image_in_place(job, rel):
            return None
    tiles = record["tiles"]
    return _result(
        rel,
        "skipped",
        (CLASS_INDEX[t["code"]] for t in tiles),
        np.array([t["score"] for t in tiles], np.float32),
        job.review_below,
    )


# ---- the whole folder --------------------------------------------------------------------------------------


@dataclass
class Plan:
    """A prepared job's photos: those to label, and the summary so far (skipped and refused photos)."""

    job: LabelJob
    model_version: str
    photos: list[str]
    todo: list[str]
    summary: Summary


def plan(job: LabelJob, model_version: str) -> Plan:
    """Walk the source folder: which photos need labelling, which are up to date (resume), which cannot be
    labelled (YOLO: two photos in one folder with the same name give the same label file). Creates the output
    folder; raises LabelError when it cannot."""
    try:
        (job.out / RECORDS).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LabelError(f"cannot create {job.out / RECORDS}: {exc.strerror or exc}") from None
    photos, others = find_photos(job.src)
    summary = Summary(not_images=others)
    todo: list[str] = []
    label_of: dict[Path, str] = {}
    for rel in photos:
        if job.fmt == "yolo":
            label = yolo_path(job.out, rel)
            if label in label_of:
                summary.add(
                    PhotoResult(
                        rel,
                        "failed",
                        f"its YOLO label file would be the one of {label_of[label]} "
                        f"({label.relative_to(job.out)}): rename one of them",
                    )
                )
                continue
            label_of[label] = rel
        skipped = up_to_date(job, rel, model_version) if job.resume else None
        if skipped is not None:
            summary.add(skipped)
        else:
            todo.append(rel)
    return Plan(job, model_version, photos, todo, summary)


#: Wraps the stream of results, e.g. with a progress bar: (results, how many) -> results.
Progress = Callable[[Iterator[PhotoResult], int], Iterable[PhotoResult]]


class Run(Protocol):
    """The photos being labelled by an engine: iterate for the results as they come; ``stop`` ends the run
    (after the photos in flight) and returns the results that finished but were not yet given."""

    def __iter__(self) -> Iterator[PhotoResult]: ...

    def stop(self) -> list[PhotoResult]: ...


def consume(p: Plan, run: Run, progress: Progress | None) -> None:
    """Count the results into the plan's summary until they end or Ctrl-C, then stop the run and count
    what it finished meanwhile."""
    results = iter(run)
    stream = progress(results, len(p.todo)) if progress is not None else results
    counted = 0
    try:
        for r in stream:
            p.summary.add(r)
            counted += 1
    except KeyboardInterrupt:
        p.summary.interrupted = True
    finally:
        for r in run.stop():
            p.summary.add(r)
            counted += 1
        p.summary.left = len(p.todo) - counted


def finish(p: Plan) -> Summary:
    """Write the folder files from the records of the photos that are labelled, and return the summary."""
    job, summary = p.job, p.summary
    failed = {path for path, _ in summary.failed}
    labelled = []
    for rel in p.photos:
        record = read_record(job.out, rel) if rel not in failed else None
        if record is not None and record.get("settings") == job.settings(p.model_version):
            labelled.append(record_image(record))
    files: dict[str, str] = {}
    if job.fmt == "yolo":
        files["classes.txt"] = classes_txt()
        files["classes.json"] = json.dumps(list(CLASSES)) + "\n"
        files["data.yaml"] = data_yaml(str(job.out))
    elif job.fmt == "coco":
        document = coco_document(labelled, job.review_below, image_root=str(job.src))
        files["annotations.json"] = json.dumps(document, indent=1) + "\n"
    else:
        root = job.ls_root or job.src.parent
        tasks = [
            labelstudio_task(
                item,
                url_for((job.src / item.path).relative_to(root).as_posix(), job.ls_url_prefix),
                p.model_version,
                job.review_below,
            )
            for item in labelled
        ]
        files["tasks.json"] = json.dumps(tasks, indent=1) + "\n"
        files["labelstudio_config.xml"] = labelstudio_config()
        heic = sum(Path(item.path).suffix.lower() in (".heic", ".heif") for item in labelled)
        if heic:
            summary.notes.append(
                f"{heic} photo(s) are HEIC: Label Studio shows them only in a browser that displays HEIC "
                "(Safari); convert them to JPEG for other browsers"
            )
    files["review.txt"] = "".join(line + "\n" for item in labelled for line in review_lines(item, job.review_below))
    _write_folder_files(job.out, files, summary)
    summary.failed.sort()
    return summary


def _write_folder_files(out: Path, files: dict[str, str], summary: Summary) -> None:
    """Write the folder files; one changed by a person since mjscan wrote it gets the new text beside it."""
    manifest_path = out / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    for name, text in files.items():
        path = out / name
        try:
            current = path.read_text(encoding="utf-8")
        except (FileNotFoundError, UnicodeDecodeError):
            current = None
        if current is not None and current != text and manifest.get(name) != sha256(current):
            path = path.with_name(f"{path.stem}.mjscan-new{path.suffix}")
            summary.kept.append(f"{out / name} (changed since mjscan wrote it; the new version is {path.name})")
        else:
            manifest[name] = sha256(text)
        if write_atomic(path, text):
            summary.written.append(str(path))
    write_atomic(manifest_path, json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def label_folder(
    job: LabelJob,
    factory: DetectorFactory | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> Summary:
    """Label every photo under ``job.src`` with ``factory``'s detector (default: the tile model in
    ``models/``), in this process (``workers`` 1) or in ``workers`` processes.

    Raises LabelError for a job that cannot start, and the model's ModelNotFoundError / ModelError before
    any photo is read. A bad photo is a failed result, never an exception. Ctrl-C stops the run after the
    photos in flight; what was finished stays written, and a rerun with ``resume`` continues.
    """
    if workers < 1:
        raise LabelError("--workers must be at least 1")
    started = time.perf_counter()
    job = job.prepared()
    factory = factory if factory is not None else ModelDetector()
    version = factory.version
    p = plan(job, version)
    if p.todo and workers == 1:
        consume(p, _HereRun(p, factory()), progress)
    elif p.todo:
        factory(threads=1)  # load the model once here, so that a broken one is told before the workers start
        consume(p, _PoolRun(p, factory, workers), progress)
    summary = finish(p)
    summary.seconds = time.perf_counter() - started
    return summary


class _HereRun:
    """The photos labelled one after the other in this process."""

    def __init__(self, p: Plan, detect: Detector) -> None:
        self.p, self.detect = p, detect

    def __iter__(self) -> Iterator[PhotoResult]:
        for rel in self.p.todo:
            yield label_photo(self.p.job, rel, self.detect, self.p.model_version)

    def stop(self) -> list[PhotoResult]:
        return []


_worker: tuple[Detector, str] | None = None


def _init_worker(factory: DetectorFactory, threads: int, version: str) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the parent stops us
    _worker = (factory(threads=threads), version)


def _work(job: LabelJob, rel: str) -> PhotoResult:
    if _worker is None:
        raise RuntimeError("the worker process was not initialised")
    detect, version = _worker
    return label_photo(job, rel, detect, version)


class _PoolRun:
    """The photos labelled by worker processes, each with its own detector (``threads`` onnxruntime threads)."""

    def __init__(self, p: Plan, factory: DetectorFactory, workers: int) -> None:
        self.p = p
        threads = max(1, (os.cpu_count() or 1) // workers)
        context = multiprocessing.get_context("spawn")  # no fork of a process that holds threads (onnxruntime)
        self.pool = ProcessPoolExecutor(workers, context, _init_worker, (factory, threads, p.model_version))
        self.futures = [self.pool.submit(_work, p.job, rel) for rel in p.todo]
        self.given: set[Future[PhotoResult]] = set()

    def __iter__(self) -> Iterator[PhotoResult]:
        try:
            for f in as_completed(self.futures):
                self.given.add(f)
                yield f.result()
        except BrokenProcessPool:
            self.p.summary.error = "a worker process stopped unexpectedly (out of memory?); its photos are not done"

    def stop(self) -> list[PhotoResult]:
        self.pool.shutdown(wait=True, cancel_futures=True)
        finished = [f for f in self.futures if f not in self.given and f.done() and not f.cancelled()]
        return [f.result() for f in finished if f.exception() is None]
