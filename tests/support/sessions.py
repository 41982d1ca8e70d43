"""The sans-I/O session fed bytes as a socket would feed it: whole, in chunks, then end of input.

``session_events`` gives its raw events, ``run_session`` describes them with each puzzle answered,
``all_chunkings`` asserts that whole, 1-byte and 7-byte pieces agree, and ``replies`` gives the bytes the
server would send (every request answered by the service and rendered by the wire).
"""

from __future__ import annotations

from sudoku_server import solve
from sudoku_server.service.answer import answer
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import CloseConnection, PuzzleReceived, Reply, RequestReceived, Session, TelnetReply


def session_events(data: bytes, chunk: int = 0, eof: bool = True) -> list:
    """The raw events of a fresh Session fed ``data`` whole or in ``chunk``-byte pieces."""
    session = Session()
    events = []
    if chunk:
        for i in range(0, len(data), chunk):
            events.extend(session.receive_data(data[i : i + chunk]))
    else:
        events.extend(session.receive_data(data))
    if eof:
        events.extend(session.receive_eof())
    return events


def run_session(data: bytes, chunk: int = 0, eof: bool = True) -> list:
    """Feed ``data`` to a fresh Session (whole, or in ``chunk``-byte pieces) and
    describe its events as comparable tuples; puzzles are rendered with their
    real solution."""
    out = []
    for event in session_events(data, chunk, eof):
        if isinstance(event, PuzzleReceived):
            puzzle = event.puzzle
            out.append(("answer", puzzle.layout, puzzle.render(solve(puzzle.grid))))
        elif isinstance(event, Reply):
            out.append(("reply", event.data.decode()))
        elif isinstance(event, TelnetReply):
            out.append(("telnet", event.data))
        else:
            assert isinstance(event, CloseConnection)
            out.append(("close",))
    return out


def all_chunkings(data: bytes, eof: bool = True) -> list:
    """The events for whole, one-byte and 7-byte chunks; asserts they agree."""
    whole = run_session(data, eof=eof)
    assert run_session(data, chunk=1, eof=eof) == whole
    assert run_session(data, chunk=7, eof=eof) == whole
    return whole


def replies(data: bytes, bytewise: bool = False) -> bytes:
    """What the server answers to ``data`` (then end of input): the session's events answered and rendered."""
    session = Session()
    events = []
    if bytewise:
        for k in range(len(data)):
            events += session.receive_data(data[k : k + 1])
    else:
        events += session.receive_data(data)
    events += session.receive_eof()
    out = []
    for event in events:
        if isinstance(event, Reply):
            out.append(event.data)
        elif isinstance(event, RequestReceived):
            out.append(render(answer(event.request), event.ending, event.puzzle))
    return b"".join(out)


def fast_replies(data: bytes, chunk: int = 0) -> bytes:
    """What the server answers to ``data`` (then end of input) by the connection's fast path, as
    ``net.connection`` takes it: bytes buffered unparsed (``Session.buffer_plain``), the plain and marks lines at
    their front taken (``Session.take_plain(marks=True)``) and answered by ``InlineSolver.solve`` (no budget
    limit) while it answers, the lines from the first it does not answer read the usual way
    (``Session.taken_events``), then the rest (``Session.receive_more``); ``data`` whole or in ``chunk``-byte
    pieces. Equal to :func:`replies` whenever the fast path is right."""
    from sudoku_server.net.inline import InlineSolver

    session = Session()
    inline = InlineSolver(60.0)
    out: list[bytes] = []

    def answered(events: list) -> None:
        for event in events:
            if isinstance(event, Reply):
                out.append(event.data)
            elif isinstance(event, RequestReceived):
                out.append(render(answer(event.request), event.ending, event.puzzle))

    for k in range(0, len(data), chunk or max(1, len(data))):
        if not session.buffer_plain(data[k : k + chunk] if chunk else data):
            answered(session.receive_data(data[k : k + chunk] if chunk else data))
            continue
        while True:
            lines, first = session.take_plain(1000, marks=True)
            answers, _seconds = inline.solve(lines) if lines else ([], 0.0)
            out += answers
            for index in range(len(answers), len(lines)):
                answered(session.taken_events(lines[index], first + index))
            if not session.backlog:
                break
            answered(session.receive_more())
            if not session.backlog:
                break
    answered(session.receive_eof())
    return b"".join(out)
