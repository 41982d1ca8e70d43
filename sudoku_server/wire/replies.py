"""Every reply's bytes: typed results and errors rendered for the line protocol (docs/PROTOCOL.md "Replies").

Pure: no I/O. :func:`render` turns a result of :func:`sudoku_server.service.answer.answer`
into bytes through :data:`RENDERERS` (result type -> renderer); the small named
functions below it are the lines the network layer sends on its own (busy,
timeout, internal, shutdown, idle). Nothing else builds a reply.

Every reply follows one framing rule: a single line starting with an
uppercase word; or a puzzle answer (one line, or a grid and one empty line),
optionally preceded by ``#`` lines; or an informational block ending with a
line ``END``. Each line ends with ``ending``: the request's own terminator.

Encodings: an ERROR line and every informational reply is ASCII, other
characters written as backslash escapes; a solved grid is the request's own
text (``Puzzle.render``) in UTF-8, undecodable input bytes given back as they
came (surrogateescape); a HINT's words are UTF-8.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sudoku_server.errors import (
    BusyError,
    CommandError,
    InternalError,
    ProxyProtocolError,
    PuzzleError,
    ShutdownError,
    SolutionMismatchError,
    SolveTimeoutError,
    quote,
)
from sudoku_server.service.results import (
    Bye,
    CandidatesFound,
    Canonized,
    Compared,
    Counted,
    Failed,
    Generated,
    HelpShown,
    Hinted,
    HintedAll,
    InteractiveOn,
    KeepAliveOn,
    MinimalChecked,
    Pong,
    Rated,
    Result,
    RulesSet,
    Solved,
    StatsShown,
    Stepped,
    UniqueChecked,
    VersionInfo,
)
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, Grid, cell_name
from sudoku_server.sudoku.variants import CLASSIC, Variant
from sudoku_server.text import Puzzle, bordered_lines, fpuzzles
from sudoku_server.wire.verbs import VERBS, ascii_upper

if TYPE_CHECKING:
    from sudoku_server.sudoku.rating import Rating
    from sudoku_server.sudoku.techniques import Step


# -- errors -------------------------------------------------------------------


def error_line(error: PuzzleError, ending: str = "\n") -> bytes:
    """The wire form of an error: ``ERROR <code> <detail>`` and a line ending (ASCII, backslash escapes)."""
    return f"ERROR {error.code} {error.detail}{ending}".encode("ascii", "backslashreplace")


def _failed(result: Failed, ending: str, puzzle: Puzzle | None) -> bytes:
    error = result.error
    if isinstance(error, SolutionMismatchError) and error.cell is not None and puzzle is not None:
        # the service names the cell; the line is the wire's
        error = SolutionMismatchError(
            f"line {puzzle.first_line}: {error.detail}", cell=error.cell, expected=error.expected, found=error.found
        )
    return error_line(error, ending)


# -- informational blocks -------------------------------------------------------


def block(lines: Sequence[str], ending: str = "\n") -> bytes:
    """An informational block (HELP, STATS, STEPS): every line, then ``END``, each with ``ending`` (ASCII)."""
    if not lines or lines[-1] != "END":
        lines = [*lines, "END"]
    return "".join(line + ending for line in lines).encode("ascii", "backslashreplace")


def help_lines(topic: str | None = None) -> list[str]:
    """The lines of a HELP reply, ``END`` included: the verb table's usage lines, or one verb's.

    Raises:
      CommandError: ``HELP`` of a word that is not a verb (``HELP: unknown verb "FOO"; try HELP``).
    """
    if topic is not None:
        verb = VERBS.get(ascii_upper(topic))
        if verb is None:
            raise CommandError(f"HELP: unknown verb {quote(ascii_upper(topic))}; try HELP")
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


def stats_lines(pairs: Iterable[tuple[str, object]]) -> list[str]:
    """``STAT <name> <value>`` lines (memcached style; floats with 3 decimals), then ``END``."""
    out = []
    for name, value in pairs:
        if isinstance(value, float):
            value = f"{value:.3f}"
        out.append(f"STAT {name} {value}")
    out.append("END")
    return out


# -- the technique engine's replies -----------------------------------------------


def technique_word(name: str) -> str:
    """A technique's name as one word for ``key=value`` replies (``hidden single`` -> ``hidden-single``)."""
    return "-".join(name.split())


def rate_reply(rating: Rating) -> str:
    """RATE's reply line (no ending).

    ``RATE hard se=4.2 qqwing=expert hardest=XY-Wing method=techniques``;
    ``method=search-estimate`` when the path needed a search (the ``se``
    number is then an estimate, not a Sudoku Explainer rating);
    ``qqwing=none`` off 9x9 (QQWing's levels are 9x9 levels) and on
    variants, which end with the rules the path followed: ``rules=x+antiknight``.
    A classic 9x9 puzzle's line ends with HoDoKu's level and score,
    ``hodoku=hard:866`` (``hodoku=extreme:1230+`` where that path stopped:
    :attr:`Rating.hodoku`).
    """
    method = technique_word(rating.method)
    return (
        f"RATE {rating.level} se={rating.se:.1f} qqwing={rating.qqwing or 'none'}"
        f" hardest={technique_word(rating.hardest.technique) if rating.hardest else 'none'} method={method}"
        + (f" hodoku={rating.hodoku}" if rating.hodoku else "")
        + (f" rules={rating.rules}" if rating.rules != "classic" else "")
    )


def steps_lines(steps: Sequence[Step], rating: Rating) -> list[str]:
    """STEPS's block: a count line, on variants a ``note:`` line per technique family left out, one line per
    step in words, ``END``."""
    lines = [f"STEPS {len(steps)} step{'s' if len(steps) != 1 else ''}, {rate_reply(rating)[5:]}"]
    lines.extend(f"note: {note}" for note in rating.notes)
    lines.extend(f"{number}. {step.describe()}" for number, step in enumerate(steps, start=1))
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


# -- one renderer per result type --------------------------------------------------


def _solved(result: Solved, ending: str, puzzle: Puzzle | None) -> bytes:
    if puzzle is None:
        raise ValueError("a solution is rendered in its puzzle's layout: pass the puzzle")
    if result.format != "line" and result.givens is not None:
        try:
            text = fpuzzles.answer_text(result.givens, result.variant or CLASSIC, result.solution, result.format)
        except CommandError as error:
            return error_line(error, ending)
        return f"{text}{ending}".encode()
    return puzzle.render(result.solution).encode("utf-8", "surrogateescape")


def _counted(result: Counted, ending: str, puzzle: Puzzle | None) -> bytes:
    return f"{count_reply(result.count, result.limit)}{ending}".encode("ascii")


def candidates_line(result: CandidatesFound) -> str:
    """The true candidates as one pencilmark line: ``size`` characters per cell, row-major, the ``k``-th
    the symbol of digit ``k`` where it is a candidate, ``.`` where not (729 characters on 9x9: the
    pencilmark layout the reader takes back, docs/LAYOUTS.md)."""
    size = result.puzzle.size
    symbols = result.puzzle.symbols or DIGIT_SYMBOLS
    return "".join("".join(symbols[k] if mask >> k & 1 else "." for k in range(size)) for mask in result.masks)


def _candidates(result: CandidatesFound, ending: str, puzzle: Puzzle | None) -> bytes:
    return f"{candidates_line(result)}{ending}".encode()


def _generated(result: Generated, ending: str, puzzle: Puzzle | None) -> bytes:
    """``# generated size=9 givens=24 symmetry=rot180 seed=42 minimal=yes``, then the puzzle (line or grid).

    A puzzle from a warm pool ends the ``#`` line with ``pool=yes`` (the field is absent otherwise).
    A variant adds ``rules=x+antiknight`` to the ``#`` line (:func:`variant_puzzle_lines` has the puzzle).
    """
    made, rating = result.made, result.rating
    variant = made.variant
    header = (
        f"# generated size={made.size} givens={made.givens} symmetry={made.symmetry}"
        f" seed={made.seed} minimal={'yes' if made.minimal else 'no'}"
        + (" full=yes" if result.full else "")
        + (f" level={rating.level} se={rating.se:.1f}" if rating is not None else "")
        + (" pool=yes" if result.pooled else "")
        + (f" rules={variant.words}" if not variant.classic else "")
    )
    laid_out = (variant.regions is not None) + bool(variant.cages) + bool(variant.marks)
    if result.format in ("fpuzzles", "link") or laid_out >= 2:
        # two of marks, regions and cages have no line syntax together: the f-puzzles JSON line holds them all
        form = result.format if result.format in ("fpuzzles", "link") else "fpuzzles"
        try:
            text = fpuzzles.answer_text(made.puzzle, variant, None, form)
        except CommandError as error:
            return error_line(error, ending)
        lines = [header, text]
    elif variant.regions is not None or variant.cages:
        lines = [header, *variant_puzzle_lines(made.puzzle, variant, result.format)]
    elif variant.marks:  # a marks puzzle is one line with its marks (docs/LAYOUTS.md), in either format
        lines = [header, fpuzzles.marks_text(made.puzzle, variant)]
    elif result.format == "grid":
        lines = [header, *bordered_lines(made.puzzle), ""]
    else:
        lines = [header, made.puzzle.to_string()]
    return "".join(line + ending for line in lines).encode("utf-8")


def variant_puzzle_lines(puzzle: Grid, variant: Variant, fmt: str = "line") -> list[str]:
    """A made jigsaw or killer puzzle as GENERATE writes it (docs/PROTOCOL.md "GENERATE with rules").

    Jigsaw: one line of the ``N * N`` givens then the ``N * N`` region
    symbols (``format=grid``: ``N`` rows of givens, ``N`` rows of region
    symbols, an empty line). Killer: the cage block, ``N`` rows of cage
    symbols (``.``: a cell in no cage), each preceded by its row of givens
    and a blank when the puzzle has givens, then the ``symbol=sum`` line and
    an empty line.
    """
    n = puzzle.size
    givens = puzzle.to_string()
    given_rows = [givens[r * n : (r + 1) * n] for r in range(n)]
    if variant.cages:
        symbol = ["."] * (n * n)
        for cage in variant.cages:
            for c in cage.cells:
                symbol[c] = cage.symbol
        rows = ["".join(symbol[r * n : (r + 1) * n]) for r in range(n)]
        if any(puzzle.cells):
            rows = [f"{g} {row}" for g, row in zip(given_rows, rows)]
        return [*rows, " ".join(f"{cage.symbol}={cage.total}" for cage in variant.cages), ""]
    assert variant.regions is not None
    names = variant.region_symbols or DIGIT_SYMBOLS
    regions = "".join(names[k] for k in variant.regions)
    if fmt == "grid":
        return [*given_rows, *(regions[r * n : (r + 1) * n] for r in range(n)), ""]
    return [givens + regions]


def _rated(result: Rated, ending: str, puzzle: Puzzle | None) -> bytes:
    return f"{rate_reply(result.rating)}{ending}".encode("ascii", "backslashreplace")


def _hinted(result: Hinted, ending: str, puzzle: Puzzle | None) -> bytes:
    step = result.step
    if step is None:
        return f"HINT none: the grid is complete{ending}".encode("ascii")
    text = step.nudge() if result.nudge else step.describe()
    return f"HINT {text}{ending}".encode("utf-8", "backslashreplace")


def hint_all_lines(result: HintedAll) -> list[str]:
    """``HINT all``'s block: ``HINT all N steps``, one ``STEP <code> <technique> <effects> # <words>`` line per
    step (``r3c6<>4`` an elimination, ``r2c9=8`` a placement; code ``-`` where HoDoKu has none), ``END``."""
    found = result.found
    lines = [f"HINT all {len(found)} step{'s' if len(found) != 1 else ''}"]
    for f in found:
        s = f.step
        n = s.size
        sym = s.symbols or DIGIT_SYMBOLS
        effects = [f"{cell_name(c, n)}={sym[d - 1]}" for c, d in s.placements]
        effects += [f"{cell_name(c, n)}<>{sym[d - 1]}" for c, d in sorted(s.eliminations)]
        words = f"{s.technique}{s.explanation}".strip()
        lines.append(f"STEP {f.code} {technique_word(s.technique)} {' '.join(effects)} # {words}")
    lines.append("END")
    return lines


def _hinted_all(result: HintedAll, ending: str, puzzle: Puzzle | None) -> bytes:
    return "".join(line + ending for line in hint_all_lines(result)).encode("utf-8", "backslashreplace")


def _minimal(result: MinimalChecked, ending: str, puzzle: Puzzle | None) -> bytes:
    """``MINIMAL yes``, or ``MINIMAL no r1c1 r5c6``: the givens each removable alone (row-major)."""
    if not result.redundant:
        return f"MINIMAL yes{ending}".encode("ascii")
    cells = " ".join(cell_name(cell, result.size) for cell in result.redundant)
    return f"MINIMAL no {cells}{ending}".encode("ascii")


def _canonized(result: Canonized, ending: str, puzzle: Puzzle | None) -> bytes:
    """``CANON <form>``, with ``map`` then ``map transpose=no rows=... cols=... digits=...`` (PROTOCOL.md "CANON")."""
    line = f"CANON {result.form.text()}"
    if result.map:
        line += f" map {result.form.transformation.describe()}"
    return f"{line}{ending}".encode("ascii")


def _compared(result: Compared, ending: str, puzzle: Puzzle | None) -> bytes:
    """``SAME yes transpose=no rows=... cols=... digits=...`` (first onto second), or ``SAME no``."""
    if result.transformation is None:
        return f"SAME no{ending}".encode("ascii")
    return f"SAME yes {result.transformation.describe()}{ending}".encode("ascii")


def unique_reply(result: UniqueChecked) -> str:
    """UNIQUE's reply line (no ending), ASCII (docs/PROTOCOL.md "UNIQUE").

    ``UNIQUE yes``; ``UNIQUE no unsolvable <detail>`` (the detail of ``ERROR
    unsolvable``: ``no digit fits r1c5``); or ``UNIQUE no <first> <last> differ
    r1c1 ... add r4c5=3 ...`` (``add-all`` instead of ``add`` when only the
    clues together make it unique): the two solutions as ``size * size``
    symbols of the puzzle's own alphabet (81 digits for 9x9).
    """
    if result.unsolvable is not None:
        return f"UNIQUE no unsolvable {result.unsolvable}"
    found = result.uniqueness
    assert found is not None
    if found.unique:
        return "UNIQUE yes"
    symbols = result.symbols or DIGIT_SYMBOLS
    size = result.size
    first = "".join(symbols[d - 1] for d in found.first)
    last = "".join(symbols[d - 1] for d in found.last)
    differ = " ".join(cell_name(cell, size) for cell in found.differ)
    clues = " ".join(f"{cell_name(cell, size)}={symbols[digit - 1]}" for cell, digit in found.add)
    return f"UNIQUE no {first} {last} differ {differ} {'add-all' if found.add_all else 'add'} {clues}"


def _unique(result: UniqueChecked, ending: str, puzzle: Puzzle | None) -> bytes:
    return f"{unique_reply(result)}{ending}".encode("ascii", "backslashreplace")


def _stepped(result: Stepped, ending: str, puzzle: Puzzle | None) -> bytes:
    return block(steps_lines(result.steps, result.rating), ending)


def _pong(result: Pong, ending: str, puzzle: Puzzle | None) -> bytes:
    return f"PONG{ending}".encode("ascii")


def _bye(result: Bye, ending: str, puzzle: Puzzle | None) -> bytes:
    if result.idle is not None:
        return f"BYE idle for {result.idle:g} s{ending}".encode("ascii")
    return f"BYE{ending}".encode("ascii")


def _version(result: VersionInfo, ending: str, puzzle: Puzzle | None) -> bytes:
    return f"VERSION {version_text(result)}{ending}".encode("ascii", "backslashreplace")


def version_text(info: VersionInfo) -> str:
    """``sudoku-server <version> protocol=2 core=<core>`` (VERSION, the startup log)."""
    return f"sudoku-server {info.version} protocol={info.protocol} core={info.core}"


def _help(result: HelpShown, ending: str, puzzle: Puzzle | None) -> bytes:
    try:
        lines = help_lines(result.topic)
    except CommandError as error:
        return error_line(error, ending)
    return block(lines, ending)


def _stats(result: StatsShown, ending: str, puzzle: Puzzle | None) -> bytes:
    return block(stats_lines(result.pairs), ending)


def _interactive(result: InteractiveOn, ending: str, puzzle: Puzzle | None) -> bytes:
    return (
        f"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or {result.timeout:g} s of silence"
        f"{ending}"
    ).encode("ascii")


def _keepalive(result: KeepAliveOn, ending: str, puzzle: Puzzle | None) -> bytes:
    """``KEEPALIVE on: ...``, in the words of INTERACTIVE's reply: the session stays open for the program."""
    return (
        f"KEEPALIVE on: no close grace; QUIT or end of input ends the session, or {result.timeout:g} s of silence"
        f"{ending}"
    ).encode("ascii")


def _rules(result: RulesSet, ending: str, puzzle: Puzzle | None) -> bytes:
    """``RULES x+antiknight``, ``RULES classic``: the rules in force for the connection's next puzzles."""
    return f"RULES {result.words}{ending}".encode("ascii")


#: THE renderer table: result type -> ``(result, ending, puzzle) -> bytes``.
RENDERERS: dict[type[Any], Callable[[Any, str, Puzzle | None], bytes]] = {
    Solved: _solved,
    Counted: _counted,
    CandidatesFound: _candidates,
    Generated: _generated,
    Rated: _rated,
    Hinted: _hinted,
    HintedAll: _hinted_all,
    Stepped: _stepped,
    MinimalChecked: _minimal,
    Canonized: _canonized,
    Compared: _compared,
    UniqueChecked: _unique,
    Failed: _failed,
    Pong: _pong,
    Bye: _bye,
    VersionInfo: _version,
    HelpShown: _help,
    StatsShown: _stats,
    InteractiveOn: _interactive,
    KeepAliveOn: _keepalive,
    RulesSet: _rules,
}


def render(result: Result, ending: str = "\n", puzzle: Puzzle | None = None) -> bytes:
    """The reply bytes of one result.

    Args:
      result: a result of :func:`sudoku_server.service.answer.answer`.
      ending: the request's line ending (``"\\n"``, ``"\\r\\n"`` or ``"\\r"``).
      puzzle: the request's puzzle, whose layout a solution is rendered in
        (its own borders, spacing, symbols and line endings), or None for a
        request without one.

    Raises:
      ValueError: a :class:`Solved` without its puzzle.
    """
    return RENDERERS[type(result)](result, ending, puzzle)


def render_many(results: Iterable[Result], puzzles: Iterable[Puzzle]) -> bytes:
    """The replies of many puzzle requests, in order: each result rendered with its puzzle and ending.

    The server's bulk path: plain one-line puzzles answered in jobs of 32.
    """
    return b"".join(
        puzzle.render(result.solution).encode("utf-8", "surrogateescape")
        if type(result) is Solved
        else render(result, puzzle.default_ending, puzzle)
        for result, puzzle in zip(results, puzzles)
    )


# -- the lines the network layer sends on its own --------------------------------------


def timeout_line(seconds: float, ending: str = "\n") -> bytes:
    """``ERROR timeout no answer within 10 s``: a request used its solve timeout."""
    return error_line(SolveTimeoutError(f"no answer within {seconds:g} s"), ending)


def internal_line(error: BaseException, about: str, ending: str = "\n") -> bytes:
    """``ERROR internal ValueError while answering the puzzle at line 3``: a fault outside the service."""
    return error_line(InternalError(f"{type(error).__name__} while answering {about}"), ending)


def not_solved_line(reason: str, what: str, ending: str = "\n") -> bytes:
    """``ERROR busy <reason>; the puzzle at line 3 was not solved``: the scheduler refused a request."""
    return error_line(BusyError(f"{reason}; the {what} was not solved"), ending)


def shutdown_line(what: str, ending: str = "\n") -> bytes:
    """``ERROR shutdown server shutting down before the puzzle at line 3 was answered``."""
    return error_line(ShutdownError(f"server shutting down before the {what} was answered"), ending)


def unread_line(first_unread: int) -> bytes:
    """``ERROR shutdown server shutting down; input from line N on was not read`` (the session stops reading)."""
    return error_line(ShutdownError(f"server shutting down; input from line {first_unread} on was not read"))


def connections_busy_line(open_connections: int, address: str | None = None) -> bytes:
    """The reply refusing a connection (it then closes).

    ``ERROR busy 100 connections open, try again later``, or with ``address``
    (the per-address limit) ``ERROR busy 4 connections open from 10.0.0.7, try again later``;
    ``1 connection open`` for one.
    """
    where = f" from {address}" if address is not None else ""
    noun = "connection" if open_connections == 1 else "connections"
    return error_line(BusyError(f"{open_connections} {noun} open{where}, try again later"))


#: What every ``ERROR proxy`` line ends with: where the client should go instead.
_PROXY_ONLY = "this port takes connections only through its load balancer"


def proxy_untrusted_line(address: str) -> bytes:
    """Refusing a peer outside ``--trusted-proxy`` on a ``--proxy-protocol`` port (then it closes).

    ``ERROR proxy 192.0.2.7 is not a trusted proxy; this port takes connections only through its load balancer``
    """
    return error_line(ProxyProtocolError(f"{address} is not a trusted proxy; {_PROXY_ONLY}"))


def proxy_missing_line(seconds: float | None = None) -> bytes:
    """Refusing a connection that sent no PROXY header (then it closes); ``seconds``: it sent nothing in time.

    ``ERROR proxy no PROXY protocol header; this port ...``, or ``ERROR proxy
    no PROXY protocol header within 5 s; this port ...``.
    """
    within = f" within {seconds:g} s" if seconds is not None else ""
    return error_line(ProxyProtocolError(f"no PROXY protocol header{within}; {_PROXY_ONLY}"))


def proxy_bad_header_line(reason: str) -> bytes:
    """Refusing a malformed PROXY header (then it closes): ``ERROR proxy PROXY v1 header malformed: 'PROXY TCP4 1.2.3.4'``.

    ``reason`` is :class:`sudoku_server.wire.proxy.ProxyHeaderError`'s message
    (client bytes in it are quoted with ``repr``; non-ASCII is escaped here).
    """
    return error_line(ProxyProtocolError(reason))


def idle_bye(seconds: float) -> bytes:
    """``BYE idle for 300 s``: an interactive or held session ended by its silence (no complete line)."""
    return render(Bye(seconds))


def evicted_bye(idle: float, open_connections: int) -> bytes:
    """``BYE idle for 12 s and the server is full (1024 connections)``: a new client took this session's slot.

    Args:
      idle: seconds since the session's last complete line (or answer).
      open_connections: the connection limit, every slot of which was taken.
    """
    return f"BYE idle for {idle:.0f} s and the server is full ({open_connections} connections)\n".encode("ascii")
