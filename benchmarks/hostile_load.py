"""Hostile-load benchmark: the attacks of issue 8, each measured on loopback against a fresh server.

Usage (from the repository root)::

    python3 benchmarks/hostile_load.py                   # every scenario, about 4-5 minutes
    python3 benchmarks/hostile_load.py --quick           # shorter runs, about 2 minutes
    python3 benchmarks/hostile_load.py --only parse-flood,sigstop
    python3 benchmarks/hostile_load.py --repeat 2        # each scenario twice: medians
    python3 benchmarks/hostile_load.py --server-cwd BEFORE   # BEFORE: another checkout
    python3 benchmarks/hostile_load.py --list

Each scenario starts its own server, ``SERVER_CMD --host 127.0.0.1 --port 0``
(``--server-cmd``, default ``python3 -m sudoku_server``, run in
``--server-cwd``, default this checkout, so that ``-m`` imports that checkout's
package), reads the port from its log line ``listening on 127.0.0.1:PORT``,
attacks it with plain sockets and threads (standard library only), samples
``/proc/PID/status`` (VmRSS) and ``/proc/PID/stat`` (utime + stime) every
0.1 s, and kills it at the end. The figures go in one markdown table (row of
issue 8, what was done, the figures, the target, met or missed), printed at
the end with the exact command line and the load average.

Scenarios (``--only`` takes names or row numbers, comma-separated):

 1 ``pipelined``       2, then 8, connections each pipelining the 16 minimal
                       25x25 puzzles of gecode_25x25_frisch16 (each needs the
                       whole 10 s solve timeout); an easy 9x9 (kaggle) from a
                       new connection, 20 probes spread over the attack, and
                       20 before it (baseline)
 2 ``abandoned``       3 connections send those 16 puzzles each and close()
                       (a FIN: nothing was unread); then the same with a reset:
                       seconds until the server's CPU is idle, CPU seconds used
                       after the close
 3 ``noread-puzzles``  100 connections each send 2 MiB of one-line 9x9
                       puzzles and never read: RSS before / peak / after
 4 ``noread-junk``     30 connections each send 512 KiB of ``x\\n`` lines and
                       never read the error replies: the same
 5 ``parse-flood``     2 connections stream blank lines, then junk lines
                       (read, then not read) as fast as they can: worst of 20
                       easy probes
 6 ``mixed-attack``    8 CPU attackers (4 pipelining frisch16, 4 the forum
                       hardest 1106) and 3 connections that sent 16 frisch16
                       each and closed: easy probes p50 / p99 / max
 7 ``signals``         SIGHUP, SIGQUIT, SIGUSR1 with a client in flight (200
                       forum-hardest puzzles, half-closed)
 8 ``sigterm``         SIGTERM with two hopeless 25x25 solves and one easy
                       puzzle queued (three clients); again under a parse flood
 9 ``sigint``          SIGINT while a client streams 10,000 sudoku17 puzzles:
                       a plain socket, the bundled client, plain ``nc``
10 ``sigstop``         SIGSTOP, a puzzle sent inside the close grace, SIGCONT
                       3 s later: answered?
11 ``stderr-pipe``     ``--log-level debug`` with stderr a pipe nobody reads:
                       answers/s of 16 connections over 5 s, the longest gap,
                       then the ``logging fell behind`` line
12 ``load1000``        ``benchmarks/load.py --seconds 5 --levels 1000`` against
                       the started server (``--connect``)

Definitions: a probe's latency runs from connect to its full answer line (it
sends one puzzle and half-closes); with 20 probes p99 is the worst. MB is
VmRSS / 1024 (MiB, as ``load.py``). "Idle" is less than 0.02 CPU seconds in a
whole second. Exit times run from the signal to the process's exit.

Bounds: every read has a timeout, every scenario kills its server at the end,
and sending stops when the server's RSS passes ``--rss-guard-mb`` (3000), so a
server without backpressure cannot take the machine's memory.
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import re
import resource
import selectors
import shlex
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import datasets as _datasets  # noqa: E402
import load as _load  # noqa: E402  (check_answer, load_puzzles, percentile, raise_nofile)

LISTENING = re.compile(r"listening on (\S+):(\d+)")
CLK_TCK = os.sysconf("SC_CLK_TCK")
SAMPLE_SECONDS = 0.1
#: CPU seconds within one second below which the server counts as idle.
IDLE_CPU_PER_SECOND = 0.02
#: The default shutdown grace of both servers (seconds); targets use it.
SHUTDOWN_GRACE = 5.0

_servers: list[Server] = []  # every started server, killed at exit


# -- data ---------------------------------------------------------------------


def _lines(name: str, length: int, limit: int | None = None) -> list[str]:
    """One-line puzzles of ``length`` cells from dataset ``name`` (first field of each line)."""
    path = _datasets.find(name)
    if path is None:
        raise SystemExit(f"dataset {name} not found in {_datasets.DATASETS_DIR}")
    out = []
    with _datasets.open_text(path) as f:
        for raw in f:
            text = raw.strip().split(",")[0]
            if len(text) == length:
                out.append(text)
                if limit and len(out) >= limit:
                    break
    return out


class Data:
    def __init__(self) -> None:
        self.frisch = _lines("gecode_25x25_frisch16.txt", 625)  # 16 minimal 25x25
        self.hard = _lines("tdoku_forum_hardest_1106.txt", 81)  # 375
        self.easy = _load.load_puzzles(_datasets.find("kaggle_bryanpark_first10000.csv"), limit=200)
        self.stream = _lines("sudoku17_royle_49151.txt", 81, limit=10000)
        self.top1465 = _load.load_puzzles(_datasets.find("magictour_top1465.txt"))
        self._next_easy = 0

    def easy_one(self) -> str:
        self._next_easy += 1
        return self.easy[self._next_easy % len(self.easy)]

    @staticmethod
    def payload(lines: Sequence[str]) -> bytes:
        return "".join(line + "\n" for line in lines).encode()


def check_grid_line(puzzle: str, line: bytes) -> str | None:
    """None if ``line`` solves the one-line ``puzzle`` of any size (9, 16, 25); else what is wrong."""
    if len(puzzle) == 81:
        return _load.check_answer(puzzle, line)
    text = line.strip().decode("ascii", "replace")
    n = math.isqrt(len(puzzle))
    b = math.isqrt(n)
    if len(text) != len(puzzle) or "." in text:
        return f"not {len(puzzle)} symbols: {text[:60]!r}"
    if any(p != "." and p != a for p, a in zip(puzzle, text)):
        return "a given changed"
    rows = [text[n * r : n * r + n] for r in range(n)]
    units = rows + ["".join(row[c] for row in rows) for c in range(n)]
    units += [
        "".join(rows[r0 + i][c0 + j] for i in range(b) for j in range(b))
        for r0 in range(0, n, b)
        for c0 in range(0, n, b)
    ]
    if any(len(set(u)) != n for u in units):
        return "a unit repeats a symbol"
    return None


# -- the server process ----------------------------------------------------------


def _describe_rc(rc: int | None) -> str:
    if rc is None:
        return "still running"
    if rc < 0:
        return f"killed by {signal.Signals(-rc).name}"
    return str(rc)


class Server:
    """One server subprocess on 127.0.0.1, port 0; stderr to a temporary file or a pipe."""

    def __init__(
        self,
        opts: argparse.Namespace,
        name: str,
        extra: Sequence[str] = (),
        *,
        stderr_pipe: bool = False,
        nofile: int | None = None,
    ) -> None:
        self.opts = opts
        self.argv = shlex.split(opts.server_cmd) + ["--host", "127.0.0.1", "--port", "0", *extra]
        self.log_path: str | None = None
        self.early = b""  # what was read of a stderr pipe before the port was known
        if stderr_pipe:
            stderr = subprocess.PIPE
        else:
            fd, self.log_path = tempfile.mkstemp(prefix=f"hostile-{name}-", suffix=".log")
            stderr = fd

        def limits() -> None:
            if nofile:
                soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
                if soft < nofile:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, max(hard, nofile)))

        self.proc = subprocess.Popen(
            self.argv,
            cwd=opts.server_cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
            preexec_fn=limits,
            start_new_session=True,  # a Ctrl-C of the benchmark is not a signal to the server
        )
        if not stderr_pipe:
            os.close(fd)
        _servers.append(self)
        self.pid = self.proc.pid
        self.host, self.port = self._wait_listening()

    def _wait_listening(self) -> tuple[str, int]:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.log_path is None:
                import select

                ready, _, _ = select.select([self.proc.stderr], [], [], 0.05)
                if ready:
                    chunk = os.read(self.proc.stderr.fileno(), 65536)
                    self.early += chunk
                text = self.early.decode(errors="replace")
            else:
                text = Path(self.log_path).read_text(errors="replace")
                time.sleep(0.02)
            match = LISTENING.search(text)
            if match:
                return match.group(1), int(match.group(2))
            if self.proc.poll() is not None:
                break
        self.kill()
        raise RuntimeError(f"server did not start: {' '.join(self.argv)}\n{text[-2000:]}")

    @property
    def address(self) -> tuple[str, int]:
        return self.host, self.port

    def log(self) -> str:
        return Path(self.log_path).read_text(errors="replace") if self.log_path else ""

    def rss_kb(self) -> int | None:
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def cpu_seconds(self) -> float | None:
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime
        except (OSError, IndexError, ValueError):
            return None

    def fds(self) -> int | None:
        try:
            return len(os.listdir(f"/proc/{self.pid}/fd"))
        except OSError:
            return None

    def signal(self, signum: int) -> float:
        self.proc.send_signal(signum)
        return time.monotonic()

    def wait_exit(self, since: float, timeout: float) -> tuple[int | None, float | None]:
        """(exit status, seconds from ``since`` to the exit), or (None, None) if still running."""
        end = since + timeout
        while time.monotonic() < end:
            rc = self.proc.poll()
            if rc is not None:
                return rc, time.monotonic() - since
            time.sleep(0.01)
        return None, None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        if self.proc.stderr is not None:
            self.proc.stderr.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.kill()
        if self.log_path and not self.opts.keep_logs:
            try:
                os.unlink(self.log_path)
            except OSError:
                pass
        elif self.log_path:
            print(f"  server log kept: {self.log_path}", file=sys.stderr)


class Sampler:
    """Samples the server's VmRSS (kB) and CPU seconds every 0.1 s in a thread."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.samples: list[tuple[float, int | None, float | None]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.monotonic(), self.server.rss_kb(), self.server.cpu_seconds()))
            self._stop.wait(SAMPLE_SECONDS)

    def peak_rss_kb(self) -> int:
        return max((rss for _, rss, _ in self.samples if rss is not None), default=0)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)


# -- clients ----------------------------------------------------------------------


def reset_close(sock: socket.socket) -> None:
    """Close with a reset (SO_LINGER 0): the server's next send or read fails."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


def _why(error: BaseException) -> str:
    if isinstance(error, ConnectionResetError):
        return "reset"
    if isinstance(error, BrokenPipeError):
        return "broken pipe"
    if isinstance(error, socket.timeout):
        return "timeout"
    return f"{type(error).__name__} {getattr(error, 'errno', '')}".strip()


class Client:
    """One connection that sends ``payload`` (in a loop with ``repeat``) and reads the replies (``read``).

    ``then``: after the payload, ``"stay"`` (keep the connection open),
    ``"half-close"`` (shutdown(SHUT_WR)). :meth:`stop` closes with a reset.
    """

    def __init__(
        self,
        server: Server,
        payload: bytes,
        *,
        repeat: bool = False,
        read: bool = True,
        then: str = "stay",
        keep: bool = False,
    ) -> None:
        self.sock = socket.create_connection(server.address, timeout=10)
        self.sock.settimeout(0.2)
        self.payload = memoryview(payload)
        self.repeat, self.read, self.then, self.keep = repeat, read, then, keep
        self.sent = 0
        self.received = 0
        self.lines = 0
        self.tail = b""
        self.data = bytearray()
        self.send_end: str | None = None  # "done", or why sending stopped
        self.end: str | None = None  # "eof", "reset", ... (reading)
        self.eof = threading.Event()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._send, daemon=True)]
        if read:
            self._threads.append(threading.Thread(target=self._read, daemon=True))

    def start(self) -> Client:
        for thread in self._threads:
            thread.start()
        return self

    def _send(self) -> None:
        view, size, offset = self.payload, len(self.payload), 0
        try:
            while not self._stop.is_set():
                if offset >= size:
                    if not self.repeat:
                        break
                    offset = 0
                try:
                    n = self.sock.send(view[offset : offset + 65536])
                except TimeoutError:
                    continue
                offset += n
                self.sent += n
            else:
                return
            self.send_end = "done"
            if self.then == "half-close":
                self.sock.shutdown(socket.SHUT_WR)
        except OSError as error:
            self.send_end = _why(error)

    def _read(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    chunk = self.sock.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    self.end = "eof"
                    break
                self.received += len(chunk)
                self.lines += chunk.count(b"\n")
                if self.keep:
                    self.data += chunk
                self.tail = (self.tail + chunk)[-8192:]
        except OSError as error:
            self.end = _why(error)
        finally:
            self.eof.set()

    @property
    def last_line(self) -> bytes:
        """The last complete line received (without its end)."""
        parts = self.tail.split(b"\n")
        return parts[-2].rstrip(b"\r") if len(parts) > 1 else b""

    @property
    def partial(self) -> bytes:
        return self.tail.rsplit(b"\n", 1)[-1]

    def wait_eof(self, timeout: float) -> bool:
        return self.eof.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(2)
        reset_close(self.sock)


def abandon(server: Server, payload: bytes, *, reset: bool = False) -> None:
    """Connect, send ``payload``, and close at once (a FIN; with ``reset``, an RST)."""
    sock = socket.create_connection(server.address, timeout=10)
    sock.sendall(payload)
    if reset:
        reset_close(sock)
    else:
        sock.close()


@dataclass
class Probe:
    seconds: float
    outcome: str  # "ok", "ERROR <code>", "wrong", "eof", "timeout", "reset", ...
    line: bytes = b""


def probe(server: Server, puzzle: str, timeout: float) -> Probe:
    """An easy client: connect, send one puzzle, half-close, read the answer line."""
    started = time.monotonic()
    buf = b""
    try:
        with socket.create_connection(server.address, timeout=timeout) as sock:
            sock.sendall(puzzle.encode() + b"\n")
            sock.shutdown(socket.SHUT_WR)
            while b"\n" not in buf:
                left = started + timeout - time.monotonic()
                if left <= 0:
                    raise TimeoutError()
                sock.settimeout(left)
                chunk = sock.recv(4096)
                if not chunk:
                    break
                buf += chunk
    except OSError as error:
        return Probe(time.monotonic() - started, _why(error))
    seconds = time.monotonic() - started
    if b"\n" not in buf:
        return Probe(seconds, "eof", buf)
    line = buf.split(b"\n", 1)[0]
    if line.startswith(b"ERROR "):
        return Probe(seconds, "ERROR " + line.split(b" ")[1].decode("ascii", "replace"), line)
    return Probe(seconds, "wrong" if check_grid_line(puzzle, line) else "ok", line)


def probe_series(server: Server, data: Data, count: int, spacing: float, timeout: float) -> list[Probe]:
    """``count`` probes, one started every ``spacing`` seconds, each in its own thread."""
    results: list[Probe | None] = [None] * count
    threads = []
    start = time.monotonic()

    def one(i: int, puzzle: str) -> None:
        results[i] = probe(server, puzzle, timeout)

    for i in range(count):
        delay = start + i * spacing - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        thread = threading.Thread(target=one, args=(i, data.easy_one()), daemon=True)
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join(timeout + 5)
    return [r if r is not None else Probe(timeout, "hang") for r in results]


def latency_metrics(probes: list[Probe], prefix: str = "") -> dict[str, object]:
    seconds = [p.seconds for p in probes]
    failed = collections.Counter(p.outcome for p in probes if p.outcome != "ok")
    return {
        prefix + "p50": _load.percentile(seconds, 50),
        prefix + "p99": _load.percentile(seconds, 99),
        prefix + "max": max(seconds),
        prefix + "failed": ", ".join(f"{k} {v}" for k, v in sorted(failed.items())) or "none",
    }


# -- rows ------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the result table: ``render(metrics)`` gives the figures, ``verdict`` met or not."""

    key: str
    what: str
    metrics: dict[str, object]
    render: Callable[[dict[str, object]], str]
    target: str = ""
    verdict: bool | None = None


def t(seconds: float | None) -> str:
    """A duration for the table: ms under 1 s, else seconds."""
    if seconds is None:
        return "-"
    if isinstance(seconds, str):
        return seconds
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s"


def _n(value) -> str:
    """A count for the table (a median of counts may be a half)."""
    if not isinstance(value, (int, float)):
        return str(value)
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def mb(kb: float | None) -> str:
    return "-" if kb is None else f"{kb / 1024:.0f}"


def warm_up(server: Server, data: Data) -> None:
    """One easy puzzle, so that imports and tables are loaded before anything is measured."""
    probe(server, data.easy_one(), 30)


def extra_for(opts: argparse.Namespace) -> list[str]:
    return list(opts.server_arg)


# -- 1. pipelined hopeless puzzles --------------------------------------------------


def scenario_pipelined(opts, data: Data) -> list[Row]:
    rows = []
    duration = 6.0 if opts.quick else 15.0
    timeout = 30.0 if opts.quick else 60.0
    for key, n in (("1a", 2), ("1b", 8)):
        with Server(opts, f"pipelined{n}", extra_for(opts)) as server:
            warm_up(server, data)
            base = probe_series(server, data, 20, 0.05, timeout)
            attackers = [Client(server, Data.payload(data.frisch)).start() for _ in range(n)]
            try:
                time.sleep(0.5)
                during = probe_series(server, data, 20, duration / 20, timeout)
            finally:
                replies = sum(a.lines for a in attackers)
                for a in attackers:
                    a.stop()
        m = {**latency_metrics(base, "base_"), **latency_metrics(during), "attacker_replies": replies}
        rows.append(
            Row(
                key,
                f"{n} connections each pipeline the 16 minimal 25x25 (frisch16); an easy 9x9 from a new"
                f" connection, 20 probes over {duration:g} s (and 20 before)",
                m,
                lambda m: (
                    f"easy p50 {t(m['p50'])}, p99 {t(m['p99'])}, max {t(m['max'])}"
                    f" (before: p50 {t(m['base_p50'])}, max {t(m['base_max'])});"
                    f" probes failed: {m['failed']}; attackers got {m['attacker_replies']:.0f} replies"
                ),
                "p99 ≤ 1 s (as row 6)",
                m["p99"] <= 1.0 and m["failed"] == "none",
            )
        )
    return rows


# -- 2. abandoned connections ---------------------------------------------------------


def _cpu_after(server: Server, since: float, observe: float) -> tuple[float | None, float]:
    """Sample CPU every 0.1 s from ``since``: (seconds until idle or None, CPU seconds since ``since``)."""
    samples: list[tuple[float, float]] = []
    start_cpu = server.cpu_seconds() or 0.0
    samples.append((since, start_cpu))
    idle_at = None
    while time.monotonic() < since + observe:
        time.sleep(SAMPLE_SECONDS)
        cpu = server.cpu_seconds()
        if cpu is None:
            break
        now = time.monotonic()
        samples.append((now, cpu))
        # idle: the last whole second used less than IDLE_CPU_PER_SECOND
        earlier = [s for s in samples if s[0] <= now - 1.0]
        if earlier and cpu - earlier[-1][1] < IDLE_CPU_PER_SECOND:
            idle_at = earlier[-1][0] - since
            return idle_at, earlier[-1][1] - start_cpu
    return idle_at, samples[-1][1] - start_cpu


def scenario_abandoned(opts, data: Data) -> list[Row]:
    rows = []
    for key, reset in (("2a", False), ("2b", True)):
        observe = 25.0 if opts.quick or reset else 150.0
        with Server(opts, "abandoned", extra_for(opts)) as server:
            warm_up(server, data)
            time.sleep(0.5)
            payload = Data.payload(data.frisch)
            for _ in range(3):
                abandon(server, payload, reset=reset)
            closed = time.monotonic()
            idle, cpu = _cpu_after(server, closed, observe)
        how = "reset (SO_LINGER 0)" if reset else "close() (a FIN, nothing unread)"
        m = {"idle": idle if idle is not None else f"not within {observe:g} s", "cpu": cpu}
        target = (
            "work stops at once for a client that is gone (reset): idle within 1 s"
            if reset
            else "a FIN alone is a half-close: work goes on until a send fails (no numeric target)"
        )
        verdict = (isinstance(idle, float) and idle <= 1.0) if reset else None
        rows.append(
            Row(
                key,
                f"3 connections send the 16 frisch16 25x25 each, then {how}",
                m,
                lambda m: f"CPU idle {t(m['idle'])} after the close; {m['cpu']:.1f} CPU s used after it",
                target,
                verdict,
            )
        )
    return rows


# -- 3, 4. clients that never read --------------------------------------------------------


def push_without_reading(
    server: Server, count: int, payload: bytes, seconds: float, guard_kb: int
) -> tuple[list[socket.socket], int, bool, collections.Counter]:
    """``count`` connections each send ``payload`` (non-blocking, one thread) and never read.

    Returns (the sockets, still open; bytes sent in all; the RSS guard stopped it; send errors).
    """
    socks = []
    for _ in range(count):
        sock = socket.create_connection(server.address, timeout=10)
        sock.setblocking(False)
        socks.append(sock)
    view = memoryview(payload)
    offsets = dict.fromkeys(socks, 0)
    errors: collections.Counter = collections.Counter()
    sel = selectors.DefaultSelector()
    for sock in socks:
        sel.register(sock, selectors.EVENT_WRITE)
    total = 0
    guard = False
    deadline = time.monotonic() + seconds
    last_guard_check = 0.0
    while offsets and time.monotonic() < deadline:
        now = time.monotonic()
        if now - last_guard_check > 0.1:
            last_guard_check = now
            rss = server.rss_kb()
            if rss is not None and rss > guard_kb:
                guard = True
                break
        for key, _ in sel.select(timeout=0.1):
            sock = key.fileobj
            offset = offsets[sock]
            try:
                n = sock.send(view[offset : offset + 65536])
            except BlockingIOError:
                continue
            except OSError as error:
                errors[_why(error)] += 1
                sel.unregister(sock)
                del offsets[sock]
                continue
            total += n
            offsets[sock] = offset + n
            if offset + n >= len(view):
                sel.unregister(sock)
                del offsets[sock]
    sel.close()
    return socks, total, guard, errors


def _memory_row(
    opts, data: Data, key: str, count: int, size: int, payload_lines: Callable[[int], bytes], what: str
) -> Row:
    seconds = 4.0 if opts.quick else 8.0
    with Server(opts, key, extra_for(opts)) as server:
        warm_up(server, data)
        time.sleep(0.5)
        before, before_fds = server.rss_kb(), server.fds()
        sampler = Sampler(server)
        payload = payload_lines(size)
        socks, total, guard, errors = push_without_reading(server, count, payload, seconds, opts.rss_guard_mb * 1024)
        time.sleep(2.0)  # the server works through what it read
        for sock in socks:
            reset_close(sock)
        gone = time.monotonic()
        while time.monotonic() < gone + 15 and (server.fds() or 0) > (before_fds or 0):
            time.sleep(0.1)
        settle = time.monotonic() - gone
        time.sleep(1.0)
        sampler.stop()
        after = server.rss_kb()
        peak = max(sampler.peak_rss_kb(), after or 0)
    m = {
        "before": before,
        "peak": peak,
        "after": after,
        "sent": total / (1 << 20),
        "offered": count * size / (1 << 20),
        "guard": "yes" if guard else "no",
        "settle": settle,
        "errors": ", ".join(f"{k} {v}" for k, v in errors.items()) or "none",
    }
    ok = (peak - before) / 1024 <= 50 and abs(after - before) / 1024 <= 20 if None not in (before, after) else False
    return Row(
        key,
        what,
        m,
        lambda m: (
            f"RSS {mb(m['before'])} / {mb(m['peak'])} / {mb(m['after'])} MB before/peak/after"
            f" (+{(m['peak'] - m['before']) / 1024:.0f} MB peak, {(m['after'] - m['before']) / 1024:+.0f} MB after);"
            f" the server took {m['sent']:.0f} of {m['offered']:.0f} MiB"
            + (" (stopped at the RSS guard)" if m["guard"] == "yes" else "")
            + f"; descriptors back {t(m['settle'])} after the resets"
        ),
        "peak - before ≤ 50 MB; after within 20 MB of before",
        ok,
    )


def scenario_noread_puzzles(opts, data: Data) -> list[Row]:
    size = (512 << 10) if opts.quick else (2 << 20)

    def payload(size: int) -> bytes:
        line_set = Data.payload(data.stream)
        return (line_set * (size // len(line_set) + 1))[:size]

    return [
        _memory_row(
            opts,
            data,
            "3",
            100,
            size,
            payload,
            f"100 connections each send {size >> 10} KiB of one-line 9x9 puzzles (sudoku17) and never"
            " read; reset 2 s after sending stops",
        )
    ]


def scenario_noread_junk(opts, data: Data) -> list[Row]:
    size = (128 << 10) if opts.quick else (512 << 10)
    return [
        _memory_row(
            opts,
            data,
            "4",
            30,
            size,
            lambda size: b"x\n" * (size // 2),
            f"30 connections each send {size >> 10} KiB of `x\\n` lines and never read the error"
            " replies; reset 2 s after sending stops",
        )
    ]


# -- 5. parse floods --------------------------------------------------------------------


def scenario_parse_flood(opts, data: Data) -> list[Row]:
    rows = []
    span = 2.5 if opts.quick else 5.0
    for key, what, chunk, read in (
        ("5a", "blank lines", b"\n" * 65536, False),
        ("5b", "`x` lines, replies read", b"x\n" * 32768, True),
        ("5c", "`x` lines, replies never read", b"x\n" * 32768, False),
    ):
        with Server(opts, "flood", extra_for(opts)) as server:
            warm_up(server, data)
            base = probe_series(server, data, 20, 0.05, 30)
            flooders = [Client(server, chunk, repeat=True, read=read).start() for _ in range(2)]
            try:
                time.sleep(0.5)
                started, sent0 = time.monotonic(), sum(f.sent for f in flooders)
                lines0 = sum(f.lines for f in flooders)
                during = probe_series(server, data, 20, span / 20, 30)
                elapsed = time.monotonic() - started
                rate = (sum(f.sent for f in flooders) - sent0) / elapsed / 1e6
                replies = (sum(f.lines for f in flooders) - lines0) / elapsed
            finally:
                for f in flooders:
                    f.stop()
        m = {**latency_metrics(base, "base_"), **latency_metrics(during), "rate": rate, "replies": replies}
        rows.append(
            Row(
                key,
                f"2 connections stream {what} as fast as they can; 20 easy probes over {span:g} s",
                m,
                lambda m: (
                    f"easy worst {t(m['max'])}, p50 {t(m['p50'])} (before: worst {t(m['base_max'])});"
                    f" the server took {m['rate']:.2f} MB/s of the flood (after the socket buffers filled)"
                    + (f" and sent {m['replies']:,.0f} error lines/s" if m["replies"] else "")
                    + f"; probes failed: {m['failed']}"
                ),
                "worst of 20 ≤ 250 ms",
                m["max"] <= 0.25 and m["failed"] == "none",
            )
        )
    return rows


# -- 6. CPU attackers and abandoned connections --------------------------------------------


def scenario_mixed_attack(opts, data: Data) -> list[Row]:
    duration = 6.0 if opts.quick else 15.0
    with Server(opts, "mixed", extra_for(opts)) as server:
        warm_up(server, data)
        base = probe_series(server, data, 20, 0.05, 30)
        frisch, hard = Data.payload(data.frisch), Data.payload(data.hard)
        attackers = [Client(server, frisch).start() for _ in range(4)]
        attackers += [Client(server, hard, repeat=True).start() for _ in range(4)]
        try:
            for _ in range(3):
                abandon(server, frisch)
            time.sleep(1.0)
            during = probe_series(server, data, 20, duration / 20, 60)
        finally:
            replies = sum(a.lines for a in attackers)
            for a in attackers:
                a.stop()
    m = {**latency_metrics(base, "base_"), **latency_metrics(during), "replies": replies}
    return [
        Row(
            "6",
            "8 CPU attackers (4 pipeline frisch16, 4 pipeline the forum hardest 1106 in a loop, all reading)"
            f" + 3 connections that sent 16 frisch16 each and closed; 20 easy probes over {duration:g} s",
            m,
            lambda m: (
                f"easy p50 {t(m['p50'])}, p99 {t(m['p99'])}, max {t(m['max'])}"
                f" (before: p50 {t(m['base_p50'])}, max {t(m['base_max'])}); probes failed: {m['failed']};"
                f" attackers got {m['replies']:.0f} replies"
            ),
            "easy p99 ≤ 1 s",
            m["p99"] <= 1.0 and m["failed"] == "none",
        )
    ]


# -- 7. SIGHUP, SIGQUIT, SIGUSR1 ----------------------------------------------------------


def _reply_summary(client: Client, puzzles: Sequence[str]) -> tuple[int, collections.Counter]:
    """(valid answers, other replies by kind) of a kept client's data, in request order."""
    answers, other = 0, collections.Counter()
    for i, line in enumerate(bytes(client.data).split(b"\n")[:-1]):
        if line.startswith(b"ERROR "):
            other["ERROR " + line.split(b" ")[1].decode("ascii", "replace")] += 1
        elif i < len(puzzles) and check_grid_line(puzzles[i], line) is None:
            answers += 1
        else:
            other["wrong"] += 1
    return answers, other


def _counter_text(counter: collections.Counter) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items())) or "none"


def scenario_signals(opts, data: Data) -> list[Row]:
    rows = []
    puzzles = data.hard[:200]
    for key, signum in (("7a", signal.SIGHUP), ("7b", signal.SIGQUIT), ("7c", signal.SIGUSR1)):
        name = signal.Signals(signum).name
        with Server(opts, name.lower(), extra_for(opts)) as server:
            warm_up(server, data)
            client = Client(server, Data.payload(puzzles), then="half-close", keep=True).start()
            deadline = time.monotonic() + 10
            while client.send_end is None and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.2)  # solving is under way
            in_flight = len(puzzles) - client.lines
            sent_at = server.signal(signum)
            if signum == signal.SIGUSR1:
                time.sleep(1.0)
                alive = server.proc.poll() is None
                client.wait_eof(20)
                after = probe(server, data.easy_one(), 10) if alive else Probe(0, "server gone")
                log = server.log()
                stats = [line for line in log.splitlines() if "stats:" in line]
                stop_at = server.signal(signal.SIGTERM) if server.proc.poll() is None else None
                rc, seconds = server.wait_exit(stop_at, 15) if stop_at else (server.proc.returncode, None)
                answers, other = _reply_summary(client, puzzles)
                client.stop()
                m = {
                    "alive": "yes" if alive else f"no (exit {_describe_rc(server.proc.returncode)})",
                    "stats": stats[0].split(" INFO ", 1)[-1][:150] if stats else "none",
                    "answers": answers,
                    "other": _counter_text(other),
                    "end": client.end or "-",
                    "in_flight": in_flight,
                    "after": after.outcome,
                    "rc": _describe_rc(rc),
                }
                rows.append(
                    Row(
                        key,
                        f"SIGUSR1 while a client has {in_flight} of 200 forum-hardest puzzles unanswered",
                        m,
                        lambda m: (
                            f"still serving: {m['alive']}; log: `{m['stats']}`; the client got"
                            f" {m['answers']:.0f}/200 answers (other replies: {m['other']}, then {m['end']});"
                            f" a new client afterwards: {m['after']}; SIGTERM then: exit {m['rc']}"
                        ),
                        "one stats line, serving goes on",
                        alive and bool(stats) and answers == len(puzzles) and after.outcome == "ok",
                    )
                )
                continue
            rc, seconds = server.wait_exit(sent_at, 15)
            client.wait_eof(5)
            client.stop()
            log = server.log()
            lines = [line.split(" INFO ", 1)[-1] for line in log.splitlines() if name in line]
        m = {
            **analyse_stream(puzzles, bytes(client.data)),
            "rc": _describe_rc(rc),
            "seconds": seconds if seconds is not None else "over 15 s",
            "end": client.end or "-",
            "in_flight": in_flight,
            "log": lines[0][:100] if lines else "none",
        }
        rows.append(
            Row(
                key,
                f"{name} while a client has {in_flight} of 200 forum-hardest puzzles unanswered (all sent,"
                " half-closed)",
                m,
                lambda m: (
                    f"exit {m['rc']} after {t(m['seconds'])}; the client got {m['answers']:.0f} answers,"
                    f" {m['shutdown']:.0f} `ERROR shutdown` for puzzles, other errors: {m['other']}, last line"
                    f" `{m['last']}`, then {m['end']}; one reply per line read: {m['consistent']};"
                    f" log: `{m['log']}`"
                ),
                f"graceful: exit 0 within the grace + 1 s ({SHUTDOWN_GRACE + 1:g} s), one reply per puzzle read"
                " (the rest named by the `not read` line), a log line",
                rc == 0
                and seconds is not None
                and seconds <= SHUTDOWN_GRACE + 1
                and m["consistent"] == "yes"
                and bool(lines),
            )
        )
    return rows


# -- 8. SIGTERM -------------------------------------------------------------------------


def _what_got(client: Client, puzzle: str) -> str:
    lines = bytes(client.data).split(b"\n")
    got = []
    for line in lines[:-1]:
        if line.startswith(b"ERROR "):
            got.append("`" + " ".join(line.decode("ascii", "replace").split(" ")[:2]) + "`")
        else:
            got.append("answer" if check_grid_line(puzzle, line) is None else "wrong answer")
    if lines[-1]:
        got.append(f"{len(lines[-1])} bytes of a line")
    end = {"eof": "", None: " (still open)"}.get(client.end, f", then {client.end}")
    return (" + ".join(got) or "nothing") + end


def scenario_sigterm(opts, data: Data) -> list[Row]:
    rows = []
    for key, flood, chunk, read in (
        ("8a", "", b"", False),
        ("8b", "; meanwhile 2 connections stream blank lines as fast as they can", b"\n" * 65536, False),
        (
            "8c",
            "; meanwhile 2 connections stream `x` lines as fast as they can (reading the replies)",
            b"x\n" * 32768,
            True,
        ),
    ):
        with Server(opts, "sigterm", extra_for(opts)) as server:
            warm_up(server, data)
            easy = data.easy_one()
            flooders = [Client(server, chunk, repeat=True, read=read).start() for _ in range(2 if chunk else 0)]
            a = Client(server, Data.payload(data.frisch[:1]), then="half-close", keep=True).start()
            b = Client(server, Data.payload(data.frisch[1:2]), then="half-close", keep=True).start()
            time.sleep(0.3)
            c = Client(server, Data.payload([easy]), then="half-close", keep=True).start()
            time.sleep(0.3)
            sent_at = server.signal(signal.SIGTERM)
            rc, seconds = server.wait_exit(sent_at, 20)
            for client in (a, b, c):
                client.wait_eof(3)
                client.stop()
            time.sleep(0.1)
            ends = [f.send_end or "still sending" for f in flooders]
            last = [f.last_line.decode("ascii", "replace")[:90] for f in flooders if read]
            for f in flooders:
                f.stop()
        m = {
            "a": _what_got(a, data.frisch[0]),
            "b": _what_got(b, data.frisch[1]),
            "c": _what_got(c, easy),
            "rc": _describe_rc(rc),
            "seconds": seconds if seconds is not None else "over 20 s",
            "ends": ", ".join(ends) or "-",
            "last": last[0] if last else "-",
        }
        ok_lines = all(x.data.endswith(b"\n") and x.data.count(b"\n") == 1 for x in (a, b, c))

        def render(m):
            text = f"hopeless 1: {m['a']}; hopeless 2: {m['b']}; easy: {m['c']}; exit {m['rc']} after {t(m['seconds'])}"
            if m["ends"] != "-":
                text += f"; the flooders' sending ended: {m['ends']}"
            if m["last"] != "-":
                text += f"; a flooder's last line: `{m['last']}`"
            return text

        rows.append(
            Row(
                key,
                "SIGTERM 0.6 s after two clients sent one hopeless 25x25 each and 0.3 s after a third sent an"
                " easy 9x9 (each half-closed)" + flood,
                m,
                render,
                f"each exactly one line (the easy one answered); exit 0 within {SHUTDOWN_GRACE + 1:g} s",
                ok_lines
                and m["c"].startswith("answer")
                and rc == 0
                and seconds is not None
                and seconds <= SHUTDOWN_GRACE + 1,
            )
        )
    return rows


# -- 9. SIGINT while streaming ---------------------------------------------------------------

NOT_READ = re.compile(rb"ERROR shutdown .*input from line (\d+) on was not read")


def analyse_stream(puzzles: Sequence[str], data: bytes) -> dict[str, object]:
    """Replies to a stream of one-line puzzles: answers, shutdown lines, and whether each line read got one."""
    lines = data.split(b"\n")
    partial = lines.pop()
    answers = shutdown = wrong = 0
    codes: collections.Counter = collections.Counter()
    consistent = True
    last = lines[-1] if lines else b""
    not_read = NOT_READ.fullmatch(last.rstrip(b"\r"))
    body = lines[:-1] if not_read else lines
    for i, line in enumerate(body):
        if line.startswith(b"ERROR "):
            code = line.split(b" ")[1].decode("ascii", "replace")
            codes[code] += 1
            if code == "shutdown":
                shutdown += 1
                if b"puzzle at line %d " % (i + 1) not in line:
                    consistent = False
            else:
                consistent = False
        elif i < len(puzzles) and _load.check_answer(puzzles[i], line) is None:
            answers += 1
        else:
            wrong += 1
            consistent = False
    if not_read and int(not_read.group(1)) != len(body) + 1:
        consistent = False
    if not not_read and len(body) < len(puzzles):
        consistent = False  # lines that were sent got no reply and no "not read" line
    if partial:
        consistent = False
    return {
        "answers": answers,
        "shutdown": shutdown,
        "format": codes.get("format", 0),
        "wrong": wrong,
        "other": _counter_text(collections.Counter({k: v for k, v in codes.items() if k != "shutdown"})),
        "last": last.decode("ascii", "replace")[:110] or "(nothing)",
        "consistent": "yes" if consistent else "no",
    }


def _stream_file(data: Data) -> str:
    fd, path = tempfile.mkstemp(prefix="hostile-stream-", suffix=".txt")
    with os.fdopen(fd, "wb") as f:
        f.write(Data.payload(data.stream))
    return path


def _run_streaming_command(
    server: Server, argv: list[str], path: str, after_lines: int, stdin_file: bool
) -> tuple[bytes, bytes, int | None, int | None, float | None]:
    """Run ``argv`` (stdout piped), SIGINT the server after ``after_lines`` lines of output.

    Returns (stdout, stderr, the command's exit status, the server's, seconds to the server's exit).
    """
    with open(path, "rb") as stdin:
        proc = subprocess.Popen(
            argv, stdin=stdin if stdin_file else subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    out = bytearray()
    err = bytearray()

    def pump(stream, buf):
        for chunk in iter(lambda: stream.read1(65536), b""):
            buf += chunk

    readers = [
        threading.Thread(target=pump, args=(proc.stdout, out), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, err), daemon=True),
    ]
    for r in readers:
        r.start()
    deadline = time.monotonic() + 30
    while out.count(b"\n") < after_lines and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    sent_at = server.signal(signal.SIGINT)
    rc_server, seconds = server.wait_exit(sent_at, 20)
    try:
        rc = proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = None
        proc.wait()
    for r in readers:
        r.join(5)
    return bytes(out), bytes(err), rc, rc_server, seconds


def scenario_sigint(opts, data: Data) -> list[Row]:
    rows = []
    puzzles = data.stream
    after = 1000
    target = (
        "one reply per line read, no partial line parsed; the puzzles not answered within the grace get"
        " `ERROR shutdown`, and a last line `ERROR shutdown ... input from line N on was not read` names"
        " what was not read (none when all were answered in the grace)"
    )

    def render(m):
        text = (
            f"{m['answers']:.0f} answers, {m['shutdown']:.0f} `ERROR shutdown` for puzzles, other errors:"
            f" {m['other']}; last line `{m['last']}`; one reply per line read: {m['consistent']};"
            f" server exit {m['rc']} after {t(m['seconds'])}"
        )
        if "client_rc" in m:
            text += f"; {m['client']} exit {m['client_rc']}, stderr `{m['stderr']}`"
        return text

    with Server(opts, "sigint", extra_for(opts)) as server:
        warm_up(server, data)
        client = Client(server, Data.payload(puzzles), then="half-close", keep=True).start()
        deadline = time.monotonic() + 30
        while client.lines < after and time.monotonic() < deadline and not client.eof.is_set():
            time.sleep(0.002)
        sent_at = server.signal(signal.SIGINT)
        rc, seconds = server.wait_exit(sent_at, 20)
        client.wait_eof(5)
        client.stop()
    m = {
        **analyse_stream(puzzles, bytes(client.data)),
        "rc": _describe_rc(rc),
        "seconds": seconds if seconds is not None else "over 20 s",
    }
    rows.append(
        Row(
            "9a",
            f"SIGINT after {after} answers while a plain socket streams 10,000 sudoku17 puzzles (then half-closes)",
            m,
            render,
            target,
            m["consistent"] == "yes" and m["format"] == 0 and m["wrong"] == 0,
        )
    )

    path = _stream_file(data)
    try:
        client_path = opts.client or str(Path(opts.server_cwd) / "sudoku_client" / "client.py")
        variants = [("9b", "the bundled client", [sys.executable, client_path, "--host", "127.0.0.1"], False)]
        if shutil_which("nc"):
            variants.append(("9c", "plain nc", ["nc", "127.0.0.1"], True))
        for key, who, argv, stdin_file in variants:
            with Server(opts, "sigint-" + key, extra_for(opts)) as server:
                warm_up(server, data)
                if stdin_file:
                    command = argv + [str(server.port)]
                else:
                    command = argv + ["--port", str(server.port), path]
                out, err, client_rc, rc, seconds = _run_streaming_command(server, command, path, after, stdin_file)
            m = {
                **analyse_stream(puzzles, out),
                "rc": _describe_rc(rc),
                "seconds": seconds if seconds is not None else "over 20 s",
                "client": who,
                "client_rc": _describe_rc(client_rc),
                "stderr": err.decode(errors="replace").strip().replace("\n", " / ")[:140] or "(empty)",
            }
            ok = m["consistent"] == "yes" and m["format"] == 0 and m["wrong"] == 0
            if key == "9b":
                # exit 2 with a reason when the server stopped before answering everything; 0 when it
                # answered all 10,000 within the shutdown grace (it reads on during the grace)
                everything = m["answers"] == len(puzzles) and m["shutdown"] == 0
                ok = ok and (client_rc == 0 if everything else client_rc == 2 and m["stderr"] != "(empty)")
            display = "python3 " + client_path if key == "9b" else "nc 127.0.0.1 PORT < file"
            rows.append(
                Row(
                    key,
                    f"SIGINT after {after} answers while `{display}` streams the same 10,000",
                    m,
                    render,
                    target + (" ; client exit 0 if all were answered, else 2 with a reason" if key == "9b" else ""),
                    ok,
                )
            )
    finally:
        os.unlink(path)
    return rows


def shutil_which(name: str) -> str | None:
    import shutil

    return shutil.which(name)


# -- 10. SIGSTOP / SIGCONT ------------------------------------------------------------------


def scenario_sigstop(opts, data: Data) -> list[Row]:
    trials = 1 if opts.quick else 3
    outcomes = []
    with Server(opts, "sigstop", extra_for(opts)) as server:
        warm_up(server, data)
        for _ in range(trials):
            first, second = data.easy_one(), data.easy_one()
            sock = socket.create_connection(server.address, timeout=10)
            try:
                sock.sendall(first.encode() + b"\n")
                buf = b""
                while b"\n" not in buf:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    buf += chunk
                server.signal(signal.SIGSTOP)
                try:
                    time.sleep(0.1)  # inside the 0.5 s close grace after the first answer
                    sock.sendall(second.encode() + b"\n")
                    time.sleep(2.9)
                finally:
                    server.signal(signal.SIGCONT)
                sock.settimeout(5)
                rest = buf.split(b"\n", 1)[1]
                try:
                    while b"\n" not in rest:
                        chunk = sock.recv(4096)
                        if not chunk:
                            break
                        rest += chunk
                except OSError as error:
                    outcomes.append(_why(error))
                    continue
                line = rest.split(b"\n", 1)[0]
                if b"\n" not in rest:
                    outcomes.append("nothing (EOF)")
                elif _load.check_answer(second, line) is None:
                    outcomes.append("answered")
                else:
                    outcomes.append(line.decode("ascii", "replace")[:60])
            finally:
                reset_close(sock)
        time.sleep(0.3)
        late = [line for line in server.log().splitlines() if "after its session ended" in line]
    answered = outcomes.count("answered")
    m = {"answered": answered, "trials": trials, "outcomes": ", ".join(outcomes), "late": len(late)}
    return [
        Row(
            "10",
            "SIGSTOP right after a first answer, a second puzzle sent 0.1 s later (no half-close),"
            f" SIGCONT 3 s later; {trials} trial(s)",
            m,
            lambda m: (
                f"second puzzle answered in {_n(m['answered'])} of {_n(m['trials'])} ({m['outcomes']});"
                f" 'sent after its session ended' log lines: {_n(m['late'])}"
            ),
            "answered every time",
            answered == trials,
        )
    ]


# -- 11. stderr nobody reads -----------------------------------------------------------------


def _answer_load(server: Server, data: Data, connections: int, seconds: float) -> list[float]:
    """``connections`` clients, one puzzle outstanding each, for ``seconds``: the times of the answers."""
    times: list[float] = []
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def worker(index: int) -> None:
        puzzles = data.top1465
        i = index * 97
        sock = None
        while time.monotonic() < end:
            try:
                if sock is None:
                    sock = socket.create_connection(server.address, timeout=2)
                    sock.settimeout(0.25)
                    buf = b""
                sock.sendall(puzzles[i % len(puzzles)].encode() + b"\n")
                i += 1
                while b"\n" not in buf and time.monotonic() < end:
                    try:
                        chunk = sock.recv(4096)
                    except TimeoutError:
                        continue
                    if not chunk:
                        raise ConnectionResetError
                    buf += chunk
                if b"\n" in buf:
                    buf = buf.split(b"\n", 1)[1]
                    with lock:
                        times.append(time.monotonic())
            except OSError:
                if sock is not None:
                    reset_close(sock)
                sock = None
                time.sleep(0.05)
        if sock is not None:
            reset_close(sock)

    start = time.monotonic()
    threads = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(connections)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(seconds + 10)
    return [start] + sorted(times) + [end]


def _load_metrics(marks: list[float], seconds: float) -> dict[str, object]:
    start, times, end = marks[0], marks[1:-1], marks[-1]
    buckets = collections.Counter(int(x - start) for x in times if x < end)
    gaps = [b - a for a, b in zip(marks, marks[1:])]
    return {
        "rate": len(times) / seconds,
        "min_bucket": min(buckets.get(k, 0) for k in range(int(seconds))),
        "gap": max(gaps),
    }


def server_has_option(opts, option: str) -> bool:
    """Whether the measured server's ``--help`` lists ``option``."""
    done = subprocess.run(
        shlex.split(opts.server_cmd) + ["--help"],
        cwd=opts.server_cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=30,
    )
    return option in done.stdout.decode(errors="replace")


#: Log records the server may hold for a slow stderr in row 11 (its --log-queue,
#: where it has one): small enough that 5 s of debug lines overflow it.
LOG_QUEUE_ROW11 = 200


def scenario_stderr_pipe(opts, data: Data) -> list[Row]:
    seconds = 2.0 if opts.quick else 5.0
    args = extra_for(opts) + ["--log-level", "debug"]
    with Server(opts, "stderr-file", args) as server:
        warm_up(server, data)
        base = _load_metrics(_answer_load(server, data, 16, seconds), seconds)
    queue = server_has_option(opts, "--log-queue")
    if queue:
        args += ["--log-queue", str(LOG_QUEUE_ROW11)]
    with Server(opts, "stderr-pipe", args, stderr_pipe=True) as server:
        warm_up(server, data)
        m = _load_metrics(_answer_load(server, data, 16, seconds), seconds)
        text = bytearray(server.early)

        def drain() -> None:
            for chunk in iter(lambda: server.proc.stderr.read1(65536), b""):
                text.extend(chunk)

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        time.sleep(1.0)  # the writer catches up
        after = probe(server, data.easy_one(), 10)
        sent_at = server.signal(signal.SIGTERM)
        rc, exit_s = server.wait_exit(sent_at, 20)
        reader.join(5)
    found = re.search(r"logging fell behind: (\d+) record\(s\) dropped", text.decode(errors="replace"))
    m.update({f"base_{k}": v for k, v in base.items()})
    m.update(
        {
            "dropped": int(found.group(1)) if found else "no such line",
            "after": after.outcome,
            "rc": _describe_rc(rc),
            "exit_s": exit_s if exit_s is not None else "over 20 s",
        }
    )
    return [
        Row(
            "11",
            "`--log-level debug`"
            + (f" `--log-queue {LOG_QUEUE_ROW11}`" if queue else "")
            + f", stderr a pipe nobody reads; 16 connections, one puzzle outstanding"
            f" each (top1465), {seconds:g} s; then the pipe is read",
            m,
            lambda m: (
                f"{m['rate']:.0f} answers/s (stderr to a file: {m['base_rate']:.0f}/s);"
                f" worst second {m['min_bucket']:.0f} answers, longest gap {t(m['gap'])}"
                f" (file: {t(m['base_gap'])}); then: `logging fell behind`: {_n(m['dropped'])} records"
                f" dropped; a new client: {m['after']}; SIGTERM: exit {m['rc']} after {t(m['exit_s'])}"
            ),
            "serving never stops (no gap over 1 s); the dropped count logged",
            m["gap"] < 1.0 and m["min_bucket"] > 0 and found is not None,
        )
    ]


# -- 12. the 1000-connection level of load.py ---------------------------------------------------


def scenario_load1000(opts, data: Data) -> list[Row]:
    seconds = 2.0 if opts.quick else 5.0
    nofile = _load.raise_nofile(1000 + 256)
    with Server(opts, "load1000", extra_for(opts) + ["--max-connections", "1064"], nofile=nofile) as server:
        argv = [
            sys.executable,
            str(HERE / "load.py"),
            "--seconds",
            f"{seconds:g}",
            "--levels",
            "1000",
            "--connect",
            f"127.0.0.1:{server.port}",
            "--server-pid",
            str(server.pid),
        ]
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180)
    out = done.stdout.decode(errors="replace")
    row = next((line for line in out.splitlines() if line.startswith("| 1000 |")), None)
    if row is None:
        m = {"row": "no result: " + out[-300:].replace("\n", " / ")}
        return [Row("12", "load.py --levels 1000", m, lambda m: m["row"], "0 errors", False)]
    cells = [c.strip() for c in row.strip("|").split("|")]
    rss = [float(x) for x in re.findall(r"\d+", cells[7])]
    m = {
        "answers": float(cells[1]),
        "rate": float(cells[2]),
        "p50": float(cells[3]) / 1000,
        "p99": float(cells[4]) / 1000,
        "errors": cells[5],
        "rss_before": rss[0],
        "rss_peak": rss[1],
        "rss_after": rss[2],
    }
    return [
        Row(
            "12",
            f"`python3 benchmarks/load.py --seconds {seconds:g} --levels 1000` (against this server)",
            m,
            lambda m: (
                f"{m['answers']:.0f} answers, {m['rate']:.1f}/s, p50 {t(m['p50'])}, p99 {t(m['p99'])},"
                f" errors {m['errors']}, RSS {m['rss_before']:.0f} / {m['rss_peak']:.0f} / {m['rss_after']:.0f} MB"
                " before/peak/after"
            ),
            "0 errors",
            cells[5] == "0",
        )
    ]


SCENARIOS: list[tuple[str, Callable]] = [
    ("pipelined", scenario_pipelined),
    ("abandoned", scenario_abandoned),
    ("noread-puzzles", scenario_noread_puzzles),
    ("noread-junk", scenario_noread_junk),
    ("parse-flood", scenario_parse_flood),
    ("mixed-attack", scenario_mixed_attack),
    ("signals", scenario_signals),
    ("sigterm", scenario_sigterm),
    ("sigint", scenario_sigint),
    ("sigstop", scenario_sigstop),
    ("stderr-pipe", scenario_stderr_pipe),
    ("load1000", scenario_load1000),
]


# -- the table ---------------------------------------------------------------------------------


def merge(rows: list[Row]) -> Row:
    """One row from the same row of several runs: numbers by median, differing texts joined."""
    metrics: dict[str, object] = {}
    for name in rows[0].metrics:
        values = [r.metrics.get(name) for r in rows]
        numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(numbers) == len(values):
            metrics[name] = statistics.median(numbers)
        else:
            texts = []
            for v in values:
                text = t(v) if isinstance(v, float) else str(v)
                if text not in texts:
                    texts.append(text)
            metrics[name] = " or ".join(texts)
    verdicts = [r.verdict for r in rows]
    first = rows[0]
    merged = Row(first.key, first.what, metrics, first.render, first.target, None)
    merged.verdicts = verdicts  # type: ignore[attr-defined]
    return merged


def verdict_text(row: Row) -> str:
    verdicts = getattr(row, "verdicts", [row.verdict])
    if all(v is None for v in verdicts):
        return "-"
    if all(verdicts):
        return "met"
    if not any(verdicts):
        return "**missed**"
    return f"met in {sum(bool(v) for v in verdicts)} of {len(verdicts)} runs"


def render_row(row: Row) -> str:
    try:
        figures = row.render(row.metrics)
    except Exception as error:  # a merged text where a number was expected
        figures = f"{row.metrics} ({type(error).__name__})"
    return f"| {row.key} | {row.what} | {figures} | {row.target} | {verdict_text(row)} |"


def print_table(rows: list[Row], out=sys.stdout) -> None:
    print("| row | what was done | figures | target | verdict |", file=out)
    print("|---|---|---|---|---|", file=out)
    for row in rows:
        print(render_row(row), file=out)


def select(only: str | None) -> list[tuple[str, Callable]]:
    if not only:
        return SCENARIOS
    chosen = []
    for item in only.split(","):
        item = item.strip()
        for number, (name, fn) in enumerate(SCENARIOS, start=1):
            if item in (name, str(number)):
                chosen.append((name, fn))
                break
        else:
            raise SystemExit(f"no scenario {item!r}; --list shows them")
    return chosen


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__
    )
    p.add_argument("--only", metavar="NAMES", help="scenarios to run, names or row numbers, comma-separated")
    p.add_argument("--quick", action="store_true", help="shorter scenarios (fewer seconds, smaller payloads)")
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="run each scenario N times; the table gives medians (default: 1)",
    )
    p.add_argument(
        "--server-cmd",
        default="python3 -m sudoku_server",
        help="command that starts the server; --host 127.0.0.1 --port 0 are added (default: %(default)s)",
    )
    p.add_argument(
        "--server-cwd",
        default=str(REPO),
        help="directory the server runs in: the checkout measured (default: this one)",
    )
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument for every started server (repeat)",
    )
    p.add_argument(
        "--client", metavar="PATH", help="the bundled client for row 9 (default: SERVER_CWD/sudoku_client/client.py)"
    )
    p.add_argument(
        "--rss-guard-mb",
        type=int,
        default=3000,
        help="stop sending when the server's RSS passes this (default: %(default)s)",
    )
    p.add_argument("--keep-logs", action="store_true", help="keep the servers' log files")
    p.add_argument("--list", action="store_true", help="list the scenarios and exit")
    return p


def main(argv: list[str] | None = None) -> int:
    opts = build_parser().parse_args(argv)
    if opts.list:
        for number, (name, fn) in enumerate(SCENARIOS, start=1):
            print(f"{number:2d} {name}")
        return 0
    opts.server_cwd = str(Path(opts.server_cwd).resolve())
    chosen = select(opts.only)
    command = "python3 benchmarks/hostile_load.py" + "".join(" " + shlex.quote(a) for a in (argv or sys.argv[1:]))
    rev = subprocess.run(
        ["git", "-C", opts.server_cwd, "log", "-1", "--format=%h %s"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ).stdout.strip()
    load_start = os.getloadavg()
    print(f"command: {command}")
    print(
        f"server: {opts.server_cmd} --host 127.0.0.1 --port 0 {' '.join(opts.server_arg)} in {opts.server_cwd}"
        f" ({rev or 'not a git checkout'})"
    )
    print(
        f"machine: {os.cpu_count()} CPUs; load average at start {load_start[0]:.2f} {load_start[1]:.2f}"
        f" {load_start[2]:.2f}; {time.strftime('%Y-%m-%d %H:%M:%S')}",
        flush=True,
    )
    data = Data()
    runs: dict[str, list[Row]] = collections.OrderedDict()
    started = time.monotonic()
    try:
        for run in range(opts.repeat):
            for name, fn in chosen:
                began = time.monotonic()
                print(f"[run {run + 1}/{opts.repeat}] {name} ...", file=sys.stderr, flush=True)
                try:
                    rows = fn(opts, data)
                except Exception as error:
                    traceback.print_exc()
                    rows = [
                        Row(
                            name,
                            name,
                            {"error": f"{type(error).__name__}: {error}"},
                            lambda m: "scenario failed: " + m["error"],
                            "",
                            False,
                        )
                    ]
                for row in rows:
                    runs.setdefault(row.key, []).append(row)
                    print("  " + render_row(row), file=sys.stderr, flush=True)
                print(f"  ({time.monotonic() - began:.0f} s)", file=sys.stderr, flush=True)
    finally:
        for server in _servers:
            server.kill()
    load_end = os.getloadavg()
    print(
        f"\n{len(chosen)} scenario(s) x {opts.repeat} run(s) in {time.monotonic() - started:.0f} s;"
        f" load average at the end {load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f}"
        + ("; figures are medians over the runs, verdicts per run" if opts.repeat > 1 else "")
        + "\n"
    )
    final = [merge(rows) for rows in runs.values()]
    print_table(final)
    return 0 if all(verdict_text(r) in ("met", "-") for r in final) else 1


if __name__ == "__main__":
    sys.exit(main())
