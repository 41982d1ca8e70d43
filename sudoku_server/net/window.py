"""A connection's reply queue and window: what a client that does not read may make the server hold.

Counted in replies, in the weight of parsed puzzles and in bytes of replies
ready and unsent (PROTOCOL.md "Fairness and bounds"): the reader of
:class:`~sudoku_server.net.connection.Connection` stops reading while it is
full, and the pool holds the connection's solver work while its bytes are.

:class:`ReplyWindow` is an object the connection owns (not a base class): the
slots in request order and their counters. It imports nothing else of
``net``; what it must tell the pool (the window is full in bytes) goes
through the ``on_full`` callable it is given.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import trio

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
#: A 9x9 puzzle's weight.
NINE_WEIGHT = puzzle_weight(81)


@dataclass(eq=False, slots=True)
class Slot:
    """One reply in request order (or a run of replies: a bulk job's): its bytes once known."""

    data: bytes | None = None
    job: Any = None  # the solver job that fills it (net.pool.Job; dropped once filled)
    count: int = 1  # replies it holds
    weight: int = 0  # weight of the parsed puzzles it holds until filled (the reply window)


class Signal:
    """Wake one waiting task (a reset-on-wait event)."""

    def __init__(self) -> None:
        self._event = trio.Event()

    def set(self) -> None:
        self._event.set()

    async def wait(self) -> None:
        await self._event.wait()
        self._event = trio.Event()

    def clear(self) -> None:
        if self._event.is_set():
            self._event = trio.Event()


class ReplyWindow:
    """One connection's replies in request order, and the window's counters and rules.

    Args:
      on_full: called when the bytes ready and unsent reach :data:`WINDOW_BYTES`, those :meth:`blocked` behind
        a reply not known yet left out (the connection then holds its solver work: ``SolverPool.hold``).

    Attributes:
      slots: the replies in request order (:class:`Slot`).
      unanswered: replies not sent yet (a bulk slot holds several).
      unsent: bytes of ready replies not yet sent.
      held_weight: weight of parsed puzzles not answered yet (:func:`puzzle_weight`).
      weight_per_request: weight of its largest puzzle so far (0: none yet).
      writer_wake: set when the writer has something to do (a reply ready).
      reader_wake: set when the reader may go on (replies were sent).
    """

    def __init__(self, on_full: Callable[[], None]) -> None:
        self.slots: collections.deque[Slot] = collections.deque()
        self.unanswered = 0
        self.unsent = 0
        self.held_weight = 0
        self.weight_per_request = 0
        self.writer_wake = Signal()
        self.reader_wake = Signal()
        self._on_full = on_full

    def append(self, slot: Slot, *, wake: bool = True) -> None:
        """A slot in its turn, holding ``slot.count`` replies (its bytes, if known, count as unsent).

        ``wake``: wake the writer for a reply known now; False when the reader
        sends it itself before it waits (the inline path: one send per wake-up,
        no task switch to the writer).
        """
        self.slots.append(slot)
        self.unanswered += slot.count
        if slot.data is not None:
            self.add_unsent(len(slot.data))
            if wake:
                self.writer_wake.set()

    def fill(self, slot: Slot, data: bytes) -> None:
        """A solver job's reply is ready (its puzzles no longer weigh)."""
        if slot.data is None:
            slot.data = data
            slot.job = None  # the puzzle it held is no longer needed
            self.held_weight -= slot.weight
            slot.weight = 0
            self.add_unsent(len(data))
            self.writer_wake.set()

    def pending(self) -> bool:
        """True when a reply in the queue is not known yet (a solver job, a ``STATS`` to render)."""
        return any(slot.data is None for slot in self.slots)

    def head_ready(self) -> bool:
        """True when the first reply of the queue is known (the writer may send)."""
        slots = self.slots
        return bool(slots) and slots[0].data is not None

    def take_ready(self) -> tuple[bytes, int]:
        """The ready replies at the head of the slots, taken off and joined, and how many replies they hold."""
        slots = self.slots
        chunks: list[bytes] = []
        count = 0
        while slots and slots[0].data is not None:
            slot = slots.popleft()
            assert slot.data is not None  # the loop's condition
            chunks.append(slot.data)
            count += slot.count
        return (chunks[0] if len(chunks) == 1 else b"".join(chunks)), count

    def sent(self, sent: int, count: int) -> None:
        """``sent`` bytes holding ``count`` replies left for the socket."""
        self.unsent -= sent
        self.unanswered -= count
        self.reader_wake.set()

    def add_unsent(self, size: int) -> None:
        """``size`` more bytes of replies are ready; a full window holds the connection's solver work."""
        self.unsent += size
        if self.bytes_full:
            self._on_full()

    def blocked(self) -> int:
        """Bytes of ready replies behind a reply not known yet: they wait for the server, not for the client.

        Two batches of one connection end in any order (``net.scheduler``): the replies of the later one wait
        for the earlier one's. They do not fill the window: were they to hold the connection, the earlier
        replies would never be computed. Read by worker threads too (a copy of the slots: no iteration of a
        deque that the event loop changes).
        """
        blocked = 0
        waiting = False
        for slot in tuple(self.slots):
            if slot.data is None:
                waiting = True
            elif waiting:
                blocked += len(slot.data)
        return blocked

    def hold_weight(self, puzzles: Iterable[Any], nine: int = 0) -> int:
        """Count parsed puzzles (``text.Puzzle``), and ``nine`` 9x9 ones not parsed yet (marks lines taken raw), in
        the window; returns their weight."""
        weights = [puzzle_weight(len(puzzle.grid.cells)) for puzzle in puzzles] + [NINE_WEIGHT] * nine
        self.held_weight += sum(weights)
        self.weight_per_request = max([self.weight_per_request, *weights])
        return sum(weights)

    def room(self) -> int:
        """Requests the session may parse now: room left in the window's replies and weight (1 at least)."""
        weight = self.weight_per_request or FIRST_WEIGHT
        return max(1, min(WINDOW_REPLIES - self.unanswered, (WINDOW_WEIGHT - self.held_weight) // weight))

    def output_full(self, extra: int = 0, ahead: bool = False) -> bool:
        """True when the replies ready and unsent, plus ``extra`` bytes, fill :data:`WINDOW_BYTES` (those
        :meth:`blocked` behind a reply not known yet left out, unless ``ahead``).

        Read by a worker thread between the jobs of a batch (``extra``: its
        answers not yet handed over), which then cuts the batch. ``ahead``: the
        batch is an extra one (``net.scheduler``), which computes replies
        behind the first batch's: they count, so that what is computed ahead
        of a client that does not read stays bounded.
        """
        if self.unsent + extra < WINDOW_BYTES:
            return False
        return ahead or self.unsent - self.blocked() + extra >= WINDOW_BYTES

    @property
    def bytes_full(self) -> bool:
        """True while the bytes ready and unsent fill :data:`WINDOW_BYTES` (those :meth:`blocked` left out)."""
        return self.unsent >= WINDOW_BYTES and self.unsent - self.blocked() >= WINDOW_BYTES

    @property
    def full(self) -> bool:
        """True when the reader must wait: :data:`WINDOW_REPLIES` unanswered, :data:`WINDOW_WEIGHT` of
        puzzles held, or :data:`WINDOW_BYTES` unsent."""
        return self.unanswered >= WINDOW_REPLIES or self.held_weight >= WINDOW_WEIGHT or self.bytes_full
