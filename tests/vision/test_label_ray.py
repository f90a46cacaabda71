"""`mjscan label --engine ray`: the Ray Data pipeline on a local Ray (2 CPUs, started once for the module)
writes the same files and the same summary as the plain engine on the same folder, in every format."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_label_support import TableDetector, contents, make_folder
from test_label_support import fingerprint as tree

from vision.label import LabelJob, Summary, label_folder
from vision.label_ray import label_folder_ray

pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    import ray.cloudpickle

    # The test's Detector lives in a test module the Ray workers cannot import: ship it by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[TableDetector.__module__])
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_folder(tmp_path_factory.mktemp("ray") / "photos").resolve()


def comparable(s: Summary) -> dict:
    out = s.to_json()
    for key in ("written", "seconds"):
        out.pop(key)
    return out


@pytest.mark.parametrize("fmt", ["yolo", "coco", "labelstudio"])
def test_ray_writes_what_the_plain_engine_writes(local_ray, src: Path, tmp_path: Path, fmt: str) -> None:
    before = tree(src)
    plain = label_folder(LabelJob(src, tmp_path / "plain", fmt), TableDetector(src))
    distributed = label_folder_ray(LabelJob(src, tmp_path / "ray", fmt), TableDetector(src), workers=2)
    assert tree(src) == before
    assert comparable(distributed) == comparable(plain)
    assert distributed.done > 0 and distributed.failed
    assert contents(tmp_path / "ray") == contents(tmp_path / "plain")
