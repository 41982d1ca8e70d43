"""Puzzles the tests share, with their exact answers: the README's newspaper grid in each layout,
Inkala's puzzle, a 16x16 (janko.at #1, as Gecode stores it), and the lines of every 9x9 layout.
"""

NEWSPAPER = (
    "+-------+-------+-------+\n"
    "| 7 . . | . . . | 4 . . |\n"
    "| . 2 . | . 7 . | . 8 . |\n"
    "| . . 3 | . . 8 | . . 9 |\n"
    "+-------+-------+-------+\n"
    "| . . . | 5 . . | 3 . . |\n"
    "| . 6 . | . 2 . | . 9 . |\n"
    "| . . 1 | . . 7 | . . 6 |\n"
    "+-------+-------+-------+\n"
    "| . . . | 3 . . | 9 . . |\n"
    "| . 3 . | . 4 . | . 6 . |\n"
    "| . . 9 | . . 1 | . . 5 |\n"
    "+-------+-------+-------+\n"
)
NEWSPAPER_LINE = "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
NEWSPAPER_SOLUTION = "798635421126974583453218679972586314564123897381497256617352948835749162249861735"
NEWSPAPER_ANSWER = (
    "+-------+-------+-------+\n"
    "| 7 9 8 | 6 3 5 | 4 2 1 |\n"
    "| 1 2 6 | 9 7 4 | 5 8 3 |\n"
    "| 4 5 3 | 2 1 8 | 6 7 9 |\n"
    "+-------+-------+-------+\n"
    "| 9 7 2 | 5 8 6 | 3 1 4 |\n"
    "| 5 6 4 | 1 2 3 | 8 9 7 |\n"
    "| 3 8 1 | 4 9 7 | 2 5 6 |\n"
    "+-------+-------+-------+\n"
    "| 6 1 7 | 3 5 2 | 9 4 8 |\n"
    "| 8 3 5 | 7 4 9 | 1 6 2 |\n"
    "| 2 4 9 | 8 6 1 | 7 3 5 |\n"
    "+-------+-------+-------+\n"
    "\n"
)
PLAIN_ROWS = "\n".join(NEWSPAPER_LINE[r * 9 : r * 9 + 9] for r in range(9)) + "\n"
SPACED_ROWS = "\n".join(" ".join(NEWSPAPER_LINE[r * 9 : r * 9 + 9]) for r in range(9)) + "\n"
# The variant without outer frame: rows like "7 . . |. . . |4 . ." and rules
# like "------+------+------".
UNFRAMED = (
    "7 . . |. . . |4 . . \n"
    ". 2 . |. 7 . |. 8 . \n"
    ". . 3 |. . 8 |. . 9 \n"
    "------+------+------\n"
    ". . . |5 . . |3 . . \n"
    ". 6 . |. 2 . |. 9 . \n"
    ". . 1 |. . 7 |. . 6 \n"
    "------+------+------\n"
    ". . . |3 . . |9 . . \n"
    ". 3 . |. 4 . |. 6 . \n"
    ". . 9 |. . 1 |. . 5 \n"
)
COMPACT = (
    "7..|...|4..\n"
    ".2.|.7.|.8.\n"
    "..3|..8|..9\n"
    "---+---+---\n"
    "...|5..|3..\n"
    ".6.|.2.|.9.\n"
    "..1|..7|..6\n"
    "---+---+---\n"
    "...|3..|9..\n"
    ".3.|.4.|.6.\n"
    "..9|..1|..5\n"
)

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"

# janko.at 16x16 #1 as stored by Gecode (1-9 then A-G).
J1 = (
    "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7......."
    "AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9."
    "G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954."
)
J1_SOLUTION = (
    "D92BFCA1G6E743854CFA35G89D1276EB3E71462DF58BC9GAG56897EBA3C4FD21C7G5A8BF3261E49D2D84C31E5B79AF6G"
    "1BAE2964DFG8375C6F935D7G4CAEB218F3EG129578BA6CD49ABCGF87645D213E5842DA36E19CGB7F761DBE4C2G3F58A9"
    "B4C97G528AD31EF68256E1F9C74GDAB3E13F64DAB9258GC7AGD78BC31EF69542"
)

LAYOUT_TEXTS = [NEWSPAPER, PLAIN_ROWS, SPACED_ROWS, UNFRAMED, COMPACT, NEWSPAPER_LINE + "\n"]
GRID_LINES = sorted({line for text in LAYOUT_TEXTS for line in text.splitlines()})

#: The newspaper puzzle as one request line, and its answer line.
GOOD = (NEWSPAPER_LINE + "\n").encode()
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
