"""A connection's reply window: what a client that does not read may make the server hold.

Counted in replies, in the weight of parsed puzzles and in bytes of replies
ready and unsent (PROTOCOL.md "Fairness and bounds"): the reader of
:class:`~sudoku_server.net.connection.Connection` stops reading while it is
full, and the pool holds the connection's solver work while its bytes are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sudoku_server.text import Puzzle

if TYPE_CHECKING:
    import collections

    from sudoku_server.net.pool import Signal, Slot, SolverPool

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


class ReplyWindow:
    """The window's counters and rules, mixed into :class:`~sudoku_server.net.connection.Connection`.

    Attributes (set by the connection):
      unanswered: replies not sent yet (a bulk slot holds several).
      unsent: bytes of ready replies not yet sent.
      held_weight: weight of parsed puzzles not answered yet (:func:`puzzle_weight`).
      weight_per_request: weight of its largest puzzle so far (0: none yet).
    """

    pool: SolverPool
    slots: collections.deque[Slot]
    unanswered: int
    unsent: int
    held_weight: int
    weight_per_request: int
    gone: bool
    _writer_wake: Signal

    def fill(self, slot: Slot, data: bytes) -> None:
        """A solver job's reply is ready (called by the pool)."""
        if slot.data is None and not self.gone:
            slot.data = data
            slot.job = None  # the puzzle it held is no longer needed
            self.held_weight -= slot.weight
            slot.weight = 0
            self._add_unsent(len(data))
            self._writer_wake.set()

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

    def _add_unsent(self, size: int) -> None:
        """``size`` more bytes of replies are ready; a full window holds the connection's solver work."""
        self.unsent += size
        if self.unsent >= WINDOW_BYTES:
            self.pool.hold(self)  # type: ignore[arg-type]  # the Connection this is mixed into

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
