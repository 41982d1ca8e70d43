"""Wall-clock upper bounds, kept out of the default run.

A test that checks a behaviour with a time in it (the close grace ends a session after 0.5 s, a shutdown
takes the grace and no more, an answer is not queued behind a 4 s solve) asserts the behaviour always, and
its wall-clock upper bound through the ``wallclock`` fixture: ``wallclock.below(elapsed, 1.0, "the close
grace")``. The bound is asserted only with ``--wallclock-bounds`` (by hand, on a quiet machine; ``.ci/run``
does not give it, so that a busy machine cannot fail CI); otherwise the figure is recorded and the terminal summary lists those past their bound, so a
loaded machine neither fails the run nor hides a slow figure. Lower bounds (the grace was waited) are
plain assertions: load only makes a wait longer. Speed itself is shown by the benchmarks in benchmarks/,
as ratios measured in one run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The key of a test's figures in its report's ``user_properties`` (they reach the xdist controller).
PROPERTY = "wallclock"


@dataclass
class Bounds:
    """The wall-clock bounds of one test; ``enforce``: assert them (``--wallclock-bounds``)."""

    enforce: bool
    #: (what, seconds, bound); a claim (``holds``) is (what, 1.0 when it failed else 0.0, None)
    figures: list[tuple[str, float, float | None]] = field(default_factory=list)

    def below(self, seconds: float, bound: float, what: str = "") -> None:
        """``seconds`` (a measured wall-clock or CPU time) must be under ``bound`` seconds."""
        self.figures.append((what, float(seconds), float(bound)))
        if self.enforce:
            assert seconds < bound, f"{what or 'elapsed'}: {seconds:.3f} s, bound {bound} s"

    def at_most(self, seconds: float, bound: float, what: str = "") -> None:
        """``seconds`` must be at most ``bound`` seconds."""
        self.figures.append((what, float(seconds), float(bound)))
        if self.enforce:
            assert seconds <= bound, f"{what or 'elapsed'}: {seconds:.3f} s, bound {bound} s"

    def holds(self, claim: bool, what: str) -> None:
        """``claim``, which depends on wall-clock time (a tick of 0.5 ms of search), holds: asserted likewise."""
        self.figures.append((what, 0.0 if claim else 1.0, None))
        if self.enforce:
            assert claim, what
