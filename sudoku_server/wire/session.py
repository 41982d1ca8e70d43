"""The sans-I/O session: bytes in, events out (after h11). No sockets, no trio.

One :class:`Session` per connection. The server feeds it what it receives
(:meth:`Session.receive_data`, :meth:`Session.receive_eof`) and acts on the
events it returns, in order:

* :class:`RequestReceived` — a typed request (:mod:`sudoku_server.service.requests`)
  and the puzzle it is about: answer it (:func:`sudoku_server.service.answer.answer`),
  render the result (:func:`.replies.render`) and send that in its turn. It
  comes as one of two kinds: :class:`PuzzleReceived` (a bare puzzle, or the
  puzzle after ``COUNT``...) and :class:`CommandReceived` (``PING``, ``HELP``,
  ``GENERATE``...: no puzzle);
* :class:`Reply` — bytes to send in their turn (an ``ERROR`` line);
* :class:`TelnetReply` — bytes to send at once (telnet option answers and the binary offer);
* :class:`CloseConnection` — stop reading; answer what is queued, then close.

The session is framing, limits and timing; it delegates telnet negotiation
to :class:`.telnet.Telnet`, the routing of lines (commands, puzzles, the
request each puzzle answers) to :class:`.splitter.Splitter`, and reply bytes
to :mod:`.replies`.

Framing (PROTOCOL.md "Transport"): a UTF-8 byte-order mark at the start is
skipped; telnet IAC sequences are removed (``DO x`` answered ``WONT x``,
``WILL x`` answered ``DONT x``, but for TRANSMIT-BINARY, which is accepted;
an interrupt drops the puzzle being read). A client known to speak telnet
(it sent an IAC sequence, or typed ``INTERACTIVE`` ending its line with CRLF
as telnet does, with nothing after it) is offered TRANSMIT-BINARY once (``IAC DO BINARY IAC WILL
BINARY``), so that its 8-bit bytes come as they are;
lines end with LF, CRLF or a lone CR (a CR followed by NUL, telnet's bare
carriage return, counts as CRLF). A line longer than ``max_line_bytes`` (a line
holding an f-puzzles object or link: 64 KiB, :data:`~sudoku_server.text.fpuzzles.MAX_LINE_BYTES`, when that is more)
yields ``ERROR too-large`` and closes the session, whatever follows; the
session never buffers more than ``max_line_bytes + 1`` bytes of a line (of an f-puzzles line, 64 KiB + 1).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sudoku_server.errors import CommandError, IncompletePuzzleError, TooLargeError
from sudoku_server.service.requests import Interactive, KeepAlive, Quit, Request, Solve
from sudoku_server.text import Puzzle, PuzzleReader, oneline
from sudoku_server.text.fpuzzles import MAX_LINE_BYTES as FPUZZLES_MAX_LINE_BYTES
from sudoku_server.text.marksline import MARKS_BUFFERED
from sudoku_server.wire import replies
from sudoku_server.wire.framing import (
    BLANK_RUN,
    FPUZZLES_LINE,
    FPUZZLES_START_BYTES,
    HELD_LINE_BYTES,
    bom_may_follow,
    crlf_blanks,
    limit_of,
    proxy_v2_end,
    waits_for_its_end,
)
from sudoku_server.wire.replies import error_line
from sudoku_server.wire.splitter import EOT, CommandRead, Item, LineRejected, PuzzleRead, Splitter
from sudoku_server.wire.telnet import INTERRUPT, SB_START, SB_TOO_LONG, Telnet, TelnetReply

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "FPUZZLES_START_BYTES",
    "HELD_LINE_BYTES",
    "INTERACTIVE_AFTER",
    "CloseConnection",
    "CommandReceived",
    "Event",
    "PuzzleReceived",
    "Reply",
    "RequestReceived",
    "Session",
    "TakenLine",
    "TelnetReply",
    "error_line",
    "line_events",
]

#: Default longest line, in bytes, without its terminator. A 25x25 one-line
#: puzzle is 625 bytes; 4096 leaves room for comments and padding while
#: capping what one connection can make the server buffer.
DEFAULT_MAX_LINE_BYTES = 4096


def _second_proxy_header(lineno: int, ending: str) -> Reply:
    """The error for a PROXY protocol v2 header between requests, at line ``lineno`` (two proxies in front, each
    sending one); :meth:`Session._split_lines` skips the header whole (its signature holds ``QUIT\\n``, which
    ended the session: break-session finding)."""
    what = (
        f"line {lineno}: a PROXY protocol v2 header is not a request (the server reads one, as a connection's"
        " first bytes, only with --proxy-protocol; is a second proxy in front of it?)"
    )
    return Reply(error_line(CommandError(what), ending))


IAC = 0xFF  # telnet's "interpret as command": input holding it goes through :class:`Telnet`


#: Seconds that tell a person from a program: a session becomes interactive
#: when the lines of one puzzle span more than this (a grid typed row by row).
#: A whole request that comes in one burst never does, however late it comes
#: (a pipe: ``(sleep 2; cat puzzle.txt) | nc host 9999``); 4 KiB chunks
#: trickled every 300 ms (the slowest sender measured) stay well under it.
#: The other signals a pipe never gives: telnet option negotiation (or its
#: Ctrl-C), and the ``INTERACTIVE`` verb.
INTERACTIVE_AFTER = 1.0

#: A plain one-line 9x9 puzzle as bytes, with its terminator (``text.oneline``'s definition; LF or
#: CRLF): what :meth:`Session.take_plain` takes. A verb before it (``CANON ``) makes it a request of
#: its own, parsed the usual way (issue 32: CANON runs under the scheduler).
_PLAIN_BYTES = oneline.PLAIN_BUFFERED
#: A plain line or a marks line (``text.marksline.MARKS_BUFFERED``), in that order: what
#: :meth:`Session.take_plain` takes with ``marks``, one match a line.
_TAKEN_BYTES = re.compile(_PLAIN_BYTES.pattern + b"|" + MARKS_BUFFERED.pattern)


@dataclass
class RequestReceived:
    """A typed request to answer in its turn (:func:`sudoku_server.service.answer.answer`).

    Attributes:
      request: the request (``Solve(grid)`` for a bare puzzle, ``Count(grid, 5)``,
        ``Ping()``...).
      puzzle: the puzzle it is about, whose layout the answer is rendered in;
        None for a request without one.
      line: the 1-based line of the request (a puzzle's first line).
      ending: the line ending its reply uses.
    """

    request: Request
    puzzle: Puzzle | None
    line: int
    ending: str


class PuzzleReceived(RequestReceived):
    """A request about a puzzle (``puzzle`` is not None): a bare puzzle, or the puzzle after SOLVE, COUNT..."""

    puzzle: Puzzle


class CommandReceived(RequestReceived):
    """A request without a puzzle: PING, HELP, GENERATE, QUIT, ... (``puzzle`` is None)."""


@dataclass
class Reply:
    """Bytes to send in request order (an ``ERROR`` line)."""

    data: bytes


@dataclass
class CloseConnection:
    """The session takes no more input; answer what is queued, then close."""


@dataclass
class TakenLine:
    """A marks line :meth:`Session.take_plain` took that the inline path did not answer, still unread: a bulk
    job answers it (``text.marksline.solve_marks``, else its :meth:`events` answered the usual way).

    Attributes:
      line: its bytes, terminator included.
      lineno: its line number.
      slow: its search ran past the inline path's check interval: a job of its own answers it (the same way,
        without that bound), not a bulk job.
    """

    line: bytes
    lineno: int
    slow: bool = False

    @property
    def ending(self) -> str:
        """Its terminator (``"\\r\\n"`` or ``"\\n"``)."""
        return "\r\n" if self.line.endswith(b"\r\n") else "\n"

    def events(self) -> list[Event]:
        """Its events, as the session would have given them (:func:`line_events`)."""
        return line_events(self.line, self.lineno)


#: What a session gives (and, for a marks line it took unread, the connection: :class:`TakenLine`).
Event = RequestReceived | Reply | TelnetReply | CloseConnection | TakenLine


def line_events(line: bytes, lineno: int) -> list[Event]:
    """The events of one complete line (``line``, terminator included) read at line ``lineno`` between requests,
    no ``RULES`` in force: what a session gives for a line :meth:`Session.take_plain` took, whenever it is read.

    Pure: a fresh session reads it (a worker thread may call this).
    """
    session = Session(max_line_bytes=max(DEFAULT_MAX_LINE_BYTES, len(line)))
    session.lineno = lineno - 1
    return session.receive_data(line)


class _PlainLines:
    """The plain fast path of :class:`Session`: bytes buffered unparsed, and the plain one-line puzzles (and, when
    asked, the marks lines) at their front taken as read (the server answers these in the native core:
    ARCHITECTURE.md "The request path")."""

    closed: bool
    lineno: int
    max_line_bytes: int
    _now: float | None
    _puzzle_since: float | None
    _splitter: Splitter
    _telnet: Telnet
    _buffer: bytearray
    _start: bool
    _backlog: bool
    _last_ending: str
    _received: int

    def buffer_plain(self, data: bytes, now: float | None = None) -> bool:
        """Take bytes as :meth:`receive_data` would, but parse nothing yet: for :meth:`take_plain`.

        ``now`` as for :meth:`receive_data`. Returns False, taking nothing, when the bytes must go to
        :meth:`receive_data` (telnet input, or the session closed). After
        True, call :meth:`take_plain` and then, while :attr:`backlog`,
        :meth:`receive_more`, which parse the buffered lines.
        """
        if self.closed or not data or self._telnet.pending or IAC in data:
            return False
        self._now = now
        self._received += len(data)
        self._buffer += data
        if self._start:
            if bom_may_follow(self._buffer):
                return True
            self._start = False
        self._backlog = True  # complete lines wait, unparsed
        return True

    def take_plain(self, max_lines: int, marks: bool = False) -> tuple[list[bytes], int]:
        """The plain one-line 9x9 puzzles at the front of the buffered lines, taken as read; at most ``max_lines``.

        A line is taken while the session is between requests (no puzzle
        being read, no verb waiting, no caption held) and the line is 81
        cells of digits and ``.``/``0``/``_`` then LF or CRLF: what the
        splitter would read as a bare puzzle, ``Solve(grid)``
        (:meth:`Splitter.feed_plain`). The session moves past them as if it
        had (line numbers, last line ending); the caller answers them, in
        order, before any event :meth:`receive_more` gives for what follows
        (:meth:`plain_event` gives a taken line's event, for one the caller
        answers the usual way).

        ``marks``: take a marks line too (``text.marksline.MARKS_BUFFERED``:
        ``SOLVE`` and a 9x9 line of givens then ``word=marks`` fields, no
        longer than the line limit), which ``text.marksline.solve_marks``
        may answer; :meth:`taken_events` gives the events of one it does not.

        Returns:
          ``(lines, first)``: the lines' bytes with their terminators, and
          the line number of the first (``[]`` when none is taken).
        """
        first = self.lineno + 1
        if self.closed or not self._backlog or self.max_line_bytes < 81 or not self._splitter.plain_ready:
            return [], first
        buf = self._buffer
        match = (_TAKEN_BYTES if marks else _PLAIN_BYTES).match  # one match a line
        most = self.max_line_bytes + 1  # the longest line, LF included
        lines: list[bytes] = []
        append = lines.append
        pos = 0
        while len(lines) < max_lines:
            found = match(buf, pos, pos + most + 1)  # no longer than the limit, terminator aside
            if found is None:
                break
            line = found.group()
            if len(line) - (line[-2] == 13) > most:  # (13: the CR of a CRLF)
                break
            append(line)
            pos += len(line)
        if not buf:
            self._backlog = False  # nothing left to parse
        if lines:
            del buf[:pos]
            self._backlog = bool(buf)
            self.lineno += len(lines)
            ending = "\r\n" if lines[-1].endswith(b"\r\n") else "\n"
            self._last_ending = ending
            self._splitter.took_plain(ending)
            self._puzzle_since = None
        return lines, first

    def taken_events(self, line: bytes, lineno: int) -> list[Event]:
        """The events of a line :meth:`take_plain` took (at line ``lineno``), as :meth:`receive_data` would give
        them: a plain line's :meth:`plain_event`; a marks line read the usual way (its request, or its error)."""
        if _PLAIN_BYTES.fullmatch(line):
            return [self.plain_event(line, lineno)]
        return line_events(line, lineno)

    def plain_event(self, line: bytes, lineno: int) -> PuzzleReceived:
        """The event of a line :meth:`take_plain` took (at line ``lineno``), as :meth:`receive_data` would give it."""
        ending = "\r\n" if line.endswith(b"\r\n") else "\n"
        read = self._splitter.reader.feed_plain_line(line[:81].decode("ascii"), ending, lineno)
        assert read is not None  # take_plain took only plain lines
        self._splitter.reader.note_plain_lines(self._last_ending)  # the last taken line's, as take_plain left it
        return PuzzleReceived(Solve(read.grid), read, lineno, ending)


class _PendingInput:
    """What the server's timers look at in a :class:`Session`: whether the input read so far waits for more
    (:attr:`pending`), and whether it would be cut short if it ended now (:attr:`incomplete`)."""

    closed: bool
    lineno: int
    _buffer: bytearray
    _backlog: bool
    _received: int
    _incomplete: tuple[int, bool]
    _splitter: Splitter
    _reader: PuzzleReader

    @property
    def pending(self) -> bool:
        """True when received input waits for more bytes to be complete.

        That is an unterminated line (or a CR that may be the start of CRLF),
        or a framed grid that may still get its closing border, or a line of
        words that is a caption if a puzzle follows. PROTOCOL.md's close grace
        applies: if nothing arrives, :meth:`receive_eof` settles it.
        """
        return bool(self._buffer) or self._reader.awaiting_optional_line or self._splitter.holding

    @property
    def unterminated(self) -> bool:
        """True when the input so far stops inside a line: bytes whose line end has not arrived yet.

        Whatever they hold (a whole request, part of one, a comment, the
        first byte of a character), the server waits for their line end up
        to the idle timeout, never just the close grace (PROTOCOL.md
        "Connection lifecycle"): a line read before its end could be read
        as a different, shorter request (36 cells of an 81-cell line are a
        6x6 puzzle). A CR at the end is a line end (held only to see
        whether LF follows), and complete lines waiting unparsed
        (:attr:`backlog`) are no partial line.
        """
        return not self.closed and not self._backlog and bool(self._buffer) and not self._buffer.endswith(b"\r")

    @property
    def incomplete(self) -> bool:
        """True when the input so far ends inside a request: a line or rows that are no whole request yet.

        That is input that, if it ended now, would be answered ``ERROR
        incomplete``: part of a one-line puzzle (``8....``, 74 of 81 cells),
        a verb still waiting for its puzzle (``SOLVE `` or a whole ``SOLVE``
        line), a row of a grid or whole rows of a grid that lacks rows. Its sender is still producing it, so
        the server waits for the rest as for any line (PROTOCOL.md
        "Connection lifecycle"). An unterminated line that is already a whole
        request (``SOLVE <81 cells>`` without its newline), or would be
        answered another error, is not incomplete: :attr:`pending` alone.

        Found by a dry run of end of input on a copy of the routing state
        (about 30 us plus the parse of the line), cached until more bytes
        arrive; False while complete lines wait unparsed (:attr:`backlog`).
        """
        if self.closed or self._backlog:
            return False
        at, incomplete = self._incomplete
        if at != self._received:
            incomplete = self._would_cut_short()
            self._incomplete = (self._received, incomplete)
        return incomplete

    def _would_cut_short(self) -> bool:
        """The dry run of :attr:`incomplete`: the buffered line, then end of input, on a copy of the splitter."""
        text = bytes(self._buffer)
        if text.endswith(b"\r"):
            text = text[:-1]  # a CR held back for a possible LF: a line end at end of input
        waits = waits_for_its_end(text)  # an f-puzzles object or a marks line: only its end says it is whole
        if waits is not None:
            return waits
        splitter = copy.deepcopy(self._splitter)
        items = splitter.feed(text.decode("utf-8", "surrogateescape"), "", self.lineno + 1) if text else []
        items += splitter.finish()
        if FPUZZLES_LINE.match(text, 0, HELD_LINE_BYTES):  # a link cut in its payload is refused: it waits
            return any(isinstance(item, LineRejected) for item in items)
        return any(isinstance(item, LineRejected) and isinstance(item.error, IncompletePuzzleError) for item in items)


class Session(_PendingInput, _PlainLines):
    """The state of one connection's request stream.

    One unit because framing, the line limit, the reply-window backlog and the
    interactive timing all act on the same buffer and line count; routing
    (:class:`.splitter.Splitter`) and telnet (:mod:`.telnet`) live apart.

    Args:
      max_line_bytes: longest accepted line in bytes (terminator excluded).
      interactive_after: seconds the lines of one puzzle may span before the
        session becomes interactive (:data:`INTERACTIVE_AFTER`).

    Attributes:
      closed: True once the session takes no more input (after end of input
        or a too-large line).
      lineno: number of complete lines read so far.
      interactive: True once a person is at the keyboard (the ``INTERACTIVE``
        verb, a grid whose rows trickle in over more than
        :data:`INTERACTIVE_AFTER`, or telnet option negotiation): the server
        then keeps the session open (no close grace) and bad rows are
        reported as soon as they are read.
      held: True after ``KEEPALIVE`` (a program holds the connection): no
        close grace, and never interactive unless it then sends ``INTERACTIVE``.
      unread: bytes received but never read as requests because the input
        ended first (after ``QUIT`` or an EOT line in the same packet); the
        server logs them with the bytes that arrive while it lingers.
    """

    def __init__(
        self,
        *,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        interactive_after: float = INTERACTIVE_AFTER,
    ) -> None:
        self.max_line_bytes = max_line_bytes
        self.closed = False
        self.lineno = 0
        self.interactive = False
        self.held = False
        self.unread = 0
        self._interactive_after = interactive_after
        self._now: float | None = None  # when the data being read arrived
        self._puzzle_since: float | None = None  # when the puzzle being read began
        self._splitter = Splitter()
        self._reader = self._splitter.reader
        self._telnet = Telnet(max_line_bytes)
        self._sb_line = 0  # the line the last telnet subnegotiation started in
        self._iac_line = 0  # the line the telnet command the input stopped inside stands in (Telnet.cut_command)
        self._buffer = bytearray()
        self._start = True  # BOM still possible
        self._backlog = False  # complete lines left unparsed by max_events
        self._last_ending = "\n"  # of the last line read: for replies tied to no line
        self._input_ended = False  # QUIT or EOT closed the session: what follows is counted in unread
        self._crlf_blanks = 0  # CRLF blank lines just read, back to back (2: a PROXY v2 signature may go on)
        self._received = 0  # bytes of text taken so far: the key of the cached :attr:`incomplete`
        self._incomplete: tuple[int, bool] = (0, False)  # (at _received, incomplete)

    # -- input ---------------------------------------------------------------

    def receive_data(self, data: bytes, now: float | None = None, max_events: int | None = None) -> list[Event]:
        """Take bytes from the client; return the events they complete, in order.

        Args:
          data: the bytes, any chunking.
          now: when they arrived (seconds, any one clock per session), to
            tell a person from a program; None leaves the timing unwatched.
            The server passes the seconds its reader has spent waiting for
            input, so that a pause of its own (a full reply window) never
            looks like a person's.
          max_events: stop parsing, at a line end, once this many events are
            out; the rest stays buffered as bytes (:attr:`backlog`, then
            :meth:`receive_more`). The server passes the room left in its
            reply window, so a client that sends much more than it reads
            costs its raw bytes, not parsed puzzles. Telnet input is always
            parsed whole.

        Never raises for any input. Returns ``[]`` once :attr:`closed`.
        """
        if self.closed or not data:
            return []
        self._now = now
        events: list[Event] = []
        if not self._telnet.pending and IAC not in data:
            self._receive_text(data, events, max_events)
            return events
        # Telnet commands act where they stand in the stream: lines before an
        # interrupt are answered, nothing after a too-large line is.
        for item in self._telnet.feed(data):
            if self.closed:
                if isinstance(item, bytes) and self._input_ended:
                    self.unread += len(item)  # after QUIT or EOT: never read
                continue
            if isinstance(item, bytes):
                self._receive_text(item, events)
            elif isinstance(item, TelnetReply):
                events.append(item)
                self._telnet_seen(events)  # option negotiation: a telnet client, a person
            elif item is SB_START:
                self._sb_line = self.lineno + 1  # the line it stands in: text before it is read
            elif item is SB_TOO_LONG:
                self._too_large(events, f"telnet subnegotiation longer than {self.max_line_bytes} bytes")
            else:
                assert item is INTERRUPT
                self._splitter.abort()  # Ctrl-C in telnet: forget the puzzle being typed
                self._buffer.clear()
                self._telnet_seen(events)
        if self._telnet.cut_command is not None:
            self._iac_line = self.lineno + 1  # the text before it is read: the line it stands in
        return events

    def _telnet_seen(self, events: list[Event]) -> None:
        """Telnet negotiated an option (or sent Ctrl-C): a pipe never does; a person is typing.

        The client speaks telnet: it is offered TRANSMIT-BINARY (:meth:`.Telnet.offer_binary`), so
        that a pasted box-drawn grid is not taken for its control keys.
        """
        if not self.held:
            self._offer_binary(events)
            self.become_interactive(events)

    def _offer_binary(self, events: list[Event]) -> None:
        offer = self._telnet.offer_binary()
        if offer:
            events.append(TelnetReply(offer))

    @property
    def backlog(self) -> bool:
        """True when complete lines wait in the buffer, unparsed (``max_events`` stopped)."""
        return self._backlog and not self.closed

    def receive_more(self, now: float | None = None, max_events: int | None = None) -> list[Event]:
        """Parse more of the buffered lines (see :attr:`backlog`); same events as :meth:`receive_data`.

        ``now`` is accepted for symmetry and not used: the buffered lines
        arrived with the last :meth:`receive_data`, whose ``now`` their
        timing keeps (a reply window that stayed full is no human pause).
        """
        if self.closed:
            return []
        events: list[Event] = []
        self._split_lines(events, final=False, max_events=max_events)
        return events

    def _receive_text(self, data: bytes, events: list[Event], max_events: int | None = None) -> None:
        self._received += len(data)
        self._buffer += data
        if self._start:
            if bom_may_follow(self._buffer):
                return
            self._start = False
        self._split_lines(events, final=False, max_events=max_events)

    def receive_eof(self) -> list[Event]:
        """End of input (the client half-closed, or a timer ended the session).

        A pending unterminated line is taken as complete; a puzzle cut short
        is answered ``ERROR incomplete``, and so is a telnet subnegotiation
        never ended (``IAC SB`` without ``IAC SE``: what followed it was
        skipped, never read), or a telnet command cut short (a lone 0xFF, an
        ``IAC DO`` without its option). Returns the final events.
        """
        if self.closed:
            return []
        events: list[Event] = []
        self._split_lines(events, final=True)
        if not self.closed:  # the input is over: the puzzle being read is completed or cut short
            self._add(self._splitter.finish(), events)
            self.closed = True
            skipped = self._telnet.in_subnegotiation
            if skipped is not None:
                what = f"input ended inside the telnet subnegotiation (IAC SB) that starts at line {self._sb_line}"
                detail = f"{what}, before its IAC SE; the {skipped} byte(s) after IAC SB were not read"
                events.append(Reply(error_line(IncompletePuzzleError(detail), self._last_ending)))
            cut = self._telnet.cut_command
            if cut is not None:  # a lone 0xFF last (break-session finding: dropped without a word)
                detail = f"input ended inside a telnet command at line {self._iac_line}: {cut}"
                events.append(Reply(error_line(IncompletePuzzleError(detail), self._last_ending)))
        return events

    def receive_shutdown(self, more_input: bool = False) -> list[Event]:
        """The server stops reading (shutdown): nothing more is parsed.

        Lines already complete have been answered through :meth:`receive_data`;
        a framed grid that lacked only its closing border is complete too. What
        is left — an unterminated line (never parsed as a puzzle), a puzzle
        whose lines have not all arrived, and, with ``more_input``, bytes the
        server knows are waiting unread — is named in one line:
        ``ERROR shutdown server shutting down; input from line N on was not read``.

        Returns:
          The final events: the completed framed grid and the shutdown line, or [].
        """
        if self.closed:
            return []
        self.closed = True
        events: list[Event] = []
        first_unread = None
        reader = self._reader
        if reader.awaiting_optional_line:
            self._add(self._splitter.finish(), events)
        elif reader.puzzle_start is not None:
            first_unread = reader.puzzle_start
            reader.abort()
        if first_unread is None and (self._buffer or more_input or self._telnet.pending):
            first_unread = self.lineno + 1
        self._buffer = bytearray()
        if first_unread is not None:
            events.append(Reply(replies.unread_line(first_unread)))
        return events

    # -- internals -----------------------------------------------------------

    def _add(self, items: Iterable[Item], events: list[Event]) -> None:
        """The splitter's items as events: typed requests, and error lines in their turn."""
        for item in items:
            if isinstance(item, LineRejected):
                events.append(Reply(error_line(item.error, item.ending)))
            elif isinstance(item, PuzzleRead):
                puzzle = item.puzzle
                events.append(PuzzleReceived(item.request, puzzle, puzzle.first_line, puzzle.default_ending))
            else:
                assert isinstance(item, CommandRead)
                command = item.command
                if isinstance(item.request, Interactive):
                    self.held = False  # the last of INTERACTIVE and KEEPALIVE counts
                    if command.ending == "\r\n" and not self.interactive:
                        # Typed at a client that ends lines with CRLF: Linux telnet (which on a port other
                        # than 23 negotiates nothing) does, plain nc does not. Whatever follows it in the
                        # same packet does not matter: the events never depend on how the bytes were cut.
                        self._offer_binary(events)
                    self.become_interactive(events)
                elif isinstance(item.request, KeepAlive):
                    self.hold()
                events.append(CommandReceived(item.request, None, command.line, command.ending))
                if isinstance(item.request, Quit):
                    events.append(CloseConnection())
                    self.closed = self._input_ended = True
                    self._buffer = bytearray()

    def become_interactive(self, events: list[Event]) -> None:
        """A person is typing: keep the session open, report bad rows at once."""
        if not self.interactive:
            self.interactive = True
            self._add(self._splitter.report_early(), events)

    def hold(self) -> None:
        """``KEEPALIVE``: a program holds the connection. No close grace; errors reported as for a pipe.

        Ends interactive reading if it was on (bad rows are then reported
        when their grid ends, as in a piped session); from now on no pause
        and no telnet command makes the session interactive, only the
        ``INTERACTIVE`` verb.
        """
        self.held = True
        if self.interactive:
            self.interactive = False
            self._reader.set_report_early(False)  # returns nothing when switching off

    def _watch_timing(self, events: list[Event]) -> None:
        """Human pauses make the session interactive (see :data:`INTERACTIVE_AFTER`).

        Called before each line is read: this line came more than
        :data:`INTERACTIVE_AFTER` after the first line of the puzzle it
        continues (a grid typed row by row). When the first line of a
        request comes does not count: a pipe may connect first and write
        later.
        """
        now = self._now
        if now is None or self.interactive or self.held:
            return
        if self._puzzle_since is not None and now - self._puzzle_since > self._interactive_after:
            self.become_interactive(events)

    def _line(self, text: str, ending: str, lineno: int, events: list[Event]) -> None:
        """One complete line, routed by the splitter (a command, a line of a puzzle, EOT)."""
        splitter = self._splitter
        read = splitter.feed_plain(text, ending, lineno)
        if read is not None:  # a plain one-line puzzle between requests (no puzzle was being read)
            events.append(PuzzleReceived(read.request, read.puzzle, lineno, ending))
            self._puzzle_since = None
            return
        self._watch_timing(events)
        self._add(splitter.feed(text, ending, lineno), events)
        if text == EOT and not self.closed:
            # Ctrl-D typed in telnet arrives as a line holding EOT: end of input.
            self.closed = self._input_ended = True
            events.append(CloseConnection())
            self._buffer = bytearray()
            return
        if self._reader.puzzle_start is None:
            self._puzzle_since = None
        elif self._puzzle_since is None:
            self._puzzle_since = self._now

    def _too_large(self, events: list[Event], what: str) -> None:
        events.append(Reply(error_line(TooLargeError(what), self._last_ending)))
        events.append(CloseConnection())
        self.closed = True
        self._buffer = bytearray()

    def _split_lines(self, events: list[Event], final: bool, max_events: int | None = None) -> None:
        buf = self._buffer
        limit = self.max_line_bytes
        pos = 0
        size = len(buf)
        splitter = self._splitter
        self._backlog = False
        while pos < size:
            if max_events is not None and len(events) >= max_events:
                self._backlog = True  # complete lines may wait: the caller asks again
                break
            end = proxy_v2_end(buf, pos, final) if buf[pos] == 0 and self._crlf_blanks > 1 and splitter.idle else 0
            if end < 0:
                break  # the start of a PROXY v2 signature's NUL line at the end: wait for the rest
            if end:  # a PROXY v2 header past the connection's start: one error, the header skipped whole
                events.append(_second_proxy_header(self.lineno - 1, self._last_ending))
                self.lineno, pos, self._crlf_blanks = self.lineno + buf.count(b"\n", pos, end), end, 0
                continue
            if buf[pos] in b"\r\n" and splitter.idle:
                blank = BLANK_RUN.match(buf, pos)
                if blank is not None:
                    run = blank.group()
                    self._crlf_blanks = crlf_blanks(run, self._crlf_blanks)
                    self.lineno += run.count(b"\n")
                    splitter.skip_blank_lines("\r\n" if run.endswith(b"\r\n") else "\n")
                    pos = blank.end()
                    continue
            lf = buf.find(b"\n", pos)
            cr = buf.find(b"\r", pos, lf if lf >= 0 else size)
            if cr >= 0:
                if cr + 1 == size and not final:
                    break  # a CR at the end: wait to see whether LF follows
                end, ending, after = (
                    (cr, "\r\n", cr + 2) if cr + 1 < size and buf[cr + 1] in (0x0A, 0x00) else (cr, "\r", cr + 1)
                )
            elif lf >= 0:
                end, ending, after = lf, "\n", lf + 1
            elif final:
                end, ending, after = size, "", size
            else:
                break  # its end has not arrived
            if end - pos > limit and (
                end - pos > FPUZZLES_MAX_LINE_BYTES or not FPUZZLES_LINE.match(buf, pos, pos + HELD_LINE_BYTES)
            ):
                self._too_large(events, f"line {self.lineno + 1} is longer than {limit_of(buf, pos, limit)} bytes")
                return
            self.lineno, self._crlf_blanks = self.lineno + 1, 0
            if ending:
                self._last_ending = ending
            text = bytes(buf[pos:end]).decode("utf-8", "surrogateescape")
            self._line(text, ending, self.lineno, events)
            pos = after
            if self.closed:  # QUIT or EOT: nothing after it is read (counted, for the log)
                if self._input_ended:
                    self.unread += size - pos
                return
        if pos:
            del buf[:pos]
        if not self._backlog and len(buf) - buf.endswith(b"\r") > limit_of(
            buf, 0, limit, partial=True
        ):  # a trailing CR is held back
            self._too_large(events, f"line {self.lineno + 1} is longer than {limit_of(buf, 0, limit)} bytes")
