"""`mjscan label SRC_DIR --out OUT_DIR --format yolo|coco|labelstudio`: a first pass of labels for a folder.

mjscan label photos/ --out labelled/ --format yolo --workers 2
mjscan label photos/ --out labelled/ --format labelstudio --resume --review-below 0.6
mjscan label photos/ --out labelled/ --engine ray --address ray://head:10001 --workers 16
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

#: The choices of vision.label, written out so that building the parser imports no vision code
#: (`mjscan score` stays light); a test checks they agree.
FORMATS = ("yolo", "coco", "labelstudio")
IMAGE_MODES = ("link", "copy", "none")
LS_LOCAL_FILES = "/data/local-files/?d="


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("src", type=Path, metavar="SRC_DIR", help="folder of photos (searched recursively; never modified)")
    p.add_argument("--out", type=Path, required=True, metavar="OUT_DIR", help="where the label files go")
    p.add_argument("--format", choices=FORMATS, default="yolo", help="output format (default yolo)")
    p.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes or Ray actors (default 1)")
    p.add_argument(
        "--resume",
        action="store_true",
        help="skip photos already labelled from the same file with the same model and --min-score",
    )
    p.add_argument("--min-score", type=float, default=0.25, metavar="S", help="drop boxes scored below S (0.25)")
    p.add_argument(
        "--review-below", type=float, default=0.5, metavar="S", help="tag boxes scored below S for review (0.5)"
    )
    p.add_argument(
        "--images",
        choices=IMAGE_MODES,
        default="link",
        help="YOLO: OUT_DIR/images/ as symbolic links to the photos (default), copies, or none",
    )
    p.add_argument(
        "--ls-url-prefix",
        default=LS_LOCAL_FILES,
        metavar="URL",
        help=f"Label Studio: the URL prefix of the photos (default {LS_LOCAL_FILES}, its local files)",
    )
    p.add_argument(
        "--ls-root",
        type=Path,
        metavar="DIR",
        help="Label Studio: photo URLs give the path relative to DIR (default: SRC_DIR's parent; set "
        "LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT to it)",
    )
    p.add_argument("--model", type=Path, metavar="DIR", help="the tile model folder (default: models/)")
    p.add_argument("--engine", choices=("local", "ray"), default="local", help="run here, or as a Ray Data job")
    p.add_argument("--address", metavar="ADDR", help="with --engine ray: the cluster (default: a local Ray)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from vision.detector import ModelError, ModelNotFoundError
    from vision.label import LabelError, LabelJob, ModelDetector, PhotoResult, label_folder

    if args.address and args.engine != "ray":
        print("mjscan label: --address goes with --engine ray", file=sys.stderr)
        return 2
    job = LabelJob(
        src=args.src,
        out=args.out,
        fmt=args.format,
        min_score=args.min_score,
        review_below=args.review_below,
        resume=args.resume,
        images=args.images,
        ls_url_prefix=args.ls_url_prefix,
        ls_root=args.ls_root,
    )

    def bar(results: Iterator[PhotoResult], total: int) -> Iterable[PhotoResult]:
        failed = 0
        with tqdm(total=total, unit="img", desc="labelling", dynamic_ncols=True, file=sys.stderr) as progress:
            for r in results:
                failed += r.status == "failed"
                progress.update()
                if failed:
                    progress.set_postfix(failed=failed, refresh=False)
                yield r

    factory = ModelDetector(args.model)
    try:
        if args.engine == "ray":
            from vision.label_ray import label_folder_ray

            summary = label_folder_ray(job, factory, workers=args.workers, address=args.address, progress=bar)
        else:
            summary = label_folder(job, factory, workers=args.workers, progress=bar)
    except (LabelError, ModelNotFoundError, ModelError) as exc:
        print(f"mjscan label: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary.to_json(), indent=2) if args.json else summary.report())
    if summary.interrupted:
        return 130
    return 1 if summary.error else 0
