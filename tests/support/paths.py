"""Where the checkout's files are: the repository root, its puzzles and data sets."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PUZZLES = REPO / "puzzles"
DATASETS = PUZZLES / "datasets"
