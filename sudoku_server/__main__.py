"""``python -m sudoku_server``: the same as the ``sudoku-server`` command."""

import sys

from .cli import main

sys.exit(main())
