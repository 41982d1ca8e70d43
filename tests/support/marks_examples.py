"""One unique puzzle per rule that takes marks (issue 29), as docs/LAYOUTS.md "Marks after a line" shows them.

The unique puzzles of tests/unit/test_rule_marks.py (made with CP-SAT), written
in the line syntax: ``f"{givens} {word}={marks}"``; every one answers
:data:`SOLUTION`. Shared by the tests of the line syntax and of broken puzzles.
"""

SOLUTION = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"

#: rule word -> (givens, marks): the example of docs/LAYOUTS.md "Marks after a line".
EXAMPLES = {
    "thermo": (
        ".....6.............6..1.4...........3.2.......4....6.9.......1.135...............",
        "r9c1-r8c2-r7c3;r2c7-r3c8-r2c9;r7c7-r8c8-r9c8;r2c4-r2c5-r1c5;r6c5-r6c6-r5c6;r5c5-r4c4-r3c4;r1c4-r1c3-r1c2-r1c1-r2c1;r7c5-r8c4-r7c4-r8c5;r3c6-r4c6-r5c7",
    ),
    "arrow": (
        "75.....3..............1...2.......4............7.3....4.........357...86.....1...",
        "r2c7-r3c7-r4c7;r2c4-r3c3-r2c3;r4c1-r5c1-r5c2-r5c3;r8c2-r9c1-r8c1;r8c8-r9c7-r9c6;r7c9-r6c8-r7c8-r8c7;r7c5-r7c6-r8c6",
    ),
    "renban": (
        ".5..8......1.....8..39..4.......7................3.6.9..9....1........8......1...",
        "r9c1-r8c1-r8c2;r7c4-r8c4-r9c3;r6c2-r5c1-r6c1;r9c8-r9c7-r8c8;r1c6-r2c5-r3c6;r4c6-r5c7-r5c6;r9c3-r9c2-r8c3-r7c3-r6c3",
    ),
    "whispers": (
        "...............5.......5.............1....8...........4........1................4",
        "r2c9-r3c9-r3c8-r4c7-r4c6-r4c5;r7c4-r6c5-r6c6-r7c6-r8c5-r9c4;r1c4-r2c5-r3c5-r3c4-r3c3-r4c3;r4c3-r5c2-r4c2-r5c1;r1c4-r1c5-r2c6-r1c7-r1c8;r7c3-r6c4-r7c5;r4c3-r5c3-r6c3;r6c9-r6c8-r5c7",
    ),
    "palindrome": (
        "........1.....3.........47.6...2..........8..5.....6..........51..79..8..8..5....",
        "r1c4-r2c4-r1c3-r2c2;r9c2-r8c3-r7c4;r4c6-r3c5-r2c5;r4c1-r3c1-r3c2;r9c4-r9c3-r8c2;r3c4-r4c3-r4c2;r5c2-r6c3-r6c4",
    ),
    "littlekiller": (
        "75.2........47............2..8....4.....4.......13.......8....5.............5....",
        "r1c6-r2c5-r3c4-r4c3-r5c2-r6c1:36;r7c9-r6c8-r5c7-r4c6-r3c5-r2c4-r1c3:31;r9c6-r8c7-r7c8-r6c9:13;r9c5-r8c4-r7c3-r6c2-r5c1:28;r1c4-r2c3-r3c2-r4c1:15;r2c9-r1c8:11;r1c5-r2c6-r3c7-r4c8-r5c9:26;r6c1-r7c2-r8c3-r9c4:20;r5c9-r4c8-r3c7-r2c6-r1c5:26",
    ),
    "sandwich": (
        "...................6...............................................9.............",
        "r1:3;r2:2;r5:12;r6:19;r7:19;r8:15;r9:7;c1:26;c3:20;c4:11;c5:15;c7:9;c9:20",
    ),
    "oddeven": (
        ".5.2.......1.73.......1....698....43....4..5.............8.....1.....2.62.6...7..",
        "r1c1-r1c9-r2c7-r4c6-r6c4-r6c5-r7c2-r7c7-r7c9-r8c1:odd;r1c4-r2c4-r2c9-r3c9-r7c4-r9c1:even",
    ),
    "xv": (
        ".................8........................................................6......",
        "r1c3-r2c3:v;r1c4-r1c5:x;r2c3-r2c4:v;r2c5-r2c6:x;r2c9-r3c9:x;r3c4-r3c5:x;r3c7-r4c7:v;r3c9-r4c9:v;r4c2-r5c2:x;r4c3-r5c3:x;r4c7-r4c8:v;r4c9-r5c9:x;r5c2-r6c2:v;r5c4-r5c5:x;r6c6-r7c6:x;r7c1-r8c1:v;r7c2-r8c2:x;r7c6-r7c7:v;r7c7-r8c7:v;r8c4-r9c4:x;r8c6-r9c6:v;r8c7-r8c8:x;r8c9-r9c9:x;r9c1-r9c2:x;negative",
    ),
    "kropki": (
        ".................................................................................",
        "r1c2-r1c3:w;r1c3-r1c4:b;r1c4-r2c4:b;r1c5-r2c5:w;r1c6-r2c6:b;r1c8-r2c8:b;r2c1-r3c1:w;r2c2-r2c3:w;r2c7-r2c8:w;r2c7-r3c7:w;r2c8-r3c8:w;r3c2-r3c3:b;r3c5-r4c5:w;r3c6-r3c7:w;r3c9-r4c9:w;r4c1-r5c1:b;r4c2-r4c3:w;r4c4-r5c4:w;r4c5-r5c5:b;r4c8-r4c9:w;r4c8-r5c8:w;r5c2-r5c3:w;r5c5-r6c5:w;r5c6-r5c7:w;r5c6-r6c6:w;r6c1-r6c2:w;r6c1-r7c1:w;r6c5-r7c5:b;r6c7-r7c7:b;r6c8-r7c8:w;r7c3-r7c4:w;r7c4-r8c4:w;r7c6-r7c7:w;r7c6-r8c6:b;r7c7-r8c7:w;r7c9-r8c9:w;r8c1-r9c1:w;r8c3-r9c3:w;r8c6-r8c7:b;r8c8-r9c8:w;r9c3-r9c4:b;negative",
    ),
}
