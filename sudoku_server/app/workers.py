"""The pre-fork supervisor of ``--workers N``: several server processes on one socket.

After gunicorn's arbiter (``gunicorn/arbiter.py``: bind in the parent, fork,
reap, restart, graceful stop, rolling restart on SIGHUP) and uvicorn's
``supervisors/multiprocess.py``:

* The parent binds and listens (standard sockets, no trio, **no thread**
  before it forks: each worker starts its own logging thread after the
  fork), then forks N workers. Each worker is the whole single-process
  server (``runtime.run_server``) on the inherited listening sockets: every
  guarantee of one process (fairness, limits, shutdown replies) holds per
  worker. A new connection goes to the worker with the fewest open
  connections: the workers publish their counts in a table in shared memory
  (``net.balance.AcceptBalance``, made before the fork), and one that is
  ahead of another waits a few milliseconds before it accepts. (Left to the
  kernel, whichever worker accepted first drained the backlog: 16
  connections opened together landed 15/1 on two workers.)
* A worker that dies is restarted after a back-off (0.5 s, doubling to 30 s;
  back to 0.5 s once a worker has lived 30 s), logged with its exit status
  and the real delay. When no worker is left alive, the one that died last
  is restarted after :data:`RESCUE_DELAY` (0.25 s) whatever the back-off: a
  port that accepts must serve. The others keep their back-off.
* SIGTERM, SIGINT, SIGQUIT: every worker gets SIGTERM and drains and stops
  as one server would (``--drain-grace``, ``--shutdown-grace``); at the end
  of the drain the parent closes its own copy of the listening sockets too,
  so new connections are refused; it waits for the workers (SIGKILL after
  drain grace + shutdown grace + 1 s) and exits 0. A second SIGTERM or SIGINT
  is passed on (the workers close at once). Workers ignore SIGINT, SIGQUIT
  and SIGHUP: a terminal sends those to its whole process group (Ctrl-C,
  Ctrl-\\, hang-up), and the parent passes on what they mean.
* SIGHUP: a rolling restart, one worker at a time: a new worker is started,
  and once it accepts, the old one is retired (SIGUSR2: it stops accepting
  and finishes its connections, without a drain, since the others keep
  serving). The listening socket never closes, so no connection is refused.
* SIGUSR1 is passed on to the workers: each logs its counters.
* Metrics: the parent points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh
  directory before forking; STATS in any worker and ``--metrics-port``
  (served by a small child process of its own) merge every worker's files.
  That child, when it dies (its port taken, say), is restarted with a
  back-off of its own (0.5 s doubling to 30 s, reset once it lived 30 s).
  It stops on SIGTERM or SIGINT and ignores the other signals a terminal or
  an operator sends to the whole group (SIGUSR1: it has no counters of its
  own; SIGHUP, SIGQUIT: the parent passes on what they mean).
"""

from __future__ import annotations

import logging
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

import trio

from sudoku_server.app.runtime import LOG_QUEUE_RECORDS, HttpPortError, log_listen_error, run_server, setup_logging
from sudoku_server.net.balance import AcceptBalance
from sudoku_server.net.config import ServerConfig
from sudoku_server.net.http_bind import listen_sockets
from sudoku_server.net.metrics_http import serve_http

log = logging.getLogger("sudoku_server")

#: Worker processes one supervisor runs at most (``--workers``).
MAX_WORKERS = 256
#: Listen backlog of the shared sockets (as trio's open_tcp_listeners).
BACKLOG = 0xFFFF
#: Seconds before a dead worker is restarted, at first; doubles each time.
RESTART_BACKOFF_START = 0.5
#: The longest back-off, seconds.
RESTART_BACKOFF_MAX = 30.0
#: A worker that lived this long (seconds) resets the back-off.
RESTART_BACKOFF_RESET = 30.0
#: Seconds before a dead worker is restarted when no worker is left alive,
#: whatever the back-off: the listening socket accepts, so someone must serve it.
RESCUE_DELAY = 0.25
#: Seconds before the dead metrics process is restarted, at first; doubles each
#: time up to RESTART_BACKOFF_MAX, back to this once it lived RESTART_BACKOFF_RESET.
METRICS_BACKOFF_START = 0.5
#: Seconds between two looks at the workers when nothing happens.
TICK = 0.5
#: Signals that stop the metrics process.
METRICS_STOP = (signal.SIGTERM, signal.SIGINT)
#: Signals the metrics process ignores: SIGUSR1 (stats: it has no counters of
#: its own), SIGHUP and SIGQUIT (a terminal's, sent to the whole group; the
#: parent passes on what they mean).
METRICS_IGNORED = (signal.SIGUSR1, signal.SIGHUP, signal.SIGQUIT)


def bind(host: str | None, port: int) -> list[socket.socket]:
    """Listening TCP sockets for ``host`` (None: every interface, IPv4 and IPv6) and ``port``
    (:func:`~sudoku_server.net.http_bind.listen_sockets`, as for the HTTP port).

    Raises:
      OSError: the address cannot be bound.
    """
    return listen_sockets(host, port, BACKLOG)


def supervise(config: ServerConfig, log_level: str = "info", log_queue: int = LOG_QUEUE_RECORDS) -> int:
    """``--workers N``: run the pre-fork :class:`Supervisor`; returns the exit status.

    The supervisor logs straight to stderr (it starts no thread before it
    forks; its few lines are lifecycle events); each worker sets up its own
    queued logging. An address that cannot be bound is logged with a hint
    and returns 1.
    """
    logging.basicConfig(
        level=getattr(logging, log_level.upper()),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(message)s",
        force=True,
    )
    try:
        return Supervisor(config, log_level, log_queue).run()
    except OSError as error:
        log_listen_error(config, error)
        return 1


@dataclass
class _Child:
    """A worker (or the metrics process) the parent started."""

    pid: int
    kind: str  # "worker" or "metrics"
    started: float
    ready_fd: int | None = None  # read end: the worker writes one byte once it accepts
    slot: int | None = None  # its entry in the table of open connections (net.balance)
    ready: bool = False
    retiring: bool = False  # replaced in a rolling restart: not restarted when it exits


@dataclass
class _State:
    children: dict[int, _Child] = field(default_factory=dict)
    stopping: bool = False
    stop_deadline: float = 0.0
    close_sockets_at: float = 0.0  # the end of the drain grace: stop listening
    backoff: float = RESTART_BACKOFF_START
    restart_at: list[float] = field(default_factory=list)  # when to start a missing worker
    metrics_backoff: float = METRICS_BACKOFF_START
    metrics_restart_at: float | None = None  # when to start the metrics process again
    rolling: list[int] = field(default_factory=list)  # old workers still to replace
    replacement: int | None = None  # the new worker of the step under way


class Supervisor:
    """Runs ``count`` worker processes of the server on one set of listening sockets.

    One unit because its signal handling, reaping, restarts and rolling
    restart all act on the one table of children and its state.

    Args:
      config: the server settings (``config.workers`` is the count).
      log_level, log_queue: each worker's logging (``runtime.setup_logging``).
    """

    def __init__(self, config: ServerConfig, log_level: str = "info", log_queue: int = LOG_QUEUE_RECORDS) -> None:
        self.config = config
        self.count = config.workers
        self.log_level = log_level
        self.log_queue = log_queue
        self.sockets: list[socket.socket] = []
        self.http_sockets: list[socket.socket] = []  # --http-port: every worker serves them too
        self._state = _State()
        self._signals: list[int] = []
        self._wake_r = self._wake_w = -1
        self._metrics_dir: str | None = None
        # Open connections per worker; a rolling restart runs up to twice the
        # count at once (the old ones finishing their connections), plus one.
        self.balance = AcceptBalance(2 * self.count + 1)

    # -- the parent ---------------------------------------------------------

    def run(self) -> int:
        """Bind, start the workers, supervise until stopped; returns the exit status.

        Raises:
          OSError: the address cannot be bound.
        """
        cfg = self.config
        self.sockets = bind(cfg.host, cfg.port)
        for sock in self.sockets:
            host, port = sock.getsockname()[:2]
            log.info("listening on %s:%d", f"[{host}]" if ":" in host else host, port)
        if cfg.http_port is not None:
            try:
                self.http_sockets = bind(cfg.host, cfg.http_port)
            except OSError as error:
                for sock in self.sockets:
                    sock.close()
                raise HttpPortError(error) from error
        if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            self._metrics_dir = tempfile.mkdtemp(prefix="sudoku-server-metrics-")
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = self._metrics_dir
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1, signal.SIGCHLD):
            signal.signal(signum, self._on_signal)
        log.info("supervisor %d: starting %d worker(s)", os.getpid(), self.count)
        try:
            for _ in range(self.count):
                self._spawn_worker()
            if cfg.metrics_port is not None:
                self._spawn_metrics()
            self._loop()
        finally:
            for sock in self.sockets + self.http_sockets:
                sock.close()
            if self._metrics_dir is not None:
                shutil.rmtree(self._metrics_dir, ignore_errors=True)
        log.info("supervisor %d: stopped", os.getpid())
        return 0

    def _on_signal(self, signum, frame) -> None:
        self._signals.append(signum)
        try:
            os.write(self._wake_w, b".")
        except OSError:
            pass

    def _loop(self) -> None:
        state = self._state
        while True:
            fds = [self._wake_r] + [c.ready_fd for c in state.children.values() if c.ready_fd is not None]
            timeout = TICK
            now = time.monotonic()
            if state.stopping and self.sockets:
                timeout = max(0.0, min(TICK, state.close_sockets_at - now))
            elif not state.stopping:
                due = state.restart_at[:1] + ([state.metrics_restart_at] if state.metrics_restart_at else [])
                timeout = max(0.0, min([TICK, *(at - now for at in due)]))
            try:
                readable, _, _ = select.select(fds, [], [], timeout)
            except InterruptedError:
                readable = []
            if self._wake_r in readable:
                try:
                    while os.read(self._wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
            for child in list(state.children.values()):
                if child.ready_fd is not None and child.ready_fd in readable:
                    self._read_ready(child)
            while self._signals:
                self._handle_signal(self._signals.pop(0))
            self._reap()
            now = time.monotonic()
            if state.stopping:
                if self.sockets and now >= state.close_sockets_at:
                    # The workers stop accepting now too: once every copy is
                    # closed the kernel refuses new connections (PROTOCOL.md).
                    for sock in self.sockets + self.http_sockets:
                        sock.close()
                    self.sockets = []
                    self.http_sockets = []
                if not state.children:
                    return
                if now > state.stop_deadline:
                    for child in state.children.values():
                        log.warning("%s %d did not stop in time: killing it", child.kind, child.pid)
                        self._kill(child.pid, signal.SIGKILL)
                    state.stop_deadline = now + 5
                continue
            while state.restart_at and state.restart_at[0] <= now:
                state.restart_at.pop(0)
                self._spawn_worker()
            if state.metrics_restart_at is not None and state.metrics_restart_at <= now:
                state.metrics_restart_at = None
                self._spawn_metrics()
            self._roll()

    def _handle_signal(self, signum: int) -> None:
        state = self._state
        name = signal.Signals(signum).name
        if signum == signal.SIGCHLD:
            return  # reaped below
        if signum == signal.SIGUSR1:
            self._forward(signal.SIGUSR1, kind="worker")  # the metrics process has no counters of its own
            return
        if signum == signal.SIGHUP and not state.stopping:
            workers = [c.pid for c in state.children.values() if c.kind == "worker" and not c.retiring]
            log.info("received SIGHUP: restarting %d worker(s) one by one", len(workers))
            state.rolling = workers
            return
        if not state.stopping:
            cfg = self.config
            running = sum(1 for c in state.children.values() if c.kind == "worker")
            log.info("received %s: stopping %d worker(s)", name, running)
            state.stopping = True
            state.rolling = []
            state.stop_deadline = time.monotonic() + cfg.drain_grace + cfg.shutdown_grace + 1.5
            state.close_sockets_at = time.monotonic() + cfg.drain_grace
            self._forward(signal.SIGTERM)
        elif signum in (signal.SIGTERM, signal.SIGINT):
            log.info("received %s again: workers close their connections now", name)
            self._forward(signal.SIGTERM)

    def _forward(self, signum: int, kind: str | None = None) -> None:
        """Send ``signum`` to every child (of ``kind``, "worker" or "metrics", when given)."""
        for child in self._state.children.values():
            if kind is None or child.kind == kind:
                self._kill(child.pid, signum)

    @staticmethod
    def _kill(pid: int, signum: int) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    def _reap(self) -> None:
        """Collect every child that exited, then log each and schedule its restart."""
        state = self._state
        dead: list[tuple[_Child, int]] = []
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            child = state.children.pop(pid, None)
            if child is None:
                continue
            if child.ready_fd is not None:
                os.close(child.ready_fd)
            self.balance.free_slot(child.slot)
            self._mark_dead(pid)
            dead.append((child, status))
        for child, status in dead:
            how = (
                f"signal {signal.Signals(-os.waitstatus_to_exitcode(status)).name}"
                if os.WIFSIGNALED(status)
                else f"exit status {os.waitstatus_to_exitcode(status)}"
            )
            if state.stopping or child.retiring:
                log.info("%s %d stopped (%s)", child.kind, child.pid, how)
                continue
            lived = time.monotonic() - child.started
            if child.kind == "metrics":
                self._restart_metrics(child, how, lived)
            else:
                self._restart_worker(child, how, lived)

    def _restart_worker(self, child: _Child, how: str, lived: float) -> None:
        """Schedule a dead worker's restart: after the back-off, or :data:`RESCUE_DELAY` if none is left."""
        state = self._state
        if lived >= RESTART_BACKOFF_RESET:
            state.backoff = RESTART_BACKOFF_START
        now = time.monotonic()
        delay = state.backoff
        alive = any(c.kind == "worker" and not c.retiring for c in state.children.values())
        rescue = not alive and not any(at <= now + RESCUE_DELAY for at in state.restart_at)
        if rescue and delay > RESCUE_DELAY:
            delay = RESCUE_DELAY
            log.warning(
                "worker %d died (%s) after %.1f s: restarting it in %g s (no worker left; back-off %g s)",
                child.pid,
                how,
                lived,
                delay,
                state.backoff,
            )
        else:
            log.warning("worker %d died (%s) after %.1f s: restarting it in %g s", child.pid, how, lived, delay)
        state.restart_at.append(now + delay)
        state.restart_at.sort()
        state.backoff = min(RESTART_BACKOFF_MAX, state.backoff * 2)
        if state.replacement == child.pid:
            state.replacement = None

    def _restart_metrics(self, child: _Child, how: str, lived: float) -> None:
        """Schedule the metrics process's restart after its own back-off (doubling, capped)."""
        state = self._state
        if lived >= RESTART_BACKOFF_RESET:
            state.metrics_backoff = METRICS_BACKOFF_START
        delay = state.metrics_backoff
        log.warning("metrics %d died (%s) after %.1f s: restarting it in %g s", child.pid, how, lived, delay)
        state.metrics_restart_at = time.monotonic() + delay
        state.metrics_backoff = min(RESTART_BACKOFF_MAX, delay * 2)

    def _roll(self) -> None:
        """One step of a rolling restart: start a replacement, retire the old worker once it is ready."""
        state = self._state
        if state.replacement is not None:
            new = state.children.get(state.replacement)
            if new is None or not new.ready:
                return
            old_pid = state.rolling.pop(0)
            old = state.children.get(old_pid)
            if old is not None:
                old.retiring = True
                log.info("worker %d replaced by %d: retiring it", old_pid, new.pid)
                self._kill(old_pid, signal.SIGUSR2)
            state.replacement = None
        while state.rolling and state.rolling[0] not in state.children:
            state.rolling.pop(0)
        if state.rolling:
            state.replacement = self._spawn_worker()
        elif state.replacement is None and not state.restart_at:
            pass

    def _read_ready(self, child: _Child) -> None:
        fd = child.ready_fd
        assert fd is not None  # only children with a ready pipe are watched
        try:
            data = os.read(fd, 16)
        except OSError:
            data = b""
        if data:
            child.ready = True
            log.info("worker %d ready", child.pid)
        os.close(fd)
        child.ready_fd = None

    def _mark_dead(self, pid: int) -> None:
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(pid)

    # -- children -------------------------------------------------------------

    def _spawn_worker(self) -> int:
        _no_threads()
        ready_r, ready_w = os.pipe()
        slot = self.balance.take_slot()
        pid = os.fork()
        if pid == 0:  # the worker
            os.close(ready_r)
            self._child_reset()
            self.balance.slot = slot
            code = 1
            try:
                code = _worker_main(
                    self.config, self.sockets, ready_w, self.log_level, self.log_queue, self.balance, self.http_sockets
                )
            finally:
                os._exit(code)
        os.close(ready_w)
        self._state.children[pid] = _Child(pid, "worker", time.monotonic(), ready_fd=ready_r, slot=slot)
        log.info("worker %d started", pid)
        return pid

    def _spawn_metrics(self) -> None:
        _no_threads()
        # No signal may reach the child between the fork and its own handling
        # (a SIGUSR1 there would end it): they wait, blocked, until it is ready.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, METRICS_IGNORED + METRICS_STOP)
        pid = os.fork()
        if pid != 0:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        else:
            self._child_reset()
            for signum in METRICS_IGNORED:
                signal.signal(signum, signal.SIG_IGN)
            # SIGTERM and SIGINT stay blocked: _metrics_main waits for them (sigwait).
            signal.pthread_sigmask(signal.SIG_SETMASK, (set(held) - set(METRICS_IGNORED)) | set(METRICS_STOP))
            code = 1
            try:
                for sock in self.sockets + self.http_sockets:
                    sock.close()
                code = _metrics_main(self.config, self.log_level)
            finally:
                os._exit(code)
        self._state.children[pid] = _Child(pid, "metrics", time.monotonic(), ready=True)

    def _child_reset(self) -> None:
        """In a new child: the parent's signal handlers and pipes are not its own."""
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1, signal.SIGCHLD):
            signal.signal(signum, signal.SIG_DFL)
        os.close(self._wake_r)
        os.close(self._wake_w)
        for child in self._state.children.values():
            if child.ready_fd is not None:
                os.close(child.ready_fd)


def _no_threads() -> None:
    """The supervisor never forks with a thread running (a lock held by one would stay held)."""
    if threading.active_count() > 1:
        raise RuntimeError(f"the supervisor would fork with {threading.active_count()} threads running")


def _worker_main(
    config,
    sockets,
    ready_fd: int,
    log_level: str,
    log_queue: int,
    balance: AcceptBalance | None = None,
    http_sockets=None,
) -> int:
    """A worker process: the whole server on the inherited sockets. Returns the exit status."""
    listener = setup_logging(log_level, records=log_queue, with_pid=True)

    def ready() -> None:
        try:
            os.write(ready_fd, b"R")
            os.close(ready_fd)
        except OSError:
            pass

    try:
        trio.run(run_server, config, sockets, ready, balance, http_sockets)
    except Exception:
        log.exception("worker %d failed", os.getpid())
        return 1
    finally:
        listener.stop()
    return 0


def _metrics_main(config, log_level: str) -> int:
    """The metrics process: every worker's metrics, merged, over HTTP (``--metrics-port``)."""
    import prometheus_client
    from prometheus_client import multiprocess

    logging.basicConfig(
        level=getattr(logging, log_level.upper()),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(message)s",
        force=True,
    )
    # without names, so that ``?name[]=`` filters read the merged collector too (prometheus_client 0.25)
    registry = prometheus_client.CollectorRegistry(support_collectors_without_names=True)
    multiprocess.MultiProcessCollector(registry)
    try:
        server = serve_http(registry, config.host, config.metrics_port)
    except OSError as error:
        log.error("metrics: cannot listen on port %d: %s", config.metrics_port, error.strerror or error)
        return 1
    log.info("metrics on http://%s:%d/metrics (all workers)", config.host or "0.0.0.0", server.server_address[1])
    # Blocked since the fork (in the serving thread too): no stop signal can come between a check and a wait.
    signal.sigwait(METRICS_STOP)
    server.shutdown()
    server.server_close()
    return 0
