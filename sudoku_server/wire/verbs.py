"""The verb table of protocol version 2: which lines are commands, their arguments, and the request each builds.

Pure: no I/O. The line router (:mod:`.splitter`) asks :func:`is_verb` and
:func:`parse_command` about each line between puzzles; a line is a command
only when its first word is a known verb (case-insensitive). Arguments are
space-separated words: flags (``any``, ``full``) and ``key=value`` options;
for the verbs that take a puzzle, the first word that is neither starts the
puzzle, which must then be a whole one-line puzzle (a grid goes on the lines
after the verb).

Each row of :data:`VERBS` names its request type (:mod:`sudoku_server.service.requests`):
:func:`check_arguments` builds it from the parsed words through the type's
one ``validate`` classmethod. What the verb then does is the service's
(:mod:`sudoku_server.service.answer`), and the bytes of its reply are
:mod:`.replies`' (which also holds the HELP text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sudoku_server.errors import CommandError, quote
from sudoku_server.service import requests as _requests
from sudoku_server.service.requests import MAX_COUNT_LIMIT, MAX_SEED, Generate, Request
from sudoku_server.sudoku import rules as _rules
from sudoku_server.sudoku.generator import SIZES as GENERATE_SIZES
from sudoku_server.text import PuzzleReader, Rejected
from sudoku_server.text.lines import SECTION_HEADER

#: Symmetries of GENERATE's clue sets: the generator's, and ``random``.
SYMMETRIES = _requests.GENERATE_SYMMETRIES

__all__ = [
    "GENERATE_SIZES",
    "MAX_COUNT_LIMIT",
    "MAX_SEED",
    "SYMMETRIES",
    "VERBS",
    "Command",
    "CommandError",
    "Verb",
    "check_arguments",
    "first_word",
    "generate_request",
    "is_verb",
    "name_of",
    "parse_command",
    "unknown_option",
    "unknown_verb",
]

#: A word that may be meant as a verb: letters only (any script: ``hellö`` too, but not full-width forms, which
#: are a pasted puzzle's symbols), and short (a line of letters such as a letters-only 16x16 puzzle is not a verb).
_WORD = re.compile(r"((?:(?![\uff00-\uffef])[^\W\d_]){1,20})[.,:;!?]?")


def ascii_upper(text: str) -> str:
    """``text`` with its ASCII letters upper-cased, and only those: verbs match ASCII only (``str.upper()`` maps
    ``ı`` to ``I`` and ``ſ`` to ``S``, so ``PıNG`` would be ``PING``); ``ascii_upper("hellö")`` is ``HELLö``."""
    return text.upper() if text.isascii() else "".join(ch.upper() if ch.isascii() else ch for ch in text)


def ascii_lower(text: str) -> str:
    """``text`` with its ASCII letters lower-cased, and only those (``str.lower()`` maps the Kelvin sign U+212A to
    ``k``): what flags and option names are matched on."""
    return text.lower() if text.isascii() else "".join(ch.lower() if ch.isascii() else ch for ch in text)


#: A word of ASCII letters with control or non-ASCII characters after it (none of them printable ASCII).
_WORD_GLUED = re.compile(r"([A-Za-z]{1,20})[\x00-\x1f\x7f-\U0010ffff]+")


@dataclass(frozen=True)
class Verb:
    """One verb: its usage line, what it does, an example, and its arguments.

    Attributes:
      name: upper case.
      usage: ``HELP`` shows it (``COUNT [limit=N] <puzzle>``).
      summary: one line in words.
      example: one request line (and ``-> reply``).
      flags: bare words it takes.
      options: ``key`` of each ``key=value`` it takes.
      takes_puzzle: a puzzle follows (on the same line, or on the next lines).
      request: the request type it builds (``validate(flags, options)``).
      argument: the key a lone word is given under (``RULES x`` -> ``list``), or "".
    """

    name: str
    usage: str
    summary: str
    example: str
    flags: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    takes_puzzle: bool = False
    request: Any = None
    argument: str = ""


VERBS: dict[str, Verb] = {
    verb.name: verb
    for verb in (
        Verb("HELP", "HELP [verb]", "list the verbs, or show one verb's usage", "HELP COUNT", request=_requests.Help),
        Verb(
            "VERSION",
            "VERSION",
            "the server's name, version, protocol and solver core",
            "VERSION -> VERSION sudoku-server <version> protocol=2 core=<python|native>",
            request=_requests.Version,
        ),
        Verb("PING", "PING", "health check, answered without the solver", "PING -> PONG", request=_requests.Ping),
        Verb("QUIT", "QUIT", "answer what came before, say BYE and close", "QUIT -> BYE", request=_requests.Quit),
        Verb(
            "SOLVE",
            "SOLVE [any] [rules=R] [format=line|fpuzzles|link] <puzzle>",
            "solve (the default for a bare puzzle); 'any' answers the first solution"
            " found instead of the first in row-major order; rules=R: the variant rules (see RULES);"
            " format=fpuzzles: the f-puzzles JSON with the grid filled, format=link: its f-puzzles link",
            "SOLVE any 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            flags=("any",),
            options=("rules", "format"),
            takes_puzzle=True,
            request=_requests.Solve,
        ),
        Verb(
            "COUNT",
            "COUNT [limit=N] [rules=R] <puzzle>",
            f"count solutions up to N (default 2, at most {MAX_COUNT_LIMIT})",
            "COUNT " + "." * 80 + "9 -> COUNT 2+ multiple",
            options=("limit", "rules"),
            takes_puzzle=True,
            request=_requests.Count,
        ),
        Verb(
            "CANDIDATES",
            "CANDIDATES [rules=R] <puzzle>",
            "the true candidates: every digit each cell takes in some solution, as one pencilmark"
            " line (9 characters a cell on 9x9, '.' where a digit is none); any rules",
            "CANDIDATES " + "." * 81 + " -> 123456789123456789...",
            options=("rules",),
            takes_puzzle=True,
            request=_requests.Candidates,
        ),
        Verb(
            "GENERATE",
            "GENERATE [full] [size=9] [symmetry=none|rot180|rot90|mirror|diagonal|random]"
            " [givens=N] [seed=N] [format=line|grid|fpuzzles|link] [level=easy|medium|hard|expert|extreme]"
            " [se=MIN-MAX] [rules=R] [regions=S]",
            "a new puzzle with one solution, minimal under its symmetry (or stopped at N"
            " givens; size=25 stops at 320 unless givens= says otherwise, givens=0 for minimal),"
            " of a level or Sudoku Explainer band when asked; 'full' a random solved"
            " grid; the same seed gives the same puzzle",
            "GENERATE symmetry=rot180 seed=42",
            flags=("full",),
            options=("size", "symmetry", "givens", "seed", "format", "level", "se", "rules", "regions"),
            request=_requests.Generate,
        ),
        Verb(
            "RATE",
            "RATE [rules=R] <puzzle>",
            "how hard it is by the techniques people use: level, Sudoku Explainer rating, QQWing level"
            " (9x9; qqwing=none at other sizes), hardest step, HoDoKu's level and score (classic 9x9)",
            "RATE <puzzle> -> RATE hard se=4.1 qqwing=expert hardest=two-string-kite method=techniques"
            " hodoku=hard:1286",
            options=("rules",),
            takes_puzzle=True,
            request=_requests.Rate,
        ),
        Verb(
            "HINT",
            "HINT [nudge|all [kraken]] [rules=R] <puzzle>",
            "the next logical step in words (with nudge: only the technique and where to look; with all: every"
            " step at the puzzle's state, one STEP line each with HoDoKu's technique code, then END; with all"
            " kraken: Kraken fish too)",
            "HINT nudge <puzzle> -> HINT hidden single: look at box 9",
            flags=("nudge", "all", "kraken"),
            options=("rules",),
            takes_puzzle=True,
            request=_requests.Hint,
        ),
        Verb(
            "STEPS",
            "STEPS [rules=R] <puzzle>",
            "every step from the puzzle to its solution, one line each, then END",
            "STEPS <puzzle>",
            options=("rules",),
            takes_puzzle=True,
            request=_requests.Steps,
        ),
        Verb(
            "UNIQUE",
            "UNIQUE [rules=R] <puzzle>",
            "whether a puzzle has one solution; if not, two of them (row-major first and last), the cells where"
            " they differ, and the clues any one of which makes it unique (add-all: a set that does together)",
            "UNIQUE <puzzle> -> UNIQUE no <81 digits> <81 digits> differ r1c2 r1c5 add r1c2=7",
            options=("rules",),
            takes_puzzle=True,
            request=_requests.Unique,
        ),
        Verb(
            "MINIMAL",
            "MINIMAL [rules=R] <puzzle>",
            "whether a puzzle with one solution is minimal: the givens each of which could go alone,"
            " the puzzle staying unique",
            "MINIMAL <puzzle> -> MINIMAL no r1c1 r5c6",
            options=("rules",),
            takes_puzzle=True,
            request=_requests.Minimal,
        ),
        Verb(
            "CANON",
            "CANON [map] <puzzle>",
            "the minlex canonical form of a 4x4, 6x6 or 9x9 puzzle or solved grid (dobrichev's: the smallest"
            " pattern of givens, then the smallest digits relabelled in order of first appearance; '.' for"
            " empty); with map, also the transformation onto it",
            "CANON map <puzzle> -> CANON <81 characters> map transpose=no rows=... cols=... digits=...",
            flags=("map",),
            takes_puzzle=True,
            request=_requests.Canon,
        ),
        Verb(
            "SAME",
            "SAME <puzzle> <puzzle>",
            "whether two puzzles are the same up to transposition, band, row, stack and column orders and"
            " relabelling: SAME yes and a transformation of the first onto the second, or SAME no",
            "SAME <puzzle> <puzzle> -> SAME yes transpose=no rows=... cols=... digits=...",
            takes_puzzle=True,
            request=_requests.Same,
        ),
        Verb(
            "RULES",
            "RULES [R]",
            f"the rules of this connection's puzzles from now on, a +-joined list of {_rules.listed()}"
            " (RULES classic resets; RULES alone shows them)",
            f"RULES {_rules.EXAMPLE} -> RULES {_rules.EXAMPLE}",
            request=_requests.Rules,
            argument="list",
        ),
        Verb(
            "STATS",
            "STATS",
            "the server's counters, one 'STAT name value' line each, then END",
            "STATS",
            request=_requests.Stats,
        ),
        Verb(
            "INTERACTIVE",
            "INTERACTIVE",
            "keep this session open for a person: no close grace, bad rows reported at once; QUIT or Ctrl-D ends it",
            "INTERACTIVE -> INTERACTIVE on: ...",
            request=_requests.Interactive,
        ),
        Verb(
            "KEEPALIVE",
            "KEEPALIVE",
            "this connection is held by a program between requests: no close grace, errors reported as for"
            " a pipe; --idle-timeout of silence, QUIT or end of input ends it",
            "KEEPALIVE -> KEEPALIVE on: ...",
            request=_requests.KeepAlive,
        ),
    )
}


@dataclass
class Command:
    """A command line, parsed.

    Attributes:
      verb: the :class:`Verb`.
      flags: the bare words given (lower case).
      options: ``key -> value`` as given (values checked by the verb's reader).
      line: the 1-based line number of the command.
      ending: the command line's terminator (replies use it).
      puzzle_text: the rest of the line when a one-line puzzle follows on it.
      puzzle_column: the 0-based column where ``puzzle_text`` starts.
    """

    verb: Verb
    flags: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict)
    line: int = 0
    ending: str = "\n"
    puzzle_text: str | None = None
    puzzle_column: int = 0

    @property
    def name(self) -> str:
        return self.verb.name


def first_word(line: str) -> str:
    """The first blank-separated word of a line ('' for a blank line)."""
    parts = line.split(None, 1)
    return parts[0] if parts else ""


def is_verb(line: str) -> bool:
    """True when the line's first word is a known verb (any case)."""
    head = line[:1]
    if head and not head.isalpha() and not head.isspace():
        return False  # a row or a one-line puzzle: digits, '.', '|', '+' (most lines)
    return ascii_upper(first_word(line)) in VERBS


def unknown_verb(line: str) -> CommandError | None:
    """The error for a line that is not a puzzle and starts with a word of letters, else None.

    The session asks only about lines rejected on their own (not rows of a
    grid): ``hello``, ``unique <puzzle>``, a typo of a verb, prose.

    ``hello`` -> ``unknown verb "HELLO"; try HELP``. One trailing
    punctuation mark (``Hello,``) is not part of the word.
    """
    word = first_word(line)
    match = _WORD.fullmatch(word)
    if match is not None:
        return CommandError(f"unknown verb {quote(ascii_upper(match.group(1)))}; try HELP")
    match = _WORD_GLUED.fullmatch(word)
    if match is not None and not any(ch.isalnum() for ch in word[match.end(1) :]):
        # a verb with a control byte, an undecodable byte or a non-ASCII symbol glued on (``PING<NUL>``); a word
        # that goes on in other letters (``Voilà``) is prose, whose error names its column
        letters = len(match.group(1))
        return CommandError(f"unknown verb {quote(ascii_upper(word[:letters]) + word[letters:24])}; try HELP")
    return None


def unknown_option(command: Command) -> CommandError | None:
    """The error for a word after a puzzle verb that is no flag, when that word is not part of the puzzle.

    The splitter asks when the one-line puzzle on a command's line could not
    be read. ``SOLVE fast <puzzle>`` -> ``SOLVE: unknown option "fast"; try
    HELP SOLVE`` (the words of an unknown ``key=value``): the first word of
    the puzzle text is made of letters (1 to 20, as :func:`unknown_verb`
    reads a word) and the rest of the line, without it, is empty or a whole
    one-line puzzle. Else None: the puzzle's own error stands (a letters
    16x16 puzzle written in groups, ``ABCD EFGH ...``, is not a word).
    """
    text = command.puzzle_text
    if text is None:
        return None
    token = first_word(text)
    if _WORD.fullmatch(token) is None:
        return None
    rest = text.lstrip()[len(token) :].strip()
    if rest and not _one_puzzle(rest):
        return None
    return CommandError(f"{command.name}: unknown option {quote(token)}; try HELP {command.name}")


def section_word(command: Command) -> CommandError | None:
    """The error for a ``[Section]``-like word after a puzzle verb (``SOLVE [x]``): a header stands on a line of
    its own, between puzzles (:data:`~sudoku_server.text.lines.SECTION_HEADER`); after a verb it is neither a
    flag nor a puzzle. ``SOLVE: "[x]" is no option or puzzle (a [Section] header goes on a line of its own); try
    HELP SOLVE``. None when the puzzle text does not begin with one."""
    text = command.puzzle_text
    if text is None:
        return None
    token = first_word(text)
    if SECTION_HEADER.fullmatch(token) is None:
        return None
    return CommandError(
        f"{command.name}: {quote(token)} is no option or puzzle (a [Section] header goes on a line of its own);"
        f" try HELP {command.name}"
    )


def reads_as_one_puzzle(text: str) -> bool:
    """True when ``text`` alone reads as one whole puzzle, with no error (``SAME <puzzle> <puzzle>``'s split)."""
    return _one_puzzle(text)


def _one_puzzle(text: str) -> bool:
    """True when ``text`` alone reads as one whole puzzle, with no error."""
    reader = PuzzleReader()
    events = [*reader.feed_line(text, "\n", 1), *reader.finish()]
    return len(events) == 1 and not isinstance(events[0], Rejected)


def parse_command(line: str, lineno: int, ending: str) -> Command:
    """Read a command line (its first word is a verb: see :func:`is_verb`).

    Raises:
      CommandError: an unknown flag or option, one given twice (``COUNT:
        option "limit" given twice; try HELP COUNT``), or a puzzle given to a
        verb that takes none (``COUNT: unknown option "lmit"; try HELP COUNT``).
    """
    stripped = line.lstrip()
    offset = len(line) - len(stripped)
    word = first_word(stripped)
    verb = VERBS[ascii_upper(word)]
    pos = offset + len(word)
    flags: list[str] = []
    options: dict[str, str] = {}
    puzzle_text = None
    puzzle_column = 0
    for match in re.finditer(r"\S+", line[pos:]):
        token = match.group()
        key, eq, value = token.partition("=")
        name = ascii_lower(key)  # ASCII only: the Kelvin sign is no "k"
        if eq and name in verb.options:
            if name in options:
                raise CommandError(f"{verb.name}: option {quote(key)} given twice; try HELP {verb.name}")
            options[name] = value
            continue
        if not eq and ascii_lower(token) in verb.flags:
            if ascii_lower(token) in flags:
                raise CommandError(f"{verb.name}: flag {quote(token)} given twice; try HELP {verb.name}")
            flags.append(ascii_lower(token))
            continue
        if verb.name == "HELP" and not flags and not options:
            options["verb"] = token
            continue
        if verb.argument and not eq and verb.argument not in options:
            options[verb.argument] = token
            continue
        # a link has "=", and so may a jigsaw line's region symbols (after 16 cells or more); an option's name is short
        if verb.takes_puzzle and (not eq or len(key) >= 16 or token.lower().startswith(("https://", "http://"))):
            puzzle_column = pos + match.start()
            puzzle_text = line[puzzle_column:]
            break
        what = f"option {quote(key)}" if eq else f"argument {quote(token)}"
        raise CommandError(f"{verb.name}: unknown {what}; try HELP {verb.name}")
    return Command(verb, tuple(flags), options, lineno, ending, puzzle_text, puzzle_column)


def check_arguments(command: Command) -> Request:
    """Build the command's request as soon as the command line is read (its values checked once).

    For a verb that takes a puzzle the request holds
    :data:`~sudoku_server.service.requests.NO_GRID` until its puzzle arrives
    (:meth:`~sudoku_server.service.requests.PuzzleRequest.on`).

    Raises:
      CommandError: the first bad value (``COUNT: limit must be 1 to 1000, not 0``).
    """
    request: Request = command.verb.request.validate(command.flags, command.options)
    return request


def generate_request(command: Command) -> Generate:
    """GENERATE's request from its command line (:meth:`Generate.validate`). Raises CommandError."""
    return Generate.validate(command.flags, command.options)


#: The verb each request type belongs to (``Solve`` -> ``SOLVE``).
_VERB_OF: dict[type[Any], str] = {verb.request: verb.name for verb in VERBS.values()}


def name_of(request: Request) -> str:
    """The verb of a request (``Count(...)`` -> ``COUNT``)."""
    return _VERB_OF[type(request)]
