"""The sans-I/O session: bytes in, events out (after h11). No sockets, no trio.

One :class:`Session` per connection. The server feeds it what it receives
(:meth:`Session.receive_data`, :meth:`Session.receive_eof`) and acts on the
events it returns, in order:

* :class:`PuzzleReceived` — answer it (:func:`answer_request`: solve it, or
  what the command before it asked, e.g. ``COUNT``) and send that in its turn;
* :class:`CommandReceived` — a command line that is not about a puzzle
  (``PING``, ``HELP``, ``GENERATE``...; :mod:`.commands`), answered in its turn;
* :class:`Reply` — bytes to send in their turn (an ``ERROR`` line);
* :class:`TelnetReply` — bytes to send at once (telnet option refusals);
* :class:`CloseConnection` — stop reading; answer what is queued, then close.

Framing (PROTOCOL.md "Transport"): a UTF-8 byte-order mark at the start is
skipped; telnet IAC sequences are removed (``DO x`` answered ``WONT x``,
``WILL x`` answered ``DONT x``; an interrupt drops the puzzle being read);
lines end with LF, CRLF or a lone CR (a CR followed by NUL, telnet's bare
carriage return, counts as CRLF). A line longer than ``max_line_bytes``
yields ``ERROR too-large`` and closes the session, whatever follows; the
session never buffers more than ``max_line_bytes + 1`` bytes of a line.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from sudoku_server.errors import IncompletePuzzleError, PuzzleError, ShutdownError, TooLargeError
from sudoku_server.sudoku.grid import Grid, check_givens
from sudoku_server.sudoku.solver import Check, verify
from sudoku_server.sudoku.solver import count_solutions as default_count
from sudoku_server.sudoku.solver import solve as default_solve
from sudoku_server.text import Positions, Puzzle, PuzzleReader, Rejected, bordered_lines
from sudoku_server.wire import verbs as commands
from sudoku_server.wire.verbs import Command, CommandError

log = logging.getLogger("sudoku_server")

#: Default longest line, in bytes, without its terminator. A 25x25 one-line
#: puzzle is 625 bytes; 4096 leaves room for comments and padding while
#: capping what one connection can make the server buffer.
DEFAULT_MAX_LINE_BYTES = 4096

BOM = b"\xef\xbb\xbf"
#: A line holding only this (Ctrl-D in telnet, which sends it as data) ends the input.
EOT = "\x04"

# Telnet (RFC 854) bytes.
IAC = 0xFF
DONT, DO, WONT, WILL = 0xFE, 0xFD, 0xFC, 0xFB
SB, SE = 0xFA, 0xF0
IP, AO = 0xF4, 0xF5  # interrupt process, abort output


#: Seconds that tell a person from a program: a session becomes interactive
#: when its first line completes this long after the connection opened, or
#: when the lines of one puzzle span this long (a grid typed row by row).
#: Programs send whole requests at once; 4 KiB chunks trickled every 300 ms
#: (the slowest sender measured) stay well under it.
INTERACTIVE_AFTER = 1.0

#: A run of blank lines (LF or CRLF): skipped in one step between puzzles, so
#: a flood of empty lines costs a regex match, not a parse per line.
_BLANK_RUN = re.compile(rb"(?:\r?\n)+")

_INTERRUPT = object()  # marker: telnet IP/AO in the stream
_SB_TOO_LONG = object()  # marker: a subnegotiation over the line limit


@dataclass
class PuzzleReceived:
    """A complete puzzle to answer (``puzzle.grid`` holds its givens).

    Attributes:
      request: the command it follows (``SOLVE any``, ``COUNT limit=5``...),
        or None for a bare puzzle (solve it).
    """

    puzzle: Puzzle
    request: Command | None = None


@dataclass
class CommandReceived:
    """A command to answer in its turn (``PING``, ``HELP``, ``GENERATE``, ``QUIT``...)."""

    command: Command


@dataclass
class Reply:
    """Bytes to send in request order (an ``ERROR`` line)."""

    data: bytes


@dataclass
class TelnetReply:
    """Bytes to send at once: a telnet negotiation answer."""

    data: bytes


@dataclass
class CloseConnection:
    """The session takes no more input; answer what is queued, then close."""


Event = PuzzleReceived | CommandReceived | Reply | TelnetReply | CloseConnection


def error_line(error: PuzzleError, ending: str = "\n") -> bytes:
    """The wire form of an error: ``ERROR <code> <detail>`` and a line ending (ASCII)."""
    return f"ERROR {error.code} {error.detail}{ending}".encode("ascii", "backslashreplace")


class Session:
    """The state of one connection's request stream.

    Args:
      max_line_bytes: longest accepted line in bytes (terminator excluded).
      opened_at: when the connection opened (seconds, any clock: the one
        :meth:`receive_data`'s ``now`` uses); None: timing is not watched.
      interactive_after: seconds of pause that make the session interactive
        (:data:`INTERACTIVE_AFTER`).

    Attributes:
      closed: True once the session takes no more input (after end of input
        or a too-large line).
      lineno: number of complete lines read so far.
      interactive: True once a person is at the keyboard (the ``INTERACTIVE``
        verb, or input with human pauses): the server then keeps the session
        open (no close grace) and bad rows are reported as soon as they are
        read.
    """

    def __init__(
        self,
        *,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        opened_at: float | None = None,
        interactive_after: float = INTERACTIVE_AFTER,
    ) -> None:
        self.max_line_bytes = max_line_bytes
        self.closed = False
        self.lineno = 0
        self.interactive = False
        self._opened_at = opened_at
        self._interactive_after = interactive_after
        self._now: float | None = None  # when the data being read arrived
        self._puzzle_since: float | None = None  # when the puzzle being read began
        self._first_line = True
        self._reader = PuzzleReader()
        self._buffer = bytearray()
        self._start = True  # BOM still possible
        self._telnet_state = 0  # 0 data, 1 after IAC, 2 after IAC+verb, 3 in SB, 4 SB after IAC
        self._telnet_verb = 0
        self._telnet_sb_bytes = 0  # length of the subnegotiation being skipped
        self._request: Command | None = None  # a verb waiting for its puzzle
        self._backlog = False  # complete lines left unparsed by max_events
        self._last_ending = "\n"  # of the last line read: for replies tied to no line

    # -- state the server's timers look at ---------------------------------

    @property
    def pending(self) -> bool:
        """True when received input waits for more bytes to be complete.

        That is an unterminated line (or a CR that may be the start of CRLF),
        or a framed grid that may still get its closing border. PROTOCOL.md's
        close grace applies: if nothing arrives, :meth:`receive_eof` settles it.
        """
        return bool(self._buffer) or self._reader.awaiting_optional_line

    # -- input ---------------------------------------------------------------

    def receive_data(self, data: bytes, now: float | None = None, max_events: int | None = None) -> list[Event]:
        """Take bytes from the client; return the events they complete, in order.

        Args:
          data: the bytes, any chunking.
          now: when they arrived (seconds, the clock of ``opened_at``), to tell
            a person from a program; None leaves the timing unwatched.
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
        if not self._telnet_state and IAC not in data:
            self._receive_text(data, events, max_events)
            return events
        # Telnet commands act where they stand in the stream: lines before an
        # interrupt are answered, nothing after a too-large line is.
        for item in self._strip_telnet(data):
            if self.closed:
                break
            if isinstance(item, bytes):
                self._receive_text(item, events)
            elif item is _SB_TOO_LONG:
                self._too_large(events, f"telnet subnegotiation longer than {self.max_line_bytes} bytes")
            elif item is _INTERRUPT:
                self._reader.abort()  # Ctrl-C in telnet: forget the puzzle being typed
                self._buffer.clear()
            else:
                events.append(item)
        return events

    @property
    def backlog(self) -> bool:
        """True when complete lines wait in the buffer, unparsed (``max_events`` stopped)."""
        return self._backlog and not self.closed

    def receive_more(self, now: float | None = None, max_events: int | None = None) -> list[Event]:
        """Parse more of the buffered lines (see :attr:`backlog`); same events as :meth:`receive_data`."""
        if self.closed:
            return []
        self._now = now
        events: list[Event] = []
        self._split_lines(events, final=False, max_events=max_events)
        return events

    def _receive_text(self, data: bytes, events: list[Event], max_events: int | None = None) -> None:
        if self._start:
            self._buffer += data
            if len(self._buffer) < len(BOM) and BOM.startswith(bytes(self._buffer)):
                return
            if self._buffer.startswith(BOM):
                del self._buffer[: len(BOM)]
            self._start = False
        else:
            self._buffer += data
        self._split_lines(events, final=False, max_events=max_events)

    def receive_eof(self) -> list[Event]:
        """End of input (the client half-closed, or a timer ended the session).

        A pending unterminated line is taken as complete; a puzzle cut short
        is answered ``ERROR incomplete``. Returns the final events.
        """
        if self.closed:
            return []
        events: list[Event] = []
        self._split_lines(events, final=True)
        if not self.closed:
            self._finish_input(events)
        return events

    def _finish_input(self, events: list[Event]) -> None:
        """The input is over: the puzzle being read is completed or cut short; the session closes."""
        self._add(self._reader.finish(), events)
        request = self._request
        if request is not None:
            self._request = None
            error = IncompletePuzzleError(f"input ended after {request.name} at line {request.line}, before its puzzle")
            events.append(Reply(error_line(error, request.ending)))
        self.closed = True

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
            self._add(reader.finish(), events)
        elif reader.puzzle_start is not None:
            first_unread = reader.puzzle_start
            reader.abort()
        if first_unread is None and (self._buffer or more_input or self._telnet_state):
            first_unread = self.lineno + 1
        self._buffer = bytearray()
        if first_unread is not None:
            detail = f"server shutting down; input from line {first_unread} on was not read"
            events.append(Reply(error_line(ShutdownError(detail))))
        return events

    # -- internals -----------------------------------------------------------

    def _add(self, parsed, events: list[Event]) -> None:
        for item in parsed:
            request, self._request = self._request, None
            if isinstance(item, Rejected):
                error = item.error
                if item.text is not None and request is None:  # words, not cells: a typo of a verb, prose
                    error = commands.unknown_verb(item.text) or error
                events.append(Reply(error_line(error, item.ending)))
            else:
                events.append(PuzzleReceived(item, request))

    def become_interactive(self, events: list[Event]) -> None:
        """A person is typing: keep the session open, report bad rows at once."""
        if not self.interactive:
            self.interactive = True
            self._add(self._reader.set_report_early(True), events)

    def _watch_timing(self, events: list[Event]) -> None:
        """Human pauses make the session interactive (see :data:`INTERACTIVE_AFTER`).

        Called before each line is read: its first line came late after the
        connection opened, or this line came late after the first line of
        the puzzle it continues.
        """
        now = self._now
        if now is None or self.interactive:
            return
        if self._first_line:
            self._first_line = False
            if self._opened_at is not None and now - self._opened_at > self._interactive_after:
                self.become_interactive(events)
        elif self._puzzle_since is not None and now - self._puzzle_since > self._interactive_after:
            self.become_interactive(events)

    def _line(self, text: str, ending: str, lineno: int, events: list[Event]) -> None:
        """One complete line: a command between puzzles, else the reader's."""
        self._watch_timing(events)
        reader = self._reader
        if text == EOT:
            # Ctrl-D typed in telnet arrives as a line holding EOT: end of input.
            self._finish_input(events)
            events.append(CloseConnection())
            self._buffer = bytearray()
            return
        if commands.is_verb(text) and (reader.puzzle_start is None or self._is_command_line(text, lineno, ending)):
            # Between puzzles a verb line is a command; inside a grid too when
            # it reads as a well-formed command (a letters-only 16x16 row such
            # as "PING BACD EFGH IJKL" does not), and it ends the grid, as a
            # blank line or a one-line puzzle does.
            self._add(reader.cut_short(lineno, ending), events)
            self._command(text, ending, lineno, events)
        else:
            self._add(reader.feed_line(text, ending, lineno), events)
        if reader.puzzle_start is None:
            self._puzzle_since = None
        elif self._puzzle_since is None:
            self._puzzle_since = self._now

    @staticmethod
    def _is_command_line(text: str, lineno: int, ending: str) -> bool:
        try:
            commands.check_arguments(commands.parse_command(text, lineno, ending))
        except CommandError:
            return False
        return True

    def _command(self, text: str, ending: str, lineno: int, events: list[Event]) -> None:
        pending, self._request = self._request, None
        if pending is not None:
            error = CommandError(f"{pending.name} at line {pending.line}: no puzzle followed it")
            events.append(Reply(error_line(error, pending.ending)))
        try:
            command = commands.parse_command(text, lineno, ending)
            commands.check_arguments(command)
        except CommandError as error:
            events.append(Reply(error_line(error, ending or "\n")))
            return
        if command.ending == "":
            command.ending = "\n"
        if not command.verb.takes_puzzle:
            if command.name == "INTERACTIVE":
                self.become_interactive(events)
            events.append(CommandReceived(command))
            if command.name == "QUIT":
                events.append(CloseConnection())
                self.closed = True
                self._buffer = bytearray()
            return
        self._request = command
        if command.puzzle_text is None:
            return  # the puzzle follows on the next lines
        # A one-line puzzle on the command's line: read it in place (padded,
        # so that error columns count from the start of the line), then
        # answer it without the verb.
        offset = command.puzzle_column
        before = len(events)
        self._add(self._reader.feed_line(" " * offset + command.puzzle_text, ending, lineno), events)
        if self._reader.puzzle_start is not None:  # it started a grid: not a one-line puzzle
            self._reader.abort()
            self._request = None
            error = CommandError(
                f"{command.name}: the puzzle on its line must be a whole one-line puzzle;"
                f" put a grid on the lines after {command.name}"
            )
            events.append(Reply(error_line(error, command.ending)))
            return
        for event in events[before:]:
            if isinstance(event, PuzzleReceived):
                puzzle = event.puzzle
                puzzle.lines = [line[offset:] for line in puzzle.lines]
                puzzle.positions = Positions((li, col - offset) for li, col in puzzle.positions)

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
        reader = self._reader
        self._backlog = False
        while pos < size:
            if max_events is not None and len(events) >= max_events:
                self._backlog = True  # complete lines may wait: the caller asks again
                break
            if buf[pos] in b"\r\n" and reader.puzzle_start is None and self._request is None:
                blank = _BLANK_RUN.match(buf, pos)
                if blank is not None:
                    run = blank.group()
                    self.lineno += run.count(b"\n")
                    reader.skip_blank_lines("\r\n" if run.endswith(b"\r\n") else "\n")
                    pos = blank.end()
                    continue
            lf = buf.find(b"\n", pos)
            cr = buf.find(b"\r", pos, lf if lf >= 0 else size)
            if cr >= 0:
                end = cr
                if cr + 1 < size:
                    nxt = buf[cr + 1]
                    if nxt == 0x0A or nxt == 0x00:
                        ending, after = "\r\n", cr + 2
                    else:
                        ending, after = "\r", cr + 1
                elif final:
                    ending, after = "\r", cr + 1
                else:
                    break  # a CR at the end: wait to see whether LF follows
            elif lf >= 0:
                end, ending, after = lf, "\n", lf + 1
            elif final:
                end, ending, after = size, "", size
            else:
                break
            if end - pos > limit:
                self._too_large(events, f"line {self.lineno + 1} is longer than {limit} bytes")
                return
            self.lineno += 1
            if ending:
                self._last_ending = ending
            text = bytes(buf[pos:end]).decode("utf-8", "surrogateescape")
            self._line(text, ending, self.lineno, events)
            pos = after
            if self.closed:  # QUIT: nothing after it is read
                return
        if pos:
            del buf[:pos]
        if not self._backlog and len(buf) - buf.endswith(b"\r") > limit:  # a trailing CR is held back
            self._too_large(events, f"line {self.lineno + 1} is longer than {limit} bytes")

    def _strip_telnet(self, data: bytes) -> list:
        """Split ``data`` at telnet commands, in stream order.

        Returns a list of: ``bytes`` (text), :class:`TelnetReply` (answers to
        DO/WILL) and ``_INTERRUPT`` (IP or AO). The parser state carries over
        between calls, so a command split across packets is still removed.
        """
        items: list = []
        out = bytearray()
        state = self._telnet_state
        for byte in data:
            if state == 0:
                if byte == IAC:
                    state = 1
                else:
                    out.append(byte)
            elif state == 1:
                if byte == IAC:
                    out.append(IAC)  # escaped 0xFF data byte
                    state = 0
                elif byte in (DO, DONT, WILL, WONT):
                    self._telnet_verb = byte
                    state = 2
                elif byte == SB:
                    state = 3
                    self._telnet_sb_bytes = 0
                else:
                    if byte in (IP, AO):
                        if out:
                            items.append(bytes(out))
                            out.clear()
                        items.append(_INTERRUPT)
                    state = 0
            elif state == 2:
                if self._telnet_verb in (DO, WILL):
                    if out:
                        items.append(bytes(out))
                        out.clear()
                    refusal = WONT if self._telnet_verb == DO else DONT
                    items.append(TelnetReply(bytes((IAC, refusal, byte))))
                state = 0
            elif state == 3:
                if byte == IAC:
                    state = 4
                else:
                    self._telnet_sb_bytes += 1
                    if self._telnet_sb_bytes > self.max_line_bytes:
                        if out:
                            items.append(bytes(out))
                            out.clear()
                        items.append(_SB_TOO_LONG)
                        break
            else:  # state 4: in subnegotiation after IAC
                state = 0 if byte == SE else 3
        if out:
            items.append(bytes(out))
        self._telnet_state = state
        return items


def answer_request(
    puzzle: Puzzle,
    request: Command | None = None,
    *,
    solve: Callable[..., Grid] = default_solve,
    solve_any: Callable[..., Grid] | None = None,
    count_solutions: Callable[..., int] = default_count,
    check: Check | None = None,
) -> bytes:
    """The reply to a puzzle: what its request asked (a bare puzzle is solved).

    ``SOLVE`` -> the answer of :func:`answer_puzzle`; ``SOLVE any`` -> the
    same with the any-solution search; ``COUNT [limit=N]`` ->
    ``COUNT 1 unique`` (:func:`commands.count_reply`), after the same
    ``ERROR invalid`` check as solving.

    Raises:
      Whatever ``check`` raises, unchanged.
    """
    if request is None or request.name == "SOLVE":
        if request is not None and "any" in request.flags:
            from sudoku_server.sudoku.solver import solve_any as default_solve_any

            return answer_puzzle(puzzle, solve=solve_any or default_solve_any, check=check)
        return answer_puzzle(puzzle, solve=solve, check=check)
    ending = puzzle.default_ending
    if request.name in ("RATE", "HINT", "STEPS"):
        return answer_technique(puzzle, request, check=check)
    if request.name == "COUNT":
        try:
            limit = commands.count_limit(request)
            check_givens(puzzle.grid)
            count = count_solutions(puzzle.grid, limit, check=check)
        except PuzzleError as error:
            return error_line(error, ending)
        return f"{commands.count_reply(count, limit)}{ending}".encode("ascii")
    raise ValueError(f"no answer for {request.name}")


def answer_generate(request: commands.GenerateRequest, ending: str = "\n", *, check: Check | None = None) -> bytes:
    """GENERATE's reply: one ``#`` line, then the puzzle (one line, or a bordered grid and an empty line).

    ``# generated size=9 givens=24 symmetry=rot180 seed=42 minimal=yes``; with
    ``level=`` or ``se=`` puzzles are made from the seed, seed + 1, ... until
    one rates in the band, and the line also gives ``level=`` and ``se=``:
    its ``seed`` alone then makes the same puzzle again. The solve timeout
    bounds the search (``ERROR timeout``: never a puzzle of another level).

    Raises:
      Whatever ``check`` raises, unchanged.
    """
    import secrets

    from sudoku_server.sudoku import generator

    base = request.seed if request.seed is not None else secrets.randbits(64)
    rating = None
    for k in range(generator.SEED_LIMIT):
        made = generator.generate(
            request.size,
            symmetry=request.symmetry,
            givens=request.givens,
            seed=(base + k) % generator.SEED_LIMIT,
            full=request.full,
            check=check,
        )
        if not request.rated:
            break
        from sudoku_server.sudoku import rating as _rating

        rating = _rating.rate(made.puzzle, check=check)
        low, high = request.se if request.se is not None else (0.0, 99.0)
        if (request.level is None or rating.level == request.level) and low <= rating.se <= high:
            break
    header = (
        f"# generated size={made.size} givens={made.givens} symmetry={made.symmetry}"
        f" seed={made.seed} minimal={'yes' if made.minimal else 'no'}"
        + (" full=yes" if request.full else "")
        + (f" level={rating.level} se={rating.se:.1f}" if rating is not None else "")
    )
    if request.format == "grid":
        lines = [header] + bordered_lines(made.puzzle) + [""]
    else:
        lines = [header, made.puzzle.to_string()]
    return "".join(line + ending for line in lines).encode("ascii")


def answer_technique(puzzle: Puzzle, request: Command, *, check: Check | None = None) -> bytes:
    """RATE, HINT [nudge] or STEPS for one puzzle (the technique engine, :mod:`.techniques`).

    The puzzle needs exactly one solution: none gives the solver's
    ``ERROR unsolvable ...``, several ``ERROR multiple ...``; duplicate givens
    ``ERROR invalid ...`` as when solving.

    Raises:
      Whatever ``check`` raises, unchanged.
    """
    from sudoku_server.sudoku import rating as _rating
    from sudoku_server.sudoku import techniques as _techniques

    ending = puzzle.default_ending
    try:
        check_givens(puzzle.grid)
        if request.name == "HINT":
            step = _techniques.next_step(puzzle.grid, check=check)
            if step is None:
                return f"HINT none: the grid is complete{ending}".encode("ascii")
            text = step.nudge() if "nudge" in request.flags else step.describe()
            return f"HINT {text}{ending}".encode("utf-8", "backslashreplace")
        rating = _rating.rate(puzzle.grid, check=check)
        if request.name == "RATE":
            return f"{commands.rate_reply(rating)}{ending}".encode("ascii", "backslashreplace")
        steps = _techniques.solve_steps(puzzle.grid, check=check)
        return commands.block(commands.steps_lines(steps, rating), ending)
    except PuzzleError as error:
        return error_line(error, ending)


def answer_puzzle(
    puzzle: Puzzle,
    *,
    solve: Callable[..., Grid] = default_solve,
    check: Check | None = None,
) -> bytes:
    """Solve one puzzle and return the bytes to send: the answer or one ERROR line.

    Runs in a worker thread in the server. The solution is checked by
    :func:`grid.verify_solution` (every unit complete, every given kept)
    before it is rendered in the request's layout.

    Args:
      puzzle: a parsed puzzle.
      solve: the solver (a parameter so tests can pass a slow or broken one).
      check: the stop hook passed to ``solve``.

    Returns:
      bytes: the rendered answer, or ``ERROR invalid|unsolvable ...``, or
      ``ERROR mismatch ...`` (a CSV row whose expected solution differs), or
      ``ERROR internal ...`` (logged with its traceback) for a fault.

    Raises:
      Whatever ``check`` raises (the server's cancellation), unchanged.
    """
    ending = puzzle.default_ending
    try:
        solution = solve(puzzle.grid, check=check)
        problem = verify(puzzle.grid, solution)
        if problem is not None:
            raise RuntimeError(f"solver returned a wrong solution: {problem}")
        puzzle.check_expected(solution)  # dataset rows that carry their solution
    except PuzzleError as error:
        return error_line(error, ending)
    except Exception as error:
        log.exception("internal error on the puzzle at line %d", puzzle.first_line)
        detail = f"{type(error).__name__} while solving the puzzle at line {puzzle.first_line}"
        return f"ERROR internal {detail}{ending}".encode("ascii", "backslashreplace")
    return puzzle.render(solution).encode("utf-8", "surrogateescape")
