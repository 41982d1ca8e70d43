"""Dependencies point one way: the pure modules never import trio or sockets."""

import subprocess
import sys

PURE = [
    "sudoku_server",
    "sudoku_server.sudoku.grid",
    "sudoku_server.text",
    "sudoku_server.sudoku.solver",
    "sudoku_server.sudoku.solver._python",
    "sudoku_server.wire.session",
    "sudoku_server.wire.verbs",
    "sudoku_server.net.scheduler",
    "sudoku_server.wire.proxy",
    "sudoku_server.net.metrics",
    "sudoku_server.sudoku.techniques",
    "sudoku_server.sudoku.rating",
    "sudoku_server.sudoku.generator",
]


def test_pure_modules_import_no_io():
    code = (
        "import sys\n"
        + "".join(f"import {name}\n" for name in PURE)
        + "bad = sorted(m for m in ('trio', 'socket', 'selectors', 'asyncio') if m in sys.modules)\n"
        + "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
