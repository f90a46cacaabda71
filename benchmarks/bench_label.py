"""Images per second of `mjscan label` with 1 and 2 worker processes, on 640-pixel and 12-megapixel photos.

    python benchmarks/bench_label.py                       # photos from ../shared/data/hk-photos/valid/images
    python benchmarks/bench_label.py --photos-from DIR --count 24 --model models/ --workers 1 2

The 640-pixel set is the first ``--count`` photos of ``--photos-from`` as they are; the 12-megapixel set is
the same photos enlarged to 4032 x 3024 and saved as JPEG (quality 92), so both sets hold real tiles. Each
run labels into a fresh folder (YOLO, the default) with the real runner and tile model, and prints:

- ``wall img/s``: photos / the whole call (walking the folder, loading the model in every worker, writing
  the folder files), what a user waits for;
- ``steady img/s``: photos per second over the second half of the results, once every worker is
  running: the rate of a long run.

The machine's load average is printed too: other work on the same cores lowers the figures.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from PIL import Image
from tqdm import tqdm

from vision.io import IMAGE_SUFFIXES
from vision.label import LabelJob, ModelDetector, PhotoResult, label_folder

DEFAULT_PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "data" / "hk-photos" / "valid" / "images"
TWELVE_MP = (4032, 3024)


def build_sets(photos_from: Path, count: int, root: Path) -> dict[str, Path]:
    """The 640-pixel and the 12-megapixel photo folders under ``root``."""
    sources = sorted(p for p in photos_from.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)[:count]
    if len(sources) < count:
        raise SystemExit(f"bench_label: {photos_from} has {len(sources)} photos; --count asks for {count}")
    small, large = root / "640px", root / "12mp"
    small.mkdir(parents=True)
    large.mkdir(parents=True)
    for p in tqdm(sources, desc="preparing photos", unit="photo"):
        shutil.copyfile(p, small / p.name)
        with Image.open(p) as im:
            im.convert("RGB").resize(TWELVE_MP, Image.Resampling.BICUBIC).save(
                large / (p.stem + ".jpg"), "JPEG", quality=92
            )
    return {"640 px": small, "12 MP": large}


def timed_run(src: Path, out: Path, factory: ModelDetector, workers: int, label: str) -> tuple[int, float, float]:
    """Label ``src`` into ``out``: (photos done, wall seconds, steady photos per second)."""
    stamps: list[float] = []

    def progress(results: Iterator[PhotoResult], total: int) -> Iterable[PhotoResult]:
        for r in tqdm(results, total=total, desc=label, unit="img", leave=False):
            stamps.append(time.perf_counter())
            yield r

    start = time.perf_counter()
    summary = label_folder(LabelJob(src, out), factory, workers=workers, progress=progress)
    wall = time.perf_counter() - start
    if summary.failed:
        raise SystemExit(f"bench_label: {len(summary.failed)} photos failed, e.g. {summary.failed[0]}")
    half = len(stamps) // 2
    steady = (len(stamps) - 1 - half) / (stamps[-1] - stamps[half]) if len(stamps) >= 4 else 0.0
    return summary.done, wall, steady


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos-from", type=Path, default=DEFAULT_PHOTOS, help="folder of real photos")
    parser.add_argument("--count", type=int, default=16, help="photos per set (default 16)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts (default 1 2)")
    parser.add_argument("--model", type=Path, help="tile model folder (default: models/)")
    args = parser.parse_args(argv)
    if not args.photos_from.is_dir():
        print(f"bench_label: {args.photos_from} is not a folder of photos (give --photos-from)", file=sys.stderr)
        return 2
    factory = ModelDetector(args.model)
    print(f"model {factory.version}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_label_") as tmp:
        root = Path(tmp)
        for name, src in build_sets(args.photos_from, args.count, root).items():
            for workers in args.workers:
                out = root / f"out-{src.name}-{workers}"
                done, wall, steady = timed_run(src, out, factory, workers, f"{name}, {workers} worker(s)")
                rows.append((name, workers, done, wall, done / wall, steady))
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    print(f"{'photos':<8} {'workers':>7} {'images':>7} {'wall s':>8} {'wall img/s':>11} {'steady img/s':>13}")
    for name, workers, done, wall, rate, steady in rows:
        print(f"{name:<8} {workers:>7} {done:>7} {wall:>8.2f} {rate:>11.2f} {steady:>13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
