"""Dependencies point one way: the pure modules never import trio or sockets."""

import subprocess
import sys

PURE = [
    "sudoku_server", "sudoku_server.grid", "sudoku_server.formats", "sudoku_server.solver",
    "sudoku_server._pysolver", "sudoku_server.protocol", "sudoku_server.commands", "sudoku_server.scheduler",
    "sudoku_server.proxy", "sudoku_server.metrics", "sudoku_server.techniques", "sudoku_server.rating",
    "sudoku_server.generator",
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
