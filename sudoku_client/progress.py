"""Progress of the answers on standard error, and the thread that counts the total."""

from __future__ import annotations

import io
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator, Sequence

from sudoku_client.common import CHUNK_BYTES, PROG
from sudoku_client.routing import make_reader
from sudoku_client.stream import count_requests

#: Puzzles (counted in the input, or answered) above which a progress bar is
#: drawn when standard error is a terminal.
PROGRESS_MIN_PUZZLES = 300
#: Seconds between two redraws of the plain progress line.
PROGRESS_INTERVAL = 0.2


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds >= 3600:
        return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    return "%d:%02d" % (seconds // 60, seconds % 60)


class PlainProgress:
    """A ``\\r``-updated line on standard error (when tqdm is not installed).

    ``sudoku-client: 450/1000 puzzles (45%), 400/s, ETA 0:01``; without a
    total, ``sudoku-client: 450 puzzles, 400/s``.
    """

    def __init__(self, total: int | None, done: int, stream) -> None:
        self.total = total
        self._stream = stream
        self._started = time.monotonic()
        self._start_done = done
        self._drawn = 0.0
        self._width = 0
        self.update(done)

    def update(self, done: int, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._drawn < PROGRESS_INTERVAL:
            return
        self._drawn = now
        elapsed = now - self._started
        rate = (done - self._start_done) / elapsed if elapsed > 0 else 0.0
        if self.total:
            text = "%s: %d/%d puzzles (%d%%)" % (PROG, done, self.total, 100 * done // self.total)
        else:
            text = "%s: %d puzzles" % (PROG, done)
        if rate > 0:
            text += ", %.0f/s" % rate
            if self.total and done < self.total:
                text += ", ETA %s" % _clock((self.total - done) / rate)
        pad = max(0, self._width - len(text))
        self._width = len(text)
        self._stream.write("\r" + text + " " * pad)
        self._stream.flush()

    def close(self) -> None:
        if self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()


class TqdmProgress:
    """The same, drawn by tqdm (``pip install 'sudoku-server[progress]'``)."""

    def __init__(self, tqdm_class, total: int | None, done: int, stream) -> None:
        self._bar = tqdm_class(
            total=total,
            initial=done,
            unit="puzzle",
            desc=PROG,
            file=stream,
            leave=False,
            mininterval=PROGRESS_INTERVAL,
            dynamic_ncols=True,
        )
        self.total = total

    def update(self, done: int, force: bool = False) -> None:
        if self._bar.total != self.total:
            self._bar.total = self.total
            self._bar.refresh()
        if done > self._bar.n:
            self._bar.update(done - self._bar.n)

    def close(self) -> None:
        self._bar.close()


class Progress:
    """Progress of the answers on standard error, from :data:`PROGRESS_MIN_PUZZLES` on.

    Args:
      total: a callable returning the requests in the input (None when unknown).
      stream: standard error.
      use_tqdm: draw with tqdm when it is importable.
      counting: a callable, True while the total is being counted: the bar
        waits for it (the count is much faster than the answers).
    """

    def __init__(
        self,
        total: Callable[[], int | None],
        stream,
        use_tqdm: bool = True,
        counting: Callable[[], bool] = lambda: False,
    ) -> None:
        self._total = total
        self._stream = stream
        self._use_tqdm = use_tqdm
        self._counting = counting
        self._bar: PlainProgress | TqdmProgress | None = None

    def update(self, done: int) -> None:
        total = self._total()
        bar = self._bar
        if bar is None:
            if max(total or 0, done) <= PROGRESS_MIN_PUZZLES or (total is None and self._counting()):
                return
            bar = self._bar = self._start(total, done)
        bar.total = total
        bar.update(done)

    def _start(self, total: int | None, done: int) -> PlainProgress | TqdmProgress:
        if self._use_tqdm:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                return TqdmProgress(tqdm, total, done, self._stream)
        return PlainProgress(total, done, self._stream)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class RequestCounter(threading.Thread):
    """Count the requests of regular-file inputs in the background.

    The count is the progress bar's total and, when exact, what the replies
    are checked against at the end.

    Reads its own duplicates of the inputs' descriptors with ``os.pread``,
    which leaves the sender's offsets alone (standard input included).

    Attributes:
      total: the requests counted, once done (None before, or on a read error).
      exact: counted by the server package's reader.
    """

    def __init__(self, sources: Sequence[tuple[str, io.FileIO]]) -> None:
        super().__init__(name="sudoku-client-counter", daemon=True)
        self._inputs: list[tuple[int, int]] = []  # (duplicate descriptor, start offset)
        for _, source in sources:
            fd = os.dup(source.fileno())
            self._inputs.append((fd, os.lseek(fd, 0, os.SEEK_CUR)))
        self.total: int | None = None
        self.exact = False

    @staticmethod
    def applies(sources: Sequence[tuple[str, io.FileIO]]) -> bool:
        """True when every input is a regular file (a pipe or a terminal cannot be read twice)."""
        try:
            return bool(sources) and all(stat.S_ISREG(os.fstat(s.fileno()).st_mode) for _, s in sources)
        except (OSError, ValueError):
            return False

    def _chunks(self) -> Iterator[bytes]:
        for fd, offset in self._inputs:
            while True:
                data = os.pread(fd, CHUNK_BYTES, offset)
                if not data:
                    break
                offset += len(data)
                yield data

    def run(self) -> None:
        try:
            reader = make_reader()
            total = count_requests(self._chunks(), reader)
        except OSError:
            return  # the sender reports a file it cannot read
        finally:
            for fd, _ in self._inputs:
                os.close(fd)
        self.exact = reader.exact
        self.total = total
