"""The compiled scoring modules (mypyc, setup.py): built where a C compiler is, giving the results the plain
Python modules give, and never used once their source has changed."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import scoring
from scoring import _native

ROOT = Path(__file__).resolve().parents[2]

#: hands of several rule sets and shapes (compact form, situation), scored by both builds
HANDS = [
    ("riichi", "123m456p789s11222z", {"self_drawn": True, "dora_indicators": ["9s"]}),
    ("riichi", "0m67m345p22s 789s 111z", {"seat_wind": "E", "dealer": True, "round_wind": "E"}),
    ("riichi", "19m19p19s12345677z", {"riichi": True, "ura_dora_indicators": ["1z"]}),
    ("riichi", "11223344556677m", {"riichi": True, "ippatsu": True}),
    ("mcr", "123m456p789s11z 234p", {}),
    ("sichuan", "11123456789999m", {"self_drawn": True}),
]


def _score_all() -> str:
    scores = []
    for rules, compact, situation in HANDS:
        hand = dataclasses.replace(scoring.parse_compact(compact), **situation)
        scores.append(scoring.score(hand, rules=rules).to_json())
    return json.dumps(scores)


def test_the_modules_run_compiled_where_a_compiler_built_them():
    if os.environ.get("MJSCAN_PURE_PYTHON"):
        pytest.skip("MJSCAN_PURE_PYTHON is set: the plain Python modules are asked for")
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler here: the install keeps the plain Python modules")
    assert scoring.compiled_modules() == list(_native.MODULES), "run `pip install -e .` to build them"


def test_plain_python_gives_the_same_scores():
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from tests.scoring.test_native import _score_all; "
    code += "import scoring; print(scoring.compiled_modules()); print(_score_all())"
    env = {**os.environ, "MJSCAN_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    compiled, scores = out.stdout.splitlines()
    assert compiled == "[]"
    assert json.loads(scores) == json.loads(_score_all())


def test_a_compiled_module_older_than_its_source_is_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(_native, "ROOT", tmp_path)
    (tmp_path / "scoring").mkdir()
    src = tmp_path / "scoring" / "tiles.py"
    ext = tmp_path / "scoring" / ("tiles" + _native.importlib.machinery.EXTENSION_SUFFIXES[0])
    src.write_text("")
    ext.write_bytes(b"")
    os.utime(ext, (1_000_000, 1_000_000))
    os.utime(src, (2_000_000, 2_000_000))
    assert _native.extension("scoring.tiles") == ext and _native.stale() == ["scoring.tiles"]
    os.utime(ext, (3_000_000, 3_000_000))
    assert _native.stale() == []


def test_the_source_finder_reads_the_group_from_source_only():
    finder = _native.SourceFinder()
    spec = finder.find_spec("scoring.rules.riichi")
    assert spec is not None and spec.origin == str(ROOT / "scoring" / "rules" / "riichi.py")
    assert finder.find_spec("scoring.rules.mcr") is None
