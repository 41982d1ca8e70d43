"""benchmarks/bench_tdoku.py with a library in tdoku's place (issue 18, the core level with tdoku).

The script calls ``TdokuSolverDpllTriadSimd`` of the library given as
``--tdoku`` through ctypes. tdoku itself is not part of this repository, so
these tests compile a small row-major backtracking counter with the same C
signature and check the side-by-side table: the ratios are printed and the
counts of both solvers are compared (a library that counts wrong makes the
script fail). Without ``--tdoku`` the smoke-run in test_readme_commands.py
covers it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.support.paths import REPO

#: tdoku's entry point, counting by naive row-major backtracking (or
#: answering a fixed count when WRONG is defined).
COUNTER_C = r"""
#include <stddef.h>
#include <stdint.h>

static int grid[81];
static size_t found, wanted;

static int fits(int i, int v)
{
    int r = i / 9, c = i % 9, br = r / 3 * 3, bc = c / 3 * 3, k;
    for (k = 0; k < 9; k++)
        if (grid[r * 9 + k] == v || grid[k * 9 + c] == v || grid[(br + k / 3) * 9 + bc + k % 3] == v)
            return 0;
    return 1;
}

static void count_from(int i)
{
    int v;
    while (i < 81 && grid[i])
        i++;
    if (i == 81) {
        found++;
        return;
    }
    for (v = 1; v <= 9 && found < wanted; v++)
        if (fits(i, v)) {
            grid[i] = v;
            count_from(i + 1);
            grid[i] = 0;
        }
}

size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, uint32_t configuration, char *solution,
                                size_t *num_guesses)
{
    int i;
    (void)configuration;
    (void)solution;
    *num_guesses = 0;
#ifdef WRONG
    (void)input;
    (void)limit;
    (void)i;
    return 2;
#else
    for (i = 0; i < 81; i++)
        grid[i] = input[i] == '.' ? 0 : input[i] - '0';
    found = 0;
    wanted = limit;
    count_from(0);
    return found;
#endif
}
"""

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def build(tmp_path, *defines: str) -> str:
    source = tmp_path / "counter.c"
    source.write_text(COUNTER_C, encoding="utf-8")
    lib = tmp_path / f"libcounter{''.join(defines)}.so"
    subprocess.run(
        ["gcc", "-O2", "-shared", "-fPIC", *(f"-D{d}" for d in defines), "-o", str(lib), str(source)], check=True
    )
    return str(lib)


def run_bench(lib: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_tdoku.py"), "--tdoku", lib]
        + ["--passes", "2", "--limit", "20", "--sets", "kaggle"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def table_row(stdout: str, name: str) -> list[str]:
    rows = [line for line in stdout.splitlines() if line.startswith(f"| {name} |")]
    assert len(rows) == 1, stdout
    return [cell.strip() for cell in rows[0].strip("|").split("|")]


def test_side_by_side_prints_the_ratios_and_agrees_on_the_counts(tmp_path):
    result = run_bench(build(tmp_path))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "solver core: native" in result.stdout
    row = table_row(result.stdout, "kaggle")
    assert row[1] == "20"  # puzzles
    ours_solve, foreign_1, ratio_via = float(row[2]), float(row[3]), float(row[5])
    assert ours_solve > 0 and foreign_1 > 0
    assert ratio_via == pytest.approx(ours_solve / foreign_1, rel=0.02, abs=0.01)
    assert row[-1] == "0"  # wrong: ours valid, both count 1 on every puzzle


def test_a_library_that_counts_wrong_fails_the_run(tmp_path):
    result = run_bench(build(tmp_path, "WRONG"))
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    row = table_row(result.stdout, "kaggle")
    assert int(row[-1]) == 2 * 20  # every puzzle, in each of the 2 passes
