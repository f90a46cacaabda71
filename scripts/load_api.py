"""Load test of the HTTP API on this computer: N clients upload photos at once for a while.

    python scripts/load_api.py                          # starts `mjscan serve` on a free loopback port
    python scripts/load_api.py --clients 8 --seconds 60 --photos datasets/
    python scripts/load_api.py --url http://127.0.0.1:8000 --endpoint analyze --rules riichi

Bounded on purpose: loopback addresses only, at most 64 clients and 600 seconds. Prints the count of each
HTTP status, the p50 / p95 / max latency of the uploads, and the latency of /healthz polled during the run
(the server must keep answering it while it works). Without photos it makes a 12-megapixel JPEG.
"""

from __future__ import annotations

import argparse
import io
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import httpx
import numpy as np
from PIL import Image
from tqdm import tqdm

from api.cli.serve import is_loopback

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic")
MAX_CLIENTS, MAX_SECONDS = 64, 600


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", help="a running server on this computer (default: start one on a free port)")
    p.add_argument("--clients", type=int, default=8, help=f"clients uploading at once (8; at most {MAX_CLIENTS})")
    p.add_argument("--seconds", type=float, default=60.0, help=f"how long (default 60, at most {MAX_SECONDS})")
    p.add_argument("--photos", type=Path, default=ROOT / "datasets", help="a photo or a folder of photos")
    p.add_argument("--endpoint", choices=["recognize", "analyze"], default="recognize")
    p.add_argument("--rules", default="riichi", help="rule set for --endpoint analyze")
    p.add_argument("--workers", type=int, default=2, help="--workers of the server this script starts")
    args = p.parse_args(argv)
    if not 1 <= args.clients <= MAX_CLIENTS or not 0 < args.seconds <= MAX_SECONDS:
        p.error(f"--clients must be 1-{MAX_CLIENTS} and --seconds 1-{MAX_SECONDS}")
    if args.url and not is_loopback(urlparse(args.url).hostname or ""):
        p.error(f"{args.url} is not a loopback address: this script loads this computer only")
    photos = _photos(args.photos)
    with _server(args.url, args.workers) as url:
        info = httpx.get(f"{url}/healthz", timeout=10).json()
        model = info["model"].get("name", "none") if info["model"].get("loaded") else "none (answers 503)"
        print(f"server {url}: model {model}; {len(photos)} photo(s), {sum(len(d) for _, d in photos) / 1e6:.1f} MB")
        print(f"{args.clients} clients POST /v1/{args.endpoint} for {args.seconds:g} s")
        uploads, health = _run(url, photos, args)
    _report(uploads, health, args.seconds)
    return 0 if uploads and all(status == 200 for status, _ in uploads) else 1


def _photos(path: Path) -> list[tuple[str, bytes]]:
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES)
    if files:
        return [(f.name, f.read_bytes()) for f in files]
    print(f"no photos under {path}: using a made-up 4032 x 3024 JPEG")
    y, x = np.mgrid[0:3024, 0:4032]
    rgb = np.stack([(x * 255 // 4031), (y * 255 // 3023), ((x + y) % 256)], axis=2).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, "JPEG", quality=90)
    return [("made-up-12mp.jpg", out.getvalue())]


def _run(url: str, photos: list[tuple[str, bytes]], args: argparse.Namespace):
    uploads: list[tuple[int, float]] = []
    health: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds
    data = {"rules": args.rules} if args.endpoint == "analyze" else {}

    def client(k: int) -> None:
        with httpx.Client(timeout=120) as http:
            n = k
            while time.monotonic() < stop:
                name, body = photos[n % len(photos)]
                n += 1
                start = time.perf_counter()
                try:
                    answer = http.post(f"{url}/v1/{args.endpoint}", files={"image": (name, body)}, data=data)
                    status = answer.status_code
                except httpx.HTTPError:
                    status = 0
                with lock:
                    uploads.append((status, time.perf_counter() - start))

    def poll() -> None:
        with httpx.Client(timeout=30) as http:
            while time.monotonic() < stop:
                start = time.perf_counter()
                http.get(f"{url}/healthz").raise_for_status()
                health.append(time.perf_counter() - start)
                time.sleep(0.25)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
    threads.append(threading.Thread(target=poll))
    for t in threads:
        t.start()
    with tqdm(total=round(args.seconds), unit="s", desc="load") as bar:
        while any(t.is_alive() for t in threads):
            time.sleep(1)
            bar.n = min(bar.total, round(args.seconds - max(0.0, stop - time.monotonic())))
            bar.set_postfix(requests=len(uploads))
    return uploads, health


def _report(uploads: list[tuple[int, float]], health: list[float], seconds: float) -> None:
    counts = Counter(status for status, _ in uploads)
    print("statuses: " + ", ".join(f"{s if s else 'connection error'}: {n}" for s, n in sorted(counts.items())))
    if uploads:
        ms = sorted(t * 1000 for _, t in uploads)
        print(
            f"uploads: {len(ms)} in {seconds:g} s ({len(ms) / seconds:.2f}/s); latency p50 {_pct(ms, 50):.0f} ms, "
            f"p95 {_pct(ms, 95):.0f} ms, max {ms[-1]:.0f} ms"
        )
    if health:
        hs = sorted(t * 1000 for t in health)
        print(f"/healthz during the load: {len(hs)} calls, median {statistics.median(hs):.0f} ms, max {hs[-1]:.0f} ms")


def _pct(sorted_values: list[float], q: float) -> float:
    return float(np.percentile(sorted_values, q))


@contextmanager
def _server(url: str | None, workers: int) -> Iterator[str]:
    if url:
        yield url.rstrip("/")
        return
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mjscan = Path(sys.executable).parent / "mjscan"
    cmd = [str(mjscan), "serve", "--port", str(port), "--workers", str(workers), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if proc.poll() is not None:
                raise SystemExit("mjscan serve stopped before it answered")
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise SystemExit("mjscan serve did not answer /healthz within a minute")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    sys.exit(main())
