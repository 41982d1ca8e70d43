"""Text <-> grid for every layout (bordered, plain, one-line, sizes 4 to 25).

Pure: imports only :mod:`sudoku_server.sudoku` and :mod:`sudoku_server.errors`.
Other layers import the names below from this package, not from its modules,
so the modules may be rearranged freely.
"""

from sudoku_server.text.formats import (
    Positions,
    Puzzle,
    PuzzleReader,
    Rejected,
    bordered_lines,
    cell_view,
    parse,
)

__all__ = ["Positions", "Puzzle", "PuzzleReader", "Rejected", "bordered_lines", "cell_view", "parse"]
