"""docs/OPERATIONS.md's captured interactive session, replayed line by line against a real server (issue 32).

The session in "Interactive sessions (typing or pasting)" is what a person
sees at plain ``nc``: the lines they typed and the server's replies, in
order. The test types each line the server has not sent (waiting, as a person
does, for what the server says first) and compares every byte the server
sends with the document's reply lines, then checks the server closes after
``BYE``. Before issue 32 the captured session began with a command typed at
once (which looks like a pipe's) and the server closed it after the first
answer.
"""

from __future__ import annotations

import re
import select
import socket
import time

import pytest

from tests.support.paths import REPO
from tests.support.servers import start_server_process, stop_server_process

#: Seconds a person waits after typing a line before the next, one value per attempt. The server
#: answers within the first on a quiet machine; on a busy one a reply can come later than that, and
#: the replay would take the server's late line for one the person types, so the session is
#: replayed again, on a new connection, with a longer pause. No attempt asserts a time.
PAUSES = (0.3, 1.0, 3.0)


def captured_session() -> list[str]:
    """The lines of the session block in OPERATIONS.md "Interactive sessions"."""
    text = (REPO / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
    section = text.split("## Interactive sessions", 1)[1]
    match = re.search(r"captured from tmux\):\n\n```\n(.*?)```\n", section, re.S)
    assert match, "no captured session in OPERATIONS.md"
    return match.group(1).splitlines()


@pytest.fixture
def server():
    proc, host, port = start_server_process()
    try:
        yield host, port
    finally:
        stop_server_process(proc)


def replay(address: tuple[str, int], lines: list[str], pause: float) -> tuple[list[str], str | None]:
    """Type the session's lines the server does not send; return the typed lines and the first mismatch (or None)."""
    received = b""
    typed: list[str] = []
    with socket.create_connection(address, timeout=10) as sock:

        def read_for(seconds: float) -> bytes:
            data = b""
            deadline = time.monotonic() + seconds
            while (left := deadline - time.monotonic()) > 0:
                ready, _, _ = select.select([sock], [], [], left)
                if not ready:
                    break
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            return data

        for line in lines:
            if not received:
                received = read_for(pause)
            wanted = (line + "\n").encode()
            if received:  # the server spoke: this line is its
                if not received.startswith(wanted):
                    return typed, f"after typing {typed[-1:]}, wanted {wanted!r}, the server sent {received!r}"
                received = received[len(wanted) :]
            else:  # the person types it
                typed.append(line)
                sock.sendall(wanted)
        received += read_for(3.0 + pause)  # BYE, then the server closes (its linger is 2 s)
        if received:
            return typed, f"after the session the server sent {received!r}"
        sock.settimeout(10)
        if sock.recv(1) != b"":
            return typed, "the server did not close after BYE"
    return typed, None


def test_the_documented_session_replays_byte_for_byte(server):
    lines = captured_session()
    assert lines[0] == "INTERACTIVE" and lines[-2:] == ["QUIT", "BYE"]
    mismatches = []
    for pause in PAUSES:
        typed, mismatch = replay(server, lines, pause)
        if mismatch is None:
            break
        mismatches.append(f"pause {pause} s: {mismatch}")
    assert mismatch is None, mismatches
    assert typed[:2] == ["INTERACTIVE", lines[2]] and typed[-1] == "QUIT"
