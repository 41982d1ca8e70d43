"""Where the benchmark datasets are, and how to read them (standard library only).

The datasets ship with the repository, gzip-compressed, in
``puzzles/datasets/`` (each file's source and licence in its SOURCES.md).
A benchmark names a set by its file name without ``.gz``
(``magictour_top1465.txt``); :func:`find` looks for ``NAME`` and
``NAME.gz`` in the directory given (``--datasets DIR``) and then in the
repository's own directory, and :func:`open_text` reads either form.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path
from typing import TextIO

REPO = Path(__file__).resolve().parent.parent
#: The repository's own copy of the datasets (compressed).
DATASETS_DIR = REPO / "puzzles" / "datasets"


def find(name: str, directory: Path | None = None) -> Path | None:
    """The path of dataset ``name`` (``NAME`` or ``NAME.gz``), or None if absent.

    Args:
      name: a file name such as ``"magictour_top1465.txt"``.
      directory: looked in first (``--datasets DIR``); then ``puzzles/datasets/``.
    """
    for base in (directory, DATASETS_DIR):
        if base is None:
            continue
        for candidate in (base / name, base / f"{name}.gz"):
            if candidate.is_file():
                return candidate
    return None


def open_text(path: Path) -> TextIO:
    """Open a dataset file for reading text, gzip-compressed (``.gz``) or not.

    Undecodable bytes are replaced (the files are ASCII).
    """
    path = Path(path)
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="replace", newline=None)
    return open(path, encoding="utf-8", errors="replace")


def one_line_puzzles(path: Path, limit: int | None = None) -> list:
    """The one-line 81-cell puzzles of a file (the first field of each line), ``.`` for empty.

    Lines that are not a puzzle (headers, comments) are skipped.
    """
    puzzles = []
    with open_text(path) as f:
        for raw in f:
            field = raw.strip().replace(":", ",").replace("\t", ",").split(",")[0].strip()
            field = field.split(" ")[0]
            if len(field) == 81 and all(ch in "0123456789._" for ch in field):
                puzzles.append(field.replace("0", ".").replace("_", "."))
                if limit is not None and len(puzzles) >= limit:
                    break
    return puzzles
