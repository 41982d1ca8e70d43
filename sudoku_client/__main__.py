"""``python3 -m sudoku_client``: the bundled client."""

import sys

from sudoku_client.cli import main

sys.exit(main())
