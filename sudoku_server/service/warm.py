"""Warm pools for GENERATE by level: which puzzles to keep ready, and handing them out. Pure.

A ``GENERATE`` with a ``level`` or an ``se`` band and without a ``seed``
may be answered from a pool of puzzles made beforehand in idle solver time
(issue 20; docs/PROTOCOL.md "GENERATE", docs/OPERATIONS.md "Warm pools").
:class:`WarmPools` decides what to keep: a pool per :class:`PoolKey` (the
level, the band, the symmetry and the givens asked), started by the first
request for a plain level (``GENERATE level=hard``) and by the
:data:`OFTEN`-th for any other key (an ``se`` band, a symmetry, a number of
givens), of ``target`` puzzles each. The plain levels and the other keys
have room of their own: a pool per level (:data:`DEFAULT_LEVEL_POOLS`), and
at most :data:`DEFAULT_OTHER_POOLS` others, the least recently asked of
them going when a new one starts; so ``se=`` bands, however many, never
evict a level's pool (issue 32: twelve bands used to empty every level's).
Bounded in memory (about 3 KB a puzzle with its rating, measured: under
1.2 MB in all). A seeded request has no key: it is made from its seed,
never taken from a pool.

:class:`CpuBudget` is the filler's share of one core as a token bucket, on
a clock the caller passes (pure, so that it is tested on given times).

No threads, no clock, no I/O: the network layer (``net/warm.py``) asks
:meth:`WarmPools.wanted` what to make next, makes it with
:func:`sudoku_server.service.answer.answer` in idle solver time, and
:meth:`WarmPools.put` s it; connections :meth:`WarmPools.take` from it.
"""

from __future__ import annotations

import collections
import dataclasses
from dataclasses import dataclass

from sudoku_server.service.requests import Generate
from sudoku_server.service.results import Generated
from sudoku_server.sudoku.rating import LEVELS

#: Puzzles kept per pool (``--warm-pool``).
DEFAULT_TARGET = 32
#: Pools of plain levels kept at once, at most: one per level (``sudoku.rating.LEVELS``).
DEFAULT_LEVEL_POOLS = len(LEVELS)
#: Pools of other keys (bands, symmetries, givens) kept at once, at most.
DEFAULT_OTHER_POOLS = 4
#: Requests for a key other than a plain level before it gets a pool of its own.
OFTEN = 3
#: Keys whose requests are counted towards :data:`OFTEN`, at most (the oldest is forgotten).
MAX_COUNTED = 64


@dataclass(frozen=True)
class PoolKey:
    """What a pooled puzzle must match: a GENERATE request's level, band, symmetry and givens."""

    level: str | None
    se: tuple[float, float] | None
    symmetry: str = "none"
    givens: int | None = None

    @property
    def plain(self) -> bool:
        """A level alone (``GENERATE level=hard``): pooled from its first request."""
        return self.level is not None and self.se is None and self.symmetry == "none" and self.givens is None

    @property
    def label(self) -> str:
        """The pool's name in STATS (``pool_<label>``) and the metrics: ``hard``, ``any_se7.0-7.5``, ``hard_rot180_g24``."""
        parts = [self.level or "any"]
        if self.se is not None:
            parts.append(f"se{self.se[0]:.1f}-{self.se[1]:.1f}")
        if self.symmetry != "none":
            parts.append(self.symmetry)
        if self.givens is not None:
            parts.append(f"g{self.givens}")
        return "_".join(parts)

    def request(self) -> Generate:
        """The seedless request a pooled puzzle answers (what the filler makes)."""
        return Generate(symmetry=self.symmetry, givens=self.givens, level=self.level, se=self.se)


def pool_key(request: Generate) -> PoolKey | None:
    """The pool a request may be answered from, or None (a seed, no level nor band, not 9x9, ``full``, variant rules)."""
    if request.seed is not None or not request.rated or request.full or request.size != 9:
        return None
    if not request.variant.classic:  # pools hold classic puzzles only
        return None
    return PoolKey(request.level, request.se, request.symmetry, request.givens)


class WarmPools:
    """The pools of one server process (module docstring).

    Args:
      target: puzzles per pool (0: no pools at all).
      level_pools: pools of plain levels kept at once.
      other_pools: pools of other keys (bands, symmetries, givens) kept at once.
      often: requests for a key other than a plain level before it is pooled.
    """

    def __init__(
        self,
        target: int = DEFAULT_TARGET,
        level_pools: int = DEFAULT_LEVEL_POOLS,
        other_pools: int = DEFAULT_OTHER_POOLS,
        often: int = OFTEN,
    ) -> None:
        self.target = target
        self.level_pools = level_pools
        self.other_pools = other_pools
        self.often = often
        #: The pools, least recently asked first.
        self._pools: collections.OrderedDict[PoolKey, collections.deque[Generated]] = collections.OrderedDict()
        self._asked: collections.OrderedDict[PoolKey, int] = collections.OrderedDict()
        self.served = 0  # requests answered from a pool

    def take(self, request: Generate) -> Generated | None:
        """A pooled puzzle for ``request`` (marked ``pooled``, in the request's format), or None.

        Counts the request: the first for a plain level, the :attr:`often`-th
        for another key, starts that key's pool (empty: the next request of
        that key still waits for its own puzzle).
        """
        key = pool_key(request)
        if key is None or self.target <= 0:
            return None
        pool = self._pools.get(key)
        if pool is None:
            self._count(key)
            return None
        self._pools.move_to_end(key)
        if not pool:
            return None
        self.served += 1
        return dataclasses.replace(pool.popleft(), format=request.format, pooled=True)

    def _count(self, key: PoolKey) -> None:
        asked = self._asked.pop(key, 0) + 1
        if key.plain or asked >= self.often:
            self._pools[key] = collections.deque()
            room = self.level_pools if key.plain else self.other_pools
            kept = [other for other in self._pools if other.plain == key.plain]  # least recently asked first
            for old in kept[: max(0, len(kept) - room)]:  # a key evicts only its own kind
                del self._pools[old]
            return
        self._asked[key] = asked
        while len(self._asked) > MAX_COUNTED:
            self._asked.popitem(last=False)

    def wanted(self) -> PoolKey | None:
        """The pool to make a puzzle for next: the emptiest below target (the most recently asked on a tie); None when
        every pool is full or there is none (then nothing is made: a server nobody asked stays idle)."""
        best: tuple[int, int] | None = None
        chosen = None
        for order, (key, pool) in enumerate(self._pools.items()):
            if len(pool) >= self.target:
                continue
            rank = (len(pool), -order)
            if best is None or rank < best:
                best, chosen = rank, key
        return chosen

    def put(self, key: PoolKey, made: Generated) -> bool:
        """Keep ``made`` in ``key``'s pool; False when that pool is gone or full (the puzzle is dropped)."""
        pool = self._pools.get(key)
        if pool is None or len(pool) >= self.target:
            return False
        pool.append(made)
        return True

    def drop(self, key: PoolKey) -> None:
        """Forget ``key``'s pool (no puzzle could be made for it); a later request starts it again."""
        self._pools.pop(key, None)

    def levels(self) -> list[tuple[str, int]]:
        """``(label, puzzles ready)`` of every pool, by label (STATS, the metrics)."""
        return sorted(((key.label, len(pool)) for key, pool in self._pools.items()), key=lambda pair: pair[0])


class CpuBudget:
    """A share of one core as a token bucket of CPU seconds: refilled at ``share`` a second, ``burst`` at most.

    The caller passes the clock (``now``, seconds, any monotonic clock) and
    charges the CPU it used (:meth:`charge`, seconds, all of it: the work and
    its overhead). Spending only while :meth:`tokens` is not negative keeps
    the average at ``share`` of one core over any long span; a charge larger
    than the tokens leaves a debt that :meth:`rest` waits off.

    Args:
      share: fraction of one core, 0 < share <= 1.
      burst: the most tokens held (seconds; the time slice).
      now: the clock at the start (the bucket starts full).
    """

    def __init__(self, share: float, burst: float, now: float) -> None:
        self.share = share
        self.burst = burst
        self._tokens = burst
        self._at = now

    def tokens(self, now: float) -> float:
        """The tokens at ``now`` (seconds of CPU; negative: a debt)."""
        self._tokens = min(self.burst, self._tokens + max(0.0, now - self._at) * self.share)
        self._at = max(self._at, now)
        return self._tokens

    def charge(self, seconds: float) -> None:
        """CPU seconds used."""
        self._tokens -= seconds

    def rest(self, now: float) -> float:
        """Seconds from ``now`` until the tokens are back to zero (0 when they are not negative)."""
        tokens = self.tokens(now)
        return 0.0 if tokens >= 0 else -tokens / self.share

    def rest_to_full(self, now: float) -> float:
        """Seconds to rest from ``now`` when the tokens are negative: until the bucket is full again; else 0.

        Resting until it is full, not only out of debt, makes the spender
        work a whole ``burst`` at a time: resting only to zero, it woke for a
        few tens of microseconds of work each time, and the wake-ups cost as
        much as the work (issue 32).
        """
        tokens = self.tokens(now)
        return 0.0 if tokens >= 0 else (self.burst - tokens) / self.share
