"""Photos made on the spot for the API tests, the repository's own test photos, and a real `mjscan serve`."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import numpy as np
import uvicorn
from PIL import Image, ImageDraw

import scoring
from api.app import create_app
from vision.evaluate import read_classes, read_yolo_labels
from vision.types import CLASSES, Detections

ROOT = Path(__file__).resolve().parents[2]
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


def jpeg_bytes(width: int = 640, height: int = 480, seed: int = 0) -> bytes:
    """A real JPEG of noise (noise keeps the file large enough to cut it in the middle)."""
    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=90)
    return out.getvalue()


def png_bomb(width: int, height: int) -> bytes:
    """A PNG that is tiny on disk but has width x height pixels once decoded."""
    out = io.BytesIO()
    Image.new("1", (width, height)).save(out, "PNG", optimize=True)
    return out.getvalue()


def dataset_photos() -> list[Path]:
    """The small test photos committed under datasets/ (none until the vision colleague adds them)."""
    folder = ROOT / "datasets"
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in PHOTO_SUFFIXES) if folder.is_dir() else []


def library_result(hand: dict | str, rules: str) -> dict:
    """What the scoring library answers for a hand: the score JSON, or its refusal object."""
    try:
        return scoring.score(hand, rules=rules).to_json()
    except scoring.ScoringError as exc:
        return exc.to_json()


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(*args: str, timeout: float = 60.0) -> Iterator[str]:
    """Run `mjscan serve` on a free loopback port with the given options; yields its base URL."""
    port = free_port()
    cmd = [str(Path(sys.executable).parent / "mjscan"), "serve", "--port", str(port), *args]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"mjscan serve stopped: {proc.stdout.read() if proc.stdout else ''}")
            try:
                if httpx.get(url + "/healthz", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("mjscan serve did not answer /healthz in time")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class KnownTilesModel:
    """Stands in for the ONNX tile model where ``models/`` has none, in tests only: it finds exactly the tiles
    it is given (those ``drawn_hand`` drew, or the labels of a committed photo), boxes in 0-1 of the picture.
    Everything after the model (layout, scoring, annotation, JSON, the page) is the real code; the tests of
    the real model are those that use the ``tile_model`` fixture."""

    info = {"name": "known tiles (test stand-in for the tile model)", "version": "0"}

    def __init__(
        self,
        codes: list[str],
        boxes: np.ndarray,
        unsure: int | None = None,
        likely: dict[int, dict[str, float]] | None = None,
    ) -> None:
        """unsure: a tile scored 0.3. likely: for some tiles, the classifiers' probabilities of their codes (the
        tile's own code and others); the other tiles are sure of their code."""
        self.class_ids = np.array([CLASSES.index(c) for c in codes], np.int64)
        self.boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        self.scores = np.full(len(codes), 0.97, np.float32)
        if unsure is not None:
            self.scores[unsure] = 0.3
        self.probs = np.eye(len(CLASSES), dtype=np.float32)[self.class_ids].reshape(-1, len(CLASSES))
        for i, shares in (likely or {}).items():
            self.probs[i] = 0.0
            for code, p in shares.items():
                self.probs[i, CLASSES.index(code)] = p

    def detect(self, image: np.ndarray, timings: dict[str, float] | None = None) -> Detections:
        h, w = image.shape[:2]
        if timings is not None:
            timings.update(detect=0.0, classify=0.0)
        n = len(self.class_ids)
        boxes = self.boxes * np.array([w, h, w, h], np.float32)
        return Detections(boxes, self.scores.copy(), self.class_ids.copy(), np.zeros(n, bool), probs=self.probs.copy())


def labelled_photo(photo: Path) -> KnownTilesModel:
    """The stand-in model that answers with a committed photo's YOLO labels (datasets/<set>/labels/)."""
    folder = photo.parent.parent
    truth = read_yolo_labels(folder / "labels" / f"{photo.stem}.txt", 1, 1, read_classes(folder / "classes.json"))
    return KnownTilesModel(truth.codes, truth.boxes)


def drawn_hand(
    codes: list[str], tile: int = 90, unsure: int | None = None, likely: dict[int, dict[str, float]] | None = None
) -> tuple[bytes, KnownTilesModel]:
    """A JPEG of a row of plain tiles with their codes written on them, the last one set apart as the winning
    tile, and the stand-in model that reads it (``KnownTilesModel``: ``unsure``, ``likely``)."""
    gap, margin = tile // 12, tile
    width = 2 * margin + len(codes) * (tile + gap) + tile
    height = 3 * tile + 2 * margin
    picture = Image.new("RGB", (width, height), (20, 90, 50))
    draw = ImageDraw.Draw(picture)
    boxes = []
    for i, code in enumerate(codes):
        x = margin + i * (tile + gap) + (tile if i == len(codes) - 1 else 0)
        box = (x, margin + tile // 2, x + tile, margin + tile // 2 + int(tile * 1.35))
        draw.rectangle(box, fill=(245, 240, 228), outline=(90, 90, 90), width=3)
        draw.text((x + tile // 4, box[1] + tile // 2), code, fill=(0, 0, 0))
        boxes.append(box)
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=90)
    scale = np.array([width, height, width, height], np.float32)
    return out.getvalue(), KnownTilesModel(codes, np.array(boxes, np.float32) / scale, unsure, likely)


@contextmanager
def app_server(model: object) -> Iterator[str]:
    """The app in this process on a free loopback port, with the given model; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(model=model), port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the app did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
