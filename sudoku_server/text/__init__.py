"""Text <-> grid for every layout (bordered, plain, one-line, dataset rows; sizes 4 to 25).

Pure: imports only :mod:`sudoku_server.sudoku` and :mod:`sudoku_server.errors`.
Other layers import the names below from this package, not from its modules,
so the modules may be rearranged freely. The modules, bottom up:

- :mod:`.sizes`: the grid sizes as text shows them, from ``BOX_SHAPES``;
- :mod:`.view`: characters as the layouts read them (Unicode spaces, box
  drawing, full width, tab fields);
- :mod:`.lines`: what one line is (border, row, one-line puzzle, prose...);
- :mod:`.puzzle`: :class:`Puzzle` and its answer in the request's layout;
- :mod:`.variant_layouts`: the jigsaw, killer and pencilmark layouts;
- :mod:`.oneline`: the plain one-line 9x9 format, defined once (the fast readers implement it);
- :mod:`.reader`: :class:`PuzzleReader`, lines into puzzles or errors; :func:`parse`.
"""

from sudoku_server.text import oneline
from sudoku_server.text.lines import is_caption
from sudoku_server.text.puzzle import Positions, Puzzle, Rejected, bordered_lines
from sudoku_server.text.reader import PuzzleReader, parse
from sudoku_server.text.view import cell_view

__all__ = [
    "Positions",
    "Puzzle",
    "PuzzleReader",
    "Rejected",
    "bordered_lines",
    "cell_view",
    "is_caption",
    "oneline",
    "parse",
]
