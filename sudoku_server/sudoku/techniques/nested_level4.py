"""Nested forcing chains, level 4 (SE 10.5 + length): dynamic forcing chains inside a dynamic forcing chain.

Sudoku Explainer's ``Chaining(multiple, dynamic, level 4, nestingLimit 0)``
(Sukaku Explainer, github.com/SudokuMonster/SukakuExplainer: ``Solver.java``
puts it among its "experimental" producers, run only when every other rule
failed; ``Chaining.java``'s ``getAdvancedPotentials`` gives a chain of level
4, at each standstill, the level-1 rules then a whole dynamic forcing-chain
search -- ``Chaining(true, true, false, 0)`` -- on the chain's working grid,
in place of levels 2 and 3's forcing chains: "Dynamic Forcing Chains already
cover Simple and Multiple Forcing Chains"; ``getDifficulty``: 8.5 + 0.5 *
level = 10.5; read, not copied). The outer chain is :mod:`.nested`'s
(``_closure`` at level 4); the inner search runs in C
(``techniques/_nested_dynamic.h`` through :func:`.nested_rules.rules`): every
contradiction, double, cell and unit forcing chain of the working grid that
needs a candidate the outer chain removed (SE's rule parents) removes what it
concludes, the best (fewest nodes) first, and its nodes count once in the
step's complexity. SE's variants with the inner chains at levels 1-3
(``nestingLimit`` 1-3) are not built.

A level-4 search on a hard 9x9 state runs some 500 outer chains, each with a
dynamic forcing-chain search (about a millisecond in C) at each standstill:
about 1 s. It gives up past :data:`BUDGET` calls of the stop hook (a count
of work, so the same state always gets the same answer, whatever the load),
some 5 s of work, and then finds nothing; and the searches on one board (a
path: RATE, STEPS) share that budget, kept in the board's memo, so a path
that needs many level-4 steps takes search steps once it is spent instead
of running past the solve timeout (10 s by default). Without the C
extension it finds nothing (the inner search has no Python version).
"""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import Context
from sudoku_server.sudoku.techniques.nested import _search, _step
from sudoku_server.sudoku.techniques.nested_rules import NATIVE
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["BUDGET", "find_nested_level4"]

#: The stop hook's calls one level-4 search may make (its time cap as a count of work: about 5 s).
BUDGET = 10_000


#: The board memo's key of the budget its level-4 searches have spent.
_SPENT = ("nested forcing chains level 4", "spent")


class _OverBudget(Exception):
    """The level-4 search ran past :data:`BUDGET`."""


def find_nested_level4(x: Context, budget: int = BUDGET) -> Step | None:
    """Nested forcing chains at SE's level 4 (10.5 + length), or None (also past the budget or without C).

    As :func:`.nested.find_nested_forcing_chains`, with a dynamic
    forcing-chain search on the working grid at each standstill where the
    pointing, claiming, pairs and X-Wings find nothing. The step is named
    ``nested forcing chains``; its text says "helped by dynamic forcing
    chains". ``budget``: the calls of ``x.check`` this search may make (each
    stands for up to a millisecond of work), at most what the board's
    searches have left of :data:`BUDGET`.
    """
    if not NATIVE or x.t.N != 81:
        return None
    memo = x.b.memo
    spent = memo.get(_SPENT, 0)
    assert isinstance(spent, int)
    check = x.check
    left = min(budget, BUDGET - spent)
    if left <= 0:
        return None
    start = left

    def counted() -> None:
        nonlocal left
        left -= 1
        if left < 0:
            raise _OverBudget
        check()

    x.check = counted
    try:
        found = _search(x, 4)
    except _OverBudget:
        return None
    finally:
        x.check = check
        memo[_SPENT] = spent + start - max(left, 0)
    return None if found is None else _step(x, *found)
