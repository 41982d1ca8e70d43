"""The verb table of protocol version 2: which lines are commands, their arguments, HELP.

Pure: no I/O. The session (:mod:`.protocol`) asks :func:`parse_command` about
each line between puzzles; a line is a command only when its first word is a
known verb (case-insensitive). Arguments are space-separated words: flags
(``any``, ``full``) and ``key=value`` options; for the verbs that take a
puzzle, the first word that is neither starts the puzzle, which must then be
a whole one-line puzzle (a grid goes on the lines after the verb).

Every reply follows one framing rule (docs/PROTOCOL.md "Replies"): a single
line starting with an uppercase word; or a puzzle answer (one line, or a grid
and one empty line), optionally preceded by ``#`` lines; or an informational
block ending with a line ``END``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sudoku_server.errors import PuzzleError

#: Largest ``COUNT limit=N``: counting is bounded by the solve timeout too.
MAX_COUNT_LIMIT = 1000
#: Grid sizes GENERATE makes.
GENERATE_SIZES = (4, 6, 9, 16, 25)
#: Symmetries of GENERATE's clue sets.
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal", "random")
#: Largest GENERATE seed (seeds are 0 .. 2**64 - 1).
MAX_SEED = 2**64 - 1

#: A word that may be meant as a verb: letters only, and short (a line of
#: letters such as a letters-only 16x16 puzzle is not a verb).
_WORD = re.compile(r"([A-Za-z]{1,20})[.,:;!?]?")


class CommandError(PuzzleError):
    """A command line with bad arguments, or an unknown verb (``ERROR command ...``)."""

    code = "command"


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
    """

    name: str
    usage: str
    summary: str
    example: str
    flags: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    takes_puzzle: bool = False


VERBS: dict[str, Verb] = {
    verb.name: verb
    for verb in (
        Verb("HELP", "HELP [verb]", "list the verbs, or show one verb's usage", "HELP COUNT"),
        Verb(
            "VERSION",
            "VERSION",
            "the server's name, version, protocol and solver core",
            "VERSION -> VERSION sudoku-server <version> protocol=2 core=<python|native>",
        ),
        Verb("PING", "PING", "health check, answered without the solver", "PING -> PONG"),
        Verb("QUIT", "QUIT", "answer what came before, say BYE and close", "QUIT -> BYE"),
        Verb(
            "SOLVE",
            "SOLVE [any] <puzzle>",
            "solve (the default for a bare puzzle); 'any' answers the first solution"
            " found instead of the first in row-major order",
            "SOLVE any 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            flags=("any",),
            takes_puzzle=True,
        ),
        Verb(
            "COUNT",
            "COUNT [limit=N] <puzzle>",
            f"count solutions up to N (default 2, at most {MAX_COUNT_LIMIT})",
            "COUNT ........................................................................9 -> COUNT 2+ multiple",
            options=("limit",),
            takes_puzzle=True,
        ),
        Verb(
            "GENERATE",
            "GENERATE [full] [size=9] [symmetry=none|rot180|rot90|mirror|diagonal|random]"
            " [givens=N] [seed=N] [format=line|grid] [level=easy|medium|hard|expert|extreme]"
            " [se=MIN-MAX]",
            "a new puzzle with one solution, minimal under its symmetry (or stopped at N"
            " givens), of a level or Sudoku Explainer band when asked; 'full' a random solved"
            " grid; the same seed gives the same puzzle",
            "GENERATE symmetry=rot180 seed=42",
            flags=("full",),
            options=("size", "symmetry", "givens", "seed", "format", "level", "se"),
        ),
        Verb(
            "RATE",
            "RATE <puzzle>",
            "how hard it is by the techniques people use: level, Sudoku Explainer rating, QQWing level, hardest step",
            "RATE <puzzle> -> RATE hard se=4.2 qqwing=expert hardest=XY-Wing method=techniques",
            takes_puzzle=True,
        ),
        Verb(
            "HINT",
            "HINT [nudge] <puzzle>",
            "the next logical step in words (with nudge: only the technique and where to look)",
            "HINT nudge <puzzle> -> HINT hidden single: look at box 9",
            flags=("nudge",),
            takes_puzzle=True,
        ),
        Verb(
            "STEPS",
            "STEPS <puzzle>",
            "every step from the puzzle to its solution, one line each, then END",
            "STEPS <puzzle>",
            takes_puzzle=True,
        ),
        Verb("STATS", "STATS", "the server's counters, one 'STAT name value' line each, then END", "STATS"),
        Verb(
            "INTERACTIVE",
            "INTERACTIVE",
            "keep this session open for a person: no close grace, bad rows reported at once; QUIT or Ctrl-D ends it",
            "INTERACTIVE -> INTERACTIVE on: ...",
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
    return first_word(line).upper() in VERBS


def unknown_verb(line: str) -> CommandError | None:
    """The error for a line that is not a puzzle and starts with a word of letters, else None.

    The session asks only about lines rejected on their own (not rows of a
    grid): ``hello``, ``unique <puzzle>``, a typo of a verb, prose.

    ``hello`` -> ``unknown verb "HELLO"; try HELP``. One trailing
    punctuation mark (``Hello,``) is not part of the word.
    """
    match = _WORD.fullmatch(first_word(line))
    if match is None:
        return None
    return CommandError(f'unknown verb "{match.group(1).upper()}"; try HELP')


def parse_command(line: str, lineno: int, ending: str) -> Command:
    """Read a command line (its first word is a verb: see :func:`is_verb`).

    Raises:
      CommandError: an unknown flag or option, or a puzzle given to a verb
        that takes none (``COUNT: unknown option "lmit"; try HELP COUNT``).
    """
    stripped = line.lstrip()
    offset = len(line) - len(stripped)
    word = first_word(stripped)
    verb = VERBS[word.upper()]
    pos = offset + len(word)
    flags: list[str] = []
    options: dict[str, str] = {}
    puzzle_text = None
    puzzle_column = 0
    for match in re.finditer(r"\S+", line[pos:]):
        token = match.group()
        key, eq, value = token.partition("=")
        if eq and key.lower() in verb.options:
            options[key.lower()] = value
            continue
        if not eq and token.lower() in verb.flags:
            flags.append(token.lower())
            continue
        if verb.name == "HELP" and not flags and not options:
            options["verb"] = token
            continue
        if verb.takes_puzzle and not eq:
            puzzle_column = pos + match.start()
            puzzle_text = line[puzzle_column:]
            break
        what = f'option "{key}"' if eq else f'argument "{token}"'
        raise CommandError(f"{verb.name}: unknown {what}; try HELP {verb.name}")
    return Command(verb, tuple(flags), options, lineno, ending, puzzle_text, puzzle_column)


def _int_option(command: Command, key: str, low: int, high: int, what: str) -> int | None:
    text = command.options.get(key)
    if text is None:
        return None
    if not re.fullmatch(r"-?[0-9]+", text):  # ASCII digits only (int() takes ٣ and 1_000 too)
        raise CommandError(f"{command.name}: {key} must be {what}, not {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise CommandError(f"{command.name}: {key} must be {what}, not {value}")
    return value


def count_limit(command: Command) -> int:
    """COUNT's ``limit`` (default 2). Raises CommandError when out of range."""
    value = _int_option(command, "limit", 1, MAX_COUNT_LIMIT, f"1 to {MAX_COUNT_LIMIT}")
    return 2 if value is None else value


#: The named levels of ``level=`` (rating.LEVELS, kept here so that the
#: command table does not import the technique engine).
LEVELS = ("easy", "medium", "hard", "expert", "extreme")


@dataclass(frozen=True)
class GenerateRequest:
    """GENERATE's arguments, checked (see :func:`generate_request`).

    Attributes:
      level: a named level the puzzle must rate at, or None.
      se: ``(low, high)``: the Sudoku Explainer band it must rate in, or None.
    """

    full: bool = False
    size: int = 9
    symmetry: str = "none"
    givens: int | None = None
    seed: int | None = None
    format: str = "line"
    level: str | None = None
    se: tuple[float, float] | None = None

    @property
    def rated(self) -> bool:
        """True when the puzzle must be rated in a band (level or se)."""
        return self.level is not None or self.se is not None


def generate_request(command: Command) -> GenerateRequest:
    """Check GENERATE's arguments.

    Raises:
      CommandError: e.g. ``GENERATE: size must be 4, 6, 9, 16 or 25, not 10``.
    """
    size_text = command.options.get("size", "9")
    size = int(size_text) if re.fullmatch(r"[0-9]{1,3}", size_text) else -1
    if size not in GENERATE_SIZES:
        raise CommandError(f"GENERATE: size must be 4, 6, 9, 16 or 25, not {size_text}")
    symmetry = command.options.get("symmetry", "none").lower()
    if symmetry not in SYMMETRIES:
        raise CommandError(
            f"GENERATE: symmetry must be {', '.join(SYMMETRIES[:-1])} or {SYMMETRIES[-1]},"
            f" not {command.options['symmetry']}"
        )
    givens = _int_option(command, "givens", 0, size * size, f"0 to {size * size}")
    seed = _int_option(command, "seed", 0, MAX_SEED, f"0 to {MAX_SEED}")
    fmt = command.options.get("format", "line").lower()
    if fmt not in ("line", "grid"):
        raise CommandError(f"GENERATE: format must be line or grid, not {command.options['format']}")
    full = "full" in command.flags
    if full and (givens is not None or symmetry != "none"):
        raise CommandError("GENERATE: full makes a solved grid; givens and symmetry do not apply")
    level = command.options.get("level")
    if level is not None:
        level = level.lower()
        if level not in LEVELS:
            raise CommandError(
                f"GENERATE: level must be {', '.join(LEVELS[:-1])} or {LEVELS[-1]}, not {command.options['level']}"
            )
    band = None
    se_text = command.options.get("se")
    if se_text is not None:
        match = re.fullmatch(r"([0-9]{1,2}(?:\.[0-9])?)(?:-([0-9]{1,2}(?:\.[0-9])?))?", se_text)
        if match is None or float(match.group(2) or match.group(1)) < float(match.group(1)):
            raise CommandError(f"GENERATE: se must be a rating or a band such as 7.0-7.5, not {se_text}")
        band = (float(match.group(1)), float(match.group(2) or match.group(1)))
    if (level or band) and full:
        raise CommandError("GENERATE: full makes a solved grid; level and se do not apply")
    if (level or band) and size != 9:
        raise CommandError("GENERATE: level and se are for 9x9 puzzles (the ratings are 9x9)")
    return GenerateRequest(full, size, symmetry, givens, seed, fmt, level, band)


def help_lines(topic: str | None = None) -> list[str]:
    """The lines of a HELP reply, ``END`` included.

    Raises:
      CommandError: ``HELP`` of a word that is not a verb.
    """
    if topic is not None:
        verb = VERBS.get(topic.upper())
        if verb is None:
            raise CommandError(f'HELP: unknown verb "{topic.upper()}"; try HELP')
        return [f"HELP {verb.usage}", f"  {verb.summary}", f"  example: {verb.example}", "END"]
    lines = [
        "HELP sudoku-server, protocol 2: send a puzzle (any layout) to solve it, or a command:",
    ]
    for verb in VERBS.values():
        lines.append(f"  {verb.usage}")
        lines.append(f"      {verb.summary}; e.g. {verb.example}")
    lines.append("  (verbs in any case; a reply is one line, a puzzle answer, or a block ending END)")
    lines.append("END")
    return lines


def count_reply(count: int, limit: int) -> str:
    """COUNT's reply line (no ending).

    ``COUNT 0 unsolvable``, ``COUNT 1 unique``, and with the default limit 2
    ``COUNT 2+ multiple``; with a larger limit the count itself, ``COUNT 37``,
    or ``COUNT 1000+`` when the limit was reached.
    """
    if count == 0:
        return "COUNT 0 unsolvable"
    if count == 1 and limit > 1:
        return "COUNT 1 unique"
    if count >= limit:
        return f"COUNT {limit}+ multiple" if limit == 2 else f"COUNT {limit}+"
    return f"COUNT {count}"


def block(lines: list[str], ending: str = "\n") -> bytes:
    """An informational block (HELP, STATS): every line, then ``END``, each with ``ending``."""
    if not lines or lines[-1] != "END":
        lines = list(lines) + ["END"]
    return "".join(line + ending for line in lines).encode("ascii", "backslashreplace")


def stats_lines(pairs: list[tuple[str, object]]) -> list[str]:
    """``STAT <name> <value>`` lines (memcached style), then ``END``."""
    out = []
    for name, value in pairs:
        if isinstance(value, float):
            value = f"{value:.3f}"
        out.append(f"STAT {name} {value}")
    out.append("END")
    return out


def check_arguments(command: Command) -> None:
    """Check a verb's option values as soon as the command is read.

    Raises:
      CommandError: the first bad value (``COUNT: limit must be 1 to 1000, not 0``).
    """
    if command.name == "COUNT":
        count_limit(command)
    elif command.name == "GENERATE":
        generate_request(command)


def technique_word(name: str) -> str:
    """A technique's name as one word for ``key=value`` replies (``hidden single`` -> ``hidden-single``)."""
    return "-".join(name.split())


def rate_reply(rating) -> str:
    """RATE's reply line (no ending) for a :class:`rating.Rating`.

    ``RATE hard se=4.2 qqwing=expert hardest=XY-Wing method=techniques``;
    ``method=search-estimate`` when the path needed a search (the ``se``
    number is then an estimate, not a Sudoku Explainer rating).
    """
    method = technique_word(rating.method)
    return (
        f"RATE {rating.level} se={rating.se:.1f} qqwing={rating.qqwing}"
        f" hardest={technique_word(rating.hardest.technique) if rating.hardest else 'none'} method={method}"
    )


def steps_lines(steps, rating) -> list[str]:
    """STEPS's block: a count line, one line per step in words, ``END``."""
    lines = [f"STEPS {len(steps)} step{'s' if len(steps) != 1 else ''}, {rate_reply(rating)[5:]}"]
    lines.extend(f"{number}. {step.describe()}" for number, step in enumerate(steps, start=1))
    lines.append("END")
    return lines
