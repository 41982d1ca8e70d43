"""Every benchmark command the documentation quotes runs from a fresh clone (issue 11).

The measured tables, each with its command, are in benchmarks/RESULTS.md;
README.md and docs/*.md quote a few commands too. Each is run here with tiny
bounds (a few puzzles, a second or two) so the suite stays quick; the figures
come from the full runs. The wire examples (nc, socat, telnet, the client) are
pinned by the protocol, real-client and client tests; this file covers the
scripts in benchmarks/. A test also checks that those documents name no
command of benchmarks/ that is not run here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from tests.support.native import native_core_or_skip
from tests.support.paths import REPO

#: (script, tiny arguments, a piece of its output that shows it did the work)
#: The built native core (bench_native_ab.py loads it as its A and B), or a name that is not there.
_NATIVE_SO = next(
    iter(sorted((REPO / "sudoku_server" / "sudoku" / "solver").glob("_native.*.so"))), REPO / "_native.so"
)

COMMANDS = [
    (
        "bench_solver.py",
        ["--limit", "3", "--solvers", "native,python,classic", "--sets", "norvig_top95"],
        "norvig_top95",
    ),
    ("bench_solver.py", ["--count", "--limit", "3", "--sets", "norvig_top95"], "norvig_top95"),
    ("bench_solver.py", ["--large", "--limit", "1", "--time-limit", "1", "--solvers", "native"], "16x16"),
    ("bench_solver.py", ["--check-gaps", "--limit", "2", "--sets", "norvig_top95"], "norvig_top95"),
    ("bench_solver.py", ["--threads", "2", "--limit", "4", "--sets", "norvig_top95"], "norvig_top95"),
    ("bench_solver.py", ["--memory", "--limit", "3"], "peak RSS"),
    ("bench_generate.py", ["--seeds", "3", "--seeds16", "1", "--qqwing", "0"], "9x9"),
    ("bench_generate.py", ["--seeds", "0", "--seeds16", "0", "--qqwing", "0", "--levels", "1"], "level=extreme"),
    (
        "bench_generate.py",
        ["--seeds", "2", "--seeds16", "0", "--qqwing", "0", "--plain", "--plain-seeds16", "0", "--verify"],
        "reference counter",
    ),
    ("bench_rating.py", ["--qqwing", "--diabolical", "--limit", "4"], "QQWing"),
    ("bench_rating.py", ["--forum11", "1"], "forum 11+"),
    ("bench_rating.py", ["--top1465", "--stride", "500", "--limit", "2", "--sixteen", "1"], "p95"),
    ("bench_client.py", ["--repeat", "1", "--set", "norvig_top95.txt"], "count requests"),
    ("bench_candidates.py", ["--count", "2", "--rules", "oddeven,thermo"], "| thermo | 2 |"),
    ("bench_rule_rating.py", ["--count", "2", "--rules", "oddeven,thermo"], "| thermo | 2 |"),
    (
        "bench_canon.py",
        ["--limit", "20", "--repeat", "1", "--python-limit", "5", "--socket", "--dedupe", "--check", "2"],
        "forms equal the reference",
    ),
    ("bench_pipeline.py", ["--pairs", "1", "--dataset", "norvig_top95.txt"], "median ratio"),
    (
        "bench_pipeline.py",
        ["--pairs", "1", "--dataset", "norvig_top95.txt", "--connections", "3", "--repeat", "2"],
        "3 connections",
    ),
    (
        "bench_pipeline.py",
        ["--mode", "threads", "--dataset", "norvig_top95.txt", "--connections", "2", "--repeat", "1", "--pairs", "1"],
        "median ratio",
    ),
    ("load.py", ["--seconds", "1", "--levels", "2"], "| 2 |"),
    ("load.py", ["--mixed", "--seconds", "1", "--hard-connections", "2"], "hard"),
    ("hostile_load.py", ["--quick", "--only", "5"], "| 5a |"),
    (
        "bench_workers.py",
        ["--pairs", "1", "--seconds", "1", "--warmup", "0.5", "--connections", "4", "--high", "40"]
        + ["--high-seconds", "0.5"],
        "median",
    ),
    (
        "bench_workers.py",
        ["--compare", "solver-threads", "--mode", "rr", "--pairs", "1", "--seconds", "1", "--warmup", "0.5"]
        + ["--connections", "4", "--dataset", "norvig_top95.txt"],
        "--solver-threads 2 / 1",
    ),
    ("compare_trees.py", [".", ".", "--dataset", "norvig_top95.txt", "--rounds", "1"], "after / before"),
    # Issue 17's scripts, with tiny bounds (fixed ports in 31000-31099: these start their own servers).
    (
        "tricklers.py",
        ["--tricklers", "4", "--every", "0.5", "--seconds", "3", "--port", "31001"],
        "tricklers still held",
    ),
    (
        "fairness_memory.py",
        ["--trees", ".", "--runs", "1", "--seconds", "1", "--only", "fairness,help", "--connections", "3"]
        + ["--settle", "0.2", "--port", "31010"],
        "| help | . |",
    ),
    (
        "proxy_spoof.py",
        ["--tree", ".", "--port", "31020", "--connections", "3", "--extra=--trusted-proxy=192.0.2.254/32"],
        "0 admitted, 3 refused",
    ),
    ("haproxy_stop.py", ["--base-port", "31030", "--seconds", "3", "--clients", "2"], "0 lost"),
    ("bench_processes.py", ["metrics-child", "--trees", "."], "metrics child:"),
    ("bench_check_gaps.py", ["--hard", "1", "--budget", "1", "--no-large"], "forum-hardest RATE: median"),
    ("bench_ctext.py", ["--passes", "1", "--limit", "20"], "new text to text"),
    ("bench_session_lines.py", ["--passes", "1"], "µs a line"),
    ("bench_session_lines.py", ["--passes", "1", "--grids"], "µs a puzzle of 9 rows"),
    (
        "bench_request_path.py",
        ["--runs", "1", "--seconds", "0.5", "--limit", "40", "--connections", "4", "--window", "16", "--no-warm"],
        "pipe median ratio",
    ),
    ("bench_tdoku.py", ["--passes", "1", "--limit", "3", "--sets", "top1465,kaggle"], "| kaggle | 3 |"),
    ("bench_http.py", ["--parts", "cpu", "--limit", "48", "--rounds", "1"], "HTTP batch per puzzle"),
    ("bench_http.py", ["--parts", "hostile,slowloris", "--seconds", "1"], "line easy p99 without / with them"),
    # Issue 21's web page (headless Chromium; fixed ports in 31500-31999)
    ("bench_web.py", ["--rounds", "1", "--port", "31510", "--http-port", "31511"], "first load: "),
    # Issue 20's UNIQUE / MINIMAL and warm pools.
    ("bench_unique.py", ["--count", "5"], "| UNIQUE 16 | 5 |"),
    (
        "bench_warm_pool.py",
        ["--after", ".", "--levels", "easy", "--wait", "1", "--requests", "2", "--idle", "0.5"],
        "idle server (nobody asked for a level)",
    ),
    # Issue 19: GENERATE rules= per rule set, RATE on unit-rule variants beside classic
    ("bench_variant_generate.py", ["--seeds", "1", "--rules", "x,jigsaw,killer", "--rate", "1"], "| killer |"),
    (
        "bench_variants.py",
        ["--count", "2", "--cpsat", "1", "--rules", "x,antiking+nonconsecutive,killer"],
        "| killer | 2 |",
    ),
    ("bench_canon_fairness.py", ["--canons", "5", "--probes", "5", "--runs", "1"], "yardstick p99"),
    ("bench_variant_requests.py", ["--rules", "x", "--puzzles", "5", "--passes", "1", "--runs", "1"], "| x | 5 |"),
    ("bench_hodoku_reglib.py", ["--only", "0000"], "HINT all per state"),
    ("bench_hodoku_parity.py", ["--limit", "3", "--source", "kaggle"], "kaggle           3  100.00%  100.00%"),
    ("bench_rules.py", ["--rules", "thermo", "--count", "2", "--cpsat", "1", "--runs", "1"], "| thermo | 2 | 14.5 |"),
    ("bench_search_only.py", ["--rules", "sandwich", "--count", "3", "--calls", "1"], "| sandwich | 3 |"),
    (
        "make_variant_puzzles.py",
        ["--rules", "x", "--count", "2", "--cpsat", "1", "--out", tempfile.gettempdir()],
        "bench_x.txt: 2 made",
    ),
    ("check_finder_solutions.py", ["medusa", "--limit", "3"], "medusa: 3 states"),
    ("bench_hint_all_without.py", ["--without", "Kraken fish", "--step", "300"], "over 4 states"),
    # Issue 29, tenth session: two builds of the core side by side (here the same one twice), two trees' event loops
    (
        "bench_native_ab.py",
        [str(_NATIVE_SO), str(_NATIVE_SO), "--rules", "thermo", "--count", "2", "--calls", "1"],
        "| thermo | 2 |",
    ),
    (
        "bench_event_loop.py",
        ["--trees", f"{REPO},{REPO}", "--rules", "thermo", "--count", "5", "--rounds", "1"],
        "| thermo |",
    ),
    # Issue 29, eleventh session: the marks line's one native call of two builds, whole and its prepare
    (
        "bench_marks_ab.py",
        [str(_NATIVE_SO), str(_NATIVE_SO), "--rules", "thermo", "--count", "2", "--runs", "1"],
        "| thermo | 2 |",
    ),
]


def test_the_fuzzer_runs_its_random_fallback_loop():
    # Without atheris (not a dependency) the script runs the same checks on
    # random inputs; with it, the libFuzzer command quoted in benchmarks/RESULTS.md.
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "fuzz_session.py"), "--fallback-seconds", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


#: Scripts that refuse to measure the pure-Python core (issue 18): skipped where the native core is not built.
NATIVE_ONLY = {
    "bench_workers.py",
    "bench_pipeline.py",
    "load.py",
    "compare_trees.py",
    "bench_processes.py",
    "bench_http.py",
    "bench_web.py",
    "bench_canon.py",
    "bench_unique.py",
    "bench_warm_pool.py",
    "bench_canon_fairness.py",
    "bench_variant_requests.py",
    "bench_search_only.py",
    "bench_native_ab.py",
    "bench_event_loop.py",
    "bench_marks_ab.py",
}


@pytest.mark.parametrize("script,args,shows", COMMANDS, ids=[f"{s} {' '.join(a[:2])}" for s, a, _ in COMMANDS])
def test_benchmark_command_runs(script, args, shows):
    if script == "haproxy_stop.py" and not (shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")):
        pytest.skip("haproxy is not installed (.ci/run installs it: apt-get install haproxy)")
    if script in NATIVE_ONLY:
        native_core_or_skip()
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert shows in result.stdout, result.stdout[-2000:]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_the_sanitizer_script_is_a_bash_script_with_a_help():
    # It builds the core with AddressSanitizer and runs the solver tests (minutes):
    # here only that it parses; benchmarks/RESULTS.md quotes its full result.
    script = REPO / "benchmarks" / "sanitize_native.sh"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0


#: Where benchmark commands are quoted: the results, the README, the docs.
DOCUMENTS = [REPO / "benchmarks" / "RESULTS.md", REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def test_every_smoke_run_script_has_its_results_in_results_md():
    results = (REPO / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    missing = {script for script, _, _ in COMMANDS if f"python3 benchmarks/{script}" not in results}
    assert not missing, sorted(missing)


def test_the_documents_quote_no_benchmark_that_is_not_smoke_run():
    text = "\n".join(path.read_text(encoding="utf-8") for path in DOCUMENTS)
    quoted = set(re.findall(r"benchmarks/([a-z_]+\.py)", text))
    run = {script for script, _, _ in COMMANDS} | {
        "fuzz_session.py",
        "datasets.py",  # fuzz: the test above
        "reference_classic.py",
        "reference_naive.py",
        "reference_count.py",
        "reference_minlex.py",
        "probe_request_path.py",  # needs a build of loadgen.c (--loadgen); bench_request_path.py's smoke run drives it
        "check_hodoku_loops.py",  # needs HoDoKu's own /vp output (a JDK build of HoDoKu; benchmarks docs say how)
        "check_hodoku_kraken.py",  # needs a JDK build of HoDoKu with benchmarks/hodoku/KrakenDriver.java
    }
    assert quoted <= run, sorted(quoted - run)
