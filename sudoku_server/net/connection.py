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
import time
from dataclasses import dataclass

import trio

from sudoku_server.net.inline import RECEIVE_SIZE, InlineSolver, SocketIO, count_replies
from sudoku_server.net.lifecycle import HeldBack, SessionClock
from sudoku_server.net.pool import BULK_PUZZLES, BulkItem, Job, Slot, first_line
from sudoku_server.net.services import FrontServices
from sudoku_server.net.window import NINE_WEIGHT, WINDOW_REPLIES, ReplyWindow, puzzle_weight
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Request, Solve
from sudoku_server.text import Puzzle
from sudoku_server.text.marksline import PLAIN_MAX
from sudoku_server.wire import replies
from sudoku_server.wire.session import CloseConnection, Event, Reply, RequestReceived, Session, TakenLine, TelnetReply
from sudoku_server.wire.verbs import name_of

__all__ = ["FINAL_FLUSH_SECONDS", "RECEIVE_SIZE", "Connection", "linger"]

log = logging.getLogger("sudoku_server")

#: Seconds given to the last non-blocking read before a session ends (it
#: returns at once when bytes are waiting; this only bounds the attempt).
LAST_READ_SECONDS = 0.001
#: Seconds, at the end of the shutdown grace, to send the ``ERROR shutdown``
#: lines and close; the process exits within shutdown grace + 1 s.
FINAL_FLUSH_SECONDS = 0.5


@dataclass(eq=False, slots=True)
class _Later(Slot):
    """A reply rendered when every reply before it is sent (``STATS``: it counts them)."""

    event: RequestReceived | None = None


class _Gone(Exception):
    """The client reset, the send failed, or it left an answer unread too long."""


class _Bulk:
    """Plain one-line puzzles and marks lines of one read, gathered for one bulk job (:data:`BULK_PUZZLES` at most)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.pairs: list[BulkItem] = []

    def add(self, item: BulkItem) -> None:
        self.pairs.append(item)
        if len(self.pairs) >= BULK_PUZZLES:
            self.flush()

    def flush(self) -> None:
        if self.pairs:
            self.connection.add_bulk(self.pairs)
            self.pairs = []


class Connection:
    """One client: reader and writer tasks around a :class:`Session`.

    It owns its parts: the session (framing, routing), the reply window
    (:class:`~.window.ReplyWindow`: the slots in request order and their
    bounds), its session clock (:class:`~.lifecycle.SessionClock`: the
    timers), the socket reads and writes without waiting
    (:class:`~.inline.SocketIO`) and the inline path
    (:class:`~.inline.InlineSolver`), and its reader (:class:`_Reader`). It
    is a client of the solver pool (:class:`~.pool.PoolClient`). One unit
    because the writer, the pool's deliveries and the timers work on one
    reply queue and its counters, which every reply changes.

    Args:
      services: what the server gives its fronts (:class:`~.services.FrontServices`).
      stream: the client's stream; peer: its name for the log.
      initial: bytes read with the PROXY header, for the session.
      reserve: over ``--max-connections``: health checks only.
    """

    def __init__(
        self,
        services: FrontServices,
        stream: trio.SocketStream,
        peer: str,
        *,
        initial: bytes = b"",
        reserve: bool = False,
    ) -> None:
        self.services = services
        self.config = services.config
        self.pool = services.pool
        self.stream = stream
        self.peer = peer
        self.initial = initial
        self.reserve = reserve
        self.session = Session(max_line_bytes=self.config.max_line_bytes)
        self.clock = SessionClock(self.config, trio.current_time())
        self.window = ReplyWindow(on_full=self._hold)
        self.io = SocketIO(stream) if stream is not None else None
        self.inline = InlineSolver(self.config.inline_seconds)
        self.held_back = HeldBack()  # for the cut at shutdown
        self.answered = 0  # replies sent
        self.jobs = 0  # solver jobs received
        self.solver_seconds = 0.0  # time its batches held a worker
        self.errors: dict[str, int] = collections.defaultdict(int)
        self.reading = True  # the reader has not finished
        self.stop_reading = False  # shutdown: read nothing more
        self.gone = False
        self.read_scope: trio.CancelScope | None = None
        self.send_lock = trio.Lock()
        self.nursery: trio.Nursery | None = None
        self.reader = _Reader(self)

    def _hold(self) -> None:
        self.pool.hold(self)

    # -- PoolClient -------------------------------------------------------------

    def fill(self, slot: Slot, data: bytes) -> None:
        """A solver job's reply is ready (called by the pool)."""
        if not self.gone:
            self.window.fill(slot, data)

    def output_full(self, extra: int = 0, ahead: bool = False) -> bool:
        """True when the replies ready and unsent, plus ``extra`` bytes, fill the window (read by a worker)."""
        return self.window.output_full(extra, ahead)

    def shutdown_line(self, job: Job) -> bytes:
        """``ERROR shutdown`` for the job's request (one line per puzzle of a bulk job)."""
        return b"".join(replies.shutdown_line(what, job.ending) for what in job.each())

    def split_bulk(self, job: Job, leftover: list[BulkItem]) -> list[Job]:
        """On the event loop: a bulk job stopped at a slow puzzle.

        Its slot keeps the answers done (filled next); the slow puzzle (the
        first left) gets a slot of its own right after it, and a job that the
        pool runs next for this connection; the puzzles after it stay
        together, in a bulk job of their own after that (the jobs returned,
        in order, for the batch to put first). A marks line left alone gets a
        job that answers it alone (:meth:`taken_job`). (Every puzzle left
        once got a job of its own: renban's 200 pipelined requests took 204
        jobs, each with its own hop; benchmarks/RESULTS.md, eighth session.)
        """
        slot = job.slot
        slot.count -= len(leftover)
        alone = leftover if len(leftover) <= 2 else leftover[:1]  # (a bulk of one is a job of its own)
        rest = leftover[len(alone) :]
        parts = self._own_slots(alone)
        if rest:
            weight = sum(
                NINE_WEIGHT if isinstance(item, TakenLine) else puzzle_weight(len(item[1].grid.cells)) for item in rest
            )
            bulk = Slot(count=len(rest), weight=weight)
            first, last = first_line(rest[0]), first_line(rest[-1])
            bulk.job = Job(self, bulk, None, None, f"puzzles at lines {first} to {last}", job.ending, bulk=rest)
            parts.append(bulk)
        return self._split_into(slot, self.window.slots.index(slot) + 1, parts)

    def _own_slots(self, items: list[BulkItem]) -> list[Slot]:
        """A slot and job of its own for each of ``items`` (puzzles left by a split bulk)."""
        out = []
        for item in items:
            if isinstance(item, TakenLine):
                own = Slot(weight=NINE_WEIGHT)
                own.job = self.taken_job(own, item)
            else:
                request, puzzle = item
                own = Slot(weight=puzzle_weight(len(puzzle.grid.cells)))
                own.job = Job(self, own, request, puzzle, f"puzzle at line {puzzle.first_line}", puzzle.default_ending)
            out.append(own)
        return out

    def _split_into(self, slot: Slot, at: int, parts: list[Slot]) -> list[Job]:
        """``parts`` (slots with their jobs) take their weight from ``slot`` and go in the window at ``at``, in
        order; their jobs, in order."""
        slots = self.window.slots
        jobs = []
        for own in parts:
            slot.weight -= own.weight
            slots.insert(at, own)
            at += 1
            assert own.job is not None
            jobs.append(own.job)
        return jobs

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
            self.gone_now(_Gone(f"reset the connection ({os.strerror(error)})"))

    # -- the reply queue --------------------------------------------------------

    def add_reply(self, data: bytes) -> None:
        """A reply known now, in its turn."""
        self.window.append(Slot(data))

    def add_job(self, request: Request, puzzle: Puzzle | None, what: str, ending: str) -> None:
        """A reply computed in a solver thread, in its turn."""
        slot = Slot(weight=self.window.hold_weight([puzzle] if puzzle is not None else []))
        job = slot.job = Job(self, slot, request, puzzle, what, ending)
        self.window.append(slot)
        self.jobs += 1
        self.pool.submit(job)

    def taken_job(self, slot: Slot, taken: TakenLine) -> Job:
        """The job of a marks line taken unread, answered alone in ``slot`` (``Job.work``: text to text, else read
        and answered the usual way)."""
        return Job(self, slot, None, None, f"puzzle at line {taken.lineno}", taken.ending, taken=taken)

    def add_taken(self, taken: TakenLine) -> None:
        """A marks line taken unread (alone, or one whose search is slow): a slot and a solver job of its own, in
        its turn."""
        slot = Slot(weight=self.window.hold_weight([], 1))
        slot.job = self.taken_job(slot, taken)
        self.window.append(slot)
        self.jobs += 1
        self.pool.submit(slot.job)

    def add_bulk(self, puzzles: list[BulkItem]) -> None:
        """Plain one-line puzzles and marks lines that came together: one slot, one solver job."""
        if len(puzzles) == 1:
            item = puzzles[0]
            if isinstance(item, TakenLine):
                self.add_taken(item)
            else:
                self.add_job(item[0], item[1], f"puzzle at line {item[1].first_line}", item[1].default_ending)
            return
        first, last = first_line(puzzles[0]), first_line(puzzles[-1])
        parsed = [item[1] for item in puzzles if not isinstance(item, TakenLine)]
        slot = Slot(count=len(puzzles), weight=self.window.hold_weight(parsed, len(puzzles) - len(parsed)))
        head = puzzles[0]
        ending = head.ending if isinstance(head, TakenLine) else head[1].default_ending  # (its ERROR shutdown lines)
        job = slot.job = Job(self, slot, None, None, f"puzzles at lines {first} to {last}", ending, bulk=puzzles)
        self.window.append(slot)
        self.jobs += len(puzzles)
        self.pool.submit(job, len(puzzles))

    # -- tasks ---------------------------------------------------------------

    async def run(self) -> None:
        self.pool.open(self)
        try:
            async with trio.open_nursery() as nursery:
                self.nursery = nursery
                nursery.start_soon(self.reader._read)
                await self._write()
        finally:
            self.pool.close(self)  # its jobs that never ran: nobody to answer, the connection is closed or gone

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
        self.window.unsent += self.held_back.cut(self.window.slots)

    def evictable(self, now: float, min_idle: float) -> bool:
        """True when a newcomer may take this slot (or reserve place): nothing to answer, no complete line for
        ``min_idle`` s."""
        return (
            self.clock.evicted is None
            and self.reading
            and not self.stop_reading
            and not self.window.slots
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

    def read_deadline(self) -> float:
        """When the reader gives up waiting (PROTOCOL.md "Connection lifecycle", :class:`.lifecycle.SessionClock`).

        While replies of this connection are still being computed or sent
        there is no deadline (the writer sets one when it catches up).
        """
        if self.window.slots:
            return math.inf
        return self.clock.deadline(self.session, self.answered, trio.current_time())

    def render_now(self, event: RequestReceived) -> bytes:
        """The reply of a request answered without the solver (``service.answer``), rendered now."""
        request = event.request
        about = f"{name_of(request)} at line {event.line}"
        try:
            result = answer(request, solvers=self.services.solvers, server=self.services, about=about)
            return replies.render(result, event.ending, event.puzzle)
        except Exception as error:
            log.exception("%s: internal error on %s", self.peer, about)
            return replies.internal_line(error, about, event.ending)

    # -- writing ---------------------------------------------------------------

    def flush_now(self) -> None:
        """The reader is about to wait: send the replies ready at the head of the queue now, in one send.

        A plain ``write`` on the descriptor, when no send is under way; what
        the socket does not take at once (or on any error) is left to the
        writer task, which is woken for it.
        """
        window = self.window
        if not window.head_ready():
            if window.slots:
                window.writer_wake.set()  # a STATS to render at the head: the writer's
            return
        if self.io is None or self.gone or self.send_lock.locked():
            window.writer_wake.set()
            return
        data, count = window.take_ready()
        sent = max(0, self.io.write_now(data))
        if sent < len(data):
            window.slots.appendleft(Slot(data[sent:], count=0))  # the rest: the writer sends it, counted here
        if window.slots:
            window.writer_wake.set()  # the rest, or a STATS to render now that the replies before it are sent
        self._sent(data, sent, count)

    def _sent(self, data: bytes, sent: int, count: int) -> None:
        """``sent`` bytes of ``data``, which holds ``count`` replies, were sent (the rest, if any, is queued
        first with a count of 0): the window, the counts and the timers."""
        window = self.window
        window.sent(sent, count)
        if count:
            self.answered += count
            count_replies(self.services.stats, self.errors, data, count)
        if not window.slots:
            self.clock.last_progress = trio.current_time()  # every reply sent: progress
        if not window.bytes_full:
            self.pool.release(self)
        scope = self.read_scope
        if scope is not None and not window.slots:
            # All caught up: the close grace (or a person's idle limit) starts now.
            scope.deadline = self.read_deadline()

    def gone_now(self, error: BaseException) -> None:
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

    async def send(self, data: bytes) -> None:
        """Send bytes; a client that takes none of them for ``idle_timeout`` s is dropped."""
        async with self.send_lock:
            with trio.move_on_after(self.config.idle_timeout) as scope:
                await self.stream.send_all(data)
            if scope.cancelled_caught:
                raise _Gone(f"read nothing for {self.config.idle_timeout:g} s")

    async def _next_ready(self) -> bool:
        """Wait until the head reply is ready (rendering a ``STATS`` whose turn came); False when all is done."""
        window = self.window
        while not window.head_ready():
            slots = window.slots
            head = slots[0] if slots else None
            if isinstance(head, _Later) and head.event is not None:
                head.data = self.render_now(head.event)  # every reply before it is sent and counted
                head.event = None
                window.unsent += len(head.data)
                return True
            if not slots and not self.reading:
                return False
            await window.writer_wake.wait()
        return True

    async def _write(self) -> None:
        try:
            while await self._next_ready():
                data, count = self.window.take_ready()
                # A plain write first, when no send is under way (a telnet reply's); the rest through trio.
                sent = self.io.write_now(data) if self.io is not None and not self.send_lock.locked() else -1
                if sent < len(data):
                    await self.send(data[sent:] if sent > 0 else data)
                self._sent(data, len(data), count)
        except (trio.BrokenResourceError, trio.ClosedResourceError, _Gone) as error:
            self.gone_now(error)
            return
        self.services.admission.session_ended(self)  # lingering holds no slot
        seconds = self.config.linger_time
        if self.services.lifecycle.stopping:
            seconds = min(seconds, FINAL_FLUSH_SECONDS)
        grace = self.config.close_grace if self.clock.grace_ended else None
        await linger(self.stream, self.peer, seconds, unread=self.session.unread, close_grace=grace)


class _Reader:
    """A connection's reader: reads the socket, feeds the session, and routes each event in its turn.

    Owned by its :class:`Connection` (``connection.reader``), whose reply
    queue, timers and pool it works on: requests answered at once, solver
    jobs, plain puzzles solved inline or gathered in bulk. One unit because
    every step of input goes through the same window room, the same session
    and the same routing of its events, in order.
    """

    def __init__(self, connection: Connection) -> None:
        self.c = connection
        self.spent = 0.0  # seconds of typed requests answered inline in this step

    async def _read(self) -> None:
        try:
            await self._read_events()
        except (trio.BrokenResourceError, trio.ClosedResourceError, _Gone) as error:
            self.c.gone_now(error)
        finally:
            self.c.reading = False
            self.c.window.writer_wake.set()

    def _read_now(self) -> bytes | None:
        if self.c.io is None or self.c.gone:
            return None
        return self.c.io.read_now()

    async def _receive(self) -> bytes | None:
        """Bytes from the client; None when the read deadline passed with nothing."""
        if self.c.initial:
            data, self.c.initial = self.c.initial, b""
            return data
        if self.c.clock.evicted is not None:
            return None
        io = self.c.io
        ready = None if io is not None and io.drained else self._read_now()  # a short read emptied the buffer
        if ready is not None:
            return ready
        self.c.flush_now()  # nothing more to read now: the replies ready go in one send before the wait
        while True:
            started = trio.current_time()
            with trio.CancelScope(deadline=self.c.read_deadline()) as scope:
                self.c.read_scope = scope
                data = await self._wait_and_read()
            self.c.read_scope = None
            self.c.clock.waited += trio.current_time() - started
            if not scope.cancelled_caught:
                return data
            if self.c.stop_reading or self.c.clock.evicted is not None:
                return None
            if not self.c.clock.waits_on(self.c.session):
                break  # a line still being produced waits for the idle timeout, not the close grace
        # The timer ran out (or the process was stopped and resumed): one last
        # look, so that bytes that did arrive are answered, never dropped.
        return await self._try_receive()

    async def _wait_and_read(self) -> bytes:
        if self.c.io is None:
            return await self.c.stream.receive_some(RECEIVE_SIZE)
        return await self.c.io.wait_and_read()

    async def _try_receive(self) -> bytes | None:
        with trio.move_on_after(LAST_READ_SECONDS):
            return await self.c.stream.receive_some(RECEIVE_SIZE)
        return None

    async def _wait_for_room(self) -> None:
        """Until the reply window has room (or reading stops): send what is ready, wait for the writer."""
        window = self.c.window
        while window.full and not self.c.stop_reading:
            self.c.flush_now()
            if window.full:
                await window.reader_wake.wait()

    async def _wait_for_bytes_room(self) -> None:
        """Until the window's bytes drain below the bound (or reading stops)."""
        window = self.c.window
        while window.bytes_full and not self.c.stop_reading:
            self.c.flush_now()
            if window.bytes_full:
                await window.reader_wake.wait()

    async def _next_events(self, room: int) -> list[Event]:
        """The events of the next step of input: what is buffered, or the next bytes read (at most ``room``
        requests)."""
        session = self.c.session
        if self.c.stop_reading:
            more = False if session.pending else bool(await self._try_receive())
            return session.receive_shutdown(more_input=more)
        if session.backlog:
            return self._receive_buffered(room)
        data = await self._receive()
        if self.c.stop_reading:
            more = bool(data) or (data is None and bool(await self._try_receive()))
            return session.receive_shutdown(more_input=more)
        if data is None and self.c.services.lifecycle.closing:
            return session.receive_shutdown()  # stopping: a timer ended the session; a partial line stays unparsed
        if not data:
            events = session.receive_eof()  # end of stream, a timeout, the close grace or eviction
            last = self.c.clock.ended(session) if data is None else None
            if last is not None:
                events.append(Reply(last))
            return events
        lines = session.lineno
        if self.c.services.bulk and not self.c.reserve and session.buffer_plain(data, self.c.clock.waited):
            events = self._receive_buffered(room)  # plain one-line puzzles first, in C
        else:
            events = session.receive_data(data, self.c.clock.waited, room)
        if session.lineno != lines:
            self.c.clock.last_progress = trio.current_time()  # a complete line: progress
        return events

    async def _read_events(self) -> None:
        session = self.c.session
        window = self.c.window
        while not session.closed:
            if window.full:
                await self._wait_for_room()
            events = await self._next_events(window.room())
            if events:
                await self._handle_events(events)
            events.clear()  # nothing of this chunk is held while the reader waits for the window
            await trio.lowlevel.checkpoint()  # one chunk at a time: others get the loop

    async def _handle_events(self, events: list[Event]) -> None:
        """Act on a step's events in order: replies and jobs in their turn; plain puzzles gathered in bulk.

        Plain one-line puzzles go in bulk, with the native core and the
        server's own solver (a test's fake solver gets them one by one).
        """
        bulk = _Bulk(self.c) if self.c.services.bulk else None
        self.spent = 0.0  # seconds of inline answers in this step (at most the inline budget, plus one)
        for event in events:
            if isinstance(event, TelnetReply):
                await self.c.send(event.data)
                continue
            if isinstance(event, CloseConnection):
                break
            if self.c.window.bytes_full and not self.c.stop_reading:
                # The window is full in bytes within one chunk's requests
                # (HELP x 200): the rest wait, parsed, until it drains.
                if bulk is not None:
                    bulk.flush()
                await self._wait_for_bytes_room()
            if self.c.reserve and not self._reserve_admits(event):
                break
            if bulk is not None and isinstance(event, TakenLine):
                if event.slow:  # its search is slow: a job of its own (a bulk would stop at it)
                    bulk.flush()
                    self.c.add_taken(event)
                else:  # a marks line the inline path did not answer: answered in bulk
                    bulk.add(event)
                continue
            if bulk is not None and _bulk_able(event):
                assert isinstance(event, RequestReceived) and isinstance(event.request, Solve)
                assert event.puzzle is not None
                bulk.add((event.request, event.puzzle))
                continue
            if bulk is not None:
                bulk.flush()
            if isinstance(event, Reply):
                self.c.add_reply(event.data)
            else:
                assert isinstance(event, RequestReceived)
                self._add_request(event)
        if bulk is not None:
            bulk.flush()

    def _reserve_admits(self, event: Event) -> bool:
        """A reserve connection's event: True when it may be served (a health check, a slot freed, or its last
        lines after eviction); else it is told ``busy`` and its session closes (False)."""
        if self.c.clock.evicted is not None:
            return True  # its last lines (ERROR incomplete, BYE) are sent
        if isinstance(event, RequestReceived) and event.request.health_check:
            return True
        if self.c.services.admission.take_slot():
            self.c.reserve = False  # a slot is free, or an idle session gave it up: served like any other
            return True
        self.c.add_reply(self.c.services.busy_line())  # over the connection limit: a health check may ask, nothing else
        self.c.services.stats.connections_rejected += 1
        self.c.session.closed = True
        return False

    def _receive_buffered(self, room: int) -> list[Event]:
        """Parse buffered input: the plain one-line puzzles at its front first (:meth:`_add_plain`), then the rest
        (``Session.receive_more``); at most ``room`` requests in all. Returns the events to add, in order."""
        session = self.c.session
        events: list[Event] = []
        if self.c.services.bulk and not self.c.reserve:
            lines, first = session.take_plain(room, marks=True)
            window = self.c.window
            if lines and window.weight_per_request < NINE_WEIGHT:
                # The first puzzles of the connection: the room was counted for 25x25 ones; these are 9x9.
                window.weight_per_request = NINE_WEIGHT
                more, _ = session.take_plain(max(0, window.room() - len(lines)), marks=True)
                lines += more
            if lines:
                events = self._add_plain(lines, first)
                room -= len(lines)
                if room <= 0:
                    return events  # the rest stays buffered (session.backlog) until the window has room
        if session.backlog:
            events += session.receive_more(self.c.clock.waited, room)
        return events

    def _inline_ok(self) -> bool:
        """True when this connection's plain puzzles may be solved on the event loop now.

        Not while any reply before them waits (a solver job, a ``STATS``: the
        order and the scheduler's turn stay theirs), nor while the connection
        is held (its client does not read) or its budget is used (the pool
        refuses its puzzles), nor once the server stops.
        """
        if self.c.inline.budget <= 0 or self.c.gone or not self.c.services.fast or self.c.window.pending():
            return False
        return self.c.pool.may_inline(self.c)

    def _add_plain(self, lines: list[bytes], first: int) -> list[Event]:
        """Plain one-line puzzles (``Session.take_plain``, the first at line ``first``): solve what is quick inline.

        :class:`~.inline.InlineSolver` answers them on the event loop while the
        connection may (:meth:`_inline_ok`); the answers done go in one reply
        slot, now, sent when the reader has read all there is (:meth:`Connection.flush_now`);
        the time is charged by the pool (``SolverPool.charge_inline``). The
        puzzles from the first one not answered on are returned as events,
        for the usual path (the pool), in order after them.
        """
        window = self.c.window
        window.weight_per_request = max(window.weight_per_request, NINE_WEIGHT)  # as hold_weight counts a 9x9
        answered = 0
        slow = False  # the first line not answered searched past the inline path's bound
        if self._inline_ok():
            answers, spent = self.c.inline.solve(lines)
            slow = self.c.inline.stopped_slow
            answered = len(answers)
            self.c.pool.charge_inline(self.c, spent, time.monotonic(), answered)
            if answered:
                self.c.window.append(Slot(b"".join(answers), count=answered), wake=False)  # sent by flush_now
                self.c.jobs += answered
                if log.isEnabledFor(logging.DEBUG):
                    for index in range(answered):
                        log.debug(
                            "%s puzzle at line %d: answered, %.1f ms (inline)",
                            self.c.peer,
                            first + index,
                            spent / answered * 1000,
                        )
        session = self.c.session
        events: list[Event] = []
        for index in range(answered, len(lines)):
            line = lines[index]
            if len(line) > PLAIN_MAX:  # a marks line: unread until its job answers it
                events.append(TakenLine(line, first + index, index == answered and slow))
            else:
                events.append(session.plain_event(line, first + index))
        return events

    def _answer_inline(self, event: RequestReceived) -> bool:
        """Answer a typed request on the event loop while the connection may (:meth:`_inline_ok`) and this step's
        inline budget lasts (``InlineSolver.answer``); True when answered, False for the pool."""
        c = self.c
        if self.spent >= c.inline.budget or not self._inline_ok():
            return False
        about = f"the puzzle at line {event.line}"
        data, spent = c.inline.answer(event.request, event.puzzle, event.ending, c.services.context(), about)
        self.spent += spent
        c.pool.charge_inline(c, spent, time.monotonic(), 0 if data is None else 1)
        if data is None:
            return False
        c.window.append(Slot(data), wake=False)  # sent by flush_now
        c.jobs += 1
        return True

    def _add_request(self, event: RequestReceived) -> None:
        """Answer a request in its turn: solver work as a job, the others at once (``service.answer``)."""
        request, puzzle = event.request, event.puzzle
        pooled = self.c.services.filler.take(request, event.ending) if request.warm_pooled else None
        if pooled is not None:  # a GENERATE by level answered from its warm pool
            self.c.add_reply(pooled)
            return
        if request.inline_able and self._answer_inline(event):
            return  # a quick SOLVE (a variant puzzle, a grid) answered on the event loop, within the budget
        if request.solver_work:  # a job for a solver thread; the others are answered at once
            what = f"puzzle at line {event.line}" if puzzle is not None else f"{name_of(request)} at line {event.line}"
            self.c.add_job(request, puzzle, what, event.ending)
            return
        window = self.c.window
        if request.after_replies and (window.slots or window.unsent):  # a reply still queued or being sent
            # STATS counts at the time it is answered: after the replies before it are sent.
            window.append(_Later(event=event))
            return
        self.c.add_reply(self.c.render_now(event))
        self.c.held_back.note(window.slots, f"{name_of(request)} at line {event.line}", event.ending, WINDOW_REPLIES)


def _bulk_able(event: Event) -> bool:
    """True for a plain one-line puzzle the bulk path takes: its request says so (``Solve.bulk_able``)."""
    if not isinstance(event, RequestReceived) or event.puzzle is None or not event.puzzle.plain:
        return False
    return event.request.bulk_able


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
