"""Servers for the tests: in process over real sockets (``running_server``), or ``python -m sudoku_server``
in a subprocess (``start_server_process``); and the client side of a socket (connect, send, read, reset)."""

from __future__ import annotations

import os
import re
import socket
import struct
import subprocess
import sys
from contextlib import asynccontextmanager

import trio
import trio.testing

from sudoku_server.net.config import ServerConfig
from sudoku_server.net.server import SudokuServer
from tests.support.paths import REPO


@asynccontextmanager
async def running_server(**overrides):
    """A SudokuServer on 127.0.0.1, port 0; yields it with ``.listeners``."""
    solve = overrides.pop("solve", None)
    config = ServerConfig(host="127.0.0.1", port=0, **overrides)
    server = SudokuServer(config, **({"solve": solve} if solve else {}))
    async with trio.open_nursery() as nursery:
        server.listeners = await nursery.start(server.serve)
        yield server
        nursery.cancel_scope.cancel()


async def connect(server) -> trio.SocketStream:
    return await trio.testing.open_stream_to_socket_listener(server.listeners[0])


async def read_all(stream) -> bytes:
    chunks = []
    while True:
        data = await stream.receive_some(65536)
        if not data:
            return b"".join(chunks)
        chunks.append(data)


async def exchange(server, data: bytes, half_close: bool = True) -> bytes:
    stream = await connect(server)
    async with stream:
        await stream.send_all(data)
        if half_close:
            await stream.send_eof()
        return await read_all(stream)


def reset(stream: trio.SocketStream) -> None:
    """Close with SO_LINGER 0: the kernel sends RST instead of FIN."""
    stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    stream.socket.close()


_LISTENING = re.compile(r"listening on (\S+):(\d+)")


def start_server_process(*extra_args: str) -> tuple[subprocess.Popen, str, int]:
    """Start ``python -m sudoku_server --host 127.0.0.1 --port 0 EXTRA...``.

    Returns the process and the (host, port) it listens on. Raises
    RuntimeError if the server exits or prints no listening line in 20 s.
    """
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", *extra_args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=env,
    )
    lines = []
    assert proc.stderr is not None
    for raw in proc.stderr:
        line = raw.decode("utf-8", "replace")
        lines.append(line)
        match = _LISTENING.search(line)
        if match:
            return proc, match.group(1), int(match.group(2))
        if len(lines) > 50:
            break
    proc.kill()
    raise RuntimeError("server did not start:\n" + "".join(lines))


def stop_server_process(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()


async def ask(data: bytes, **config) -> bytes:
    """The bytes a fresh in-process server (``running_server(**config)``) answers to ``data`` then end of input."""
    with trio.fail_after(20):
        async with running_server(**config) as server:
            return await exchange(server, data)


def stat_values(block: bytes) -> dict[str, str]:
    """STATS's block (``STAT name value`` lines, then ``END``) as {name: value}."""
    lines = block.decode().splitlines()
    assert lines[-1] == "END", block
    return dict(line.split(" ", 2)[1:] for line in lines[:-1])
