"""The rules as data: one module per rule, and :data:`RULES`, the registry.

Each module holds one :class:`~.base.Rule` (``RULE``): its word, the data it
takes, the sizes it fits, what it compiles to in the constraint vocabulary
(:mod:`sudoku_server.sudoku.constraints`), its error words, the technique
families it switches off, how the generator makes its data, its step words,
its keys in other formats and what a page needs to draw it. Everything
outside this package asks the registry instead of naming a rule
(docs/ARCHITECTURE.md, "Rules as data"; CONTRIBUTING.md, "How to add a rule").

:data:`RULES` is in the canonical order of a rule list (``x+antiknight``);
:data:`PENCILMARKS` is the pencilmark puzzle's rule, brought by its layout
rather than by a ``rules=`` word.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from sudoku_server.errors import CommandError, quote
from sudoku_server.sudoku.rules import (
    antiking,
    antiknight,
    arrow,
    disjoint,
    jigsaw,
    killer,
    kropki,
    littlekiller,
    nonconsecutive,
    oddeven,
    palindrome,
    pencilmarks,
    renban,
    sandwich,
    thermo,
    whispers,
    windoku,
    xv,
)
from sudoku_server.sudoku.rules import x as x_rule
from sudoku_server.sudoku.rules.base import DATA_KINDS, Build, Cage, Making, Rule, StepWords, Variant, Words

__all__ = [
    "CLASSIC_WORD",
    "DATA_KINDS",
    "EXAMPLE",
    "PENCILMARKS",
    "RULES",
    "WORDS",
    "Build",
    "Cage",
    "Making",
    "Rule",
    "StepWords",
    "Variant",
    "Words",
    "canonical",
    "check_fits",
    "listed",
    "parse_rules",
    "rule_of",
    "taking",
    "with_data",
]

#: Every rule ``rules=`` takes, by word, in the canonical order of a rule list.
RULES: dict[str, Rule] = {
    rule.word: rule
    for rule in (
        x_rule.RULE,
        windoku.RULE,
        antiknight.RULE,
        antiking.RULE,
        nonconsecutive.RULE,
        jigsaw.RULE,
        killer.RULE,
        disjoint.RULE,
        oddeven.RULE,
        thermo.RULE,
        kropki.RULE,
        xv.RULE,
        whispers.RULE,
        palindrome.RULE,
        renban.RULE,
        arrow.RULE,
        littlekiller.RULE,
        sandwich.RULE,
    )
}

#: The pencilmark puzzle's rule (its layout brings it; not a ``rules=`` word).
PENCILMARKS = pencilmarks.RULE

#: A rule list for examples in help texts (``RULES x+antiknight``).
EXAMPLE = "x+antiknight"

#: The word of no rule at all (``rules=classic``).
CLASSIC_WORD = "classic"

#: Every word ``rules=`` takes: ``classic``, then the rules in :data:`RULES` order.
WORDS = (CLASSIC_WORD, *RULES)


def rule_of(word: str) -> Rule:
    """The rule of ``word``: one of :data:`RULES`, or :data:`PENCILMARKS`. Raises KeyError."""
    return PENCILMARKS if word == PENCILMARKS.word else RULES[word]


def taking(data: str) -> Rule:
    """The rule that takes ``data`` with its puzzle (``"regions"``, ``"cages"``). Raises KeyError."""
    for rule in (*RULES.values(), PENCILMARKS):
        if rule.data == data:
            return rule
    raise KeyError(data)


@functools.cache
def with_data() -> tuple[Rule, ...]:
    """The rules that take data with their puzzle (regions, cages), in :data:`RULES` order."""
    return tuple(rule for rule in RULES.values() if rule.data != "none")


def listed() -> str:
    """The words ``rules=`` takes, for help texts: ``classic, x, windoku, ...``."""
    return ", ".join(WORDS)


def canonical(words: Iterable[str]) -> tuple[str, ...]:
    """The rule words among ``words`` in :data:`RULES` order, without ``classic`` or repeats."""
    chosen = set(words)
    return tuple(word for word in RULES if word in chosen)


def parse_rules(text: str) -> tuple[str, ...]:
    """The rule words of ``x+antiknight`` in :data:`RULES` order, without ``classic``.

    Words are case-insensitive; ``classic`` alone (or with others) adds no
    rule. Raises CommandError naming an unknown or repeated word:
    ``rules: unknown rule 'foo' (rules are classic, x, windoku, ...)``, an empty list (``rules: no rule named``)
    or a dangling ``+`` (``rules: 'x+' has a + with no rule beside it``).
    """
    known = set()
    for sent in text.split("+"):
        word = sent.lower() if sent.isascii() else sent  # ASCII only: the Kelvin sign U+212A is no "k"
        if not word:  # break-session finding: named "unknown rule ''"
            listed = ", ".join(WORDS)
            if not text.strip():
                raise CommandError(f"rules: no rule named (rules are {listed})")
            raise CommandError(f"rules: {quote(text, chr(39))} has a + with no rule beside it (rules are {listed})")
        if word not in WORDS:
            raise CommandError(f"rules: unknown rule {quote(sent, chr(39))} (rules are {', '.join(WORDS)})")
        if word in known:
            raise CommandError(f"rules: {word} is named twice")
        known.add(word)
    return canonical(known)


def check_fits(words: Iterable[str], size: int) -> None:
    """Raise CommandError when a rule does not fit a grid of ``size`` digits per unit.

    ``rules: windoku needs a 9x9 grid, not 16x16``; rules without sizes fit
    every size the server reads.
    """
    for word in canonical(words):
        rule = RULES[word]
        if not rule.fits(size):
            grids = " or ".join(f"{n}x{n}" for n in sorted(rule.sizes))
            raise CommandError(f"rules: {word} needs a {grids} grid, not {size}x{size}")
