"""sudoku-client: send puzzles to a sudoku-server and print its answers.

Usage::

    sudoku-client [--host HOST] [--port PORT] [--timeout SECONDS] [FILE ...]
    sudoku-client --count FILE ...          # COUNT 1 unique, COUNT 2+ multiple ...
    sudoku-client --generate 10 --symmetry rot180 --seed 42
    python3 -m sudoku_client puzzles/newspaper.txt     # from a checkout, or a copy of the folder

The client opens one TCP connection, sends the input (the FILEs concatenated in
order, bytes as they are; standard input when there are none or for ``-``) and,
at the same time, copies every byte the server answers to standard output as
soon as it arrives. After the last input byte it half-closes the connection
(``shutdown(SHUT_WR)``), which tells the server that no more puzzles follow; the
server then answers what is left and closes, and the client exits.

When no input is a terminal, the client first sends a ``KEEPALIVE`` line
(its reply is not printed; an older server's unknown-verb error is not
either, and the input then goes on a new connection), so that the server's
close grace never ends the session while a slow pipe is still writing.

Sending runs in a thread while the main thread reads, so a large input never
deadlocks against a server that answers while it is still reading.

Modes (docs/PROTOCOL.md "Commands"):

* ``--count``: sends ``COUNT`` before each puzzle (on the puzzle's line for a
  one-line puzzle, on its own line before a grid) and prints the replies.
* ``--canon`` and ``--dedupe``: a file of one-line puzzles; ``CANON`` for
  each, and one canonical form per puzzle, or one line per equivalence
  class (its first puzzle and its size): :mod:`sudoku_client.canon`.
* ``--generate N``: sends N ``GENERATE`` lines (``seed=S``, ``S+1``... with
  ``--seed S``; ``level=``, ``rules=`` with ``--level``, ``--rules``) and
  prints the puzzles, each after its ``#`` line.
* A terminal on standard input: the client sends ``INTERACTIVE`` first and
  keeps the connection open until Ctrl-D; each puzzle is answered as soon as
  it is complete. A server without that verb (``ERROR command unknown verb
  "INTERACTIVE"``) is used one request at a time instead: the client sends
  each puzzle when it is complete, on a connection of its own.

Requests are told apart (for ``--count``, the fallback above, the progress
total and the check that every request was answered) by the server package's
own line routing (``sudoku_server.wire.splitter``) when ``sudoku_server`` is
importable (exact), else by
:class:`sudoku_client.requests.HeuristicReader` (one-line puzzles, and grids separated by blank lines
or holding their cells on ``n`` rows).

Exit status: one table for every reply, :data:`EXIT_TABLE` (``--help`` prints
it, docs/CLIENT.md quotes it, and it is appended to this docstring below).

The client uses the standard library only (Python 3.8+) so that it runs from
a bare checkout or a copy of the ``sudoku_client`` folder, without installing
the server or trio; ``tqdm`` draws the progress bar when it is installed
(``pip install 'sudoku-server[progress]'``).
"""

from __future__ import annotations

import argparse
import io
import os
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence

from sudoku_client import canon
from sudoku_client.common import (
    CHUNK_BYTES,
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_TIMEOUT,
    EXIT_ERROR_ANSWER,
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    PROG,
    describe,
    escape_controls,
    format_address,
    plural,
    report,
)
from sudoku_client.exchange import (
    KEEPALIVE_REQUEST,
    Output,
    Shared,
    close_socket,
    close_sources,
    exchange,
    handshake,
    open_sources,
    ping,
    read_sources,
)
from sudoku_client.interactive import ShiftedOutput, interactive_session
from sudoku_client.progress import PROGRESS_MIN_PUZZLES, Progress, RequestCounter
from sudoku_client.replies import LEVELS, VERB_MODES, ReplyScanner, first_unanswered, summary_text
from sudoku_client.routing import client_version, make_reader
from sudoku_client.stream import RequestStream, counted, through

#: The exit-status table, as ``--help`` prints it (docs/CLIENT.md
#: holds the same text; a test compares them).
EXIT_TABLE = """\
exit status:
  0    every puzzle was solved (--count: every puzzle is unique; --generate:
       every puzzle was generated) and every command answered
  1    a reply was a puzzle-level error: ERROR format, invalid, unsolvable,
       timeout, incomplete, mismatch, command (also for a line that is not a
       puzzle: unknown verb), internal, or a busy for one puzzle (queue wait,
       connection budget); with --count, a COUNT reply other than COUNT 1 unique;
       also input after a QUIT line (not sent; stderr says so)
  2    the connection failed: cannot connect, reset, closed before all input
       was sent, ERROR too-large, the busy that refuses a connection (N
       connections open), ERROR shutdown, fewer replies than requests read
       from the input, sent or not (counted exactly when the sudoku_server
       package is installed: "HOST:PORT answered 1 of 3 requests"), a FILE
       that cannot be read, no answer within --timeout, or a reply no server
       of this project sends (a puzzle answered with neither its answer nor
       an ERROR line, PONG say, checked when the sudoku_server package is
       installed; --canon: a line over 64 KiB, or neither a form nor an
       ERROR line); the reason goes to stderr
  130  interrupted (Ctrl-C)
  --ping: 0 on PONG, 1 on ERROR draining (the server is stopping), 2 when it
       cannot connect or gets any other reply
"""


__doc__ = (__doc__ or "") + "\n" + EXIT_TABLE  # the one copy of the table, for readers of the docstring


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError("invalid port %r (expected 1-65535)" % text)
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError("invalid timeout %r (expected seconds > 0)" % text)
    return value


def _natural(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError("invalid number %r (expected an integer >= %d)" % (text, low))
        return value

    return parse


#: GENERATE's options, as the client passes them on (PROTOCOL.md "Commands").
GENERATE_SIZES = (4, 6, 9, 16, 25)
GENERATE_SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal", "random")
#: The largest GENERATE seed (the server's MAX_SEED, 2**64 - 1; a test pins the copy).
MAX_SEED = 2**64 - 1


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Send Sudoku puzzles to a sudoku-server and print its answers.\n\n"
            "The FILEs (standard input when none is given; '-' is standard input\n"
            "too) are sent as they are, one after the other, over one connection.\n"
            "Every answer is printed as soon as it arrives, control bytes escaped\n"
            "(ESC as \\x1b: a server cannot drive the terminal); the client exits\n"
            "when the server has answered everything and closed the connection.\n\n"
            "With a terminal on standard input the session stays open: type or\n"
            "paste puzzles, each is answered when it is complete; Ctrl-D ends.\n"
            "The client asks the server for an INTERACTIVE session; a server\n"
            "without that verb gets each puzzle, once complete, on a connection\n"
            "of its own.\n\n"
            "On standard error: a progress bar for more than %d puzzles when it\n"
            "is a terminal (and standard output is not), drawn by tqdm when it is\n"
            "installed; at the end, a summary (puzzles, solved, errors by code,\n"
            "seconds, puzzles/s) when it is a terminal or with --summary. --quiet\n"
            "turns both off." % PROGRESS_MIN_PUZZLES
        ),
        epilog=(
            EXIT_TABLE + "\n"
            "requests: --count, the progress total and the checks that every request\n"
            "was answered, and every puzzle by its answer or an ERROR line, use\n"
            "the sudoku_server package's reader when it is installed. The\n"
            "single-file client (python3 sudoku_client/client.py)\n"
            "finds one-line puzzles, and grids separated by blank lines (or of n\n"
            "rows of n cells); its progress total is an estimate.\n\n"
            "examples:\n"
            "  sudoku-client --host sudoku.example --port 9999 puzzles/newspaper.txt\n"
            "  sudoku-client --count puzzles/norvig_top95.txt\n"
            "  sudoku-client --dedupe puzzles/norvig_top95.txt\n"
            "  sudoku-client --generate 3 --symmetry rot180 --seed 42"
        ),
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="puzzle file to send ('-' for standard input; default: standard input)",
    )
    parser.add_argument("--version", action="version", version="%s %s" % (PROG, client_version()))
    parser.add_argument(
        "--host",
        default=os.environ.get("SUDOKU_HOST") or DEFAULT_HOST,
        help="server host (default: $SUDOKU_HOST or %s; now %%(default)s)" % DEFAULT_HOST,
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=os.environ.get("SUDOKU_PORT") or str(DEFAULT_PORT),
        help="server port (default: $SUDOKU_PORT or %d; now %%(default)s)" % DEFAULT_PORT,
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=(
            "connect timeout, and the longest silence from the server accepted "
            "while waiting for answers (default: %(default)g)"
        ),
    )
    parser.add_argument(
        "--proxy-header",
        action="store_true",
        help="start the connection with a PROXY protocol v1 header (a server run with --proxy-protocol)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary, no hint")
    parser.add_argument(
        "--summary", action="store_true", help="print the summary also when standard error is not a terminal"
    )
    modes = parser.add_argument_group("modes (instead of solving)")
    exclusive = modes.add_mutually_exclusive_group()
    exclusive.add_argument(
        "--count",
        action="store_true",
        help=(
            "ask whether each puzzle of the FILEs is unique: COUNT before each one; "
            "prints COUNT 1 unique, COUNT 2+ multiple or COUNT 0 unsolvable per puzzle"
        ),
    )
    exclusive.add_argument(
        "--rate",
        action="store_true",
        help=(
            "rate each puzzle of the FILEs by the techniques people use: RATE before each"
            " one; prints RATE <level> se=<x.y> qqwing=<level> hardest=<technique> per puzzle"
        ),
    )
    exclusive.add_argument(
        "--canon",
        action="store_true",
        help=(
            "the minlex canonical form of each puzzle of the FILEs (one one-line puzzle per line):"
            " CANON for each; prints one form per puzzle, or the ERROR line"
        ),
    )
    exclusive.add_argument(
        "--dedupe",
        action="store_true",
        help=(
            "the equivalence classes of the FILEs' puzzles (one one-line puzzle per line), by CANON:"
            " prints one line per class, its first puzzle as it appeared and the class's size"
        ),
    )
    exclusive.add_argument(
        "--ping",
        action="store_true",
        help=(
            "health check: send PING and print the reply; exit 0 on PONG, 1 on ERROR"
            " draining, 2 when it cannot connect (for load balancers, Docker, Kubernetes)"
        ),
    )
    exclusive.add_argument(
        "--generate",
        type=_natural(1),
        metavar="N",
        help="print N new puzzles (N GENERATE requests); takes no FILE",
    )
    generate = parser.add_argument_group("--generate options (passed to GENERATE)")
    generate.add_argument("--size", type=int, choices=GENERATE_SIZES, help="grid size (server default 9)")
    generate.add_argument("--symmetry", choices=GENERATE_SYMMETRIES, help="of the givens (server default none)")
    generate.add_argument("--givens", type=_natural(0), metavar="N", help="stop removing givens at N")
    generate.add_argument(
        "--seed", type=_natural(0), metavar="S", help="seed of the first puzzle; the next ones get S+1, S+2..."
    )
    generate.add_argument(
        "--format", choices=("line", "grid"), help="one line, or a bordered grid (server default line)"
    )
    generate.add_argument("--full", action="store_true", help="solved grids instead of puzzles")
    generate.add_argument("--level", choices=LEVELS, help="puzzles of this difficulty (9x9; server default any)")
    generate.add_argument(
        "--rules",
        type=_rules,
        metavar="R",
        help="puzzles under these rules, e.g. x, jigsaw, killer, x+antiknight (server default classic)",
    )
    return parser


def _rules(text: str) -> str:
    """An argparse type: ``--rules R``, one word (the server checks the rules and answers an error line)."""
    if not text or not text.isascii() or not text.isprintable() or " " in text:
        raise argparse.ArgumentTypeError("invalid rules %r (expected one word such as x or x+antiknight)" % text)
    return text


def generate_lines(args: argparse.Namespace) -> Iterator[bytes]:
    """The GENERATE request lines for ``--generate N`` (``seed=S+i`` with ``--seed S``)."""
    words = ["GENERATE"]
    if args.full:
        words.append("full")
    if args.size is not None:
        words.append("size=%d" % args.size)
    if args.symmetry is not None:
        words.append("symmetry=%s" % args.symmetry)
    if args.givens is not None:
        words.append("givens=%d" % args.givens)
    if args.format is not None:
        words.append("format=%s" % args.format)
    if args.level is not None:
        words.append("level=%s" % args.level)
    if args.rules is not None:
        words.append("rules=%s" % args.rules)
    base = " ".join(words)
    for index in range(args.generate):
        if args.seed is None:
            yield (base + "\n").encode("ascii")
        else:
            yield ("%s seed=%d\n" % (base, args.seed + index)).encode("ascii")


def _batched(lines: Iterable[bytes], size: int = CHUNK_BYTES) -> Iterator[bytes]:
    batch: list[bytes] = []
    length = 0
    for line in lines:
        batch.append(line)
        length += len(line)
        if length >= size:
            yield b"".join(batch)
            batch, length = [], 0
    if batch:
        yield b"".join(batch)


def _isatty(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


def _hold_connection(
    sock: socket.socket, args: argparse.Namespace, address: str, output: Output
) -> tuple[socket.socket, Output] | None:
    """Send the hidden ``KEEPALIVE`` (the input is a pipe or a file); return the connection and output to use.

    A server that knows the verb holds the session while the input comes,
    however slowly (no close grace); its ``KEEPALIVE on: ...`` line is not
    printed, and ERROR replies' line numbers are shifted back by one
    (:class:`ShiftedOutput`), as after the hidden ``INTERACTIVE`` at a
    terminal. An older server's ``ERROR command unknown verb "KEEPALIVE"`` is
    not printed either: the client then sends its input on a new connection,
    as it did before the verb. None when the connection failed (the reason
    is printed).
    """
    try:
        supported, rest = handshake(sock, address, args.timeout, KEEPALIVE_REQUEST)
        if supported is False:
            close_socket(sock)
            sock = socket.create_connection((args.host, args.port), timeout=args.timeout)
            sock.settimeout(None)
    except OSError as exc:
        close_socket(sock)
        if isinstance(exc, socket.timeout):
            report("no answer from %s within %g s" % (address, args.timeout))
        else:
            report("connection to %s broken: %s" % (address, describe(exc)))
        return None
    if supported is None and not rest:
        close_socket(sock)
        report("%s closed the connection before answering KEEPALIVE" % address)
        return None
    if supported:
        output = ShiftedOutput(output)
    if rest and not output.write(rest):
        close_socket(sock)
        return None
    return sock, output


def main(argv: Sequence[str] | None = None) -> int:
    """Run the client; return the exit code (0, 1, 2 or 130, see --help)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.generate is None:
        given = [
            name
            for name in ("size", "symmetry", "givens", "seed", "format", "level", "rules")
            if getattr(args, name) is not None
        ]
        if args.full:
            given.append("full")
        if given:
            parser.error("--%s needs --generate" % given[0])
    elif args.files:
        parser.error("--generate takes no FILE")
    elif args.seed is not None and args.seed + args.generate - 1 > MAX_SEED:
        last = args.seed + args.generate - 1
        parser.error(
            "--seed %d with --generate %d would send seed=%d; seeds are 0 to %d (2**64 - 1)"
            % (args.seed, args.generate, last, MAX_SEED)
        )
    address = format_address(args.host, args.port)
    if args.ping:
        if args.files:
            parser.error("--ping takes no FILE")
        return ping(args.host, args.port, args.timeout, args.proxy_header)
    if args.canon or args.dedupe:
        try:
            inputs = open_sources(args.files)
        except OSError as exc:
            report("cannot read %s: %s" % (exc.filename, describe(exc)))
            return EXIT_FAILURE
        try:
            return canon.run(args, inputs, dedupe=args.dedupe)
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED
        finally:
            close_sources(inputs)
    mode = VERB_MODES["count"] if args.count else VERB_MODES["rate"] if args.rate else None

    sources: list[tuple[str, io.FileIO]] = []
    if args.generate is None:
        try:
            sources = open_sources(args.files)
        except OSError as exc:
            report("cannot read %s: %s" % (exc.filename, describe(exc)))
            return EXIT_FAILURE
    interactive = any(_isatty(source) for _, source in sources)
    stderr_tty = _isatty(sys.stderr)
    # Plain mode from files or a pipe: each bare puzzle's reply must answer it (first_unanswered).
    scanner = ReplyScanner(watch=mode is None and args.generate is None and not interactive)

    counter: RequestCounter | None = None
    if args.generate is not None:

        def total() -> int | None:
            return args.generate

    else:
        if not interactive and RequestCounter.applies(sources):
            counter = RequestCounter(sources)
            counter.start()

        def total() -> int | None:
            return counter.total if counter is not None else None

    progress = None
    if not args.quiet and stderr_tty and not interactive and not _isatty(sys.stdout):
        progress = Progress(total, sys.stderr, counting=lambda: counter is not None and counter.is_alive())
    output = Output(sys.stdout.buffer, scanner, progress)

    sock: socket.socket | None = None
    before = 0
    started = time.monotonic()
    status = EXIT_OK
    try:
        try:
            sock = socket.create_connection((args.host, args.port), timeout=args.timeout)
        except OSError as exc:
            close_sources(sources)
            report("cannot connect to %s: %s" % (address, describe(exc)))
            return EXIT_FAILURE
        sock.settimeout(None)  # the sender blocks; the reader uses select()
        verb = mode.verb if mode is not None else None
        stream: RequestStream | None = None
        if interactive:
            status = interactive_session(sock, args, address, sources, output, verb)
        else:
            held = _hold_connection(sock, args, address, output)
            if held is None:
                close_sources(sources)
                return EXIT_FAILURE
            sock, output = held
            before = len(scanner.kinds)  # replies to KEEPALIVE itself (a server that answered it otherwise)
            if args.generate is None:
                stream = RequestStream(verb) if verb is not None else RequestStream(keep_output=False)
            output.count_exact = args.generate is not None or make_reader().exact

            def chunks(shared: Shared) -> Iterator[bytes]:
                if args.generate is not None:
                    return _batched(generate_lines(args))
                assert stream is not None
                reads = read_sources(sources, shared)
                return through(reads, stream) if verb is not None else counted(reads, stream)

            status = exchange(sock, address, chunks, args.timeout, output)
            if isinstance(output, ShiftedOutput) and not output.flush_partial():
                status = EXIT_FAILURE
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()
        return EXIT_INTERRUPTED
    finally:
        if sock is not None:
            close_socket(sock)
    if progress is not None:
        progress.close()
    seconds = time.monotonic() - started

    if status == EXIT_OK and stream is not None and stream.exact and scanner.watch:
        index = first_unanswered(stream.puzzles, scanner.kinds[before:])
        if index is not None:
            shown = escape_controls(scanner.texts.get(before + index, ""))
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            report(
                '%s answered "%s" to the puzzle at line %d, neither its answer nor an ERROR line'
                " (is it a sudoku-server?)" % (address, shown, stream.first_lines[index])
            )
            status = EXIT_FAILURE
    if status == EXIT_OK:
        expected, exact = None, False
        if args.generate is not None:
            expected, exact = args.generate, True
        elif stream is not None:  # every request read from the input, sent or not
            expected, exact = stream.requests, stream.exact
        if exact and expected is not None and scanner.replies < expected:
            lost = " (it closed the connection before all input was sent)" if output.lost_input else ""
            report("%s answered %d of %s%s" % (address, scanner.replies, plural(expected, "request"), lost))
            status = EXIT_FAILURE
    if status == EXIT_OK:
        failed = scanner.failures
        if mode is not None:
            failed += mode.failed(scanner.words.get(mode.verb, {}))
        status = EXIT_ERROR_ANSWER if failed else EXIT_OK
    if stream is not None and stream.after_quit and status != EXIT_FAILURE:
        report(
            "input after QUIT was not sent: %s from line %d (the server reads nothing after QUIT; exit status 1)"
            % (plural(stream.after_quit, "line"), stream.first_after_quit or 0)
        )
        status = EXIT_ERROR_ANSWER
    if not args.quiet and (args.summary or stderr_tty):
        report(summary_text(scanner, seconds, mode))
    return status
