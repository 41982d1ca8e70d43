"""Spreading connections over the workers of ``--workers N``: the fewest open connections accepts first.

The workers share one listening socket (``app/workers.py``). Left to the
kernel, a new connection goes to whichever worker calls ``accept()`` first,
and a worker in its accept loop drains the whole backlog: 16 connections
opened together landed 15/1, 13/3 or 12/4 on two workers, so one worker
did most of the work and ``--workers 2`` gave 1.47x ``--workers 1``
(benchmarks/RESULTS.md, "Workers that scale (issue 18)").

:class:`AcceptBalance` is a table of open connections per worker in memory
shared by the supervisor and its workers (an anonymous shared ``mmap`` made
before the fork). A worker that has more open connections than another
accepting worker waits :data:`ACCEPT_DEFER` seconds for each connection it
has more (at most :data:`ACCEPT_DEFER_MAX`) before it takes a waiting
connection (:class:`BalancedListener`), so that the one with fewer takes it;
if that one does not (its event loop busy, or gone), the first takes it
after all. Connections opened together so alternate between the
workers. The table is a hint: its entries are read and written without a
lock (aligned 4-byte stores), and a stale value costs at most one defer.
"""

from __future__ import annotations

import errno
import mmap
import socket

import trio

#: Seconds a worker ahead of another by one open connection waits before it
#: takes a waiting connection (the other takes it in the meantime unless its
#: event loop is busy); twice that when ahead by two, and so on.
ACCEPT_DEFER = 0.005
#: The longest such wait, seconds: the most a new connection is delayed by the balance.
ACCEPT_DEFER_MAX = 0.025
#: A slot's value when no accepting worker holds it (free, starting, retiring).
NOT_ACCEPTING = -1
#: accept() errors of one connection (it was reset before it was taken), as
#: trio's SocketListener ignores them; the next connection is accepted.
IGNORED_ACCEPT_ERRNOS = frozenset(
    getattr(errno, name)
    for name in (
        "EPERM",
        "ECONNABORTED",
        "EPROTO",
        "ENETDOWN",
        "ENOPROTOOPT",
        "EHOSTDOWN",
        "ENONET",
        "EHOSTUNREACH",
        "EOPNOTSUPP",
        "ENETUNREACH",
        "ENOSR",
        "ESOCKTNOSUPPORT",
        "EPROTONOSUPPORT",
        "ETIMEDOUT",
        "ECONNRESET",
    )
    if hasattr(errno, name)
)


class AcceptBalance:
    """Open connections per worker, in memory shared across ``fork()``.

    Made by the supervisor before it forks; each worker writes its own slot
    (:meth:`publish`) and reads the others (:meth:`lead`). A slot holds a
    connection count, or :data:`NOT_ACCEPTING`.

    Args:
      slots: workers that may be alive at once (a rolling restart runs the
        old workers beside the new ones).
    """

    def __init__(self, slots: int) -> None:
        self._map = mmap.mmap(-1, 4 * max(1, slots))
        self._counts = memoryview(self._map).cast("i")
        for index in range(len(self._counts)):
            self._counts[index] = NOT_ACCEPTING
        self._free = list(range(len(self._counts)))
        self.slot: int | None = None  # this worker's (set in the worker after the fork)

    def take_slot(self) -> int | None:
        """In the supervisor: a free slot for a new worker (marked not accepting); None when all are taken."""
        if not self._free:
            return None
        slot = self._free.pop(0)
        self._counts[slot] = NOT_ACCEPTING
        return slot

    def free_slot(self, slot: int | None) -> None:
        """In the supervisor: the worker of ``slot`` has exited."""
        if slot is not None:
            self._counts[slot] = NOT_ACCEPTING
            self._free.append(slot)

    def publish(self, count: int) -> None:
        """In a worker: its open connections now (``NOT_ACCEPTING`` once it stops accepting)."""
        if self.slot is not None:
            self._counts[self.slot] = count

    def counts(self) -> list[int]:
        """Every slot's value, in slot order (``NOT_ACCEPTING`` for a slot not accepting)."""
        return self._counts.tolist()

    def lead(self) -> int:
        """How many more open connections this worker has than the accepting worker with the fewest (0: none fewer)."""
        if self.slot is None:
            return 0
        mine = self._counts[self.slot]
        fewest = min((count for count in self._counts.tolist() if count > NOT_ACCEPTING), default=mine)
        return max(0, mine - fewest)

    def defer(self) -> float:
        """Seconds to wait before taking a waiting connection: :data:`ACCEPT_DEFER` per connection of :meth:`lead`."""
        return min(ACCEPT_DEFER_MAX, ACCEPT_DEFER * self.lead())


class BalancedListener(trio.abc.Listener[trio.SocketStream]):
    """A listener on a socket shared by several workers that defers to the less loaded ones.

    Like ``trio.SocketListener`` (same streams, same ignored accept errors),
    but a worker ahead of another waits :meth:`AcceptBalance.defer` seconds
    after a connection comes before it tries to take it; if the connection
    is gone by then, it waits for the next one.

    Args:
      sock: a listening stdlib socket (set non-blocking here).
      balance: the shared table, its ``slot`` set to this worker's.
    """

    def __init__(self, sock: socket.socket, balance: AcceptBalance) -> None:
        sock.setblocking(False)
        self._sock = sock
        self.socket = trio.socket.from_stdlib_socket(sock)  # getsockname(), closing
        self.balance = balance

    async def accept(self) -> trio.SocketStream:
        """The next connection (a ``trio.SocketStream``).

        Raises:
          trio.ClosedResourceError: the listener was closed.
          OSError: accept() failed other than for one reset connection
            (``EMFILE`` and the like: the caller waits and retries).
        """
        while True:
            await trio.lowlevel.wait_readable(self._sock)
            defer = self.balance.defer()
            if defer > 0:
                await trio.sleep(defer)
            try:
                conn, _ = self._sock.accept()
            except BlockingIOError:
                continue  # another worker took it
            except OSError as error:
                if error.errno == errno.EBADF:
                    raise trio.ClosedResourceError from None
                if error.errno not in IGNORED_ACCEPT_ERRNOS:
                    raise
                continue
            return trio.SocketStream(trio.socket.from_stdlib_socket(conn))

    async def aclose(self) -> None:
        """Close the listening socket (this process's copy of it)."""
        self.socket.close()
        await trio.lowlevel.checkpoint()
