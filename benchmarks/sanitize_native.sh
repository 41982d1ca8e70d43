#!/usr/bin/env bash
# Build the native solver core with AddressSanitizer and UndefinedBehavior-
# Sanitizer, in a temporary copy of the package, and run the solver tests
# (the differential suite against the Python core, the 9x9 engine against
# the general one (test_core_9x9.py), the stop-hook tests, and
# test_solver.py over both cores, the variant geometries of test_geometry.py,
# the variant constraints of test_variants_native.py, the one-search true
# candidates against a call per candidate, the 9x9 engine from masks and
# from relation pairs, renban runs, whispers' halves, sums on the 9x9 engine and
# the order of their passes, and geometries prepared like another, which share its arrays:
# test_marks_request_path.py; the marks line's native reader on every stored
# puzzle and on mistyped lines: test_marks_fast_path.py)
# under it. Any sanitizer report aborts the
# run (halt_on_error) and fails it. Needs gcc (or clang) with libasan.
#
#   bash benchmarks/sanitize_native.sh            # about a minute
#   bash benchmarks/sanitize_native.sh -x -k hypothesis ...   # extra pytest args
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$repo/sudoku_server" "$repo/tests" "$repo/puzzles" "$repo/pyproject.toml" "$repo/setup.py" "$work/"
cd "$work"
rm -f sudoku_server/sudoku/solver/_native*.so

cc="${CC:-gcc}"
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
echo "==> building sudoku_server.sudoku.solver._native with $flags"
CC="$cc" CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" \
    python3 setup.py -q build_ext --inplace 2>&1 | grep -v -e "^running" -e "_BetaConfiguration" -e "warnings.warn" || true
ls sudoku_server/sudoku/solver/_native*.so >/dev/null

# The interpreter is not instrumented: load the sanitizer runtimes first.
preload="$("$cc" -print-file-name=libasan.so) $("$cc" -print-file-name=libubsan.so)"
echo "==> pytest under ASan+UBSan (LD_PRELOAD=$preload)"
LD_PRELOAD="$preload" \
    ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    SUDOKU_SERVER_REQUIRE_NATIVE=1 \
    python3 -m pytest -q -p no:cacheprovider tests/unit/test_solver_native.py tests/unit/test_solver.py \
        tests/unit/test_solver_properties.py tests/unit/test_geometry.py tests/unit/test_core_9x9.py tests/unit/test_variants_native.py \
        tests/unit/test_candidates_are_the_digits_some_solution_holds.py tests/unit/test_native_relation_reasoning.py tests/unit/test_native_9x9_engine_from_masks.py \
        tests/unit/test_native_relations_on_every_cell.py tests/unit/test_native_9x9_engine_from_pairs.py \
        tests/unit/test_native_9x9_runs.py tests/unit/test_native_9x9_whispers_halves.py \
        tests/unit/test_native_9x9_engine_from_sums.py tests/unit/test_native_9x9_sums_order.py \
        tests/unit/test_marks_request_path.py tests/unit/test_marks_fast_path.py "$@"
