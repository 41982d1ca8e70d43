"""Line routing, sans-I/O: which line is a command, which belongs to a puzzle, which request a puzzle answers.

:class:`Splitter` is fed complete lines (text without its terminator, the
terminator, the 1-based line number) and returns items in input order:

* :class:`CommandRead`: a command line that needs no puzzle (``PING``,
  ``GENERATE seed=1``...), with its typed request;
* :class:`PuzzleRead`: a complete puzzle with the request it answers (a bare
  puzzle: ``Solve``; after ``COUNT limit=5``: ``Count(grid, 5)``);
* :class:`LineRejected`: input that is not a request, with the error to answer
  in its turn (a format error, an unknown verb, bad arguments).

The rules (docs/PROTOCOL.md "Commands"): between puzzles a line whose first
word is a verb is a command; inside a grid, a verb line that reads as a
well-formed command is one too, and ends the grid (a letters-only 16x16 row
such as ``PING BACD EFGH IJKL`` does not). A verb that takes a puzzle waits
for the next puzzle, on its own line or on the lines after it. ``QUIT`` and a
line holding only EOT (Ctrl-D typed in telnet) end the input: :attr:`closed`.

The server's session uses it; the bundled client can use it to route its own
input the same way.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sudoku_server.errors import CommandError, IncompletePuzzleError, InternalError, PuzzleError, PuzzleFormatError
from sudoku_server.service.requests import (
    Generate,
    Interactive,
    PuzzleRequest,
    PuzzleRequestType,
    Quit,
    Request,
    Rules,
    Same,
    Solve,
)
from sudoku_server.sudoku.rules import with_data
from sudoku_server.sudoku.variants import RULES, Variant, check_fits
from sudoku_server.text import Positions, Puzzle, PuzzleReader, Rejected, is_caption
from sudoku_server.wire import verbs
from sudoku_server.wire.verbs import Command

log = logging.getLogger(__name__)

#: A PROXY protocol v1 header line (HAProxy's ``send-proxy``): ``PROXY TCP4 <source> <destination> <ports>``.
_PROXY_HEADER = re.compile(r"PROXY (TCP4|TCP6|UNKNOWN)( |$)")

_R = TypeVar("_R", bound=PuzzleRequest)

#: A line holding only this (Ctrl-D in telnet, which sends it as data) ends the input.
EOT = "\x04"


@dataclass
class CommandRead:
    """A command line needing no puzzle, parsed (``command``) and built (``request``)."""

    command: Command
    request: Request


@dataclass
class PuzzleRead:
    """A complete puzzle and the request it answers (``request.grid`` is ``puzzle.grid``).

    Attributes:
      command: the command line it follows, or None for a bare puzzle.
    """

    puzzle: Puzzle
    request: PuzzleRequestType
    command: Command | None = None


@dataclass
class LineRejected:
    """Input that is no request: answer ``error`` in its turn, ending the line with ``ending``."""

    error: PuzzleError
    ending: str


Item = CommandRead | PuzzleRead | LineRejected


class Splitter:
    """The line routing of one input stream (one connection, or one client run).

    (One class over 250 lines because every routing step reads the same
    state: the verb waiting for its puzzle, the caption held, the rules in
    force; the variant merge is :func:`add_variant`.)

    Attributes:
      reader: the puzzle reader lines not taken as commands go to.
      closed: True once ``QUIT``, EOT or :meth:`finish` ended the input.
      rules: the rules ``RULES`` set for the puzzles that follow (words in
        :data:`~sudoku_server.sudoku.variants.RULES` order; empty: classic).
        A puzzle verb's ``rules=`` replaces them for its puzzle; the rules a
        variant layout implies (jigsaw, killer, pencilmarks) add to either.
    """

    def __init__(self, reader: PuzzleReader | None = None) -> None:
        self.reader = reader if reader is not None else PuzzleReader()
        self.closed = False
        self._waiting: tuple[Command, PuzzleRequestType] | None = None  # a verb waiting for its puzzle
        self._caption: tuple[LineRejected, int] | None = None  # prose of the last line: a caption if a puzzle follows
        self._rejected_caption: LineRejected | None = None  # set by _add for a caption-like line rejected on its own
        self.rules: tuple[str, ...] = ()

    @property
    def waiting(self) -> Command | None:
        """The command waiting for its puzzle (``COUNT`` on a line of its own), or None."""
        return self._waiting[0] if self._waiting is not None else None

    @property
    def holding(self) -> bool:
        """True while the last line, a caption-like line of words, waits for the next line to be answered.

        The next line settles it: a puzzle starting there makes it the
        puzzle's caption, skipped (docs/LAYOUTS.md "Captions"); anything else
        gets its error, in its turn, as does :meth:`finish`.
        """
        return self._caption is not None

    @property
    def idle(self) -> bool:
        """True between requests: no puzzle being read, no verb waiting (blank lines may be skipped)."""
        return self._waiting is None and self.reader.puzzle_start is None

    def feed(self, text: str, ending: str, lineno: int) -> list[Item]:
        """Route one complete line; returns the items it completes, in order ([] once :attr:`closed`).

        A fault of the server's own while reading the line (an exception no
        input should raise) is that line's ``ERROR internal <Type> while
        reading line N``, logged with its traceback; the puzzle or verb being
        read is dropped and the reading goes on, so the requests before and
        after it are answered (break-session finding: a RecursionError in the
        f-puzzles reader ended the connection, its earlier answers unsent).
        """
        try:
            return self._feed(text, ending, lineno)
        except Exception as error:  # a fault: the line's error, never the connection's end
            log.exception("line %d: unexpected error while reading it", lineno)
            self.reader.abort()
            self._waiting = self._caption = self._rejected_caption = None
            self.reader.rules = frozenset(self.rules)
            return [LineRejected(InternalError(f"{type(error).__name__} while reading line {lineno}"), ending or "\n")]

    def _feed(self, text: str, ending: str, lineno: int) -> list[Item]:
        if self.closed:
            return []
        out: list[Item] = []
        caption, self._caption = self._caption, None
        if text == EOT:
            if caption is not None:
                out.append(caption[0])
            self._finish(out)
            return out
        reader = self.reader
        self._rejected_caption = None
        if verbs.is_verb(text) and (reader.puzzle_start is None or self._is_command_line(text, lineno, ending)):
            # Between puzzles a verb line is a command; inside a grid too when
            # it reads as a well-formed command, and it ends the grid, as a
            # blank line or a one-line puzzle does.
            self._add(reader.cut_short(lineno, ending), out)
            self._command(text, ending, lineno, out)
        elif reader.puzzle_start is None and self._waiting is None and _PROXY_HEADER.match(text):
            # a PROXY protocol v1 header sent to a port without --proxy-protocol: a verb we do not know, never the
            # first row of a 25x25 grid (its address digits and dots can read as one)
            out.append(LineRejected(verbs.unknown_verb(text) or CommandError("unknown verb"), ending))
        else:
            self._add(reader.feed_line(text, ending, lineno), out)
        if caption is not None and not (caption[1] == lineno - 1 and self._puzzle_starts(lineno, out)):
            out.insert(0, caption[0])  # not directly above a puzzle: its error, in its turn
        held = self._rejected_caption
        if held is not None and out and out[-1] is held and not reader.report_early:
            out.pop()  # a caption if the next line starts a puzzle
            self._caption = (held, lineno)
        return out

    def feed_plain(self, text: str, ending: str, lineno: int) -> PuzzleRead | None:
        """A plain one-line puzzle between requests, routed as :meth:`feed` would; None: give the line to :meth:`feed`.

        The commonest line (dataset files, pipelining programs) without the
        verb and caption checks: when no caption is held, no verb waits and
        no puzzle is being read, a line the reader takes as a plain line
        (``PuzzleReader.feed_plain_line``) is a bare puzzle, ``Solve(grid)``.
        """
        if self._caption is not None or self._waiting is not None or self.closed or self.rules:
            return None
        puzzle = self.reader.feed_plain_line(text, ending, lineno)
        if puzzle is None:
            return None
        self._rejected_caption = None
        return PuzzleRead(puzzle, Solve(puzzle.grid))

    @property
    def plain_ready(self) -> bool:
        """True when :meth:`feed_plain` would take a plain one-line puzzle now (no caption held, no verb
        waiting, no puzzle being read, no ``RULES`` in force: a plain line is then a classic puzzle)."""
        return (
            self._caption is None
            and self._waiting is None
            and not self.closed
            and not self.rules
            and self.reader.puzzle_start is None
        )

    def took_plain(self, ending: str) -> None:
        """Plain one-line puzzles were read elsewhere (:meth:`feed_plain`'s lines, answered by the native core):
        the state they leave, ``ending`` the last one's terminator."""
        self._rejected_caption = None
        self.reader.note_plain_lines(ending)

    def finish(self) -> list[Item]:
        """End of input: the puzzle being read is completed or cut short; a waiting verb is ``ERROR incomplete``."""
        if self.closed:
            return []
        out: list[Item] = []
        self._finish(out)
        return out

    def report_early(self) -> list[Item]:
        """A person is typing: from now on bad rows are reported as soon as they are read (and captions)."""
        out: list[Item] = []
        caption, self._caption = self._caption, None
        if caption is not None:
            out.append(caption[0])
        self._add(self.reader.set_report_early(True), out)
        return out

    def skip_blank_lines(self, ending: str) -> None:
        """A run of blank lines between requests (see :attr:`idle`), skipped in one step."""
        self.reader.skip_blank_lines(ending)

    def abort(self) -> None:
        """Forget the puzzle being read (telnet's interrupt, shutdown)."""
        self.reader.abort()

    # -- internals -------------------------------------------------------------

    def _puzzle_starts(self, lineno: int, out: list[Item]) -> bool:
        """True when a puzzle starts at line ``lineno``: a grid being read, or a one-line puzzle read."""
        if self.reader.puzzle_start == lineno:
            return True
        return any(isinstance(item, PuzzleRead) and item.puzzle.first_line == lineno for item in out)

    def _finish(self, out: list[Item]) -> None:
        caption, self._caption = self._caption, None
        if caption is not None:
            out.append(caption[0])
        self._add(self.reader.finish(), out)
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            command = waiting[0]
            which = "its second puzzle" if _has_first(waiting[1]) else "its puzzle"
            error = IncompletePuzzleError(f"input ended after {command.name} at line {command.line}, before {which}")
            out.append(LineRejected(error, command.ending))
        self.closed = True

    def _add(self, parsed: Iterable[Puzzle | Rejected], out: list[Item]) -> None:
        for item in parsed:
            waiting, self._waiting = self._waiting, None
            if waiting is not None:
                self.reader.rules = frozenset(self.rules)  # the verb's rules= applied to its puzzle only
            if isinstance(item, Rejected):
                error = item.error
                if item.text is not None and waiting is None:  # words, not cells: a typo of a verb, prose
                    error = verbs.unknown_verb(item.text) or error
                rejected = LineRejected(error, item.ending)
                out.append(rejected)
                if item.text is not None and waiting is None and is_caption(item.text):
                    self._rejected_caption = rejected
            elif waiting is None:
                request: PuzzleRequestType = Solve(item.grid, expected=item.expected)
                if self.rules or item.variant is not None:
                    add_variant(item, request, self.rules, None, out)
                else:
                    out.append(PuzzleRead(item, request))
            else:
                command, request = waiting
                if isinstance(request, Same) and request.wants_more:  # SAME's first puzzle: wait for the second
                    first = request.on(item.grid)
                    if item.variant is not None or self.rules:  # kept so that SAME can refuse it (classic only)
                        variant = Variant(tuple(self.rules)) if item.variant is None else item.variant
                        first = dataclasses.replace(first, variant=variant)
                    self._waiting = (command, first)
                    continue
                request = request.on(item.grid, item.expected)
                given = "rules" in command.options
                if given or self.rules or item.variant is not None:
                    add_variant(item, request, request.variant.rules if given else self.rules, command, out)
                else:
                    out.append(PuzzleRead(item, request, command))

    @staticmethod
    def _is_command_line(text: str, lineno: int, ending: str) -> bool:
        try:
            verbs.check_arguments(verbs.parse_command(text, lineno, ending))
        except CommandError:
            return False
        return True

    def _command(self, text: str, ending: str, lineno: int, out: list[Item]) -> None:
        pending, self._waiting = self._waiting, None
        if pending is not None:
            self.reader.rules = frozenset(self.rules)
            command = pending[0]
            if _has_first(pending[1]):  # SAME with its first puzzle only
                error = CommandError(f"{command.name} at line {command.line}: its second puzzle did not follow")
            else:
                error = CommandError(f"{command.name} at line {command.line}: no puzzle followed it")
            out.append(LineRejected(error, command.ending))
        before = len(out)
        try:
            self._command_line(text, ending, lineno, out)
        finally:
            rejected = out[before:]
            if len(rejected) == 1 and isinstance(rejected[0], LineRejected) and is_verb_caption(text):
                self._rejected_caption = rejected[0]  # "Solve this one please:": a caption if a puzzle follows

    def _command_line(self, text: str, ending: str, lineno: int, out: list[Item]) -> None:
        try:
            command = verbs.parse_command(text, lineno, ending)
            request = verbs.check_arguments(command)
        except CommandError as error:
            out.append(LineRejected(error, ending or "\n"))
            return
        if command.ending == "":
            command.ending = "\n"
        if isinstance(request, Rules):  # RULES: the rules of the puzzles that follow (RULES alone: which they are)
            if request.rules is None:
                request = Rules(self.rules)
            else:
                self.rules = request.rules
                self.reader.rules = frozenset(request.rules)
        elif isinstance(request, Generate) and self.rules and "rules" not in command.options:
            try:
                request = request.under(self.rules)
            except CommandError as error:
                out.append(LineRejected(error, command.ending))
                return
        if not isinstance(request, PuzzleRequest):  # PING, HELP, GENERATE, QUIT, ...
            out.append(CommandRead(command, request))
            if isinstance(request, Quit):
                self.closed = True
            return
        self._waiting = (command, request)
        if "rules" in command.options:
            self.reader.rules = frozenset(request.variant.rules)  # how its puzzle is read (jigsaw, killer)
        if command.puzzle_text is None:
            return  # the puzzle follows on the next lines
        # A one-line puzzle on the command's line: read it in place (padded,
        # so that error columns count from the start of the line), then
        # answer it without the verb.
        offset = command.puzzle_column
        before = len(out)
        plain = self.reader.feed_plain_line(command.puzzle_text, ending, lineno)
        if plain is not None:  # a plain 9x9 one-line puzzle (CANON <81 cells>...): read as such, no padding
            self._add((plain,), out)
            return
        pair = _two_puzzles(command.puzzle_text) if isinstance(request, Same) else None
        if pair is not None:  # SAME <puzzle> <puzzle>: each read in place, the first then the second
            self._add(self.reader.feed_line(" " * offset + pair[0], ending, lineno), out)
            self._add(
                self.reader.feed_line(" " * (offset + pair[1]) + command.puzzle_text[pair[1] :], ending, lineno), out
            )
            return
        self._add(self.reader.feed_line(" " * offset + command.puzzle_text, ending, lineno), out)
        bracketed = verbs.section_word(command)  # SOLVE [x]: skipped as a header, or its '[' a bad digit
        if bracketed is not None and self.reader.puzzle_start is None:
            self._waiting = None
            self.reader.rules = frozenset(self.rules)
            out[before:] = [LineRejected(bracketed, command.ending)]
            return
        if self.reader.puzzle_start is not None:  # it started a grid: not a one-line puzzle
            self.reader.abort()
            self._waiting = None
            self.reader.rules = frozenset(self.rules)
            not_one_line = verbs.unknown_option(command) or CommandError(
                f"{command.name}: the puzzle on its line must be a whole one-line puzzle;"
                f" put a grid on the lines after {command.name}"
            )
            out.append(LineRejected(not_one_line, command.ending))
            return
        if any(isinstance(item, LineRejected) for item in out[before:]):
            word = verbs.unknown_option(command)  # SOLVE fast <puzzle>: a word, not the puzzle
            if word is not None:
                out[before:] = [LineRejected(word, command.ending)]
            return
        for item in out[before:]:
            if isinstance(item, PuzzleRead) and item.puzzle.variant is None:  # a variant line's template is its own
                puzzle = item.puzzle
                puzzle.lines = [line[offset:] for line in puzzle.lines]
                puzzle.positions = Positions((li, col - offset) for li, col in puzzle.positions)


def _two_puzzles(text: str) -> tuple[str, int] | None:
    """``(first, start)`` when ``text`` is two whole one-line puzzles separated by blanks, else None.

    ``first`` is the first puzzle's text, ``start`` where the second starts in
    ``text``. The first split whose two sides each read as one puzzle wins
    (a one-line puzzle may hold blanks of its own: ``123 456 ...``).
    """
    for match in re.finditer(r"\s+", text.strip()):
        head = len(text) - len(text.lstrip())
        left, right = head + match.start(), head + match.end()
        if verbs.reads_as_one_puzzle(text[:left]) and verbs.reads_as_one_puzzle(text[right:]):
            return text[:left], right
    return None


def _has_first(request: object) -> bool:
    """True for a SAME request whose first puzzle has arrived (it waits for its second)."""
    return isinstance(request, Same) and request.first is not None


def add_variant(
    puzzle: Puzzle, request: PuzzleRequestType, rules: Sequence[str], command: Command | None, out: list[Item]
) -> None:
    """A puzzle under ``rules`` (``RULES``, or the verb's ``rules=``) and the rules its layout implies.

    The request gets the merged variant (:func:`variant_request`); its error is the puzzle's, in its turn.
    """
    try:
        request = variant_request(puzzle, request, rules)
    except PuzzleError as error:
        out.append(LineRejected(error, puzzle.default_ending))
        return
    out.append(PuzzleRead(puzzle, request, command))


def variant_request(puzzle: Puzzle, request: _R, rules: Sequence[str]) -> _R:
    """``request`` with the :class:`~sudoku_server.sudoku.variants.Variant` of ``rules`` and ``puzzle``'s layout.

    Pure (the line router and the JSON API share it). The layout's rules
    (jigsaw regions, killer cages, pencilmarks: ``puzzle.variant``) are
    merged with ``rules`` (``RULES``, ``rules=``); a classic result leaves
    the request as it is.

    Raises:
      CommandError: a rule that does not fit the grid, naming the puzzle's
        line (``line 2: rules: windoku needs a 9x9 grid, not 16x16``).
      PuzzleFormatError: jigsaw rules with no regions, killer rules with no cages.
    """
    implied = puzzle.variant
    words = set(rules)
    if implied is not None:
        words.update(implied.rules)
        merged = tuple(rule for rule in RULES if rule in words)
        variant = implied if merged == implied.rules else dataclasses.replace(implied, rules=merged)
    else:
        variant = Variant(tuple(rule for rule in RULES if rule in words))
    line = puzzle.first_line
    try:
        check_fits(variant.rules, puzzle.grid.size)
    except CommandError as unfit:
        raise CommandError(f"line {line}: {unfit.detail}") from None
    for rule in with_data():
        if rule.word not in variant.rules:
            continue
        if rule.data == "marks":  # its own marks: another rule's do not stand for them (break-session finding)
            given = any(mark.rule == rule.word for mark in variant.marks)
        else:
            given = bool(getattr(variant, rule.data))
        if not given:
            article = "an" if rule.word[0] in "aeiox" else "a"  # "an arrow", "an xv", "an oddeven"
            raise PuzzleFormatError(f"line {line}: {article} {rule.word} puzzle needs its {rule.data}: {rule.missing}")
    if variant.classic:
        return request
    return dataclasses.replace(request, variant=variant)


def is_verb_caption(text: str) -> bool:
    """True for a line that starts with a verb's word but reads as prose (docs/LAYOUTS.md "Captions").

    Asked only about a verb line that failed as a request (its error is
    known). Prose: two blank-separated tokens or more, the first a word
    (:func:`~sudoku_server.text.is_caption`'s), no ``=`` and no digit, and
    either the first word is not all capitals (``Solve this one please:``,
    ``Count the solutions:``, ``Help me with this:``) or the line ends with
    ``:`` (``SOLVE THIS ONE:``). ``SOLVE fast <puzzle>``, ``COUNT lmit=5``,
    ``SOLVE fast`` and ``HELP me`` (capitals, no ``:``) are not: they keep
    their errors, nor is a line with a later token of cell marks only
    (``HINT ::::::::``, ``Solve ........:``, ``HINT all :``: a puzzle cut short).
    """
    tokens = text.split()
    if len(tokens) < 2 or "=" in text or any(ch.isdigit() for ch in text):
        return False
    head = tokens[0].rstrip(".,:;!?")
    if not head.isalpha() or any(set(token) <= _CELL_MARKS for token in tokens[1:]):
        return False  # HINT :::::::: or SOLVE ........: is a puzzle cut short, not prose (s9-break finding 15)
    return not head.isupper() or text.rstrip().endswith(":")


#: A token (after the first) made only of these is a puzzle's empty cells, never prose: the line keeps its error.
_CELL_MARKS = frozenset(".:_")


def is_interactive(item: Item) -> bool:
    """True for the ``INTERACTIVE`` command (the session then becomes interactive)."""
    return isinstance(item, CommandRead) and isinstance(item.request, Interactive)
