"""Which scoring modules run compiled, and the guard that keeps a stale compiled module from running.

``setup.py`` compiles the modules of ``MODULES`` with mypyc into C extensions beside their sources (the
extensions share one runtime library, so they are used all together or not at all). At ``import scoring``,
``guard()`` looks at them: when one is older than its source (the source was edited or pulled after the build)
or ``MJSCAN_PURE_PYTHON`` is set, every module of the group is read from its source instead, with a warning in
the first case. Nothing here imports another part of ``scoring``.

Writing a compiled module: annotate its module-level constants ``Final`` (the compiled code then reads them as
C statics; a plain global is a dictionary lookup at every use), and give a class made often an explicit
``__init__`` (the one a dataclass generates runs as Python, and a frozen one sets each field through
``object.__setattr__``).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The compiled modules: the foundation every rule set uses, the decomposition and the Riichi scorer.
MODULES = (
    "scoring.errors",
    "scoring.tiles",
    "scoring.hand",
    "scoring.result",
    "scoring.ruleset",
    "scoring.decompose",
    "scoring.rules.riichi",
    "scoring.rules.riichi_yaku",
    "scoring.rules.riichi_points",
)
ROOT = Path(__file__).resolve().parent.parent


def source(name: str) -> Path:
    """The source file of a module of ``MODULES``."""
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


def extension(name: str) -> Path | None:
    """The compiled file of a module, if one was built."""
    src = source(name)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = src.with_name(src.stem + suffix)
        if candidate.is_file():
            return candidate
    return None


def stale() -> list[str]:
    """The modules whose compiled file is older than their source."""
    out = []
    for name in MODULES:
        ext = extension(name)
        if ext is not None and ext.stat().st_mtime < source(name).stat().st_mtime:
            out.append(name)
    return out


class SourceFinder:
    """A finder placed before the standard ones: the modules of ``MODULES`` from their ``.py`` sources."""

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None):
        if name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(name, source(name))


def guard() -> None:
    """Read the whole group from source when a compiled module is stale or ``MJSCAN_PURE_PYTHON`` is set."""
    if any(isinstance(f, SourceFinder) for f in sys.meta_path):
        return
    old = stale()
    if old:
        warnings.warn(
            f"{', '.join(old)}: the source changed after the compiled module was built; the scoring modules run "
            "as plain Python (slower) until `pip install -e .` rebuilds them",
            RuntimeWarning,
            stacklevel=3,
        )
    if old or os.environ.get("MJSCAN_PURE_PYTHON"):
        sys.meta_path.insert(0, SourceFinder())


def compiled_modules() -> list[str]:
    """The modules of ``MODULES`` that run compiled in this process (empty: all plain Python)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [n for n in MODULES if str(getattr(importlib.import_module(n), "__file__", "")).endswith(suffixes)]
