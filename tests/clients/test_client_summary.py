"""The bundled client's summary line and exit status agree (a caption is no error; a line that is not a
puzzle is exit status 1), against a real server process.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from sudoku_client import cli as client_cli
from tests.support.examples import INKALA
from tests.support.paths import REPO

PLAIN = "".join(INKALA[r * 9 : r * 9 + 9] + "\n" for r in range(9))


def _client(tmp_path, capsys, text: str, port: int, *extra: str) -> tuple[int, str]:
    path = tmp_path / "in.txt"
    path.write_text(text)
    status = client_cli.main(["--port", str(port), "--summary", *extra, str(path)])
    return status, capsys.readouterr().err


@pytest.fixture
def server_port():
    """A server in a child process (the client's main blocks), on a free port."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0"],
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = None
        assert proc.stderr is not None
        for line in proc.stderr:
            found = re.search(r"127\.0\.0\.1 port (\d+)", line) or re.search(r"127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
                break
        assert port is not None
        yield port
    finally:
        proc.terminate()
        proc.wait(10)
        assert proc.stderr is not None
        proc.stderr.close()


def test_the_client_summary_and_exit_status_agree(tmp_path, capsys, server_port):
    status, err = _client(tmp_path, capsys, "Here is today's puzzle:\n" + PLAIN, server_port)
    assert status == 0
    assert re.fullmatch(r"sudoku-client: 1 puzzle: 1 solved, 0 errors; \S+ s, \S+ puzzles/s\n", err), err
    status, err = _client(tmp_path, capsys, "hello\n\n" + PLAIN, server_port)
    assert status == 1
    assert re.fullmatch(
        r"sudoku-client: 1 puzzle: 1 solved, 0 errors; 1 line was not a puzzle \(an error: exit status 1\);"
        r" \S+ s, \S+ puzzles/s\n",
        err,
    ), err
