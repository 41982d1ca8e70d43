"""``python -m sudoku_server``: the same as the ``sudoku-server`` command."""

import sys

from sudoku_server.app.cli import main

sys.exit(main())
