"""A connection's session clock and its cut at shutdown: the timers of PROTOCOL.md "Connection lifecycle".

No I/O: :class:`SessionClock` keeps the times a :class:`~sudoku_server.net.connection.Connection`
reads its deadlines from (seconds on trio's clock, passed in), and decides
what a session that its timer ended is told; :func:`oldest_idle` picks the
connection that gives up its slot when every slot is taken; :class:`HeldBack`
remembers the replies answered at once but held behind an unanswered
request, so that nothing is answered after an ``ERROR shutdown`` line.

The rules (PROTOCOL.md "Sessions"):

* a session's timeout counts from its last **progress**: a complete line
  read, or every reply sent. Bytes of a line that never ends are no
  progress, so a trickler cannot keep a slot by sending one byte per timeout;
* ``--interactive-timeout`` for an interactive session, ``--idle-timeout``
  for the others; a session that is not *held* (``KEEPALIVE``, or
  ``--close-grace off``) also ends after the close grace of silence once it
  has an answer or an unterminated line;
* a session with nothing to answer and no progress for
  ``min_idle`` seconds may be evicted by a newcomer when every slot is taken,
  the one idle longest first.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from sudoku_server.net.config import ServerConfig
from sudoku_server.wire import replies
from sudoku_server.wire.session import Session

if TYPE_CHECKING:
    from sudoku_server.net.pool import Slot

__all__ = ["HeldBack", "SessionClock", "oldest_idle"]


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

    def evictable(self, now: float, min_idle: float) -> bool: ...


C = TypeVar("C", bound=_Evictable)


def oldest_idle(connections: Iterable[C], now: float, min_idle: float) -> C | None:
    """The evictable connection (see ``Connection.evictable``) idle longest, or None.

    Args:
      connections: the open connections.
      now: the current time (seconds, trio's clock).
      min_idle: seconds without progress before a connection may go.
    """
    oldest: C | None = None
    since = math.inf
    for connection in connections:
        if connection.clock.last_progress < since and connection.evictable(now, min_idle):
            oldest, since = connection, connection.clock.last_progress
    return oldest


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
