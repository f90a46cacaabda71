"""Build step of the package (everything else is in ``pyproject.toml``): the scoring engine's hot modules are
compiled with mypyc, the compiler of type-hinted Python that mypy ships, into C extensions beside their
sources. The source stays the one implementation; the extensions make Riichi scoring about 2.6 times as fast.

Without a C compiler, or with ``MJSCAN_PURE_PYTHON=1`` in the environment, nothing is compiled and the same
modules run as plain Python (``scoring.compiled_modules()`` tells which way an installation runs). After
editing one of the modules of ``scoring/_native.py``, rebuild (``pip install -e .``): an extension older than
its source is not used, and the whole group then runs from source, with a warning.
"""

from __future__ import annotations

import os
import runpy
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The compiled modules, as files (the list is ``scoring._native.MODULES``, read without importing the package).
COMPILED = [name.replace(".", "/") + ".py" for name in runpy.run_path("scoring/_native.py")["MODULES"]]


class OptionalBuildExt(build_ext):
    """Build the extensions, or say why not and leave the pure Python modules in place."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no Python headers: the package still works, slower
            print(f"mjscan: the compiled scoring modules were not built ({exc}); plain Python is used", file=sys.stderr)


def ext_modules() -> list:
    if os.environ.get("MJSCAN_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mjscan: mypyc is not installed; the scoring modules stay plain Python", file=sys.stderr)
        return []
    try:
        return mypycify(COMPILED, opt_level="3", group_name="mjscan_scoring")
    except (Exception, SystemExit) as exc:  # mypyc stops on a type error: say so, build plain Python
        print(f"mjscan: mypyc refused the scoring modules ({exc}); they stay plain Python", file=sys.stderr)
        return []


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
