"""The HTTP/JSON front (``--http-port``): Hypercorn's HTTP/1.1 protocol serving a Starlette app in the server's trio run.

docs/HTTP.md is the API; docs/ARCHITECTURE.md "The HTTP front" says why
Hypercorn and Starlette. The app (:func:`create_app`) reads a request's fields,
has :mod:`sudoku_server.wire.json_api` make typed requests of them, and gives
each request that needs the solver to the server's one
:class:`~sudoku_server.net.pool.SolverPool` as an :class:`HttpJob`: an HTTP
client is one client of the fair share (:class:`HttpClient`, keyed by its
address: its budget, the wait bound and the solve timeout are a line
connection's), so HTTP and line clients share the solver fairly. The JSON of
a reply is rendered in the solver thread, as a line reply is. A batch's
puzzles go to the pool :data:`AHEAD_PUZZLES` at most ahead of what its reply
has sent (the reply window), and a request whose client went away abandons
its jobs.

:mod:`sudoku_server.net.http_app` holds the app (``/healthz``, 200 or 503
while draining, the OpenAPI document, the web page at ``/`` and
``/static/...`` from the package's ``web/static`` directory, CORS, the
security headers, the body limit, the catch-all that answers any fault ``500
{"error": {"code": "internal"}}`` without a traceback);
:mod:`sudoku_server.net.http_hypercorn` drives each connection (HTTP/1.1 only,
its timeouts, its faults kept to itself).
"""

from __future__ import annotations

import logging
import math
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import trio

from sudoku_server.errors import (
    BusyError,
    InternalError,
    PuzzleError,
    ShutdownError,
    SolveTimeoutError,
)
from sudoku_server.net import http_hypercorn
from sudoku_server.net.http_app import (
    BODY_SECONDS,
    RETRY_BUSY_SECONDS,
    RETRY_DRAINING_SECONDS,
    Stream,
    create_app,
)
from sudoku_server.net.inline import INLINE_GROUP
from sudoku_server.net.jobs import to_loop
from sudoku_server.net.lifecycle import ServerState
from sudoku_server.net.pool import BULK_PUZZLES, BulkItem, Job, JobContext, Slot, busy_timeout_error
from sudoku_server.service.answer import answer
from sudoku_server.text.oneline import solve_plain
from sudoku_server.wire import json_api, openapi
from sudoku_server.wire.proxy import forwarded_address, is_trusted

if TYPE_CHECKING:
    from sudoku_server.net.services import FrontServices

log = logging.getLogger("sudoku_server")


#: Seconds an HTTP connection may stay idle between requests, or take to send a request's headers
#: (Hypercorn's keep-alive timeout: its idle timer runs until the headers are read), before it is closed.
#: A slow client sending one header byte a second (slowloris) so holds its connection 5 s at most.
KEEP_ALIVE_SECONDS = 5.0
#: Seconds a client's state (its budget) is kept after its last request; by then its budget is refilled.
CLIENT_SWEEP_SECONDS = 30.0
#: The reply window of a batch request: puzzles given to the solver ahead of the first one whose answer is not
#: yet sent, at most. A client that does not read its reply (its socket full) so stops its work.
AHEAD_PUZZLES = 128
#: Bytes of a batch reply gathered before it is sent as it comes (``Transfer-Encoding: chunked``, in order); a
#: batch whose whole reply is smaller goes in one piece with its ``Content-Length``.
GATHER_BYTES = 256 * 1024


class _Abandoned(BaseException):
    """Raised by a job's ``check``: its HTTP request was given up (its client went away)."""


@dataclass(eq=False, slots=True)
class HttpSlot(Slot):
    """One HTTP request's reply (one puzzle of a batch): its JSON bytes, status, and an event once filled."""

    status: int = 200
    retry_after: int | None = None
    event: trio.Event = field(default_factory=trio.Event)


@dataclass(eq=False, slots=True)
class HttpJob(Job):
    """A request from the HTTP front: answered by the service, its result rendered as JSON (``wire.json_api``)."""

    endpoint: json_api.Endpoint | None = None
    abandoned: bool = False  # the HTTP request was cancelled (its client went away): nothing to compute

    def _error(self, error: PuzzleError, budget: bool = False) -> bytes:
        slot = self.slot
        assert isinstance(slot, HttpSlot)
        status, body = json_api.error_reply(error, self.puzzle, budget=budget)
        slot.status = status
        return json_api.dumps(body)

    def work(self, check: Callable[[], None], context: JobContext) -> bytes:
        """In a worker thread: answer the request, render its JSON; sets the slot's status."""
        assert self.request is not None and self.endpoint is not None
        slot = self.slot
        assert isinstance(slot, HttpSlot)
        if self.abandoned:
            slot.status = 499
            return b""

        def checked() -> None:
            if self.abandoned:
                raise _Abandoned()
            check()

        try:
            result = answer(
                self.request, check=checked, solvers=context.solvers, server=context.server, about=f"the {self.what}"
            )
        except _Abandoned:
            slot.status = 499
            return b""
        slot.status, body = json_api.render(self.endpoint, result, self.puzzle)
        return json_api.dumps(body)

    def timeout_reply(self, seconds: float, busy: bool = False) -> bytes:
        if busy:
            return self._error(busy_timeout_error(seconds))
        return self._error(SolveTimeoutError(f"no answer within {seconds:g} s"))

    def internal_reply(self, error: BaseException) -> bytes:
        return self._error(InternalError(f"{type(error).__name__} while answering the {self.what}"))

    def refused_reply(self, reason: str, budget: bool = False) -> bytes:
        client = self.connection
        assert isinstance(client, HttpClient) and isinstance(self.slot, HttpSlot)
        self.slot.retry_after = client.front.budget_retry_after(client) if budget else RETRY_BUSY_SECONDS
        return self._error(BusyError(f"{reason}; the {self.what} was not solved"), budget)

    def shutdown_reply(self) -> bytes:
        assert isinstance(self.slot, HttpSlot)
        self.slot.retry_after = RETRY_DRAINING_SECONDS
        return self._error(ShutdownError(f"server shutting down before the {self.what} was answered"))


class _Slow(BaseException):
    """Raised by the fast paths' ``check``: the puzzle searched past the native core's check interval (0.5 ms)."""


def _too_slow() -> None:
    raise _Slow()


@dataclass(eq=False, slots=True)
class HttpBulkJob(HttpJob):
    """Plain one-line 9x9 puzzles of one request, solved text to text by the native core in one job.

    ``members`` are the puzzles' own slots (its ``slot`` is the job's, filled when it ends: then each member
    whose answer is known gets it). A puzzle that searches past 0.5 ms, or has an error to word, leaves the
    bulk with those after it: each becomes an :class:`HttpJob` of its own, on its own slot (its own solve
    timeout, pauses and error words), queued for the same client.
    """

    items: list[json_api.Item] = field(default_factory=list)
    members: list[HttpSlot] = field(default_factory=list)
    bodies: list[bytes | None] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)  # the puzzles' places in their request
    many: int = 1  # puzzles in the request
    jobs: list[HttpJob] = field(default_factory=list)  # its request's jobs (the spilled ones join them)

    def work(self, check: Callable[[], None], context: JobContext) -> bytes:
        if self.abandoned:
            return b""  # nobody waits for these answers
        out: list[bytes | None] = []
        lines = [(item.plain or "").encode("ascii") + b"\n" for item in self.items]
        try:
            solve_plain(lines, out, check=_too_slow)
        except _Slow:
            pass
        answered = out.index(None) if None in out else len(out)
        self.bodies = [json_api.plain_solved(text[:81].decode("ascii")) for text in out[:answered]]  # type: ignore[index]
        if answered < len(self.items):
            client = self.connection
            assert isinstance(client, HttpClient)
            to_loop(client.front.spill, self, answered)
        return b""

    def _error(self, error: PuzzleError, budget: bool = False) -> bytes:
        status, body = json_api.error_reply(error, None, budget=budget)
        data = json_api.dumps(body)
        for member in self.members[len(self.bodies) :]:
            member.status = status
        self.bodies += [data] * (len(self.members) - len(self.bodies))
        return b""

    def refused_reply(self, reason: str, budget: bool = False) -> bytes:
        client = self.connection
        assert isinstance(client, HttpClient)
        retry = client.front.budget_retry_after(client) if budget else RETRY_BUSY_SECONDS
        for member in self.members:
            member.retry_after = retry
        what = f"puzzles {self.what}"
        return self._error(BusyError(f"{reason}; the {what} were not solved"), budget)

    def shutdown_reply(self) -> bytes:
        for member in self.members:
            member.retry_after = RETRY_DRAINING_SECONDS
        return self._error(ShutdownError(f"server shutting down before the puzzles {self.what} were answered"))

    def fill_members(self) -> None:
        """On the event loop, once the job ended: each puzzle answered (or refused) gets its reply."""
        for member, body in zip(self.members, self.bodies):
            member.data = body
            member.event.set()


class HttpClient:
    """One HTTP client (an address) as the scheduler sees it: the key of its fair share and budget.

    Implements :class:`~sudoku_server.net.pool.PoolClient`: ``fill`` (a reply
    is ready), ``check_peer``, ``output_full`` (never: an HTTP reply is held by
    its own request), ``shutdown_line``, ``split_bulk``, ``peer``,
    ``solver_seconds``.
    """

    def __init__(self, front: HttpFront, address: str) -> None:
        self.front = front
        self.peer = address
        self.solver_seconds = 0.0
        self.requests = 0  # HTTP requests of this client in progress
        self.last_seen = time.monotonic()

    def fill(self, slot: Slot, data: bytes) -> None:
        slot.data = data
        if isinstance(slot.job, HttpBulkJob):
            slot.job.fill_members()
        if isinstance(slot, HttpSlot):
            slot.event.set()

    def check_peer(self) -> None:
        """Nothing to check: a request whose client went away is cancelled by the HTTP server."""

    def output_full(self, extra: int = 0, ahead: bool = False) -> bool:
        return False

    def shutdown_line(self, job: Job) -> bytes:
        assert isinstance(job, HttpJob)
        return job.shutdown_reply()

    def split_bulk(self, job: Job, leftover: list[BulkItem]) -> list[Job]:
        raise AssertionError("HTTP requests never go in bulk")


class HttpFront:
    """The HTTP front of one server process: its clients, its app, and its Hypercorn server.

    One unit because its clients, the requests in progress and the jobs it gives the pool (inline, in bulk,
    spilled from a bulk) are one state that answering, the sweep and the stop all read and change.

    Args:
      server: the line server whose pool, scheduler, config and lifecycle it shares.
    """

    def __init__(self, server: FrontServices) -> None:
        self.server = server
        self.config = server.config
        self.clients: dict[str, HttpClient] = {}
        self.in_progress = 0  # HTTP requests being answered, over all clients
        # the replies of those requests, by request: whether a batch, and its slots (unfilled: not answered yet)
        self.calls: dict[int, tuple[bool, list[HttpSlot]]] = {}
        # the connections per client address (--max-connections-per-ip, as on the line port)
        self.addresses = http_hypercorn.AddressCap(
            server.config.max_connections_per_ip, server.config.http_trusted_proxies
        )
        self.done = trio.Event()  # serve() has returned
        self.app = create_app(self)
        self.openapi_body = json_api.dumps(openapi.document(server.version))

    # -- clients ------------------------------------------------------------------------

    def address_of(self, peer: str, forwarded_for: list[str]) -> str:
        """The client's address: the ``peer``'s, or with ``--http-trusted-proxy`` the one its proxy names in
        ``X-Forwarded-For`` (``forwarded_for``: the header's values; the rightmost address not itself a
        trusted proxy, its port dropped: :func:`~sudoku_server.wire.proxy.forwarded_address`)."""
        trusted = self.config.http_trusted_proxies
        if not trusted or not is_trusted(peer, trusted):
            return peer
        forwarded = ",".join(forwarded_for)
        for hop in reversed([forwarded_address(part) for part in forwarded.split(",") if part.strip()]):
            if not is_trusted(hop, trusted):
                return hop
        return peer

    def client(self, address: str) -> HttpClient:
        client = self.clients.get(address)
        if client is None:
            client = self.clients[address] = HttpClient(self, address)
            self.server.pool.open(client)
        client.requests += 1
        client.last_seen = time.monotonic()
        return client

    def release(self, client: HttpClient) -> None:
        client.requests -= 1
        client.last_seen = time.monotonic()

    def sweep(self, now: float) -> None:
        """Forget the clients idle for the budget window whose budget is full again (one that spent past it, a
        16x16 CANDIDATES of 15 s against 1 s, refills for longer: forgotten sooner, it was served again long before
        its ``Retry-After``, and kept its debt only while it retried; break-session finding)."""
        idle = max(CLIENT_SWEEP_SECONDS, self.config.budget_window)
        scheduler = self.server.pool.scheduler
        for address, client in list(self.clients.items()):
            if not client.requests and now - client.last_seen > idle:
                try:
                    if scheduler.budget_left(client, now) < scheduler.budget_seconds:
                        continue  # still refilling
                except KeyError:
                    pass
                del self.clients[address]
                self.server.pool.close(client)

    def budget_retry_after(self, client: HttpClient) -> int:
        """Whole seconds until ``client``'s budget is above zero again (``Retry-After`` of a ``429``)."""
        scheduler = self.server.pool.scheduler
        try:
            left = scheduler.budget_left(client, time.monotonic())
        except KeyError:
            return 1
        rate = scheduler.budget_seconds / scheduler.budget_window if scheduler.budget_window > 0 else 0.0
        if left > 0 or rate <= 0:
            return 1
        return max(1, math.ceil(-left / rate + 0.001))

    # -- answering ---------------------------------------------------------------------------

    @property
    def fast(self) -> bool:
        """Plain one-line puzzles go text to text in the native core (the server's own solver, native core)."""
        return self.server.fast

    async def answer(
        self, endpoint: json_api.Endpoint, call: json_api.Call, address: str, stream: Stream | None = None
    ) -> tuple[int, bytes, int | None] | None:
        """The reply of one API call, ``(status, JSON bytes, Retry-After seconds or None)``: its items answered
        (inline or through the pool), in order.

        A batch's items go to the pool :data:`AHEAD_PUZZLES` at most ahead of the first whose answer is not sent
        (the reply window). Once its answers pass :data:`GATHER_BYTES`, a batch with a ``stream`` is sent as it
        comes, in order, through it (``stream(None)`` starts the reply, ``stream(bytes)`` sends a piece; None is
        returned): a client that does not read stops its own work. When the caller is cancelled (the client went
        away), the request's jobs are abandoned: those queued are skipped, a running one stops at its next check.
        """
        client = self.client(address)
        self.in_progress += 1
        jobs: list[HttpJob] = []
        slots = [HttpSlot() for _ in call.items]
        items = list(call.items)
        self.calls[id(slots)] = (call.batch, slots)
        try:
            start = self._inline(client, items, slots) if self.fast else 0
            units = self._units(items, start, self.fast)
            submitted = 0  # units given to the pool
            if not call.batch:
                for unit in units:
                    self._submit_unit(client, endpoint, items, slots, unit, jobs)
                slot = slots[0]
                if slot.data is None:
                    await slot.event.wait()
                return slot.status, slot.data or b"{}", slot.retry_after
            parts: list[bytes] = [b'{"results":[']
            gathered = len(parts[0])
            streaming = False
            for index, slot in enumerate(slots):
                while submitted < len(units) and units[submitted][0] <= index + AHEAD_PUZZLES:
                    self._submit_unit(client, endpoint, items, slots, units[submitted], jobs)
                    submitted += 1
                if slot.data is None:
                    if streaming and len(parts) > 0 and stream is not None:
                        await stream(b"".join(parts))  # what is ready goes while this one is answered
                        parts.clear()
                    await slot.event.wait()
                data = (b"," if index else b"") + (slot.data or b"{}")
                slot.data = b""  # sent or gathered: not held twice
                parts.append(data)
                gathered += len(data)
                if stream is not None and not streaming and gathered > GATHER_BYTES:
                    streaming = True
                    await stream(None)
                if streaming and stream is not None and sum(len(part) for part in parts) >= GATHER_BYTES // 4:
                    await stream(b"".join(parts))
                    parts.clear()
            parts.append(b"]}")
            if streaming and stream is not None:
                await stream(b"".join(parts))
                return None
            return 200, b"".join(parts), None
        finally:
            for job in jobs:
                job.abandoned = True
                if isinstance(job, HttpBulkJob):
                    for spilled in job.jobs:
                        spilled.abandoned = True
            self.in_progress -= 1
            del self.calls[id(slots)]
            self.release(client)

    def unanswered(self) -> str:
        """What the end of the shutdown grace answers ``shutdown``, in words for its log line: the single requests
        not answered yet (each a ``503``), and a batch's puzzles not answered yet (each ``shutdown`` in its place,
        the batch itself ``200``); a request whose answer is made and being sent is not counted."""
        singles = sum(1 for batch, slots in self.calls.values() if not batch and slots[0].data is None)
        puzzles = [sum(slot.data is None for slot in slots) for batch, slots in self.calls.values() if batch]
        puzzles = [n for n in puzzles if n]
        parts = []
        if singles:
            parts.append(f"{singles} HTTP request{'s' if singles != 1 else ''} 503 shutdown")
        if puzzles:
            total, batches = sum(puzzles), len(puzzles)
            parts.append(
                f"{total} puzzle{'s' if total != 1 else ''} of {batches} HTTP batch{'es' if batches != 1 else ''}"
                " shutdown in their place"
            )
        return " and ".join(parts) or "no HTTP request (those in progress have their answers)"

    @staticmethod
    def _units(items: list[json_api.Item], start: int, fast: bool) -> list[tuple[int, list[int]]]:
        """The pool's work for ``items[start:]``, in order: ``(first index, indices)``, a run of up to
        :data:`BULK_PUZZLES` plain puzzles (one bulk job) or one item."""
        units: list[tuple[int, list[int]]] = []
        group: list[int] = []
        for index in range(start, len(items)):
            if items[index].plain is not None and fast:
                group.append(index)
                if len(group) >= BULK_PUZZLES:
                    units.append((group[0], group))
                    group = []
                continue
            if group:
                units.append((group[0], group))
                group = []
            units.append((index, [index]))
        if group:
            units.append((group[0], group))
        return units

    def _submit_unit(
        self,
        client: HttpClient,
        endpoint: json_api.Endpoint,
        items: list[json_api.Item],
        slots: list[HttpSlot],
        unit: tuple[int, list[int]],
        jobs: list[HttpJob],
    ) -> None:
        indices = unit[1]
        if items[indices[0]].plain is not None and self.fast:
            jobs.append(self._submit_bulk(client, endpoint, items, slots, indices))
            return
        index = indices[0]
        job = self._submit(client, endpoint, json_api.parsed(items[index]), slots[index], index, len(items))
        if job is not None:
            jobs.append(job)

    def _what(self, index: int, many: int) -> str:
        return "puzzle" if many == 1 else f"puzzle {index + 1} of {many}"

    def _submit(
        self,
        client: HttpClient,
        endpoint: json_api.Endpoint,
        item: json_api.Item,
        slot: HttpSlot,
        index: int,
        many: int,
        counted: bool = False,
    ) -> HttpJob | None:
        """Answer ``item`` on ``slot``: its error now, or a job for the pool (returned); ``counted``: the
        puzzle is already counted in STATS (it comes out of a bulk job)."""
        if item.request is None:
            assert item.error is not None
            slot.status, error = json_api.error_reply(item.error, item.puzzle)  # puzzle: a rule that does not fit it
            slot.data = json_api.dumps(error)
            slot.event.set()
            return None
        what = self._what(index, many) if item.puzzle is not None else endpoint.verb
        if not item.request.solver_work and many == 1:
            # CANON, SAME of 9x9 grids (native): microseconds mostly, tens of ms at worst (a symmetric grid), answered
            # at once when alone; the puzzles of a batch go to the pool, so that a batch never holds the event loop
            result = answer(item.request, solvers=self.server.solvers, server=self.server, about=f"the {what}")
            slot.status, body = json_api.render(endpoint, result, item.puzzle)
            slot.data = json_api.dumps(body)
            slot.event.set()
            return None
        job = HttpJob(client, slot, item.request, item.puzzle, what, endpoint=endpoint)
        slot.job = job
        self._submit_job(client, job, 0 if counted else 1)
        return job

    def _submit_job(self, client: HttpClient, job: HttpJob, puzzles: int) -> None:
        """Give ``job`` to the pool, or, once the stop's grace dropped ``client``'s work, answer it ``shutdown``
        (a batch goes on submitting its next puzzles: they got a KeyError from the scheduler, logged as an
        internal error, and the reply was cut; a second break session's finding)."""
        if client not in self.server.pool.clients:
            client.fill(job.slot, client.shutdown_line(job))
            return
        self.server.pool.submit(job, puzzles)

    def _submit_bulk(
        self,
        client: HttpClient,
        endpoint: json_api.Endpoint,
        items: list[json_api.Item],
        slots: list[HttpSlot],
        group: list[int],
    ) -> HttpBulkJob:
        what = f"{group[0] + 1} to {group[-1] + 1}"
        slot = HttpSlot()
        job = HttpBulkJob(
            client,
            slot,
            None,
            None,
            what,
            endpoint=endpoint,
            items=[items[i] for i in group],
            members=[slots[i] for i in group],
            indices=list(group),
            many=len(items),
        )
        job.jobs = []
        slot.job = job
        self._submit_job(client, job, len(group))
        return job

    def spill(self, job: HttpBulkJob, answered: int) -> None:
        """On the event loop: the puzzles of a bulk job from ``answered`` on get jobs of their own (in order)."""
        client = job.connection
        assert isinstance(client, HttpClient)
        assert job.endpoint is not None
        for item, member, index in zip(job.items[answered:], job.members[answered:], job.indices[answered:]):
            spilled = self._submit(client, job.endpoint, json_api.parsed(item), member, index, job.many, counted=True)
            if spilled is not None:
                spilled.abandoned = job.abandoned
                job.jobs.append(spilled)

    def _inline(self, client: HttpClient, items: list[json_api.Item], slots: list[HttpSlot]) -> int:
        """Solve the plain puzzles at the front of ``items`` on the event loop, as the line protocol's inline
        path does (``--inline-budget`` of solving per request, each puzzle stopped at the native core's 0.5 ms
        check interval), charged to the client's budget. Returns how many items were answered."""
        budget = self.config.inline_seconds
        if budget <= 0 or not items or items[0].plain is None:
            return 0
        scheduler = self.server.pool.scheduler
        started = time.monotonic()
        if scheduler.budget_left(client, started) <= 0:
            return 0
        count = 0
        while count < len(items) and items[count].plain is not None and count < INLINE_GROUP * 8:
            count += 1
        out: list[bytes | None] = []
        spent = 0.0
        while len(out) < count and spent < budget:
            done = len(out)
            lines = [(item.plain or "").encode("ascii") + b"\n" for item in items[done : done + INLINE_GROUP]]
            try:
                solve_plain(lines, out, check=_too_slow)
            except _Slow:
                spent = time.monotonic() - started
                break
            spent = time.monotonic() - started
            if None in out:
                break
        answered = out.index(None) if None in out else len(out)
        self.server.pool.charge_inline(client, spent, started + spent, answered)
        for index in range(answered):
            slot = slots[index]
            slot.data = json_api.plain_solved(out[index][:81].decode("ascii"))  # type: ignore[index]
        return answered

    # -- serving ------------------------------------------------------------------------------

    async def serve(self, sockets: Sequence[socket.socket], *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Serve the app on ``sockets`` (bound and listening) until the server stops accepting.

        Then Hypercorn stops accepting, closes idle connections, and gives the requests in progress
        the shutdown grace (and the final flush) before it cancels them. Supports ``nursery.start``.
        """
        from hypercorn.config import Config

        config = Config()
        config.keep_alive_timeout = KEEP_ALIVE_SECONDS
        config.graceful_timeout = self.config.shutdown_grace + 1.0
        config.accesslog = None
        config.errorlog = logging.getLogger("sudoku_server.http")
        config.include_server_header = False
        try:
            async with trio.open_nursery() as nursery:

                async def hypercorn(task_status=trio.TASK_STATUS_IGNORED) -> None:
                    stopped = self.server.lifecycle.event(ServerState.CLOSING)
                    await http_hypercorn.serve(
                        self.app,
                        config,
                        sockets,
                        stopped,
                        body_seconds=BODY_SECONDS + 1.0,  # the API answers its own 400 at BODY_SECONDS
                        write_seconds=self.config.idle_timeout,
                        addresses=self.addresses,
                        task_status=task_status,
                    )
                    nursery.cancel_scope.cancel()  # every connection closed

                nursery.start_soon(self._sweep)
                await nursery.start(hypercorn)
                for sock in sockets:
                    name = sock.getsockname()
                    host = f"[{name[0]}]" if ":" in name[0] else name[0]
                    log.info("HTTP on http://%s:%d/ (API /api/v1/, health /healthz)", host, name[1])
                task_status.started()
                await self._stop_after_grace()
        finally:
            self.done.set()

    async def _stop_after_grace(self) -> None:
        """Once the server stops accepting: the requests in progress get the shutdown grace, then ``503 shutdown``."""
        lifecycle = self.server.lifecycle
        await lifecycle.wait_for(ServerState.CLOSING)
        with trio.move_on_after(self.config.shutdown_grace):
            while self.in_progress and not lifecycle.hurried:  # a second signal: answer them now
                await trio.sleep(0.01)
        if not self.in_progress:
            return
        log.info("shutdown grace over: answering %s", self.unanswered())
        lifecycle.advance(ServerState.STOPPING)
        for client in list(self.clients.values()):
            for job in self.server.pool.close(client):
                client.fill(job.slot, client.shutdown_line(job))

    async def _sweep(self) -> None:
        while True:
            await trio.sleep(CLIENT_SWEEP_SECONDS / 3)
            self.sweep(time.monotonic())
