"""Variant puzzles with one solution each, and their answers (issue 19), for the wire and format tests.

Made for these tests: each puzzle was reduced from a solution under its
rules, removing givens while the pure-Python core still counted one solution;
the answers are the server's (row-major-first, which for a unique puzzle is
simply the solution). The killer cages were grown at random over a solution
until the cages alone (no givens) had one solution.
"""

X = ".2.4..7.......91.3..............5.9.............81.6...4.6..2..8........6.5......"
X_ANSWER = "123456789456789123789123456214365897368972514597814632941638275832547961675291348"
WINDOKU = "...4....9....8.1.3........6.....7....1...5....9.31.....4.6..9.5.........8.5......"
WINDOKU_ANSWER = "123456789456789123789123456534297861217865394698314572342678915971542638865931247"
ANTIKNIGHT = ".2......9...78...3........6.....4...............23.....1.6.....6........9.8......"
ANTIKNIGHT_ANSWER = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
ANTIKING = "...4....9...78.1.3........62....5....6...7.......1.3.5...6..9.8.4.......9.8......"
ANTIKING_ANSWER = "123456789456789123789123456214365897365897214897214365531672948642938571978541632"
#: Nonconsecutive: reduced to 24 givens only (the pure-Python core takes seconds on its minimal form).
NONCONSECUTIVE = ".3......87......1..6....3....49..8......2......7..8....7...64......92753..97..18."
NONCONSECUTIVE_ANSWER = "135247968792683514468159372624971835381524697957368241573816429816492753249735186"

#: A jigsaw puzzle: its givens, then its regions (a-i), one line of 162 characters.
JIGSAW_GIVENS = ".23........678....7.......6..4.6.8.7....9..1..9.2........6....8.4....5......3...2"
JIGSAW_REGIONS = "aaabbbcccaaabbbcccaaadbbcccdbdeeefffdddeeefffdddhghfffggeheeiiiggghhhiiiggghhhiii"
JIGSAW_ANSWER = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"

#: A pure killer (no givens) as a SudoCue line (cage ids 1.. in order of first appearance).
SUDOCUE = (
    "3x3::k:3329:3329:4354:4354:1539:4100:4100:1285:1285:2310:2310:4354:2311:1539:4104:4100:3849:3849:4106:2059:"
    "4354:3596:1805:4104:4104:4366:4366:4106:2059:1295:3596:1808:1808:1808:4366:4366:3857:1298:1298:2323:4884:4884:"
    "4884:2837:2837:3857:3094:3094:2323:2839:3096:5401:5401:1562:3857:2075:5148:285:2839:3096:5401:5401:1562:3857:"
    "4894:5148:5148:3871:3871:3871:5152:1569:4894:4894:4894:5148:3874:3874:3874:5152:5152:"
)
KILLER_ANSWER = "678541923541923678923678541765814239814239765239765814486157392157392486392486157"
#: The same cages as a cage block (CodinGame's form without givens), then its sums line.
CAGE_ROWS = [
    "aabbcddee",
    "ffbgchdii",
    "jkblmhhnn",
    "jkolpppnn",
    "qrrstttuu",
    "qvvswxyyz",
    "qABCwxyyz",
    "qDBBEEEFG",
    "DDDBHHHFF",
]
CAGE_SUMS = (
    "a=13 b=17 c=6 d=16 e=5 f=9 g=9 h=16 i=15 j=16 k=8 l=14 m=7 n=17 o=5 p=7 q=15 r=5 s=9 t=19 u=11 v=12"
    " w=11 x=12 y=21 z=6 A=8 B=20 C=1 D=19 E=15 F=20 G=6 H=15"
)

#: Inkala's puzzle as a pencilmark (Sukaku) line: each empty cell's candidates after its peers' givens.
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_ANSWER = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
INKALA_PENCILMARKS = (
    ".......8.12.4.6....2.456..9.234..7..123.5.7..1234.....1.3.56..9...45.7.91.34567.912.45...912.4......."
    "3...........6...12..5.78.12.4...8.1...5..89...45.7891..45.7.91..456.........7.....456.....34...8......"
    "...91.34...8..2..........45..8.1.3456...1234.6..9....5.....2.4.6..9.23....89.23..6.8.......7..1....6.8"
    "9.2.4...8912.4.6..9123..6..9123..6.8..2...6..9.23....89...4.........5..........7...2.....8912...6..9.2"
    ".4.67.9.2.4.6.8..2.4.67.91.........2...6.8..2...6.89....56.89..3.......2.456..9.2345.7...234.....1...."
    ".....234..7.9.23...7...234....9..3.5...9.....6..........8..234.67...234.6..........8.....5.....23..67."
    "..234.6..9..3.....91.........23...7.9.23.567..........9.2..567...23...78.123..678.123..6.8....4......2"
    "..5.7...23.5.7.."
)

#: RULES's list of the rules, in its order.
ALL_RULES = "classic, x, windoku, antiknight, antiking, nonconsecutive, jigsaw, killer, disjoint, oddeven, thermo, kropki, xv, whispers, palindrome, renban, arrow, littlekiller, sandwich"


def rows(line: str) -> str:
    return "".join(line[r * 9 : r * 9 + 9] + "\n" for r in range(9))


#: The killer cage block, the CodinGame layout (cages beside the rows) and a jigsaw grid with its regions.
CAGE_BLOCK = "\n".join(CAGE_ROWS) + "\n" + CAGE_SUMS + "\n"
CODINGAME = "".join(("..8......" if r == 0 else ".........") + " " + CAGE_ROWS[r] + "\n" for r in range(9)) + CAGE_SUMS
JIGSAW_GRID = rows(JIGSAW_GIVENS) + "\n" + "\n".join(" ".join(JIGSAW_REGIONS[r * 9 : r * 9 + 9]) for r in range(9))
