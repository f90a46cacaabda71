"""A real `mjscan serve`: it starts, answers /healthz while photos are being worked on, refuses bad options."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from api_samples import jpeg_bytes, serving

MJSCAN = str(Path(sys.executable).parent / "mjscan")


def test_healthz_answers_while_photos_are_decoded():
    photo = jpeg_bytes(7000, 5000, seed=3)  # 35 megapixels: decoding takes a while on any machine
    with serving("--max-upload-mb", "200", "--workers", "1") as url:
        results: list[int] = []

        def upload() -> None:
            r = httpx.post(f"{url}/v1/recognize", files={"image": ("big.jpg", photo, "image/jpeg")}, timeout=120)
            results.append(r.status_code)

        workers = [threading.Thread(target=upload) for _ in range(3)]
        for w in workers:
            w.start()
        busy = []
        while any(w.is_alive() for w in workers):
            r = httpx.get(f"{url}/healthz", timeout=5)
            assert r.status_code == 200
            busy.append(r.json()["recognitions_running"])
            time.sleep(0.02)
        for w in workers:
            w.join()
        assert max(busy) >= 1, "no health check saw a photo being worked on"
        assert httpx.get(f"{url}/healthz").json()["recognitions_running"] == 0
        # without a model the photos are read, then refused with 503; with one they are recognised
        assert set(results) <= {200, 503} and len(results) == 3


def run_serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([MJSCAN, "serve", *args], capture_output=True, text=True, timeout=60)


def test_serve_refuses_a_port_in_use_in_one_line():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        r = run_serve("--port", str(s.getsockname()[1]))
    assert r.returncode == 2
    assert "cannot listen on 127.0.0.1" in r.stderr
    assert "Traceback" not in r.stderr


def test_serve_refuses_bad_limits():
    for args, text in (
        (["--max-upload-mb", "0"], "--max-upload-mb"),
        (["--port", "70000"], "--port"),
        (["--workers", "0"], "--workers"),
        (["--ssl-certfile", "cert.pem"], "go together"),
    ):
        r = run_serve(*args)
        assert r.returncode == 2 and text in r.stderr, (args, r.stderr)
