"""TRANSMIT-BINARY (RFC 856): the server offers it to a telnet client, so a pasted box-drawn grid arrives whole (issue 32).

Linux telnet in its default 7-bit mode takes the last byte of ``├`` (0x9C),
``┃`` (0x83) and ``╝`` (0x9D) for its quit key, Ctrl-C and its escape
``^]``. The negotiation bytes are checked on the sans-I/O classes; the real
telnet client in tmux then pastes a light, a heavy and a double box-drawn
grid and reads the solved grids on its screen. A plain ``nc`` (no telnet)
never sees a telnet byte.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import uuid

import pytest

from sudoku_server.wire.session import CommandReceived, Session, TelnetReply
from sudoku_server.wire.telnet import OFFER_BINARY, Telnet
from tests.support.servers import start_server_process, stop_server_process

IAC, DO, DONT, WILL, WONT, BINARY, ECHO = 0xFF, 0xFD, 0xFE, 0xFB, 0xFC, 0x00, 0x01

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def replies(events) -> list[bytes]:
    return [event.data for event in events if isinstance(event, TelnetReply)]


# -- the negotiation bytes ---------------------------------------------------


def test_the_offer_is_do_binary_and_will_binary_once():
    telnet = Telnet(4096)
    assert bytes((IAC, DO, BINARY, IAC, WILL, BINARY)) == OFFER_BINARY
    assert telnet.offer_binary() == b"\xff\xfd\x00\xff\xfb\x00"
    assert telnet.offer_binary() == b""
    assert not telnet.binary


def test_the_clients_acceptance_of_the_offer_is_not_answered():
    telnet = Telnet(4096)
    telnet.offer_binary()
    assert list(telnet.feed(b"\xff\xfb\x00\xff\xfd\x00\xe2\x94\x9c\n")) == [b"\xe2\x94\x9c\n"]
    assert telnet.binary


def test_a_refusal_of_the_offer_is_not_answered_and_binary_stays_off():
    telnet = Telnet(4096)
    telnet.offer_binary()
    assert list(telnet.feed(b"\xff\xfc\x00\xff\xfe\x00PING\r\n")) == [b"PING\r\n"]
    assert not telnet.binary


def test_binary_asked_by_the_client_is_accepted_and_other_options_still_refused():
    telnet = Telnet(4096)
    items = list(telnet.feed(b"\xff\xfb\x00\xff\xfd\x00\xff\xfd\x01\xff\xfb\x01"))
    assert [item.data for item in items] == [  # type: ignore[union-attr]
        b"\xff\xfd\x00",  # WILL BINARY: DO BINARY
        b"\xff\xfb\x00",  # DO BINARY: WILL BINARY
        b"\xff\xfc\x01",  # DO ECHO: WONT ECHO, as before
        b"\xff\xfe\x01",  # WILL ECHO: DONT ECHO, as before
    ]
    assert telnet.binary
    assert list(telnet.feed(b"\xff\xfb\x00")) == []  # already on: no answer, no loop
    assert telnet.offer_binary() == b""  # both sides already binary: nothing to ask


def test_binary_turned_off_by_the_client_is_acknowledged_once():
    telnet = Telnet(4096)
    telnet.offer_binary()
    list(telnet.feed(b"\xff\xfb\x00"))
    items = list(telnet.feed(b"\xff\xfc\x00\xff\xfc\x00"))
    assert [item.data for item in items] == [b"\xff\xfe\x00"]  # type: ignore[union-attr]
    assert not telnet.binary


def test_a_telnet_negotiation_gets_its_refusal_then_the_binary_offer():
    session = Session()
    events = session.receive_data(b"\xff\xfd\x18", now=0.0)  # DO TERMINAL-TYPE (telnet on port 23)
    assert replies(events) == [b"\xff\xfc\x18", OFFER_BINARY]
    assert session.interactive
    events = session.receive_data(b"\xff\xfb\x00\xff\xfd\x00", now=0.1)
    assert replies(events) == []  # the acceptance needs no answer


def test_telnets_ctrl_c_gets_the_binary_offer():
    session = Session()
    assert replies(session.receive_data(b"\xff\xf4\xff\xfd\x06", now=0.0)) == [OFFER_BINARY, b"\xff\xfc\x06"]


def test_interactive_typed_with_crlf_gets_the_offer_before_its_reply():
    session = Session()
    events = session.receive_data(b"INTERACTIVE\r\n", now=0.0)
    assert isinstance(events[0], TelnetReply) and events[0].data == OFFER_BINARY
    assert isinstance(events[1], CommandReceived)
    assert replies(session.receive_data(b"INTERACTIVE\r\n", now=1.0)) == []  # once


def test_interactive_with_crlf_gets_the_offer_however_its_bytes_are_cut():
    """The offer depends on the line's CRLF, not on what else came in the same packet (sans-I/O: the events
    are the same whole and one byte at a time)."""
    whole = Session().receive_data(b"INTERACTIVE\r\nPING\r\n", now=0.0)
    session = Session()
    bytewise = [
        event
        for k, byte in enumerate(b"INTERACTIVE\r\nPING\r\n")
        for event in session.receive_data(bytes([byte]), now=0.0)
    ]
    assert isinstance(whole[0], TelnetReply) and whole[0].data == OFFER_BINARY
    assert [type(event) for event in whole] == [type(event) for event in bytewise]


def test_interactive_typed_with_lf_gets_no_telnet_byte():
    session = Session()
    events = session.receive_data(b"INTERACTIVE\n", now=0.0)
    assert replies(events) == [] and isinstance(events[0], CommandReceived)


def test_a_held_session_gets_no_offer():
    session = Session()
    session.receive_data(b"KEEPALIVE\n", now=0.0)
    assert replies(session.receive_data(b"\xff\xfd\x01", now=0.1)) == [b"\xff\xfc\x01"]


# -- over the network -----------------------------------------------------


@pytest.fixture
def server():
    proc, host, port = start_server_process()
    try:
        yield host, port
    finally:
        stop_server_process(proc)


def exchange(address, data: bytes) -> bytes:
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def test_nc_clients_see_no_telnet_byte(server):
    """Plain nc: a pipe, and a person's INTERACTIVE with LF: the replies as before, not one 0xFF."""
    assert exchange(server, (PUZZLE + "\n").encode()) == (SOLUTION + "\n").encode()
    got = exchange(server, b"INTERACTIVE\nPING\n")
    assert got == (
        b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\nPONG\n"
    )


def test_a_telnet_negotiation_over_the_network_gets_the_offer(server):
    got = exchange(server, b"\xff\xfd\x18PING\r\n")
    assert got == b"\xff\xfc\x18" + OFFER_BINARY + b"PONG\r\n"


# -- the real telnet client ----------------------------------------------

LIGHT = """\
┌───────┬───────┬───────┐
│ 4 . . │ . . . │ 8 . 5 │
│ . 3 . │ . . . │ . . . │
│ . . . │ 7 . . │ . . . │
├───────┼───────┼───────┤
│ . 2 . │ . . . │ . 6 . │
│ . . . │ . 8 . │ 4 . . │
│ . . . │ . 1 . │ . . . │
├───────┼───────┼───────┤
│ . . . │ 6 . 3 │ . 7 . │
│ 5 . . │ 2 . . │ . . . │
│ 1 . 4 │ . . . │ . . . │
└───────┴───────┴───────┘"""
HEAVY = LIGHT.translate(str.maketrans("┌┬┐│├┼┤└┴┘─", "┏┳┓┃┣╋┫┗┻┛━"))
DOUBLE = LIGHT.translate(str.maketrans("┌┬┐│├┼┤└┴┘─", "╔╦╗║╠╬╣╚╩╝═"))
#: The first solved row, in each style.
SOLVED_ROWS = {
    "light": "│ 4 1 7 │ 3 6 9 │ 8 2 5 │",
    "heavy": "┃ 4 1 7 ┃ 3 6 9 ┃ 8 2 5 ┃",
    "double": "║ 4 1 7 ║ 3 6 9 ║ 8 2 5 ║",
}
LAST_SOLVED_ROWS = {
    "light": "│ 1 6 4 │ 8 7 5 │ 2 9 3 │",
    "heavy": "┃ 1 6 4 ┃ 8 7 5 ┃ 2 9 3 ┃",
    "double": "║ 1 6 4 ║ 8 7 5 ║ 2 9 3 ║",
}


class Tmux:
    """A detached tmux session on a private server socket, UTF-8, whose pane outlives its command."""

    def __init__(self, command: str) -> None:
        self.socket = f"sudoku-test-{uuid.uuid4().hex[:8]}"
        wrapped = f'{command}; echo "[client exited $?]"; sleep 60'
        self._run("-u", "new-session", "-d", "-s", "t", "-x", "100", "-y", "200", wrapped)

    def _run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout

    def paste(self, text: str) -> None:
        """Paste ``text`` and a final Enter as a terminal paste does (one buffer, bracketed or not)."""
        self._run("set-buffer", "-b", "p", text + "\n")
        self._run("paste-buffer", "-d", "-b", "p", "-t", "t")

    def type_line(self, text: str) -> None:
        self._run("send-keys", "-t", "t", "-l", text)
        self._run("send-keys", "-t", "t", "Enter")

    def screen(self) -> str:
        return self._run("capture-pane", "-p", "-t", "t", "-S", "-400")

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on the screen:\n{screen}")
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.mark.skipif(shutil.which("tmux") is None or shutil.which("telnet") is None, reason="needs tmux and telnet")
def test_pasting_light_heavy_and_double_grids_into_telnet(server):
    host, port = server
    tmux = Tmux(f"LANG=C.UTF-8 LC_ALL=C.UTF-8 telnet {host} {port}")
    try:
        tmux.wait_for("Escape character")
        tmux.type_line("INTERACTIVE")
        tmux.wait_for("INTERACTIVE on:")
        for style, grid in (("light", LIGHT), ("heavy", HEAVY), ("double", DOUBLE)):
            tmux.paste(grid)
            tmux.wait_for(LAST_SOLVED_ROWS[style])
        tmux.type_line("QUIT")
        screen = tmux.wait_for("Connection closed by foreign host.")
    finally:
        tmux.close()
    assert "telnet>" not in screen and "ERROR" not in screen
    for style in ("light", "heavy", "double"):
        assert screen.count(SOLVED_ROWS[style]) == 1, screen
        assert screen.count(LAST_SOLVED_ROWS[style]) == 1, screen
