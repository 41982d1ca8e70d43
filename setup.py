"""Build the optional native solver core, ``sudoku_server.sudoku.solver._native``, the
technique engine's native searches, ``sudoku_server.sudoku.techniques._engine`` and ``._nested``,
and the minlex canonical form of CANON and SAME, ``sudoku_server.sudoku._canon``.

Everything else about the package is in pyproject.toml. Each extension is
built when a C compiler and the Python headers are present; when a build
fails, one line names it and the package installs with its Python
fallback (the fallback MarkupSafe's and simplejson's setup.py use).
``SUDOKU_SERVER_PURE_PYTHON=1`` at build time skips the extensions; at run
time it makes the solver and the technique engine use their Python code.
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NOTICE = "sudoku-server: the native extension {} was not built ({}); its Python fallback is used"


class OptionalBuildExt(build_ext):
    """build_ext that turns a failed or impossible build into a notice."""

    def notice(self, name, exc):
        print(NOTICE.format(name, f"{type(exc).__name__}: {exc}"), file=sys.stderr)

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler at all (PlatformError), nothing to copy in place
            self.notice("(all)", exc)

    def build_extension(self, ext):
        if self.compiler.compiler_type == "unix":
            ext.extra_compile_args = ["-O3", "-std=c99", "-fno-strict-aliasing"]
        try:
            super().build_extension(ext)
        except Exception as exc:  # CCompilerError, CompileError (no Python.h)...
            self.notice(ext.name, exc)


def _pure_python() -> bool:
    return os.environ.get("SUDOKU_SERVER_PURE_PYTHON", "") not in ("", "0")


setup(
    ext_modules=[]
    if _pure_python()
    else [
        Extension(
            "sudoku_server.sudoku.solver._native",
            sources=["sudoku_server/sudoku/solver/_native.c"],
            depends=[
                "sudoku_server/sudoku/solver/_native_search.h",
                "sudoku_server/sudoku/solver/_native_9x9.h",
                "sudoku_server/sudoku/solver/_native_9x9_pairs.h",
                "sudoku_server/sudoku/solver/_native_9x9_runs.h",
                "sudoku_server/sudoku/solver/_native_9x9_sums.h",
                "sudoku_server/sudoku/solver/_native_9x9_sum_bits.h",
                "sudoku_server/sudoku/solver/_native_9x9_sum_unit.h",
                "sudoku_server/sudoku/solver/_native_geometry.h",
                "sudoku_server/sudoku/solver/_native_general.h",
                "sudoku_server/sudoku/solver/_native_kinds.h",
                "sudoku_server/sudoku/solver/_native_pairs.h",
                "sudoku_server/sudoku/solver/_native_between.h",
                "sudoku_server/sudoku/solver/_native_lines.h",
                "sudoku_server/sudoku/solver/_native_candidates.h",
                "sudoku_server/sudoku/solver/_native_sum_support.h",
            ],
        ),
        Extension(
            "sudoku_server.sudoku.techniques._engine",
            sources=["sudoku_server/sudoku/techniques/_engine.c"],
            depends=[
                "sudoku_server/sudoku/techniques/_engine_links.h",
                "sudoku_server/sudoku/techniques/_engine_sets.h",
                "sudoku_server/sudoku/techniques/_engine_walks.h",
            ],
        ),
        Extension(
            "sudoku_server.sudoku.techniques._fish",
            sources=["sudoku_server/sudoku/techniques/_fish.c"],
        ),
        Extension(
            "sudoku_server.sudoku.techniques._nested",
            sources=["sudoku_server/sudoku/techniques/_nested.c"],
            depends=["sudoku_server/sudoku/techniques/_nested_dynamic.h"],
        ),
        Extension(
            "sudoku_server.sudoku._canon",
            sources=["sudoku_server/sudoku/_canon.c"],
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
