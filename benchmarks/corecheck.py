"""The solver core a benchmark measured, and its refusal of a pure-Python measurement (issue 18).

A benchmark imports the installed package (or the checkout on ``PYTHONPATH``,
or a ``--tree``), never the checkout's folder by accident: a server it starts
runs from :data:`NEUTRAL_CWD` (``python3 -m`` imports from its working
folder first). It prints the core it measured, and stops with exit status 2
when that core is the pure-Python one, unless ``--allow-python-core`` was
given (the pure-Python figures are then what it measures, on purpose).
Standard library only.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

#: The working folder of a server a benchmark starts: this folder, which holds
#: no ``sudoku_server`` package, so ``python3 -m sudoku_server`` imports the
#: installed one (or ``PYTHONPATH``'s).
NEUTRAL_CWD = Path(__file__).resolve().parent
#: The flag that lets a benchmark measure the pure-Python core.
ALLOW_FLAG = "--allow-python-core"


def add_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--allow-python-core`` (``args.allow_python_core``) to a benchmark's parser."""
    parser.add_argument(
        ALLOW_FLAG,
        action="store_true",
        help="measure even when the solver core is the pure-Python one (refused otherwise: exit status 2)",
    )


def server_core(host: str, port: int, timeout: float = 10.0) -> str:
    """The ``core`` field of the server's ``STATS`` (``native`` or ``python``; ``?`` if it did not say)."""
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(b"STATS\n")
        data = b""
        while b"\nEND" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    for line in data.decode("ascii", "replace").splitlines():
        if line.startswith("STAT core "):
            return line.split(" ", 2)[2].strip()
    return "?"


def require_native(core: str, allowed: bool, what: str) -> None:
    """Print ``solver core: CORE (WHAT)``; SystemExit(2) when it is not native and ``allowed`` is false."""
    print(f"solver core: {core} ({what})", flush=True)
    if core != "native" and not allowed:
        print(
            f"refusing to measure the {core!r} solver core ({what}): build the native core"
            f" (python3 setup.py build_ext --inplace, or pip install .) or pass {ALLOW_FLAG}",
            file=sys.stderr,
        )
        raise SystemExit(2)
