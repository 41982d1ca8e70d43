"""Helpers for driving the pure scheduler with plain values and a made-up clock."""

from __future__ import annotations

from sudoku_server.net.scheduler import Decision, Scheduler


def drain(s: Scheduler, now: float) -> list[Decision]:
    """Every decision ``s`` makes at ``now`` until it has none left, in order."""
    decisions = []
    while True:
        d = s.next_decision(now)
        if d is None:
            return decisions
        decisions.append(d)
