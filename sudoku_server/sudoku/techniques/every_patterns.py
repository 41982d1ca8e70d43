"""Every instance of the pattern techniques at one state: single-digit patterns, wings, uniqueness,
colouring, templates (9x9; :mod:`.every`)."""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import Context
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["bug_plus_one", "colours", "rectangles", "single_digit", "templates", "w_wings", "xy_wings", "xyz_wings"]


def single_digit(x: Context) -> list[Step]:
    return []


def xy_wings(x: Context) -> list[Step]:
    return []


def xyz_wings(x: Context) -> list[Step]:
    return []


def w_wings(x: Context) -> list[Step]:
    return []


def rectangles(x: Context) -> list[Step]:
    return []


def bug_plus_one(x: Context) -> list[Step]:
    return []


def colours(x: Context) -> list[Step]:
    return []


def templates(x: Context) -> list[Step]:
    return []
