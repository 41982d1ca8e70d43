"""The client's former single module: :func:`main` and the names its users import.

The client is the package ``sudoku_client`` (its modules are listed in
``sudoku_client/__init__.py``); this module re-exports what tests, benchmarks
and scripts import from ``sudoku_client.client``, and keeps the file runnable:
``python3 sudoku_client/client.py`` loads the package from the folder this
file is in (nothing else is put on ``sys.path``, so the server package is used
only when it is importable anyway) and runs :func:`sudoku_client.cli.main`.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and not __package__:  # run as a file, not as sudoku_client.client
    import importlib.util
    import os

    _FOLDER = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == _FOLDER:
        del sys.path[0]  # the package's modules are not top-level modules
    _SPEC = importlib.util.spec_from_file_location(
        "sudoku_client", os.path.join(_FOLDER, "__init__.py"), submodule_search_locations=[_FOLDER]
    )
    assert _SPEC is not None and _SPEC.loader is not None
    sys.modules["sudoku_client"] = importlib.util.module_from_spec(_SPEC)
    _SPEC.loader.exec_module(sys.modules["sudoku_client"])

from sudoku_client.cli import (
    EXIT_TABLE,
    GENERATE_SIZES,
    GENERATE_SYMMETRIES,
    build_parser,
    generate_lines,
    main,
)
from sudoku_client.common import (
    CHUNK_BYTES,
    EXIT_ERROR_ANSWER,
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    PROG,
    VERSION,
)
from sudoku_client.exchange import ping, proxy_v1_header
from sudoku_client.progress import PROGRESS_MIN_PUZZLES, PlainProgress, Progress, TqdmProgress
from sudoku_client.replies import (
    LINE_CELLS,
    VERB_MODES,
    ReplyScanner,
    VerbMode,
    is_one_line_answer,
    summary_text,
)
from sudoku_client.requests import (
    KNOWN_VERBS,
    PUZZLE_VERBS,
    ROW_SIZES,
    HeuristicReader,
    LineSplitter,
    Request,
    RequestReader,
)
from sudoku_client.routing import PackageReader, _package, client_version, make_reader
from sudoku_client.stream import RequestStream, count_requests

__all__ = [
    "CHUNK_BYTES",
    "EXIT_ERROR_ANSWER",
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TABLE",
    "GENERATE_SIZES",
    "GENERATE_SYMMETRIES",
    "KNOWN_VERBS",
    "LINE_CELLS",
    "PROG",
    "PROGRESS_MIN_PUZZLES",
    "PUZZLE_VERBS",
    "ROW_SIZES",
    "VERB_MODES",
    "VERSION",
    "HeuristicReader",
    "LineSplitter",
    "PackageReader",
    "PlainProgress",
    "Progress",
    "ReplyScanner",
    "Request",
    "RequestReader",
    "RequestStream",
    "TqdmProgress",
    "VerbMode",
    "_package",
    "build_parser",
    "client_version",
    "count_requests",
    "generate_lines",
    "is_one_line_answer",
    "main",
    "make_reader",
    "ping",
    "proxy_v1_header",
    "summary_text",
]

if __name__ == "__main__":
    sys.exit(main())
