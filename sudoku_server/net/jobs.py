"""A job of the solver pool and what it needs: its client (:class:`PoolClient`), its context and its work.

:class:`Job` is one piece of solver work, answered in a worker thread of
:class:`~sudoku_server.net.pool.SolverPool` and rendered by ``wire.replies``:
a request, a marks line taken unread, or a *bulk* of plain one-line puzzles
and marks lines (``net.pool._BulkRun``). The pool re-exports these names.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import trio

from sudoku_server.errors import SolveTimeoutError
from sudoku_server.net.window import Slot
from sudoku_server.service.answer import Server, Solvers, answer
from sudoku_server.service.requests import Request, Solve
from sudoku_server.sudoku.solver import is_own_solve
from sudoku_server.text import Puzzle
from sudoku_server.text.marksline import solve_marks
from sudoku_server.wire import replies
from sudoku_server.wire.session import Event, Reply, RequestReceived, TakenLine

__all__ = [
    "BulkItem",
    "Job",
    "JobContext",
    "PoolClient",
    "answer_events",
    "busy_timeout_error",
    "first_line",
    "line_of",
    "to_loop",
    "to_loop_async",
    "worker_of",
]

_T = TypeVar("_T")
#: The event loop of the pool's worker threads (:func:`worker_of` sets it before a batch).
_LOOP = threading.local()


def worker_of(token: trio.lowlevel.TrioToken, fn: Callable[..., _T], *args: object) -> _T:
    """``fn(*args)`` in a thread the pool started for the event loop of ``token`` (:func:`to_loop` reaches it)."""
    _LOOP.token = token
    return fn(*args)


def to_loop(fn: Callable[..., _T], *args: object) -> _T:
    """In a worker thread of the pool: ``fn(*args)`` run on the event loop, its result (or its exception).

    ``trio.from_thread.run_sync`` with the pool's loop named: the pool starts its threads itself
    (``trio.lowlevel.start_thread_soon``), not through ``trio.to_thread``, so trio does not know it.
    """
    return trio.from_thread.run_sync(fn, *args, trio_token=_LOOP.token)


def to_loop_async(afn: Callable[..., Awaitable[_T]], *args: object) -> _T:
    """:func:`to_loop` for an async function (``trio.from_thread.run``: it runs in a system task)."""
    return trio.from_thread.run(afn, *args, trio_token=_LOOP.token)


def busy_timeout_error(seconds: float) -> SolveTimeoutError:
    """The error of a job that passed its wall-time bound (``seconds``): ``no answer within 20 s (the server is
    busy)``; the solve timeout's own words (``no answer within 10 s``) say the job itself took that long."""
    return SolveTimeoutError(f"no answer within {seconds:g} s (the server is busy)")


#: One puzzle of a bulk job: a plain one-line puzzle read (its request and puzzle), or a marks line unread.
BulkItem = tuple[Solve, Puzzle] | TakenLine


def first_line(item: BulkItem) -> int:
    """The line number of a bulk job's puzzle."""
    return item.lineno if isinstance(item, TakenLine) else item[1].first_line


def line_of(item: BulkItem) -> bytes:
    """A bulk job's puzzle as its line's bytes, terminator included."""
    if isinstance(item, TakenLine):
        return item.line
    puzzle = item[1]
    return (puzzle.lines[0] + puzzle.endings[0]).encode("ascii")


def answer_events(events: list[Event], check: Callable[[], None], context: JobContext) -> bytes:
    """The replies of a line's events: its error line, or its request answered and rendered as :meth:`Job.work`
    answers one."""
    chunks = []
    for event in events:
        if isinstance(event, Reply):
            chunks.append(event.data)
        elif isinstance(event, RequestReceived):
            about = f"the puzzle at line {event.line}"
            result = answer(event.request, check=check, solvers=context.solvers, server=context.server, about=about)
            chunks.append(replies.render(result, event.ending, event.puzzle))
    return b"".join(chunks)


class PoolClient(Protocol):
    """What a client of the pool provides: a line connection, or the HTTP front's client of one address.

    The pool calls these on the event loop, except :meth:`output_full`,
    which a worker thread reads between the jobs of a batch.
    """

    @property
    def peer(self) -> str:
        """The client, for the log (``127.0.0.1:50312``)."""
        ...

    solver_seconds: float  # time its batches (and its inline solving) held a worker

    def __hash__(self) -> int:
        """Clients are the scheduler's keys (by identity)."""
        ...

    def fill(self, slot: Slot, data: bytes) -> None:
        """A job's reply is ready: ``data`` for ``slot``."""
        ...

    def check_peer(self) -> None:
        """Before a batch and once per slice: find out whether the client has gone (then close it in the pool)."""
        ...

    def output_full(self, extra: int = 0, ahead: bool = False) -> bool:
        """True when its replies ready and unsent, plus ``extra`` bytes, fill its window (the batch is cut);
        ``ahead``: for an extra batch, counting the replies done behind one not known yet."""
        ...

    def shutdown_line(self, job: Job) -> bytes:
        """The reply of ``job`` when the server stops before it is answered."""
        ...

    def split_bulk(self, job: Job, leftover: list[BulkItem]) -> list[Job]:
        """A bulk job stopped at a slow puzzle: ``leftover`` get jobs of their own, returned in order."""
        ...


@dataclass(frozen=True, slots=True)
class JobContext:
    """What a job answers with: the solver functions and the server the verbs about it read."""

    solvers: Solvers
    server: Server


@dataclass(eq=False, slots=True)
class Job:
    """One piece of solver work: a request answered by ``service.answer`` in a worker thread.

    Its reply is the result rendered by ``wire.replies`` (in ``puzzle``'s
    layout when it has one).
    """

    connection: PoolClient
    slot: Slot
    request: Request | None
    puzzle: Puzzle | None
    what: str  # for messages: "puzzle at line 3"
    ending: str = "\n"
    bulk: list[BulkItem] | None = None  # a run of plain one-line puzzles and marks lines (``net.pool._BulkRun``)
    taken: TakenLine | None = None  # a marks line unread, answered alone (request and puzzle None)

    def each(self) -> list[str]:
        """What each of its replies is about: ``["puzzle at line 3"]``, one per puzzle of a bulk."""
        if self.bulk is None:
            return [self.what]
        return [f"puzzle at line {first_line(item)}" for item in self.bulk[: self.slot.count]]

    def work(self, check: Callable[[], None], context: JobContext) -> bytes:
        """In a worker thread: answer the request and render its reply. Raises what ``check`` raises."""
        if self.taken is not None:  # a marks line: text to text, else read and answered the usual way
            own = is_own_solve(context.solvers.solve)  # (a test's replaced solver sees every line)
            answered = solve_marks(self.taken.line, check=check) if own else None
            return answered if answered is not None else answer_events(self.taken.events(), check, context)
        assert self.request is not None
        result = answer(
            self.request, check=check, solvers=context.solvers, server=context.server, about=f"the {self.what}"
        )
        return replies.render(result, self.ending, self.puzzle)

    # The replies the pool gives on its own (another front, HTTP, renders them its own way).

    def timeout_reply(self, seconds: float, busy: bool = False) -> bytes:
        """The reply of a request that used its solve timeout (``seconds``), or (``busy``) its wall-time bound."""
        if busy:
            return b"".join(replies.error_line(busy_timeout_error(seconds), self.ending) for _ in self.each())
        return replies.timeout_line(seconds, self.ending)

    def internal_reply(self, error: BaseException) -> bytes:
        """The reply of a request whose work failed outside the service (a fault: logged by the caller)."""
        return replies.internal_line(error, f"the {self.what}", self.ending)

    def refused_reply(self, reason: str, budget: bool = False) -> bytes:
        """The reply of a request the scheduler refused (``budget``: its client's budget is used)."""
        return b"".join(replies.not_solved_line(reason, what, self.ending) for what in self.each())
