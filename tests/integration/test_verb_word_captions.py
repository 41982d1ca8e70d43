"""A caption whose first word is a verb's (``Solve this one please:``) is skipped above a puzzle; commands,
typos and a caption not above a puzzle keep their errors; an option or flag given twice is refused.
"""

from __future__ import annotations

import socket

import pytest

from tests.support.clienttools import PUZZLES, RUN_TIMEOUT

INKALA = (PUZZLES / "inkala.txt").read_bytes()


ANSWER = b"812753649943682175675491283154237896369845721287169534521974368438526917796318452\n"


NEWSPAPER = (PUZZLES / "newspaper.txt").read_bytes()


NEWSPAPER_ANSWER = (PUZZLES / "newspaper.expected").read_bytes()


def exchange(port: int, data: bytes) -> bytes:
    """Send *data*, half-close, return every byte the server answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=RUN_TIMEOUT) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
        return reply


@pytest.mark.parametrize(
    "caption",
    [b"Solve this one please:", b"Count the solutions:", b"Help me with this:", b"SOLVE THIS ONE:"],
)
def test_a_verb_word_caption_above_a_puzzle_is_skipped(server_address, caption):
    assert exchange(server_address[1], caption + b"\n" + INKALA) == ANSWER
    assert exchange(server_address[1], caption + b"\n" + NEWSPAPER) == NEWSPAPER_ANSWER


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (b"SOLVE fast", b'ERROR command SOLVE: unknown option "fast"; try HELP SOLVE\n'),
        (b"COUNT lmit=5", b'ERROR command COUNT: unknown option "lmit"; try HELP COUNT\n'),
        (b"HELP me", b'ERROR command HELP: unknown verb "ME"; try HELP\n'),
        (b"SOLVEE", b'ERROR command unknown verb "SOLVEE"; try HELP\n'),
        (b"hello", b'ERROR command unknown verb "HELLO"; try HELP\n'),
    ],
)
def test_commands_and_typos_keep_their_errors(server_address, line, error):
    assert exchange(server_address[1], line + b"\n" + INKALA) == error + ANSWER


def test_a_verb_word_caption_not_above_a_puzzle_keeps_its_error(server_address):
    reply = exchange(server_address[1], b"Solve this one please:\n\n" + INKALA)
    assert reply == b"ERROR format line 1, column 7: 't' is not a digit 1-9 or an empty mark (. 0 _)\n" + ANSWER


def test_help_with_a_verb_is_still_help(server_address):
    assert exchange(server_address[1], b"HELP PING\n").startswith(b"HELP PING\n")


def test_an_option_or_flag_given_twice_is_refused(server_address):
    line = INKALA.rstrip(b"\n")
    assert exchange(server_address[1], b"COUNT limit=5 limit=6 " + line + b"\n") == (
        b'ERROR command COUNT: option "limit" given twice; try HELP COUNT\n'
    )
    assert exchange(server_address[1], b"SOLVE any any " + line + b"\n") == (
        b'ERROR command SOLVE: flag "any" given twice; try HELP SOLVE\n'
    )
