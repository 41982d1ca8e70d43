"""One client connection: its reader, writer, reply window and lingering close.

Each connection runs a **reader** task, which feeds the sans-I/O
:class:`~sudoku_server.wire.session.Session` bounded chunks and turns its events
into *replies* (slots in request order, filled at once for error lines, or
later by a solver job of :mod:`sudoku_server.net.pool`), and a **writer** task,
which sends every reply that is ready, in order, in one write. The reader stops
reading while the connection's *reply window* is full: :data:`WINDOW_REPLIES`
unanswered replies, :data:`WINDOW_WEIGHT` of parsed puzzles, or
:data:`WINDOW_BYTES` of replies ready and unsent, whatever the verb; while the
bytes are over the bound the connection's solver work is held as well
(``Scheduler.hold``), so a client that never reads costs a bounded amount of
memory (PROTOCOL.md "Fairness and bounds"). It yields to the event loop after
every chunk.

The connection's timers of PROTOCOL.md ("Connection lifecycle") live here:
the idle timeout before the first answer, the close grace after the last one
(with one last read before the session ends), the interactive and held
sessions' timeouts (counted from the last complete line or answer: bytes of
a line that never ends do not keep a session), eviction by a newcomer when
every slot is taken (:meth:`Connection.evict`), and the lingering close.
"""

from __future__ import annotations

import collections
import logging
import math
import os
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio

from sudoku_server.net import inline
from sudoku_server.net.inline import InlinePath
from sudoku_server.net.lifecycle import HeldBack, SessionClock
from sudoku_server.net.pool import BULK_PUZZLES, Job, Signal, Slot
from sudoku_server.net.window import WINDOW_BYTES, WINDOW_REPLIES, puzzle_weight
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Help, Ping, Quit, Solve, Stats, Version
from sudoku_server.text import Puzzle
from sudoku_server.wire import replies
from sudoku_server.wire.session import CloseConnection, Reply, RequestReceived, Session, TelnetReply
from sudoku_server.wire.verbs import name_of

if TYPE_CHECKING:
    from sudoku_server.net.server import SudokuServer

log = logging.getLogger("sudoku_server")

#: Bytes asked of the kernel per receive (``inline.RECEIVE_SIZE``).
RECEIVE_SIZE = inline.RECEIVE_SIZE
#: Seconds given to the last non-blocking read before a session ends (it
#: returns at once when bytes are waiting; this only bounds the attempt).
LAST_READ_SECONDS = 0.001
#: Requests a reserve connection may ask (``server.PING_RESERVE``): PING, VERSION, HELP, STATS, QUIT.
RESERVE_REQUESTS = (Ping, Version, Help, Stats, Quit)
#: Seconds, at the end of the shutdown grace, to send the ``ERROR shutdown``
#: lines and close; the process exits within shutdown grace + 1 s.
FINAL_FLUSH_SECONDS = 0.5


@dataclass(eq=False, slots=True)
class _Later(Slot):
    """A reply rendered when every reply before it is sent (``STATS``: it counts them)."""

    event: RequestReceived | None = None


class _Gone(Exception):
    """The client reset, the send failed, or it left an answer unread too long."""


class Connection(InlinePath):
    """One client: reader and writer tasks around a :class:`Session`.

    One unit because the reader, the writer and the reply window share one
    queue of slots and its counters, which both tasks update on every reply.
    """

    def __init__(
        self,
        server: SudokuServer,
        stream: trio.SocketStream,
        peer: str,
        *,
        initial: bytes = b"",
        reserve: bool = False,
    ) -> None:
        self.server = server
        self.config = server.config
        self.pool = server.pool
        self.stream = stream
        self.peer = peer
        self.initial = initial  # bytes read with the PROXY header, for the session
        self.reserve = reserve  # over --max-connections: health checks only
        self.session = Session(max_line_bytes=self.config.max_line_bytes)
        self.clock = SessionClock(self.config, trio.current_time())
        self.held_back = HeldBack()  # for the cut at shutdown
        self.slots: collections.deque[Slot] = collections.deque()
        self.unanswered = 0  # replies not sent yet (a bulk slot holds several)
        self.unsent = 0  # bytes of ready replies not yet sent
        self.held_weight = 0  # weight of parsed puzzles not answered yet (puzzle_weight)
        self.weight_per_request = 0  # weight of its largest puzzle so far (0: none yet)
        self.answered = 0  # replies sent
        self.jobs = 0  # solver jobs received
        self.solver_seconds = 0.0  # time its batches held a worker
        self.errors: dict[str, int] = collections.defaultdict(int)
        self.reading = True  # the reader has not finished
        self.stop_reading = False  # shutdown: read nothing more
        self.gone = False
        self.read_scope: trio.CancelScope | None = None
        self.send_lock = trio.Lock()
        self._writer_wake = Signal()
        self._reader_wake = Signal()
        self.nursery: trio.Nursery | None = None
        # The socket's descriptor, for the reads and sends done without waiting (-1: through trio only).
        self._fd = stream.socket.fileno() if isinstance(stream, trio.SocketStream) else -1

    # -- the reply queue --------------------------------------------------------

    def add_reply(self, data: bytes) -> None:
        """A reply known now, in its turn."""
        self.slots.append(Slot(data))
        self.unanswered += 1
        self._add_unsent(len(data))
        self._writer_wake.set()

    def add_job(self, request, puzzle: Puzzle | None, what: str, ending: str) -> None:
        """A reply computed in a solver thread, in its turn."""
        slot = Slot(weight=self._hold_weight([puzzle] if puzzle is not None else []))
        job = slot.job = Job(self, slot, request, puzzle, what, ending)
        self.slots.append(slot)
        self.unanswered += 1
        self.jobs += 1
        self.pool.submit(job)

    def add_bulk(self, puzzles: list[tuple[Solve, Puzzle]]) -> None:
        """Plain one-line puzzles that came together, with their requests: one slot, one solver job."""
        if len(puzzles) == 1:
            request, puzzle = puzzles[0]
            self.add_job(request, puzzle, f"puzzle at line {puzzle.first_line}", puzzle.default_ending)
            return
        first, last = puzzles[0][1].first_line, puzzles[-1][1].first_line
        slot = Slot(count=len(puzzles), weight=self._hold_weight([puzzle for _, puzzle in puzzles]))
        job = slot.job = Job(
            self, slot, None, None, f"puzzles at lines {first} to {last}", puzzles[0][1].default_ending, bulk=puzzles
        )
        self.slots.append(slot)
        self.unanswered += len(puzzles)
        self.jobs += len(puzzles)
        self.pool.submit(job, len(puzzles))

    def split_bulk(self, job: Job, leftover: list[tuple[Solve, Puzzle]]) -> list[Job]:
        """On the event loop: a bulk job stopped at a slow puzzle.

        Its slot keeps the answers done (filled next); each puzzle left gets
        a slot of its own right after it, in order, and a job that the pool
        runs next for this connection (returned, for the batch to put first).
        """
        slot = job.slot
        slot.count -= len(leftover)
        at = self.slots.index(slot) + 1
        jobs = []
        for request, puzzle in leftover:
            own = Slot(weight=puzzle_weight(len(puzzle.grid.cells)))
            slot.weight -= own.weight
            own.job = Job(self, own, request, puzzle, f"puzzle at line {puzzle.first_line}", puzzle.default_ending)
            self.slots.insert(at, own)
            at += 1
            jobs.append(own.job)
        return jobs

    def shutdown_line(self, job: Job) -> bytes:
        """``ERROR shutdown`` for the job's request (one line per puzzle of a bulk job)."""
        return b"".join(replies.shutdown_line(what, job.ending) for what in job.each())

    # -- tasks ---------------------------------------------------------------

    async def run(self) -> None:
        self.pool.open(self)
        try:
            async with trio.open_nursery() as nursery:
                self.nursery = nursery
                nursery.start_soon(self._read)
                await self._write()
        finally:
            for job in self.pool.close(self):
                pass  # nobody to answer: the connection is closed or gone

    def shutdown(self) -> None:
        """Stop reading (the shutdown grace is over); cut the replies at the first unanswered request.

        Every request from the first one still being solved on gets ``ERROR
        shutdown`` (the pool fills the solver jobs): a reply that was ready
        behind it (``PONG``...) is replaced by that line too, so nothing is
        answered after the first shutdown line. An error line about input
        that was no request is sent as it is.
        """
        self.stop_reading = True
        if self.read_scope is not None:
            self.read_scope.cancel()
        self.unsent += self.held_back.cut(self.slots)

    def evictable(self, now: float, min_idle: float) -> bool:
        """True when a newcomer may take this slot (or reserve place): nothing to answer, no complete line for
        ``min_idle`` s."""
        return (
            self.clock.evicted is None
            and self.reading
            and not self.stop_reading
            and not self.slots
            and not self.session.closed
            and now - self.clock.last_progress >= min_idle
        )

    def evict(self, limit: int) -> float:
        """A newcomer takes this slot: the session ends as its idle timeout would, told why.

        It gets ``BYE idle for N s and the server is full (LIMIT connections)``
        (after ``ERROR incomplete`` for a puzzle cut short). Returns the
        seconds it had gone without a complete line.
        """
        idle = trio.current_time() - self.clock.last_progress
        self.clock.evicted = (idle, limit)
        if self.read_scope is not None:
            self.read_scope.cancel()
        return idle

    def _read_deadline(self) -> float:
        """When the reader gives up waiting (PROTOCOL.md "Connection lifecycle", :class:`.lifecycle.SessionClock`).

        While replies of this connection are still being computed or sent
        there is no deadline (the writer sets one when it catches up).
        """
        if self.slots:
            return math.inf
        return self.clock.deadline(self.session, self.answered, trio.current_time())

    async def _read(self) -> None:
        try:
            await self._read_events()
        except (trio.BrokenResourceError, trio.ClosedResourceError, _Gone) as error:
            self._gone(error)
        finally:
            self.reading = False
            self._writer_wake.set()

    async def _receive(self) -> bytes | None:
        """Bytes from the client; None when the read deadline passed with nothing."""
        if self.initial:
            data, self.initial = self.initial, b""
            return data
        if self.clock.evicted is not None:
            return None
        ready = self._read_now()
        if ready is not None:
            return ready
        self._flush_now()  # nothing more to read now: the replies ready go in one send before the wait
        while True:
            started = trio.current_time()
            with trio.CancelScope(deadline=self._read_deadline()) as scope:
                self.read_scope = scope
                data = await self._wait_and_read()
            self.read_scope = None
            self.clock.waited += trio.current_time() - started
            if not scope.cancelled_caught:
                return data
            if self.stop_reading or self.clock.evicted is not None:
                return None
            if not self.clock.waits_on(self.session):
                break  # a line still being produced waits for the idle timeout, not the close grace
        # The timer ran out (or the process was stopped and resumed): one last
        # look, so that bytes that did arrive are answered, never dropped.
        return await self._try_receive()

    async def _try_receive(self) -> bytes | None:
        with trio.move_on_after(LAST_READ_SECONDS):
            return await self.stream.receive_some(RECEIVE_SIZE)
        return None

    async def _read_events(self) -> None:
        session = self.session
        while not session.closed:
            while self.window_full and not self.stop_reading:
                self._flush_now()
                if self.window_full:
                    await self._reader_wake.wait()
            room = self._room()
            if self.stop_reading:
                more = bool(await self._try_receive()) if not session.pending else False
                events = session.receive_shutdown(more_input=more)
            elif session.backlog:
                events = self._receive_buffered(room)
            else:
                data = await self._receive()
                if self.stop_reading:
                    more = bool(data) or (data is None and bool(await self._try_receive()))
                    events = session.receive_shutdown(more_input=more)
                elif data is None and self.server.shutting_down:
                    # Stopping: a timer ended the session; a partial line stays unparsed.
                    events = session.receive_shutdown()
                elif not data:
                    events = session.receive_eof()  # end of stream, a timeout, the close grace or eviction
                    last = self.clock.ended(session) if data is None else None
                    if last is not None:
                        events.append(Reply(last))
                else:
                    lines = session.lineno
                    if self.server.bulk and not self.reserve and session.buffer_plain(data, self.clock.waited):
                        events = self._receive_buffered(room)  # plain one-line puzzles first, in C
                    else:
                        events = session.receive_data(data, self.clock.waited, room)
                    if session.lineno != lines:
                        self.clock.last_progress = trio.current_time()  # a complete line: progress
            # Plain one-line puzzles go in bulk, with the native core and the
            # server's own solver (a test's fake solver gets them one by one).
            bulk: list[tuple[Solve, Puzzle]] | None = [] if self.server.bulk else None
            for event in events:
                if isinstance(event, TelnetReply):
                    await self._send(event.data)
                    continue
                if isinstance(event, CloseConnection):
                    break
                if self.unsent >= WINDOW_BYTES and not self.stop_reading:
                    # The window is full in bytes within one chunk's requests
                    # (HELP x 200): the rest wait, parsed, until it drains.
                    if bulk:
                        self.add_bulk(bulk)
                        bulk = []
                    while self.unsent >= WINDOW_BYTES and not self.stop_reading:
                        self._flush_now()
                        if self.unsent >= WINDOW_BYTES:
                            await self._reader_wake.wait()
                if (
                    self.reserve
                    and self.clock.evicted is None  # its last lines (ERROR incomplete, BYE) are sent
                    and not (isinstance(event, RequestReceived) and isinstance(event.request, RESERVE_REQUESTS))
                ):
                    if self.server.admission.take_slot():
                        self.reserve = False  # a slot is free, or an idle session gave it up: served like any other
                    else:  # over the connection limit: a health check may ask, nothing else
                        self.add_reply(self.server.busy_line())
                        self.server.stats.connections_rejected += 1
                        session.closed = True
                        break
                if (
                    bulk is not None
                    and isinstance(event, RequestReceived)
                    and type(event.request) is Solve
                    and not event.request.any
                    and event.request.variant.classic  # RULES x: a plain line under other rules
                    and event.puzzle is not None
                    and event.puzzle.plain
                ):
                    bulk.append((event.request, event.puzzle))
                    if len(bulk) >= BULK_PUZZLES:
                        self.add_bulk(bulk)
                        bulk = []
                    continue
                if bulk:
                    self.add_bulk(bulk)
                    bulk = []
                if isinstance(event, Reply):
                    self.add_reply(event.data)
                else:
                    assert isinstance(event, RequestReceived)
                    self._add_request(event)
            if bulk:
                self.add_bulk(bulk)
            # Nothing of this chunk is held while the reader waits for the window
            # (the session has its own copy of the bytes not parsed yet).
            data = bulk = None
            events.clear()
            await trio.lowlevel.checkpoint()  # one chunk at a time: others get the loop

    def _add_request(self, event: RequestReceived) -> None:
        """Answer a request in its turn: solver work as a job, the others at once (``service.answer``)."""
        request, puzzle = event.request, event.puzzle
        if request.solver_work:  # a job for a solver thread; the others are answered at once
            what = f"puzzle at line {event.line}" if puzzle is not None else f"{name_of(request)} at line {event.line}"
            self.add_job(request, puzzle, what, event.ending)
            return
        if isinstance(request, Stats) and (self.slots or self.unsent):  # a reply still queued or being sent
            # STATS counts at the time it is answered: after the replies before it are sent.
            self.slots.append(_Later(event=event))
            self.unanswered += 1
            return
        self.add_reply(self._render_now(event))
        self.held_back.note(self.slots, f"{name_of(request)} at line {event.line}", event.ending, WINDOW_REPLIES)

    def _render_now(self, event: RequestReceived) -> bytes:
        """The reply of a request answered without the solver (``service.answer``), rendered now."""
        request = event.request
        about = f"{name_of(request)} at line {event.line}"
        try:
            return replies.render(answer(request, server=self.server, about=about), event.ending, event.puzzle)
        except Exception as error:
            log.exception("%s: internal error on %s", self.peer, about)
            return replies.internal_line(error, about, event.ending)

    def check_peer(self) -> None:
        """After a half-close, is the client still there? (Before each batch of its puzzles.)

        A FIN alone is a half-close that still gets every answer; a client that
        closed completely answers our next send with a reset, which the socket
        reports as a pending error: then the connection is gone.
        """
        if self.reading or self.gone:
            return  # the reader sees resets itself
        try:
            error = self.stream.socket.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        except (OSError, AttributeError):
            return
        if error:
            self._gone(_Gone(f"reset the connection ({os.strerror(error)})"))

    def _gone(self, error: BaseException) -> None:
        """The client reset, closed, or stopped reading: drop the connection quietly."""
        if self.gone:
            return
        self.gone = True
        if isinstance(error, _Gone) and error.args:
            log.info("%s %s: closing", self.peer, error.args[0])
        else:
            log.info("%s went away (%s)", self.peer, type(error).__name__)
        self.pool.close(self)
        if self.nursery is not None:
            self.nursery.cancel_scope.cancel()

    async def _send(self, data: bytes) -> None:
        """Send bytes; a client that takes none of them for ``idle_timeout`` s is dropped."""
        async with self.send_lock:
            with trio.move_on_after(self.config.idle_timeout) as scope:
                await self.stream.send_all(data)
            if scope.cancelled_caught:
                raise _Gone(f"read nothing for {self.config.idle_timeout:g} s")

    async def _write(self) -> None:
        slots = self.slots
        try:
            while True:
                while not (slots and slots[0].data is not None):
                    head = slots[0] if slots else None
                    if isinstance(head, _Later) and head.event is not None:
                        head.data = self._render_now(head.event)  # every reply before it is sent and counted
                        head.event = None
                        self.unsent += len(head.data)
                        break
                    if not slots and not self.reading:
                        break
                    await self._writer_wake.wait()
                if not slots:
                    break
                data, replies = self.take_ready()
                await self._send(data)
                self._sent(data, len(data), replies)
        except (trio.BrokenResourceError, trio.ClosedResourceError, _Gone) as error:
            self._gone(error)
            return
        self.server.admission.session_ended(self)  # lingering holds no slot
        seconds = self.config.linger_time
        if self.server.stopping:
            seconds = min(seconds, FINAL_FLUSH_SECONDS)
        grace = self.config.close_grace if self.clock.grace_ended else None
        await linger(self.stream, self.peer, seconds, unread=self.session.unread, close_grace=grace)


async def linger(
    stream: trio.abc.HalfCloseableStream,
    peer: str,
    seconds: float,
    *,
    unread: int = 0,
    close_grace: float | None = None,
) -> None:
    """Half-close, read and discard until the client closes (at most ``seconds``).

    Bytes that arrive now come after the session ended: they are logged at
    INFO with ``unread`` (bytes the session received after ``QUIT`` or EOT),
    never dropped silently. ``close_grace``: the session was ended by that
    close grace (seconds); late bytes are then logged as a program that
    holds its connection, naming the fix (``KEEPALIVE``, ``--close-grace off``).
    """
    late = 0
    try:
        await stream.send_eof()
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        seconds = 0  # the client is gone: nothing more to read
    with trio.move_on_after(seconds):
        try:
            while seconds:
                data = await stream.receive_some(65536)
                if not data:
                    break
                late += len(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
    if late and close_grace is not None:
        log.info(
            "%s sent %d byte(s) after its session ended: not read; the close grace (%g s) had ended it:"
            " a program that keeps its connection between requests should send KEEPALIVE first"
            " (or the server run with --close-grace off)",
            peer,
            late + unread,
            close_grace,
        )
    elif late or unread:
        log.info("%s sent %d byte(s) after its session ended: not read", peer, late + unread)
