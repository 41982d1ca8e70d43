"""A connection's session clock and its cut at shutdown: the timers of PROTOCOL.md "Connection lifecycle".

:class:`ServerLifecycle` is the server's lifecycle as one state machine
(:class:`ServerState`: serving, draining, closing, stopping, stopped).

No I/O: :class:`SessionClock` keeps the times a :class:`~sudoku_server.net.connection.Connection`
reads its deadlines from (seconds on trio's clock, passed in), and decides
what a session that its timer ended is told; :class:`Admission` counts the
slots and reserve places (reading trio's clock only to pick, with
:func:`oldest_idle`, the connection that gives up its place when every place
is taken); :class:`HeldBack`
remembers the replies answered at once but held behind an unanswered
request, so that nothing is answered after an ``ERROR shutdown`` line.

The rules (PROTOCOL.md "Sessions"):

* a session's timeout counts from its last **progress**: a complete line
  read, or every reply sent. Bytes of a line that never ends are no
  progress, so a trickler cannot keep a slot by sending one byte per timeout;
* ``--interactive-timeout`` for an interactive session, ``--idle-timeout``
  for the others; a session that is not *held* (``KEEPALIVE``, or
  ``--close-grace off``) also ends after the close grace of silence once it
  has an answer or input that waits for more, except while a line's end has
  not arrived (``Session.unterminated``, whatever the line holds) or a
  request lacks lines (``Session.incomplete``: the rows of a grid, a verb
  waiting for its puzzle): its sender is still producing it, so it gets the
  idle timeout like any line (:meth:`SessionClock.waits_on`);
* a session with nothing to answer and no progress for
  ``min_idle`` seconds may be evicted by a newcomer when every slot is taken,
  the one idle longest first (a silent reserve connection before a slot
  holder when the reserve is full too).
"""

from __future__ import annotations

import enum
import itertools
import logging
import math
from collections.abc import Iterable, Sequence
from typing import Generic, Protocol, TypeVar

import trio
from trio import current_time as time_now

from sudoku_server.net.config import ServerConfig
from sudoku_server.net.window import Signal, Slot
from sudoku_server.wire import replies
from sudoku_server.wire.session import Session

__all__ = ["Admission", "HeldBack", "ServerLifecycle", "ServerState", "SessionClock", "oldest_idle"]

log = logging.getLogger("sudoku_server")


class SessionClock:
    """The timers of one connection's session.

    Args:
      config: the server's settings (``close_grace`` None: ``--close-grace off``).
      now: when the connection opened (seconds, trio's clock).

    Attributes:
      last_progress: when the session last made progress (opened, a complete
        line read, every reply sent).
      waited: seconds the reader has spent waiting for input; the clock the
        session times a person's pauses on, so that a pause of the server's
        own (a full reply window) never looks like one.
      evicted: ``(seconds idle, connection limit)`` once a newcomer took the slot.
      grace_ended: the close grace ended the session.
    """

    def __init__(self, config: ServerConfig, now: float) -> None:
        self.config = config
        self.last_progress = now
        self.waited = 0.0
        self.evicted: tuple[float, int] | None = None
        self.grace_ended = False
        self._kind = "idle"  # the timer deadline() chose last: idle, grace or interactive

    def held(self, session: Session) -> bool:
        """True when no close grace applies: ``KEEPALIVE``, or ``--close-grace off``."""
        return session.held or self.config.close_grace is None

    def deadline(self, session: Session, answered: int, now: float) -> float:
        """When the reader stops waiting for input (seconds, trio's clock), with nothing left to answer.

        Args:
          session: the connection's session (interactive, held, pending).
          answered: replies sent so far (after one, the close grace applies).
          now: the current time.
        """
        cfg = self.config
        if session.interactive:
            self._kind = "interactive"
            return self.last_progress + cfg.interactive_timeout
        self._kind = "idle"
        deadline = self.last_progress + cfg.idle_timeout
        if not self.held(session) and (answered or session.pending):
            assert cfg.close_grace is not None  # held() otherwise
            grace = now + cfg.close_grace
            if grace < deadline:
                self._kind, deadline = "grace", grace
        return deadline

    def waits_on(self, session: Session) -> bool:
        """The close grace ran out: True when the session waits on instead (a line or a request is still coming).

        Only the close grace gives way: to ``session.unterminated`` (a line
        whose end has not arrived, whatever it holds: read before its end it
        could be a different, shorter request) and to ``session.incomplete``
        (complete lines of a request that lacks lines, such as the rows of a
        grid). The idle timeout, counted from the last progress, still ends
        the session, reading the partial line as end of input would. The
        reader then computes its deadline again (the grace once more, until
        the idle timeout is the nearer one).
        """
        return self._kind == "grace" and (session.unterminated or session.incomplete)

    def ended(self, session: Session) -> bytes | None:
        """The session's timer ran out (or it was evicted): the line it is told last, or None.

        ``BYE idle for 12 s and the server is full (1024 connections)`` when
        evicted; ``BYE idle for 300 s`` (``--interactive-timeout``) for an
        interactive session, ``BYE idle for 60 s`` (``--idle-timeout``) for a
        held one; nothing for a piped session (the close grace then sets
        :attr:`grace_ended`, or the idle timeout before any answer).
        """
        if self.evicted is not None:
            return replies.evicted_bye(*self.evicted)
        if session.interactive:
            return replies.idle_bye(self.config.interactive_timeout)
        if self.held(session):
            return replies.idle_bye(self.config.idle_timeout)
        if self._kind == "grace":
            self.grace_ended = True
        return None


class _Evictable(Protocol):
    clock: SessionClock
    reserve: bool

    @property
    def peer(self) -> str: ...

    def evictable(self, now: float, min_idle: float) -> bool: ...

    def evict(self, limit: int) -> float: ...


C = TypeVar("C", bound=_Evictable)


def oldest_idle(connections: Iterable[C], now: float, min_idle: float, *, reserve: bool = False) -> C | None:
    """The evictable connection (see ``Connection.evictable``) idle longest, or None.

    Args:
      connections: the open connections.
      now: the current time (seconds, trio's clock).
      min_idle: seconds without progress before a connection may go.
      reserve: look among the reserve connections (over ``--max-connections``,
        health checks only) instead of those holding a slot.
    """
    oldest: C | None = None
    since = math.inf
    for connection in connections:
        if (
            connection.reserve is reserve
            and connection.clock.last_progress < since
            and connection.evictable(now, min_idle)
        ):
            oldest, since = connection, connection.clock.last_progress
    return oldest


class Admission(Generic[C]):
    """The places of ``--max-connections`` and its reserve: who holds one, who gives one up (PROTOCOL.md).

    A connection holds a **slot** (served), or a **reserve place** (over the
    limit: health checks only, at most ``reserve_places``), until its session
    ends: a connection that only lingers after its session, or that was
    evicted and is closing, holds neither.

    Args:
      connections: the server's set of open connections (shared, not copied).
      limit: ``--max-connections``; reserve_places: the health-check reserve.
      min_idle: seconds without progress before a connection may give up its place.
    """

    def __init__(self, connections: set[C], limit: int, reserve_places: int, min_idle: float) -> None:
        self.connections = connections
        self.limit = limit
        self.reserve_places = reserve_places
        self.min_idle = min_idle
        self._closing: set[C] = set()  # evicted or ended, still closing: they hold no place
        self._address_of: dict[C, str] = {}  # a connection's client address, while its session runs
        self._per_address: dict[str, int] = {}  # sessions running per client address (--max-connections-per-ip)

    def from_address(self, address: str) -> int:
        """Sessions running from the client ``address`` (the proxied client's, behind ``--proxy-protocol``);
        a connection that only lingers after its session, or was evicted, counts for none."""
        return self._per_address.get(address, 0)

    def hold_address(self, connection: C, address: str) -> None:
        """``connection``'s session, from the client ``address``, counts in :meth:`from_address` until it ends."""
        self._address_of[connection] = address
        self._per_address[address] = self._per_address.get(address, 0) + 1

    def _release_address(self, connection: C) -> None:
        address = self._address_of.pop(connection, None)
        if address is not None:
            left = self._per_address[address] - 1
            if left:
                self._per_address[address] = left
            else:
                del self._per_address[address]

    @property
    def open_places(self) -> int:
        """Connections holding a slot or a reserve place."""
        return len(self.connections) - len(self._closing)

    def taken(self) -> tuple[int, int]:
        """(slots, reserve places) held now (one pass over the connections)."""
        reserves = sum(1 for c in self.connections if c.reserve and c not in self._closing)
        return self.open_places - reserves, reserves

    def place_for_newcomer(self) -> bool | None:
        """A connection arrives: False for a slot, True for a reserve place, None when refused.

        When the reserve is full too, the silent reserve connection idle
        longest gives up its place first, else the slot holder idle longest
        (:meth:`make_room`); the newcomer takes the place it left.
        """
        if self.open_places < self.limit:
            return False
        slots, reserves = self.taken()
        if slots < self.limit:
            return False
        if reserves < self.reserve_places:
            return True
        gone = self.make_room(reserve_first=True)
        return None if gone is None else gone.reserve

    def take_slot(self) -> bool:
        """A reserve connection asks for more than a health check: True when it may have a slot.

        A slot is free (a session ended since), or the slot holder idle
        longest gives it up (:meth:`make_room`).
        """
        return self.taken()[0] < self.limit or self.make_room() is not None

    def make_room(self, *, reserve_first: bool = False) -> C | None:
        """End the session idle longest, if any may go (``Connection.evictable``); returns it, or None.

        With ``reserve_first`` a silent reserve connection goes first, then a
        slot holder. It is told ``BYE idle for N s and the server is full
        (LIMIT connections)``; the log says ``PEER evicted: ...``.
        """
        now = time_now()
        oldest = oldest_idle(self.connections, now, self.min_idle, reserve=True) if reserve_first else None
        if oldest is None:
            oldest = oldest_idle(self.connections, now, self.min_idle)
        if oldest is None:
            return None
        self._closing.add(oldest)
        self._release_address(oldest)
        idle = oldest.evict(self.limit)
        log.info(
            "%s evicted%s: no complete line for %.0f s and all %d connections in use",
            oldest.peer,
            f" from the reserve (all {self.reserve_places} places taken)" if oldest.reserve else "",
            idle,
            self.limit,
        )
        return oldest

    def session_ended(self, connection: C) -> None:
        """The connection's session is over (it only lingers now): its place, and its address's, are free."""
        self._closing.add(connection)
        self._release_address(connection)

    def closed(self, connection: C) -> None:
        """The connection is closed (no longer in ``connections``)."""
        self._closing.discard(connection)
        self._release_address(connection)


class HeldBack:
    """Replies answered at once (``PONG``...) but held behind an unanswered request, with what each is about.

    At the end of the shutdown grace the first unanswered request gets
    ``ERROR shutdown``; :meth:`cut` gives each of these replies behind it
    that line too, so nothing is answered after it.
    """

    def __init__(self) -> None:
        self._about: dict[Slot, tuple[str, str]] = {}

    def note(self, slots: Sequence[Slot], about: str, ending: str, window: int) -> None:
        """The last of ``slots`` was answered at once: remember it when an unanswered slot is before it.

        Args:
          slots: the connection's reply queue, the new slot last.
          about: the request (``PING at line 3``); ending: its line ending.
          window: replies a connection may have unanswered (the bound on what is remembered).
        """
        if not any(slot.data is None for slot in itertools.islice(slots, len(slots) - 1)):
            return
        if len(self._about) >= 2 * window:  # forget the replies already sent
            live = set(slots)
            self._about = {slot: what for slot, what in self._about.items() if slot in live}
        self._about[slots[-1]] = (about, ending)

    def cut(self, slots: Iterable[Slot]) -> int:
        """Replace each held reply behind the first unanswered slot by ``ERROR shutdown``; returns the bytes added."""
        added = 0
        cut = False
        for slot in slots:
            if slot.data is None:
                cut = True
            elif cut and slot in self._about:
                what, ending = self._about[slot]
                line = replies.shutdown_line(what, ending)
                added += len(line) - len(slot.data)
                slot.data = line
        return added


class ServerState(enum.IntEnum):
    """The server's lifecycle, in the only order it goes through (PROTOCOL.md "Connection lifecycle").

    ``SERVING``: accepting and serving. ``DRAINING``: a stop signal came with a
    drain grace: still accepting and serving, ``PING`` answers ``ERROR
    draining``. ``CLOSING``: not accepting; the connections finish within the
    shutdown grace. ``STOPPING``: the grace is over (or a second signal):
    reading stops, what is left is answered ``ERROR shutdown``, a final flush.
    ``STOPPED``: ``serve()`` has returned.
    """

    SERVING = 0
    DRAINING = 1
    CLOSING = 2
    STOPPING = 3
    STOPPED = 4


class ServerLifecycle:
    """The server's lifecycle as one state machine: its state, and a way to wait for a state.

    States only go forward (:meth:`advance`). Each state has a trio event set
    when it is reached (:meth:`event`; reaching one reaches those before it).

    Attributes:
      state: the current :class:`ServerState`.
      drained: the server went through ``DRAINING`` (PING then answers
        ``ERROR draining`` until the end).
      hurried: a second signal asked to close every connection now (the
        shutdown grace is cut short).
    """

    def __init__(self) -> None:
        self.state = ServerState.SERVING
        self.drained = False
        self.hurried = False
        self._events = {state: trio.Event() for state in ServerState}
        self._events[ServerState.SERVING].set()
        self._changed = Signal()

    def advance(self, state: ServerState) -> bool:
        """Move on to ``state`` (True), or stay where the server is when it is there or past it (False)."""
        if state <= self.state:
            return False
        self.state = state
        if state is ServerState.DRAINING:
            self.drained = True
        for each in ServerState:
            if each <= state:
                self._events[each].set()
        self._changed.set()
        return True

    def hurry(self) -> None:
        """A second signal: the shutdown grace ends now (the waiter of :meth:`changed` is woken)."""
        self.hurried = True
        self._changed.set()

    def poke(self) -> None:
        """Wake the waiter of :meth:`changed` (the last connection closed)."""
        self._changed.set()

    async def changed(self) -> None:
        """Wait until the state changes, :meth:`hurry` or :meth:`poke` (one waiter)."""
        await self._changed.wait()

    def event(self, state: ServerState) -> trio.Event:
        """The event set once ``state`` is reached (for a front that waits on an event, as Hypercorn does)."""
        return self._events[state]

    async def wait_for(self, state: ServerState) -> None:
        """Wait until ``state`` (or a later one) is reached."""
        await self._events[state].wait()

    @property
    def draining(self) -> bool:
        """True once a stop signal came with a drain grace: PING answers ``ERROR draining``."""
        return self.drained

    @property
    def closing(self) -> bool:
        """True once the server stopped accepting (``CLOSING`` or later)."""
        return self.state >= ServerState.CLOSING

    @property
    def stopping(self) -> bool:
        """True once the shutdown grace is over (``STOPPING`` or later): what is left gets ``ERROR shutdown``."""
        return self.state >= ServerState.STOPPING
