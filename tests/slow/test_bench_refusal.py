"""Benchmarks refuse a pure-Python measurement unless asked for one (issue 18, "workers that scale").

``SUDOKU_SERVER_PURE_PYTHON=1`` makes the package pick its pure-Python core
(the server started by the benchmark inherits it); each benchmark then stops
with exit status 2 and says why, and ``--allow-python-core`` measures anyway
and names the core it measured.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.paths import REPO

PURE = dict(os.environ, SUDOKU_SERVER_PURE_PYTHON="1")
TINY_WORKERS = ["--pairs", "1", "--seconds", "0.3", "--warmup", "0", "--connections", "2"]
TINY_WORKERS += ["--dataset", "norvig_top95.txt"]


def bench(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), *args],
        cwd=REPO,
        env=PURE,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "script,args",
    [
        ("bench_workers.py", TINY_WORKERS),
        ("load.py", ["--seconds", "0.5", "--levels", "1"]),
        ("bench_pipeline.py", ["--pairs", "1", "--dataset", "norvig_top95.txt"]),
        ("compare_trees.py", [".", ".", "--dataset", "norvig_top95.txt", "--rounds", "1"]),
        ("bench_processes.py", ["metrics-child", "--trees", "."]),
    ],
)
def test_a_benchmark_refuses_the_pure_python_core(script, args):
    result = bench(script, *args)
    assert result.returncode == 2, result.stdout[-2000:] + result.stderr[-2000:]
    assert "refusing to measure the 'python' solver core" in result.stderr
    assert "--allow-python-core" in result.stderr


def test_bench_workers_measures_the_pure_python_core_when_asked_and_names_it():
    result = bench("bench_workers.py", *TINY_WORKERS, "--allow-python-core")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "solver core of every run: python\n" in result.stdout
    assert "| installed | --workers 2 |" in result.stdout
