"""Batch labelling as a Ray Data pipeline, for folders larger than one machine labels in time.

The same job as ``vision.label.label_folder``: the driver walks the source folder and plans (resume, name
clashes), a Ray Data ``map_batches`` over the photo paths runs ``label_photo`` in a pool of actors, each
holding one ONNX session, and the driver counts the results and assembles the folder files from the
records. The actors read the photos and write the per-photo files themselves, so on a cluster the source
and output folders must be at the same path on every node (a shared file system) and mjscan must be
installed there. Outputs and summary are the same as the local engine's.

Needs the optional extra: ``pip install 'mjscan[ray]'``.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from vision.label import (
    DetectorFactory,
    LabelError,
    LabelJob,
    ModelDetector,
    PhotoResult,
    Plan,
    Progress,
    Summary,
    consume,
    finish,
    label_photo,
    plan,
)

#: At most this many blocks in the dataset of photo paths: small blocks keep the actors evenly fed and the
#: progress fine-grained; the cap bounds the driver's bookkeeping for very large folders.
MAX_BLOCKS = 10_000


class LabelActor:
    """One Ray Data worker: loads the detector once, then labels the photos of each batch."""

    def __init__(self, job: LabelJob, factory: DetectorFactory, version: str) -> None:
        self.job = job
        self.version = version
        self.detect = factory(threads=1)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, list[str]]:
        """Label the batch's photos; each result comes back as its JSON text."""
        return {
            "result": [
                json.dumps(label_photo(self.job, str(rel), self.detect, self.version).to_json())
                for rel in batch["path"]
            ]
        }


def label_folder_ray(
    job: LabelJob,
    factory: DetectorFactory | None = None,
    workers: int = 2,
    address: str | None = None,
    progress: Progress | None = None,
) -> Summary:
    """Label every photo under ``job.src`` with ``workers`` Ray actors (one CPU and one ONNX session each).

    address: the Ray cluster to join (``ray://host:10001`` or ``host:6379``); without it, a Ray instance
    already started in this process is used, or a local one is started (and stopped at the end).
    Raises LabelError for a job that cannot start (or when Ray is not installed), and the model's errors
    before any photo is read.
    """
    try:
        import ray
    except ImportError:
        raise LabelError("the Ray engine needs Ray: pip install 'mjscan[ray]'") from None
    if workers < 1:
        raise LabelError("--workers must be at least 1")
    started = time.perf_counter()
    job = job.prepared()
    factory = factory if factory is not None else ModelDetector()
    version = factory.version
    p = plan(job, version)
    if p.todo:
        own = not ray.is_initialized()
        if own:
            _start_ray(ray, address)
        try:
            consume(p, _RayRun(p, factory, workers), progress)
        finally:
            if own:
                ray.shutdown()
    summary = finish(p)
    summary.seconds = time.perf_counter() - started
    return summary


def _start_ray(ray: Any, address: str | None) -> None:
    try:
        ray.init(
            address=address,
            num_cpus=None if address else os.cpu_count(),
            include_dashboard=False,
            logging_level=logging.WARNING,
            configure_logging=True,
        )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise LabelError(f"cannot start or reach {where}: {exc}") from None


class _RayRun:
    """The photos labelled by a Ray Data pipeline: a pool of ``workers`` LabelActor, one photo per call."""

    def __init__(self, p: Plan, factory: DetectorFactory, workers: int) -> None:
        import ray.data

        self.p = p
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False  # the caller's bar counts photos; Ray's own bars would interleave
        context.enable_auto_log_stats = False
        logging.getLogger("ray.data").setLevel(logging.ERROR)
        items = [{"path": rel} for rel in p.todo]
        self.dataset = ray.data.from_items(items, override_num_blocks=min(len(items), MAX_BLOCKS)).map_batches(
            LabelActor,
            fn_constructor_kwargs={"job": p.job, "factory": factory, "version": p.model_version},
            batch_size=1,
            batch_format="numpy",
            compute=ray.data.ActorPoolStrategy(size=workers),
            num_cpus=1,
        )

    def __iter__(self) -> Iterator[PhotoResult]:
        import ray

        try:
            for row in self.dataset.iter_rows():
                yield PhotoResult.from_json(json.loads(row["result"]))
        except ray.exceptions.RayError as exc:
            lines = str(exc).strip().splitlines() or [type(exc).__name__]
            self.p.summary.error = "the Ray job failed: " + lines[-1]

    def stop(self) -> list[PhotoResult]:
        """Photos the actors finish after a Ctrl-C are written but not counted here; a resumed run counts
        them as up to date."""
        return []
