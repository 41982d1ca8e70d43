"""The bundled client (sudoku_client/client.py) against the real server.

Every test runs the client as a user would, in a subprocess
(``python sudoku_client/client.py ...`` or ``python -m sudoku_client``),
and compares its standard output byte for byte. Error answers are checked by
their ``ERROR <code> `` prefix only: the detail text belongs to the server.
"""

from __future__ import annotations

import ast
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.support.clienttools import (
    CLIENT,
    KEEPALIVE_ON,
    PUZZLES,
    REPO,
    RUN_TIMEOUT,
    Close,
    FakeServer,
    address_args,
    client_cwd,
    client_env,
    load_client,
    run_client,
)

NEWSPAPER = (PUZZLES / "newspaper.txt").read_bytes()
NEWSPAPER_ANSWER = (PUZZLES / "newspaper.expected").read_bytes()

#: One-line puzzle whose row 1 holds two 5s.
INVALID_ONE_LINE = b"55" + b"." * 79 + b"\n"


def error_lines(output: bytes, code: str) -> list[bytes]:
    prefix = ("ERROR %s " % code).encode()
    return [line for line in output.splitlines() if line.startswith(prefix)]


@pytest.fixture
def newspaper_file(tmp_path: Path) -> Path:
    path = tmp_path / "newspaper.txt"
    path.write_bytes(NEWSPAPER)
    return path


@pytest.fixture
def invalid_file(tmp_path: Path) -> Path:
    path = tmp_path / "invalid.txt"
    path.write_bytes(INVALID_ONE_LINE)
    return path


# --- answers -----------------------------------------------------------------


def test_newspaper_from_stdin(server_address):
    result = run_client(*address_args(server_address), input=NEWSPAPER)
    assert result.stdout == NEWSPAPER_ANSWER
    assert result.stderr == b""
    assert result.returncode == 0


def test_newspaper_from_file(server_address, newspaper_file):
    result = run_client(*address_args(server_address), str(newspaper_file))
    assert result.stdout == NEWSPAPER_ANSWER
    assert result.stderr == b""
    assert result.returncode == 0


def test_dash_means_stdin(server_address):
    result = run_client(*address_args(server_address), "-", input=NEWSPAPER)
    assert result.stdout == NEWSPAPER_ANSWER
    assert result.returncode == 0


def test_runs_as_module(server_address, newspaper_file):
    result = run_client(*address_args(server_address), str(newspaper_file), module=True)
    assert result.stdout == NEWSPAPER_ANSWER
    assert result.stderr == b""
    assert result.returncode == 0


def test_host_and_port_from_environment(server_address, newspaper_file):
    host, port = server_address
    env = {"SUDOKU_HOST": host, "SUDOKU_PORT": str(port)}
    result = run_client(str(newspaper_file), env=env)
    assert result.stdout == NEWSPAPER_ANSWER
    assert result.returncode == 0


def test_crlf_request_gets_crlf_answer(server_address):
    request = NEWSPAPER.replace(b"\n", b"\r\n")
    result = run_client(*address_args(server_address), input=request)
    assert result.stdout == NEWSPAPER_ANSWER.replace(b"\n", b"\r\n")
    assert result.returncode == 0


def test_invalid_puzzle_exits_1(server_address, invalid_file):
    result = run_client(*address_args(server_address), str(invalid_file))
    assert result.returncode == 1
    lines = result.stdout.splitlines(keepends=True)
    assert len(lines) == 1
    assert lines[0].startswith(b"ERROR invalid ")
    assert lines[0].endswith(b"\n")
    assert len(error_lines(result.stdout, "invalid")) == 1
    assert result.stderr == b""


def test_norvig_top95(server_address):
    expected = (PUZZLES / "norvig_top95.expected").read_bytes()
    result = run_client(*address_args(server_address), str(PUZZLES / "norvig_top95.txt"))
    assert result.stdout == expected
    assert result.stderr == b""
    assert result.returncode == 0


def test_several_files_answer_in_order(server_address, newspaper_file):
    top95 = PUZZLES / "norvig_top95.txt"
    expected = NEWSPAPER_ANSWER + (PUZZLES / "norvig_top95.expected").read_bytes()
    result = run_client(*address_args(server_address), str(newspaper_file), str(top95), str(newspaper_file))
    assert result.stdout == expected + NEWSPAPER_ANSWER
    assert result.returncode == 0


def test_several_files_with_one_invalid(server_address, newspaper_file, invalid_file):
    result = run_client(
        *address_args(server_address),
        str(newspaper_file),
        str(invalid_file),
        "-",
        input=NEWSPAPER,
    )
    assert result.returncode == 1
    first, rest = result.stdout[: len(NEWSPAPER_ANSWER)], result.stdout[len(NEWSPAPER_ANSWER) :]
    assert first == NEWSPAPER_ANSWER
    error_line, _, last = rest.partition(b"\n")
    assert error_line.startswith(b"ERROR invalid ")
    assert last == NEWSPAPER_ANSWER
    assert len(error_lines(result.stdout, "invalid")) == 1


def test_many_puzzles_on_one_connection(server_address):
    copies = 100
    result = run_client(*address_args(server_address), input=NEWSPAPER * copies, timeout=60)
    assert result.stdout == NEWSPAPER_ANSWER * copies
    assert result.returncode == 0


def test_large_input_does_not_deadlock():
    # An echo server with small socket buffers and 20 MB of input: a client
    # that sent everything before reading would block for ever (measured: a
    # plain sendall() stalls). This one reads the echo while it still sends.
    # One-line puzzles, so that the client's count of requests (checked
    # against the replies since issue 17) matches the echoed lines; its
    # hidden KEEPALIVE gets the server's reply.
    line = b"8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\n"
    data = line * (20 * 1024 * 1024 // len(line))

    def echo(listener: socket.socket) -> None:
        conn, _ = listener.accept()
        conn.settimeout(RUN_TIMEOUT)
        with conn:
            first = b""
            while not first.endswith(b"\n"):
                first += conn.recv(1)
            assert first == b"KEEPALIVE\n"
            conn.sendall(KEEPALIVE_ON)
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                conn.sendall(chunk)

    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        thread = threading.Thread(target=echo, args=(listener,))
        thread.start()
        try:
            result = run_client("--port", str(port), "--timeout", "10", input=data, timeout=60)
        finally:
            thread.join(RUN_TIMEOUT)
    assert result.stderr == b""
    assert result.returncode == 0
    assert result.stdout == data


def test_exits_when_server_closes_while_stdin_stays_open():
    # The input never ends and an older server (no KEEPALIVE: its close
    # grace ends the session) closes after the answer: the client must exit
    # cleanly (0: every request read was answered) though its sending thread
    # is still blocked reading standard input, after --timeout of silence
    # on that input. (Before issue 17 it was the current server's close
    # grace; the client now holds its session with KEEPALIVE.)
    last_row = NEWSPAPER.splitlines()[-2]

    def answer(line: bytes) -> bytes | None:
        return Close(NEWSPAPER_ANSWER) if line == last_row else None

    read_end, write_end = os.pipe()
    try:
        with (
            FakeServer(answer, keepalive=False) as fake,
            subprocess.Popen(
                [sys.executable, str(CLIENT), "--port", str(fake.port), "--timeout", "1"],
                env=client_env(),
                stdin=read_end,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=REPO,
            ) as proc,
        ):
            os.close(read_end)
            read_end = -1
            os.write(write_end, NEWSPAPER)
            try:
                stdout, stderr = proc.communicate(timeout=RUN_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise
    finally:
        os.close(write_end)
        if read_end != -1:
            os.close(read_end)
    assert fake.keepalives == 1 and len(fake.connections) == 2  # the KEEPALIVE's, then the input's
    assert stdout == NEWSPAPER_ANSWER
    assert stderr == b""
    assert proc.returncode == 0


def test_too_long_line_exits_2_and_says_why(server_address):
    request = b"1" * 10_000_000 + b"\n"
    result = run_client(*address_args(server_address), input=request)
    assert result.returncode == 2
    assert result.stdout == b"ERROR too-large line 1 is longer than 4096 bytes\n"
    assert result.stderr == (
        b"sudoku-client: the server ended the connection: ERROR too-large line 1 is longer than 4096 bytes\n"
    )


# --- failures ----------------------------------------------------------------


def test_closed_port_exits_2():
    with socket.socket() as reserved:
        # Bound but not listening: nothing else can take the port meanwhile.
        reserved.bind(("127.0.0.1", 0))
        port = reserved.getsockname()[1]
        result = run_client("--host", "127.0.0.1", "--port", str(port), input=NEWSPAPER)
    assert result.returncode == 2
    assert result.stdout == b""
    message = "sudoku-client: cannot connect to 127.0.0.1:%d: Connection refused\n" % port
    assert result.stderr.decode() == message


def test_unreadable_file_exits_2(server_address, tmp_path, newspaper_file):
    missing = tmp_path / "missing.txt"
    result = run_client(*address_args(server_address), str(newspaper_file), str(missing))
    assert result.returncode == 2
    assert result.stdout == b""
    message = "sudoku-client: cannot read %s: No such file or directory\n" % missing
    assert result.stderr.decode() == message


def test_silent_server_times_out(wallclock):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)  # the kernel accepts; nobody ever answers
        port = listener.getsockname()[1]
        started = time.monotonic()
        result = run_client("--port", str(port), "--timeout", "1", input=NEWSPAPER)
        elapsed = time.monotonic() - started
    assert result.returncode == 2
    assert result.stdout == b""
    message = "sudoku-client: no answer from 127.0.0.1:%d within 1 s\n" % port
    assert result.stderr.decode() == message
    wallclock.below(elapsed, 10, "the client's timeout")


def test_reset_connection_exits_2():
    sent = b"+-------+"

    def serve_then_reset(listener: socket.socket) -> None:
        conn, _ = listener.accept()
        with conn:
            assert conn.recv(10) == b"KEEPALIVE\n"  # the client's hidden first line
            conn.sendall(KEEPALIVE_ON)
            while conn.recv(65536):  # until the client half-closes
                pass
            conn.sendall(sent)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        thread = threading.Thread(target=serve_then_reset, args=(listener,))
        thread.start()
        try:
            result = run_client("--port", str(port), input=NEWSPAPER)
        finally:
            thread.join(RUN_TIMEOUT)
    assert result.returncode == 2
    assert sent.startswith(result.stdout)
    assert result.stderr.startswith(b"sudoku-client: ")
    assert b"Connection reset by peer" in result.stderr


# --- the command line and the module itself ---------------------------------


def test_help_lists_exit_codes():
    result = run_client("--help")
    assert result.returncode == 0
    out = result.stdout.decode()
    assert "Send Sudoku puzzles" in out
    assert "exit status:" in out
    assert "ERROR shutdown" in out and "connections open" in out
    for code in ("0", "1", "2"):
        assert "\n  %s " % code in out


def test_help_and_client_doc_hold_the_same_exit_table():
    table = load_client().EXIT_TABLE
    assert table in run_client("--help").stdout.decode()
    assert table in run_client("--help", standalone=True).stdout.decode()
    doc = (REPO / "docs" / "CLIENT.md").read_text(encoding="utf-8")
    assert table in doc  # docs/CLIENT.md quotes it in a code block
    # and the docstring of the command line's module (sudoku_client.cli), without its first line
    cli = sys.modules[load_client().main.__module__]
    assert table.split("\n", 1)[1] in cli.__doc__


def test_bad_port_is_a_usage_error():
    result = run_client("--port", "99999")
    assert result.returncode == 2
    assert b"invalid port" in result.stderr


@pytest.mark.parametrize("standalone", [False, True], ids=["package", "standalone"])
def test_version(standalone):
    result = run_client("--version", standalone=standalone)
    assert result.stdout == b"sudoku-client 0.3.0\n"
    assert result.stderr == b""
    assert result.returncode == 0


def test_the_file_runs_alone_as_the_package_does(tmp_path):
    # python3 sudoku_client/client.py loads the package from its own folder
    # and adds nothing else to sys.path: a copy of the folder, run with -S,
    # is the client alone (no server package), as python3 -S -m sudoku_client is.
    copy = client_cwd(standalone=True) / "sudoku_client" / "client.py"
    env = client_env(True)
    as_module = run_client("--help", standalone=True)
    as_file = subprocess.run([sys.executable, "-S", str(copy), "--help"], capture_output=True, cwd=tmp_path, env=env)
    assert as_file.returncode == as_module.returncode == 0
    assert as_file.stdout == as_module.stdout
    # a server that answers nothing: the package's exact count would exit 2
    path = tmp_path / "newspaper.txt"
    path.write_bytes(NEWSPAPER)
    with FakeServer(lambda line: None) as fake:
        alone = subprocess.run(
            [sys.executable, "-S", str(copy), "--port", str(fake.port), str(path)],
            capture_output=True,
            cwd=tmp_path,
            env=env,
            timeout=RUN_TIMEOUT,
        )
    assert (alone.returncode, alone.stdout, alone.stderr) == (0, b"", b"")
    assert fake.connections == [NEWSPAPER.splitlines()]  # the grid was sent, and nothing was answered


def test_version_constant_is_the_packages():
    import sudoku_server

    assert sudoku_server.__version__ == load_client().VERSION
    assert load_client().client_version() == sudoku_server.__version__


@pytest.mark.parametrize(
    "args, message",
    [
        (["--size", "9"], "--size needs --generate"),
        (["--full"], "--full needs --generate"),
        (["--generate", "2", "puzzles/empty.txt"], "--generate takes no FILE"),
        (["--generate", "0"], "invalid number '0' (expected an integer >= 1)"),
        (["--count", "--generate", "1"], "not allowed with argument"),
        (["--generate", "1", "--size", "10"], "invalid choice: 10"),
    ],
)
def test_mode_usage_errors(args, message):
    result = run_client(*args)
    assert result.returncode == 2
    assert result.stdout == b""
    assert message in result.stderr.decode()


def _optional_imports(tree: ast.AST) -> set:
    """Imports inside a ``try`` whose handlers catch ImportError."""
    optional = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        caught = set()
        for handler in node.handlers:
            names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            caught.update(name.id for name in names if isinstance(name, ast.Name))
        if "ImportError" in caught:
            for inner in node.body:
                for sub in ast.walk(inner):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        optional.add(sub)
    return optional


def _imports(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """Every import in *tree*, nested ones too: (node, top-level package name)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative import in the client"
            found.append((node, node.module.split(".")[0]))
    return found


#: Imports allowed beyond the standard library, by module of the client: the
#: client's own modules everywhere; the server package (exact request
#: routing) only in routing.py and tqdm (the progress bar) only in
#: progress.py, both optional (imported under a guard that catches ImportError).
OPTIONAL_IMPORTS = {"routing.py": {"sudoku_server"}, "progress.py": {"tqdm"}}


def test_standard_library_only_and_python38_syntax():
    modules = sorted((REPO / "sudoku_client").glob("*.py"))
    assert {"client.py", "cli.py", "routing.py", "progress.py", "__main__.py"} <= {path.name for path in modules}
    stdlib = set(getattr(sys, "stdlib_module_names", ())) | {"__future__"}
    optional_seen = {}
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"), feature_version=(3, 8))
        optional = _optional_imports(tree)
        at_top = {id(node) for node in tree.body}
        for node, name in _imports(tree):
            if name == "sudoku_client":
                continue
            if node in optional:
                assert name in OPTIONAL_IMPORTS.get(path.name, set()), (path.name, name)
                optional_seen.setdefault(path.name, set()).add(name)
                assert id(node) not in at_top, (path.name, name)  # lazily, never at import
            elif hasattr(sys, "stdlib_module_names"):  # Python 3.10+
                assert name in stdlib, (path.name, name)
            assert name != "trio", path.name
    assert optional_seen == OPTIONAL_IMPORTS


def test_standalone_run_cannot_import_the_package():
    # What the "standalone" runs of these tests rely on: from the copy's
    # directory, with -S, the client's folder is importable and nothing else.
    probe = (
        "import importlib.util as u; import sudoku_client.cli; "
        "print(u.find_spec('sudoku_server'), u.find_spec('tqdm'), sudoku_client.cli.__file__)"
    )
    root = client_cwd(standalone=True)
    assert sorted(path.name for path in root.iterdir()) == ["sudoku_client"]
    result = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, cwd=root, env=client_env(True))
    assert result.stdout == b"None None %s\n" % str(root / "sudoku_client" / "cli.py").encode()
    assert result.returncode == 0
