"""The native solver core names constraint kinds only, never a rule (issue 27).

The C sources of the solver core (``sudoku_server/sudoku/solver/_native*.c``
and ``.h``) and of the technique engine (``techniques/_engine.c``,
``techniques/_nested.c``), with their comments stripped, hold none of the
registered rule words: a rule compiles to the vocabulary of
``sudoku/constraints.py`` in Python, and the C core takes plain arrays per
kind. ``x`` and ``classic`` are left out of the check: the first is every C
file's context variable, the second names the classic 9x9 kernel, which the
geometry chooses.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "sudoku_server" / "sudoku"
SOURCES = sorted([*ROOT.glob("solver/_native*.c"), *ROOT.glob("solver/_native*.h"), *ROOT.glob("techniques/_*.c")])


def _rule_words() -> tuple[str, ...]:
    try:  # the registry, once it lands (sudoku/rules/)
        from sudoku_server.sudoku.rules import RULES as registry  # type: ignore[import-not-found,unused-ignore]

        words = tuple(getattr(rule, "word", rule) for rule in registry)
    except ImportError:
        from sudoku_server.sudoku.variants import RULES as words  # type: ignore[assignment,unused-ignore]
    # the things rules are made of, spoken by no kind either
    return (*(w for w in words if w not in ("x", "classic")), "cage", "knight", "consecutive", "pencilmark")


def _code(text: str) -> str:
    """``text`` without its C comments (string literals stay: error words and docstrings are code)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def test_the_sources_are_found() -> None:
    names = {p.name for p in SOURCES}
    assert {"_native.c", "_native_kinds.h", "_native_general.h", "_engine.c", "_nested.c"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_rule_word_in_c_code(path: Path) -> None:
    code = _code(path.read_text()).lower()
    found = [word for word in _rule_words() if word.lower() in code]
    assert found == [], f"{path.name} names {found} in its code"


def test_the_check_sees_a_rule_word_in_code() -> None:
    assert "killer" in _code("int killer_cages; /* nothing */").lower()
    assert "killer" not in _code("int cells; /* killer */").lower()
