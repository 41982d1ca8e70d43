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
(with one last read before the session ends) and the lingering close.
"""

from __future__ import annotations

import collections
import logging
import math
import os
import socket
from typing import TYPE_CHECKING

import trio

from sudoku_server.net.pool import BULK_PUZZLES, Job, Signal, Slot, error_code
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Help, Ping, Quit, Solve, Stats, Version
from sudoku_server.text import Puzzle
from sudoku_server.wire import replies
from sudoku_server.wire.session import CloseConnection, Reply, RequestReceived, Session, TelnetReply
from sudoku_server.wire.verbs import name_of

if TYPE_CHECKING:
    from sudoku_server.net.server import SudokuServer

log = logging.getLogger("sudoku_server")

#: Bytes asked of the kernel per receive: the bound on what one parse step
#: handles before the event loop serves others (4 KiB of one-line puzzles is
#: about 50 puzzles, 1 ms or so of parsing; of junk lines, about 10 ms).
RECEIVE_SIZE = 16384
#: Replies a connection may have unanswered (queued, being solved or unsent)
#: before its reader stops reading; the session parses no more requests than
#: there is room for.
WINDOW_REPLIES = 64
#: Weight of the parsed puzzles a connection may hold unanswered. A puzzle
#: of c cells weighs c * c // 81 (:func:`puzzle_weight`): a 9x9 81, a 16x16
#: 809, a 25x25 4,822; so the window holds 64 9x9 puzzles (two bulk jobs:
#: pipelines keep their speed), 6 16x16 or 1 25x25 (a parsed 9x9 request
#: holds about 1.8 KB, a 16x16 4.7 KB, a 25x25 9.2 KB, and their work grows
#: faster still). Until the first puzzle of a connection is parsed, each
#: request counts as a 25x25 one.
WINDOW_WEIGHT = 64 * 81
#: Bytes of replies a connection may have ready and unsent (in its queue, or
#: handed to the socket and not yet taken by the kernel) before its reader
#: stops reading and its solver work is held. A reply is never split: the one
#: that crosses the bound is still sent whole, however large (a 25x25 STEPS
#: reply is about 20 KB), and reading resumes once the bytes drain below it.
WINDOW_BYTES = 16 * 1024


def puzzle_weight(cells: int) -> int:
    """A parsed puzzle's weight in the reply window (:data:`WINDOW_WEIGHT`): ``cells * cells // 81``."""
    return cells * cells // 81


#: Weight a request of a connection counts for before it has sent a puzzle (a 25x25 one's).
FIRST_WEIGHT = puzzle_weight(25 * 25)
#: Seconds given to the last non-blocking read before a session ends (it
#: returns at once when bytes are waiting; this only bounds the attempt).
LAST_READ_SECONDS = 0.001
#: Requests a reserve connection may ask (``server.PING_RESERVE``): PING, VERSION, HELP, STATS, QUIT.
RESERVE_REQUESTS = (Ping, Version, Help, Stats, Quit)
#: Seconds, at the end of the shutdown grace, to send the ``ERROR shutdown``
#: lines and close; the process exits within shutdown grace + 1 s.
FINAL_FLUSH_SECONDS = 0.5


class _Gone(Exception):
    """The client reset, the send failed, or it left an answer unread too long."""


class Connection:
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
        self.session = Session(max_line_bytes=self.config.max_line_bytes, opened_at=trio.current_time())
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

    def fill(self, slot: Slot, data: bytes) -> None:
        """A solver job's reply is ready (called by the pool)."""
        if slot.data is None and not self.gone:
            slot.data = data
            slot.job = None  # the puzzle it held is no longer needed
            self.held_weight -= slot.weight
            slot.weight = 0
            self._add_unsent(len(data))
            self._writer_wake.set()

    def shutdown_line(self, job: Job) -> bytes:
        """``ERROR shutdown`` for the job's request (one line per puzzle of a bulk job)."""
        return b"".join(replies.shutdown_line(what, job.ending) for what in job.each())

    def _add_unsent(self, size: int) -> None:
        """``size`` more bytes of replies are ready; a full window holds the connection's solver work."""
        self.unsent += size
        if self.unsent >= WINDOW_BYTES:
            self.pool.hold(self)

    def _hold_weight(self, puzzles: list[Puzzle]) -> int:
        """Count parsed puzzles in the window; returns their weight."""
        weights = [puzzle_weight(len(puzzle.grid.cells)) for puzzle in puzzles]
        self.held_weight += sum(weights)
        self.weight_per_request = max([self.weight_per_request, *weights])
        return sum(weights)

    def _room(self) -> int:
        """Requests the session may parse now: room left in the window's replies and weight (1 at least)."""
        weight = self.weight_per_request or FIRST_WEIGHT
        return max(1, min(WINDOW_REPLIES - self.unanswered, (WINDOW_WEIGHT - self.held_weight) // weight))

    def output_full(self, extra: int = 0) -> bool:
        """True when the replies ready and unsent, plus ``extra`` bytes, fill :data:`WINDOW_BYTES`.

        Read by a worker thread between the jobs of a batch (``extra``: its
        answers not yet handed over), which then cuts the batch.
        """
        return self.unsent + extra >= WINDOW_BYTES

    @property
    def window_full(self) -> bool:
        """True when the reader must wait: :data:`WINDOW_REPLIES` unanswered, :data:`WINDOW_WEIGHT` of
        puzzles held, or :data:`WINDOW_BYTES` unsent."""
        return self.unanswered >= WINDOW_REPLIES or self.held_weight >= WINDOW_WEIGHT or self.unsent >= WINDOW_BYTES

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
        """Stop reading: what was received is answered, then the connection closes."""
        self.stop_reading = True
        if self.read_scope is not None:
            self.read_scope.cancel()

    def _read_deadline(self) -> float:
        """When the reader gives up waiting (PROTOCOL.md "Connection lifecycle").

        While replies of this connection are still being computed or sent
        there is no deadline (the writer sets one when it catches up); after
        an answer, or with an unterminated line pending, the close grace;
        before the first answer, the idle timeout.
        """
        cfg = self.config
        if self.slots:
            return math.inf
        if self.session.interactive:
            return trio.current_time() + cfg.interactive_timeout
        quick = self.answered or self.session.pending
        return trio.current_time() + (cfg.close_grace if quick else cfg.idle_timeout)

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
        with trio.CancelScope(deadline=self._read_deadline()) as scope:
            self.read_scope = scope
            data = await self.stream.receive_some(RECEIVE_SIZE)
        self.read_scope = None
        if not scope.cancelled_caught:
            return data
        if self.stop_reading:
            return None
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
                await self._reader_wake.wait()
            room = self._room()
            if self.stop_reading:
                more = bool(await self._try_receive()) if not session.pending else False
                events = session.receive_shutdown(more_input=more)
            elif session.backlog:
                events = session.receive_more(trio.current_time(), room)
            else:
                data = await self._receive()
                if self.stop_reading:
                    more = bool(data) or (data is None and bool(await self._try_receive()))
                    events = session.receive_shutdown(more_input=more)
                elif data is None and self.server.shutting_down:
                    # Stopping: a timer ended the session; a partial line stays unparsed.
                    events = session.receive_shutdown()
                elif not data:
                    events = session.receive_eof()  # end of stream, idle timeout or close grace
                    if data is None and session.interactive:
                        events.append(Reply(replies.idle_bye(self.config.interactive_timeout)))
                else:
                    events = session.receive_data(data, trio.current_time(), room)
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
                        await self._reader_wake.wait()
                if self.reserve and not (
                    isinstance(event, RequestReceived) and isinstance(event.request, RESERVE_REQUESTS)
                ):
                    # Over the connection limit: a health check may ask, nothing else.
                    self.add_reply(self.server.busy_line())
                    self.server.stats.connections_rejected += 1
                    session.closed = True
                    break
                if (
                    bulk is not None
                    and isinstance(event, RequestReceived)
                    and type(event.request) is Solve
                    and not event.request.any
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
        about = f"{name_of(request)} at line {event.line}"
        try:
            data = replies.render(answer(request, server=self.server, about=about), event.ending, puzzle)
        except Exception as error:
            log.exception("%s: internal error on %s", self.peer, about)
            data = replies.internal_line(error, about, event.ending)
        self.add_reply(data)

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
                    if not slots and not self.reading:
                        break
                    await self._writer_wake.wait()
                if not slots:
                    break
                chunks: list[bytes] = []
                replies = 0
                while slots and slots[0].data is not None:
                    slot = slots.popleft()
                    assert slot.data is not None  # the loop's condition
                    chunks.append(slot.data)
                    replies += slot.count
                data = b"".join(chunks)
                chunks.clear()  # the joined copy is what the window counts while it is sent
                await self._send(data)
                self.unsent -= len(data)
                self.unanswered -= replies
                self.answered += replies
                self._count(data, replies)
                self._reader_wake.set()
                if self.unsent < WINDOW_BYTES:
                    self.pool.release(self)
                scope = self.read_scope
                if scope is not None and not slots:
                    # All caught up: the close grace (or a person's idle limit) starts now.
                    scope.deadline = self._read_deadline()
        except (trio.BrokenResourceError, trio.ClosedResourceError, _Gone) as error:
            self._gone(error)
            return
        seconds = self.config.linger_time
        if self.server.stopping:
            seconds = min(seconds, FINAL_FLUSH_SECONDS)
        await linger(self.stream, self.peer, seconds)

    def _count(self, data: bytes, count: int) -> None:
        """Count ``count`` replies sent in ``data``: answered, or ERROR by code."""
        stats = self.server.stats
        stats.answers += count
        replies = stats.replies
        errors = 0
        if data.startswith(b"ERROR ") or b"\nERROR " in data or b"\rERROR " in data:
            for line in data.splitlines():
                code = error_code(line)
                if code is not None:
                    self.errors[code] += 1
                    replies[code] += 1
                    errors += 1
        replies["answered"] += count - errors


async def linger(stream: trio.abc.HalfCloseableStream, peer: str, seconds: float) -> None:
    """Half-close, read and discard until the client closes (at most ``seconds``).

    Bytes that arrive now come after the session ended: they are logged,
    never dropped silently.
    """
    try:
        await stream.send_eof()
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        return
    late = 0
    with trio.move_on_after(seconds):
        try:
            while True:
                data = await stream.receive_some(65536)
                if not data:
                    break
                late += len(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
    if late:
        log.info("%s sent %d byte(s) after its session ended: not read", peer, late)
