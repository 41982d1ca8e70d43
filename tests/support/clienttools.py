"""Helpers of the client tests: run the client, fake servers, a terminal (pty).

Not a test module (pytest collects ``test_*.py`` only). The client runs in a
subprocess in one of two ways:

* with the server package (``PYTHONPATH`` = this checkout): requests are
  counted by ``sudoku_server``'s own reader (exact); ``python3
  sudoku_client/client.py`` (the file run), or ``python3 -m sudoku_client``;
* ``standalone``: a copy of the ``sudoku_client`` folder alone in a
  temporary directory, run as ``python3 -S -m sudoku_client`` from there
  with no ``PYTHONPATH``, so neither ``sudoku_server`` nor ``tqdm`` can be
  imported, as on a machine where the folder was copied.
"""

from __future__ import annotations

import atexit
import fcntl
import importlib
import os
import pty
import select
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PUZZLES = REPO / "puzzles"
PACKAGE = REPO / "sudoku_client"
#: The file run: ``python3 sudoku_client/client.py``.
CLIENT = PACKAGE / "client.py"

#: Seconds a client run may take before the test fails: a hang, not a speed bound (it takes well under
#: 1 s; GENERATE rules=x level=easy took over 15 s beside two busy processes and a loaded suite).
RUN_TIMEOUT = 60


def load_client():
    """``sudoku_client.client`` of this checkout (never a stale install): the names the tests use."""
    module = importlib.import_module("sudoku_client.client")
    package = sys.modules["sudoku_client"]
    assert Path(package.__file__).resolve().parent == PACKAGE, "sudoku_client is not this checkout's"
    return module


_standalone_root: Path | None = None


def standalone_root() -> Path:
    """A temporary directory holding a copy of the ``sudoku_client`` folder and nothing else.

    Made once per test process (removed at its exit), from the checkout's
    folder as it is then.
    """
    global _standalone_root
    if _standalone_root is None:
        root = Path(tempfile.mkdtemp(prefix="sudoku-client-standalone-"))
        atexit.register(shutil.rmtree, root, True)
        shutil.copytree(PACKAGE, root / "sudoku_client", ignore=shutil.ignore_patterns("__pycache__"))
        _standalone_root = root
    return _standalone_root


def client_command(*args: str, module: bool = False, standalone: bool = False) -> list[str]:
    if standalone:
        return [sys.executable, "-S", "-m", "sudoku_client", *args]
    if module:
        return [sys.executable, "-m", "sudoku_client", *args]
    return [sys.executable, str(CLIENT), *args]


def client_cwd(standalone: bool = False) -> Path:
    """Where the client runs: the checkout, or (standalone) the copy's directory, for ``-m``."""
    return standalone_root() if standalone else REPO


def client_env(standalone: bool = False, env: dict | None = None) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in ("SUDOKU_HOST", "SUDOKU_PORT", "PYTHONPATH")}
    if not standalone:
        base["PYTHONPATH"] = str(REPO)
    return dict(base, **(env or {}))


def run_client(
    *args: str,
    input: bytes = b"",
    module: bool = False,
    standalone: bool = False,
    env: dict | None = None,
    timeout: float = RUN_TIMEOUT,
) -> subprocess.CompletedProcess:
    """Run the client with *args*; return the finished process (bytes output)."""
    return subprocess.run(
        client_command(*args, module=module, standalone=standalone),
        input=input,
        capture_output=True,
        cwd=client_cwd(standalone),
        env=client_env(standalone, env),
        timeout=timeout,
    )


def address_args(server_address: tuple) -> list[str]:
    host, port = server_address
    return ["--host", host, "--port", str(port)]


# --- fake servers --------------------------------------------------------------


#: The server's reply to KEEPALIVE, and an older server's.
KEEPALIVE_ON = b"KEEPALIVE on: no close grace; QUIT or end of input ends the session, or 60 s of silence\n"
KEEPALIVE_UNKNOWN = b'ERROR command unknown verb "KEEPALIVE"; try HELP\n'


class Close(bytes):
    """A fake server's last reply: sent, then the connection closes."""


class FakeServer:
    """A line-based fake sudoku-server on 127.0.0.1, in a thread.

    ``answer(line)`` (the line's bytes without its ending) returns the reply
    bytes, or None for no reply (a :class:`Close` reply closes the
    connection after it). Each connection is read until the client
    half-closes; the server then closes. ``connections`` holds the lines
    received, one list per connection. A ``KEEPALIVE`` line (the client
    sends it first when its input is not a terminal) is answered as the
    server answers it, unless *keepalive* is False (an older server: the
    unknown-verb error); either way it is counted in ``keepalives``, not
    in ``connections``.
    """

    def __init__(self, answer: Callable[[bytes], bytes | None], keepalive: bool = True) -> None:
        self.answer = answer
        self.keepalive = keepalive
        self.keepalives = 0
        self.connections: list[list[bytes]] = []
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(8)
        self._listener.settimeout(0.1)
        self.port = self._listener.getsockname()[1]
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._acceptor = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> FakeServer:
        self._acceptor.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._acceptor.join(RUN_TIMEOUT)
        for thread in self._threads:
            thread.join(RUN_TIMEOUT)
        self._listener.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            lines: list[bytes] = []
            self.connections.append(lines)
            thread = threading.Thread(target=self._serve, args=(conn, lines), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket, lines: list[bytes]) -> None:
        conn.settimeout(RUN_TIMEOUT)
        buffer = b""
        with conn:
            try:
                while True:
                    data = conn.recv(65536)
                    if not data:
                        break
                    buffer += data
                    while b"\n" in buffer:
                        line, buffer = buffer.split(b"\n", 1)
                        line = line.rstrip(b"\r")
                        if line == b"KEEPALIVE":
                            self.keepalives += 1
                            conn.sendall(KEEPALIVE_ON if self.keepalive else KEEPALIVE_UNKNOWN)
                            continue
                        lines.append(line)
                        reply = self.answer(line)
                        if reply:
                            conn.sendall(reply)
                        if isinstance(reply, Close):
                            return
            except OSError:
                pass


# --- a terminal -----------------------------------------------------------------


def _open_pty(rows: int = 40, cols: int = 120) -> tuple[int, int]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    return master, slave


class TerminalClient:
    """The client with a terminal (pty) on standard input, as a person runs it.

    Standard output and error are pipes (so no hint and no summary: those
    need a terminal on standard error), read in the background.
    """

    def __init__(self, *args: str, standalone: bool = False) -> None:
        self._master, slave = _open_pty()
        self.proc = subprocess.Popen(
            client_command(*args, standalone=standalone),
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=client_cwd(standalone),
            env=client_env(standalone),
        )
        os.close(slave)
        self.stdout = b""
        self.stderr = b""
        self._readers = [
            threading.Thread(target=self._read, args=("stdout",), daemon=True),
            threading.Thread(target=self._read, args=("stderr",), daemon=True),
            threading.Thread(target=self._drain_echo, daemon=True),
        ]
        for thread in self._readers:
            thread.start()

    def _read(self, name: str) -> None:
        stream = getattr(self.proc, name)
        while True:
            data = stream.read1(65536)
            if not data:
                break
            setattr(self, name, getattr(self, name) + data)

    def _drain_echo(self) -> None:
        # The terminal echoes what is typed; read it so the pty never fills.
        while True:
            try:
                readable, _, _ = select.select([self._master], [], [], 0.1)
                if readable and not os.read(self._master, 65536):
                    break
            except OSError:
                break
            if self.proc.poll() is not None:
                break

    def type(self, text: bytes) -> None:
        os.write(self._master, text)

    def wait_stdout(self, expected: bytes, timeout: float = RUN_TIMEOUT) -> bool:
        """True once standard output is *expected* (exactly), False after *timeout*."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.stdout == expected:
                return True
            time.sleep(0.02)
        return self.stdout == expected

    def end(self, timeout: float = RUN_TIMEOUT) -> int:
        """Ctrl-D, then wait for the client to exit; returns its status."""
        try:
            os.write(self._master, b"\x04")
        except OSError:
            pass  # it has exited already
        try:
            status = self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            for thread in self._readers:
                thread.join(RUN_TIMEOUT)
            self.proc.stdout.close()
            self.proc.stderr.close()
            os.close(self._master)
        return status


def run_with_terminal_stderr(*args: str, standalone: bool = False, stdin: bytes = b"") -> tuple[bytes, int]:
    """Run the client with a terminal on standard error, standard output to /dev/null.

    Returns what it wrote to the terminal (the pty turns LF into CRLF) and
    its exit status.
    """
    master, slave = _open_pty()
    proc = subprocess.Popen(
        client_command(*args, standalone=standalone),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        cwd=client_cwd(standalone),
        env=client_env(standalone),
    )
    os.close(slave)
    writer = threading.Thread(target=lambda: proc.communicate(stdin, timeout=RUN_TIMEOUT), daemon=True)
    writer.start()
    seen = b""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the client exited and closed its side
            break
        if not data:
            break
        seen += data
    writer.join(RUN_TIMEOUT)
    os.close(master)
    return seen, proc.wait(RUN_TIMEOUT)
