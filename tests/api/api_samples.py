"""Photos made on the spot for the API tests, the repository's own test photos, and a real `mjscan serve`."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import numpy as np
from PIL import Image

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
