"""What the bundled client costs on its own side, next to the server's rates.

    python3 benchmarks/bench_client.py [--repeat 3] [--set sudoku17_royle_49151.txt]

Times, in process (no server), the parts of the client (sudoku_client) that
see every request or reply: counting the requests of a dataset (the progress
total and the every-request-answered check; the server package's reader,
then the standalone heuristic one), putting COUNT before each puzzle
(--count), and scanning the replies (a one-line answer per puzzle, then
bordered grids; again keeping each reply's kind, as plain mode does to check
that every puzzle got its answer), and escaping the control bytes of what it
prints (common.TerminalSafe: plain ASCII answers, then box-drawn grids).
Prints the median of --repeat runs and the rate.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

import datasets  # noqa: E402

from sudoku_client.common import CHUNK_BYTES, TerminalSafe  # noqa: E402  (the installed client)
from sudoku_client.replies import ReplyScanner  # noqa: E402
from sudoku_client.requests import HeuristicReader  # noqa: E402
from sudoku_client.routing import PackageReader, _package  # noqa: E402
from sudoku_client.stream import RequestStream, count_requests  # noqa: E402


def median_seconds(work, repeat: int) -> tuple[float, object]:
    times = []
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def chunks(data: bytes, size: int = CHUNK_BYTES):
    return (data[i : i + size] for i in range(0, len(data), size))


def scan(data: bytes, watch: bool = False) -> int:
    scanner = ReplyScanner(watch=watch)
    for chunk in chunks(data):
        scanner.feed(chunk)
    scanner.finish()
    return scanner.replies


def safe(data: bytes) -> int:
    """What the client prints of ``data`` (``common.TerminalSafe``: control bytes escaped); its length."""
    printable = TerminalSafe()
    return sum(len(printable.feed(chunk)) for chunk in chunks(data)) + len(printable.finish())


def rewrite(data: bytes) -> int:
    stream = RequestStream("COUNT")
    for chunk in chunks(data):
        stream.feed(chunk)
    stream.finish()
    return stream.requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--set", default="sudoku17_royle_49151.txt", help="dataset file name (benchmarks/datasets.py)")
    args = parser.parse_args()
    path = datasets.find(args.set)
    if path is None:
        parser.error("no dataset %r in puzzles/datasets/" % args.set)
    with open(path, "rb") as raw:
        data = raw.read()
    if path.suffix == ".gz":
        import gzip

        data = gzip.decompress(data)
    answers = (REPO / "puzzles" / "norvig_top95.expected").read_bytes()
    one_line = answers * (len(data) // len(answers) + 1)
    grids = (REPO / "puzzles" / "newspaper.expected").read_bytes() * 5000
    boxed = (REPO / "puzzles" / "layouts" / "box_light.expected").read_bytes() * 5000
    package = _package()
    rows = [
        ("count requests, package reader", lambda: count_requests(chunks(data), PackageReader(package))),
        ("count requests, heuristic reader", lambda: count_requests(chunks(data), HeuristicReader())),
        ("--count rewrite (COUNT before each)", lambda: rewrite(data)),
        ("scan one-line answers", lambda: scan(one_line)),
        ("scan bordered grid answers", lambda: scan(grids)),
        ("scan one-line answers, each's kind kept (plain mode)", lambda: scan(one_line, watch=True)),
        ("scan bordered grid answers, each's kind kept", lambda: scan(grids, watch=True)),
        ("escape control bytes, one-line answers (bytes)", lambda: safe(one_line)),
        ("escape control bytes, box-drawn grids (bytes)", lambda: safe(boxed)),
    ]
    print("| step (%s) | items | median s | items/s |" % args.set)
    print("|---|---:|---:|---:|")
    for name, work in rows:
        seconds, items = median_seconds(work, args.repeat)
        print("| %s | %d | %.3f | %s |" % (name, items, seconds, format(int(items / seconds), ",")))


if __name__ == "__main__":
    main()
