"""Issue 17: the technique verbs' fair share, and memory per non-reading connection.

Usage (from the repository root)::

    python3 benchmarks/fairness_memory.py                          # both parts, this checkout
    python3 benchmarks/fairness_memory.py --trees BEFORE . --runs 3   # before / after, interleaved
    python3 benchmarks/fairness_memory.py --only fairness --seconds 10

Each run starts a fresh server, ``python3 -m sudoku_server --host 127.0.0.1
--port P`` in the tree given (``PYTHONPATH`` set to it), and kills it at the end.
With several trees, the runs alternate between them (run 1 of each tree, then
run 2 of each ...) and the table gives the median of the runs per tree.

**fairness**: 8 attacker connections each pipeline ``RATE``, ``STEPS`` and
``HINT`` on the puzzles of ``tdoku_forum_hardest_1106`` (the forum's hardest,
the repository's ``puzzles/datasets``) back to back, reading every reply; a
probe client opens a fresh connection every 50 ms, sends one easy ``SOLVE``
(kaggle) and half-closes; its latency runs from connect to the answer line.
Figures: probe p50 / p99 / max (ms) over ``--seconds`` of attack, after 1 s
of warm-up; and alone (20 probes before the attack).

**memory**: the server's VmRSS (``/proc/PID/status``) before and after N
connections that each send their requests and never read, once the server's
CPU is idle (less than 0.02 s in 0.5 s) or after 30 s; the difference over N
is the cost per connection (KB = 1024 bytes). Cases: ``steps16`` 16
connections x 64 ``STEPS`` on 16x16 puzzles of ``gecode_16x16_janko55``
(10.5 KB replies); ``steps25`` 16 connections x 64 ``STEPS`` on one 25x25
puzzle (a 19 KB reply); ``help`` 100 connections x 200 ``HELP``.
Experiments: ``--pre`` runs Python in the server process before it starts
(``"import sys; sys.setswitchinterval(0.0005)"``); with the environment
variable ``FAIRNESS_MEMORY_SIGNAL=N`` the memory cases send signal N to the
server before and after (for a tracemalloc hook installed with ``--pre``).
Standard library only.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import ClassVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import datasets as _datasets  # noqa: E402

#: A 25x25 puzzle whose STEPS reply is 19,116 bytes (made by ``GENERATE size=25 givens=350 seed=2``, kept
#: here so every tree gets the same one).
PUZZLE_25 = (
    "G5..MK1B.JD..O..2..H....L29C.D.F35PKI.7BG...J6EN4M.PJ.6O..8A2.1.M7...F....HAO..LI.MG.3JHE.45DC6..8.2"
    ".3H8..DE2.4..6G.PB.19O..A.8E.G62K..C4O...A...5..HDC71.9.5FA.NB...H.4GIEMK..F.D3.JC.O..KE85...7B4...G"
    "..NPK....E.36DA1...O...FI4.B6.N...GFHP....LKE..O..L4.5N..9C2..BMK.7JOP.H...K.2A..B1P.H....D6.4.N3I.."
    "16..7.O5D..C.F3..A.KMB.LE.B..HLJ.I.P...4.N.EG1A2OC3E.....HN.7....L..B.K..8J.K.2I...B.5.G..FJ.38O9..4"
    ".JLH..GO.C.7MKN...P2...3...5E..MD.3..C.PB.9.7..H.NP....7..9L.OF...G1HD.I.5B.G6CB1.2K.E.8.DO.5.N.J.AF"
    "NIO4C.L.15J..PE6K7.3..M.9H.K..B3CMNL.4.62.O5.I.....DM.398.JH..KNI.....A2..58.9.JDK.7F1M.5HPB.IA.4..."
    "6A..54IG.O...B.JM..L.1..K"
)

CLK_TCK = os.sysconf("SC_CLK_TCK")


def _lines(name: str, length: int, limit: int | None = None) -> list[str]:
    path = _datasets.find(name)
    assert path is not None, name
    out = []
    with _datasets.open_text(path) as f:
        for raw in f:
            text = raw.strip().split(",")[0]
            if len(text) == length and not text.startswith("#"):
                out.append(text)
                if limit and len(out) >= limit:
                    break
    return out


class Server:
    #: Python run before the server starts (``--pre``, for experiments such as ``sys.setswitchinterval``).
    pre = ""
    #: Seconds to wait, once the server is idle, before RSS is read (``--settle``).
    settle = 0.0
    #: More server options for every run (``--server-args``).
    extra: ClassVar[list[str]] = []

    def __init__(self, tree: str, port: int, extra: list[str]) -> None:
        self.tree = tree
        self.port = port
        env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
        self.proc = subprocess.Popen(
            [sys.executable, *self._module(), "--host", "127.0.0.1", "--port", str(port), *extra, *self.extra],
            cwd=tree,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"server in {tree} did not start on port {port}")

    def _module(self) -> list[str]:
        if not self.pre:
            return ["-m", "sudoku_server"]
        run = "import runpy; runpy.run_module('sudoku_server', run_name='__main__', alter_sys=True)"
        return ["-c", f"{self.pre}; {run}"]

    def rss_kb(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def threads(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
        return 0

    def cpu(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def probe(port: int, puzzle: str, timeout: float = 20.0) -> float:
    """Seconds from connect to the answer line of ``SOLVE <puzzle>`` (inf when it fails)."""
    started = time.monotonic()
    buf = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"SOLVE " + puzzle.encode() + b"\n")
            sock.shutdown(socket.SHUT_WR)
            while b"\n" not in buf:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                buf += chunk
    except OSError:
        return float("inf")
    if not buf.endswith(b"\n") or buf.startswith(b"ERROR"):
        return float("inf")
    return time.monotonic() - started


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def attacker(port: int, hard: list[str], offset: int, stop: threading.Event, counts: list[int]) -> None:
    """One connection: RATE, STEPS, HINT on the hardest puzzles back to back, every reply read."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(1.0)

    def send() -> None:
        i = offset
        try:
            while not stop.is_set():
                p = hard[i % len(hard)]
                sock.sendall(f"RATE {p}\nSTEPS {p}\nHINT {p}\n".encode())
                i += 1
                time.sleep(0.05)
        except OSError:
            pass

    threading.Thread(target=send, daemon=True).start()
    while not stop.is_set():
        try:
            data = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            break
        if not data:
            break
        counts[0] += data.count(b"\n")
    sock.close()


def fairness(tree: str, port: int, seconds: float) -> dict[str, float]:
    hard = _lines("tdoku_forum_hardest_1106.txt", 81)
    easy = _lines("kaggle_bryanpark_first10000.csv", 81, 200)
    server = Server(tree, port, ["--connection-budget", "86400"])
    try:
        alone = []
        for i in range(20):
            alone.append(probe(port, easy[i]))
            time.sleep(0.02)
        stop = threading.Event()
        counts = [0]
        threads = [
            threading.Thread(target=attacker, args=(port, hard, 40 * k, stop, counts), daemon=True) for k in range(8)
        ]
        for t in threads:
            t.start()
        time.sleep(1.0)
        lat = []
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            lat.append(probe(port, easy[i % len(easy)]))
            i += 1
            time.sleep(0.05)
        stop.set()
        for t in threads:
            t.join(3)
        return {
            "alone p50": percentile(alone, 50) * 1000,
            "p50": percentile(lat, 50) * 1000,
            "p99": percentile(lat, 99) * 1000,
            "max": max(lat) * 1000,
            "probes": len(lat),
            "attacker lines": counts[0],
        }
    finally:
        server.stop()


def noread(tree: str, port: int, case: str, connections: int | None = None) -> dict[str, float]:
    if case == "steps16":
        puzzles = _lines("gecode_16x16_janko55.txt", 256)
        conns, per = 16, 64
        payload = [
            ("".join(f"STEPS {puzzles[(k + i) % len(puzzles)]}\n" for i in range(per))).encode() for k in range(conns)
        ]
    elif case == "steps25":
        conns, per = 16, 64
        payload = [(f"STEPS {PUZZLE_25}\n" * per).encode()] * conns
    else:
        conns, per = 100, 200
        payload = [b"HELP\n" * per] * conns
    if connections:
        conns = connections
        payload = (payload * conns)[:conns]
    server = Server(tree, port, [])
    socks = []
    try:
        # warm up: one reading client of the same kind (imports, caches)
        with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
            s.sendall(payload[0][: payload[0].index(b"\n") + 1])
            s.shutdown(socket.SHUT_WR)
            while s.recv(65536):
                pass
        time.sleep(0.5)
        before = server.rss_kb()
        if os.environ.get("FAIRNESS_MEMORY_SIGNAL"):  # for a tracemalloc hook given with --pre
            os.kill(server.proc.pid, int(os.environ["FAIRNESS_MEMORY_SIGNAL"]))
            time.sleep(1)
        for k in range(conns):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            s.setblocking(False)
            socks.append(s)
            try:
                s.send(payload[k])
            except BlockingIOError:
                pass
        # wait until idle
        deadline = time.monotonic() + 30
        last = server.cpu()
        peak = server.rss_kb()
        while time.monotonic() < deadline:
            time.sleep(0.5)
            peak = max(peak, server.rss_kb())
            now = server.cpu()
            if now - last < 0.02:
                break
            last = now
        time.sleep(Server.settle)
        after = server.rss_kb()
        if os.environ.get("FAIRNESS_MEMORY_SIGNAL"):
            os.kill(server.proc.pid, int(os.environ["FAIRNESS_MEMORY_SIGNAL"]))
            time.sleep(10)
        return {
            "rss before MB": before / 1024,
            "rss after MB": after / 1024,
            "KB/conn": (after - before) / conns,
            "peak KB/conn": (peak - before) / conns,
            "threads": server.threads(),
        }
    finally:
        for s in socks:
            s.close()
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--trees", nargs="+", default=["."], help="checkouts to run, interleaved")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=10.0, help="fairness: seconds of attack per run")
    ap.add_argument("--only", default="fairness,steps16,steps25,help")
    ap.add_argument("--port", type=int, default=23100)
    ap.add_argument("--connections", type=int, default=0, help="memory: non-reading connections (default: per case)")
    ap.add_argument("--settle", type=float, default=0.0, help="memory: seconds to wait once idle before RSS is read")
    ap.add_argument("--pre", default="", help="Python statements run in the server process before it starts")
    ap.add_argument("--server-args", default="", help="more server options, space-separated")
    args = ap.parse_args()
    Server.pre = args.pre
    Server.settle = args.settle
    Server.extra = args.server_args.split()
    cases = args.only.split(",")
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    port = args.port
    for run in range(args.runs):
        for case in cases:
            for tree in args.trees:
                port += 1
                r = (
                    fairness(tree, port, args.seconds)
                    if case == "fairness"
                    else noread(tree, port, case, args.connections)
                )
                print(f"run {run + 1} {case} {tree}: " + ", ".join(f"{k} {v:.1f}" for k, v in r.items()), flush=True)
                results.setdefault((case, tree), []).append(r)
    print(f"\n{' '.join(sys.argv)}; load average {os.getloadavg()[0]:.2f}; medians of {args.runs} run(s)\n")
    for (case, tree), rs in results.items():
        keys = rs[0].keys()
        print(
            f"| {case} | {tree} | " + " | ".join(f"{k} {statistics.median(r[k] for r in rs):.1f}" for k in keys) + " |"
        )


if __name__ == "__main__":
    main()
