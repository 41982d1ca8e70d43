"""The input as requests: counted, and rewritten with a verb before each puzzle."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator

from sudoku_client.requests import LineSplitter, Request, RequestReader
from sudoku_client.routing import make_reader


class RequestStream:
    """The input split into requests, optionally with a verb put before each puzzle.

    Feed it the input's bytes; it returns what to send, line by line, once
    each line's request is known: with ``verb="COUNT"``, ``COUNT <puzzle>``
    for a one-line puzzle and a line ``COUNT`` before the first line of a
    grid (with the grid's line ending). Lines of other requests, and puzzles
    that already follow a verb, go unchanged.

    Args:
      verb: the verb to put before each puzzle, or None.
      reader: :func:`make_reader` by default.
      keep_output: False to count requests only (nothing is returned).

    Attributes:
      requests: requests completed so far (the server gives each one reply).
      exact: the count comes from the server package's reader.
      quit_end: after a ``QUIT`` line, the input's bytes up to the end of
        that line (the server reads nothing after it), else None.
      after_quit: lines that are not blank after the ``QUIT`` line.
      first_after_quit: the first of them (a 1-based line number), or None.
      puzzles: per request, in order, 1 for a bare puzzle (no verb before it: the server answers it with its
        solution or an ``ERROR`` line), else 0.
      first_lines: per request, the 1-based line it starts on.
    """

    def __init__(self, verb: str | None = None, reader: RequestReader | None = None, keep_output: bool = True) -> None:
        self.reader = reader if reader is not None else make_reader()
        self.exact = self.reader.exact
        self.requests = 0
        self.puzzles = bytearray()
        self.first_lines = array("q")
        self._verb = verb.encode("ascii") if verb else None
        self._keep = keep_output
        self._lines = LineSplitter()
        self._lineno = 0
        self._held: list[tuple[int, bytes, bytes]] = []
        self._prefix: dict[int, bool] = {}  # first line -> one-line puzzle
        self._bytes = 0  # input bytes of the lines read
        self.quit_end: int | None = None
        self.after_quit = 0
        self.first_after_quit: int | None = None

    @property
    def closed(self) -> bool:
        """True after a ``QUIT``: nothing more is a request."""
        return self.reader.closed

    def feed(self, data: bytes) -> bytes:
        """Take input bytes; return the bytes that are ready to send."""
        for text, ending in self._lines.feed(data):
            self._line(text, ending)
        return self._flush(self.reader.held_from)

    def finish(self) -> bytes:
        """End of input: return the rest."""
        for text, ending in self._lines.finish():
            self._line(text, ending)
        self._take(self.reader.finish())
        return self._flush(None)

    def _line(self, text: bytes, ending: bytes) -> None:
        self._lineno += 1
        self._bytes += len(text) + len(ending)
        if self.quit_end is not None:
            if text.strip():
                self.after_quit += 1
                if self.first_after_quit is None:
                    self.first_after_quit = self._lineno
            return
        if self._keep:
            self._held.append((self._lineno, text, ending))
        decoded = text.decode("utf-8", "surrogateescape")
        self._take(self.reader.feed_line(decoded, ending.decode("latin-1"), self._lineno))
        if self.reader.closed:
            self.quit_end = self._bytes + self._lines.dropped

    def _take(self, requests: list[Request]) -> None:
        self.requests += len(requests)
        for request in requests:
            self.puzzles.append(request.puzzle and not request.attached)
            self.first_lines.append(request.first_line)
        if self._verb is not None and self._keep:
            for request in requests:
                if request.puzzle and not request.attached:
                    self._prefix[request.first_line] = request.one_line

    def _flush(self, held_from: int | None) -> bytes:
        held = self._held
        if not held:
            return b""
        count = len(held)
        if held_from is not None:
            count = 0
            while count < len(held) and held[count][0] < held_from:
                count += 1
        if not count:
            return b""
        out = []
        for lineno, text, ending in held[:count]:
            one_line = self._prefix.pop(lineno, None)
            if one_line is not None:
                assert self._verb is not None
                out.append(self._verb + (b" " if one_line else ending or b"\n"))
            out.append(text + ending)
        del held[:count]
        return b"".join(out)


def count_requests(chunks: Iterable[bytes], reader: RequestReader | None = None) -> int:
    """Requests (replies the server will give) in the input made of *chunks*."""
    stream = RequestStream(reader=reader, keep_output=False)
    for chunk in chunks:
        stream.feed(chunk)
    stream.finish()
    return stream.requests


def counted(chunks: Iterable[bytes], stream: RequestStream) -> Iterator[bytes]:
    """The chunks as they are, while *stream* (``keep_output=False``) counts their requests.

    Nothing after the line of a ``QUIT`` is passed on (the server reads
    nothing after it): the rest of the input is read and counted
    (``stream.after_quit``), not sent.
    """
    passed = 0
    for data in chunks:
        stream.feed(data)
        end = stream.quit_end
        if end is not None:
            if end > passed:
                yield data[: end - passed]
                passed = end
            continue
        passed += len(data)
        yield data
    stream.finish()


def through(chunks: Iterable[bytes], stream: RequestStream) -> Iterator[bytes]:
    """The chunks rewritten by *stream* (a verb before each puzzle); nothing after a ``QUIT`` line."""
    for data in chunks:
        out = stream.feed(data)
        if out:
            yield out
    out = stream.finish()
    if out:
        yield out
