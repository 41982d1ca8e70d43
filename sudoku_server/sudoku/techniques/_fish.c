/* Every fish of one digit at one state: basic, Franken and mutant, finned with endo fins and cannibalism.
 *
 * The search behind HINT all's Franken and mutant fish (every_fish.py; its Python search is the oracle and
 * the fallback when this module is not built). Definitions as HoDoKu 2.2's FishSolver.java has them
 * (read for the facts, not copied; Ultimate Fish Guide):
 *
 *  - k base units and k cover units, drawn from the units (0-8 rows, 9-17 columns, 18-26 boxes) the caller
 *    allows; no unit is both; every unit holds the digit, a cover unit holds a base candidate.
 *  - base candidates: the digit's cells in the base units; endo fins: those in two base units (at most
 *    max_endo of them); fins: the base candidates no cover unit holds, and the endo fins (at most max_fins).
 *  - eliminations: the cover units' candidates that are no base candidate, and the candidates in two cover
 *    units (cannibalism); with fins, only those that see every fin.
 *
 * The search: base units in index order; then, per base set, the base candidates one at a time (lowest
 * cell first): each is either covered by one of its units (the lowest cover unit holding it; the units
 * before it are then barred) or is a fin (its units barred). Each cover set comes out once. Pruned by the
 * fin count (the cover units left hold so many base candidates at most) and by the cells seeing every fin: an
 * elimination must be one of them, and a candidate of the digit
 * that no template holds (a placement of the digit, one cell a row, column and box, on its candidates and
 * placed cells; HoDoKu prunes its large fish the same way), so a digit every candidate of which some
 * template holds has no fish.
 *
 * _fish.search(pos_lo, pos_hi, placed_lo, placed_hi, base_units, cover_units, k, max_fins, max_endo, kinds) -> list of
 *   (base unit mask, cover unit mask, kind, first elimination, fins lo, fins hi, endo fins lo, endo fins hi,
 *    eliminations lo, eliminations hi)
 * where a cell set is 81 bits (cell = row * 9 + column) split in its low 64 and high 17 bits, a unit mask has
 * bit u for unit u, kinds says which kinds of fish to list (1 basic, 2 Franken, 4 mutant, or-ed) and a fish's
 * kind is one of them plus 8 when it has fins. Its first elimination is HoDoKu's: the lowest cell that is no
 * base candidate, else the lowest. Of the fish of one base set with the same kind and eliminations, the first
 * only.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#ifndef __SIZEOF_INT128__
#error "_fish needs a compiler with unsigned __int128 (the Python search in every_fish.py is used instead)"
#endif

typedef unsigned __int128 bb;

static bb UNIT[27];
static bb PEER[81];
static int CELL_UNITS[81][3];
static bb ALL;

static int count(bb x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static int lowest(bb x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static bb bit(int c) { return (bb)1 << c; }

/* The cells that see every cell of `cells` (not those cells). */
static bb buddies(bb cells) {
    bb m = ALL;
    while (cells) {
        m &= PEER[lowest(cells)];
        cells &= cells - 1;
    }
    return m;
}

#define SEEN 256

typedef struct {
    bb pos;
    bb target; /* the candidates no template of the digit holds: every elimination is one */
    bb cand[27];
    int k, max_fins, max_endo, kinds;
    int pool[27];
    int npool;
    uint32_t cover_ok; /* cover units allowed for this base set */
    int most; /* the most base candidates (endo fins aside) one of those cover units holds */
    uint32_t base_used;
    bb base, endo;
    PyObject *out;
    int failed;
    int nseen; /* what this base set gave so far: (kind, finned) and eliminations */
    int seen_kind[SEEN];
    bb seen_elims[SEEN];
} Search;

static int unit_kinds(uint32_t units) {
    return ((units & 0x1FFu) ? 1 : 0) | ((units & 0x1FFu << 9) ? 2 : 0) | ((units & 0x1FFu << 18) ? 4 : 0);
}

/* HoDoKu's kind of a fish: 1 basic (rows and columns), 2 Franken (boxes too, but not on both sides alone), 4
 * mutant. */
static int kind(uint32_t base, uint32_t cover) {
    int b = unit_kinds(base), c = unit_kinds(cover);
    if ((b == 1 && c == 2) || (b == 2 && c == 1)) return 1;
    if (((b == 1 || b == 5) && (c == 2 || c == 6)) || ((b == 2 || b == 6) && (c == 1 || c == 5))) return 2;
    return 4;
}

/* One fish, unless this base set gave the same kind, finned or not, with the same eliminations already. */
static void emit(Search *s, uint32_t chosen, int kind_fins, bb fins, bb elims) {
    if (s->failed) return;
    for (int i = 0; i < s->nseen; i++)
        if (s->seen_kind[i] == kind_fins && s->seen_elims[i] == elims) return;
    if (s->nseen < SEEN) {
        s->seen_kind[s->nseen] = kind_fins;
        s->seen_elims[s->nseen++] = elims;
    }
    bb outside = elims & ~s->base;
    int first = lowest(outside ? outside : elims);
    PyObject *t = Py_BuildValue("(kkiiKKKKKK)", (unsigned long)s->base_used, (unsigned long)chosen, kind_fins,
                                first, (unsigned long long)(uint64_t)fins, (unsigned long long)(uint64_t)(fins >> 64),
                                (unsigned long long)(uint64_t)s->endo,
                                (unsigned long long)(uint64_t)(s->endo >> 64),
                                (unsigned long long)(uint64_t)elims, (unsigned long long)(uint64_t)(elims >> 64));
    if (t == NULL || PyList_Append(s->out, t) < 0) s->failed = 1;
    Py_XDECREF(t);
}

static void leaf(Search *s, uint32_t chosen, bb covered, bb twice, bb fins, bb seeing) {
    int k = kind(s->base_used, chosen);
    if (!(k & s->kinds)) return;
    bb elims = (covered & ~s->base) | twice;
    fins |= s->endo;
    if (fins) elims &= seeing;
    if (elims) emit(s, chosen, fins ? k | 8 : k, fins, elims);
}

/* The cover units left to choose once every base candidate is covered or a fin: any allowed ones. */
static void extras(Search *s, uint32_t chosen, int j, uint32_t allowed, int from, bb covered, bb twice, bb fins,
                   bb seeing) {
    if (j == s->k) {
        leaf(s, chosen, covered, twice, fins, seeing);
        return;
    }
    for (int u = from; u < 27; u++) {
        if (!(allowed >> u & 1) || !(s->cand[u] & s->base)) continue;
        extras(s, chosen | 1u << u, j + 1, allowed, u + 1, covered | s->cand[u], twice | (covered & s->cand[u]),
               fins, seeing);
    }
}

static void covers(Search *s, uint32_t chosen, int j, uint32_t barred, bb covered, bb twice, bb fins, bb seeing) {
    bb rest = s->base & ~s->endo & ~covered & ~fins;
    if (!rest) {
        extras(s, chosen, j, s->cover_ok & ~barred & ~chosen, 0, covered, twice, fins, seeing);
        return;
    }
    int nfins = count(fins | s->endo);
    if (j == s->k) { /* the rest are fins */
        if (nfins + count(rest) > s->max_fins) return;
        bb see = seeing & buddies(rest);
        if (see & s->target) leaf(s, chosen, covered, twice, fins | rest, see);
        return;
    }
    /* the k - j cover units left hold `most` of them each at most; the rest would be fins */
    if (count(rest) > (s->k - j) * s->most + s->max_fins - nfins) return;
    int c = lowest(rest);
    uint32_t allowed = s->cover_ok & ~barred & ~chosen;
    uint32_t bar = barred;
    for (int i = 0; i < 3; i++) {
        int u = CELL_UNITS[c][i];
        if (!(allowed >> u & 1)) continue;
        covers(s, chosen | 1u << u, j + 1, bar, covered | s->cand[u], twice | (covered & s->cand[u]), fins, seeing);
        bar |= 1u << u;
        if (s->failed) return;
    }
    if (nfins + 1 <= s->max_fins) {
        bb see = seeing & PEER[c];
        if (see & s->target)
            covers(s, chosen, j, barred | 1u << CELL_UNITS[c][0] | 1u << CELL_UNITS[c][1] | 1u << CELL_UNITS[c][2],
                   covered, twice, fins | bit(c), see);
    }
}

static void bases(Search *s, int from, int depth, bb seeing) {
    if (depth == s->k) {
        uint32_t cover_all = s->cover_ok;
        s->cover_ok &= ~s->base_used;
        s->nseen = 0;
        s->most = 0;
        for (uint32_t m = s->cover_ok; m; m &= m - 1) {
            int n = count(s->cand[__builtin_ctz(m)] & s->base & ~s->endo);
            if (n > s->most) s->most = n;
        }
        covers(s, 0, 0, 0, 0, 0, 0, seeing);
        s->cover_ok = cover_all;
        return;
    }
    for (int i = from; i <= s->npool - (s->k - depth) && !s->failed; i++) {
        int u = s->pool[i];
        bb endo = s->base & s->cand[u];
        bb new_endo = s->endo | endo;
        if (count(new_endo) > s->max_endo || count(new_endo) > s->max_fins) continue;
        bb see = endo ? seeing & buddies(endo) : seeing;
        if (endo && !(see & s->target)) continue;
        bb base = s->base, old_endo = s->endo;
        uint32_t used = s->base_used;
        s->base |= s->cand[u];
        s->endo = new_endo;
        s->base_used |= 1u << u;
        bases(s, i + 1, depth + 1, see);
        s->base = base;
        s->endo = old_endo;
        s->base_used = used;
    }
}

/* Templates: the placements of the digit, one cell a row, column and box, on its candidates and placed cells.
 * `row_cells[r]`: the cells row r may use; `fit[r][cols][boxes]`: rows r.. can be completed (-1 unknown);
 * `seen`: states already walked. The union of every template's cells is gathered in `held`. */
typedef struct {
    bb row_cells[9];
    signed char fit[10][512][8];
    unsigned char seen[10][512][8];
    bb held;
} Templates;

static int completes(Templates *t, int r, int cols, int boxes) {
    if (r == 9) return 1;
    if (t->fit[r][cols][boxes] >= 0) return t->fit[r][cols][boxes];
    int ok = 0;
    for (bb m = t->row_cells[r]; m && !ok; m &= m - 1) {
        int col = lowest(m) % 9, b = col / 3;
        if (cols >> col & 1 || boxes >> b & 1) continue;
        ok = completes(t, r + 1, cols | 1 << col, r % 3 == 2 ? 0 : boxes | 1 << b);
    }
    t->fit[r][cols][boxes] = (signed char)ok;
    return ok;
}

static void gather(Templates *t, int r, int cols, int boxes) {
    if (r == 9 || t->seen[r][cols][boxes]) return;
    t->seen[r][cols][boxes] = 1;
    for (bb m = t->row_cells[r]; m; m &= m - 1) {
        int c = lowest(m), col = c % 9, b = col / 3;
        if (cols >> col & 1 || boxes >> b & 1) continue;
        int next_boxes = r % 3 == 2 ? 0 : boxes | 1 << b;
        if (!completes(t, r + 1, cols | 1 << col, next_boxes)) continue;
        t->held |= bit(c);
        gather(t, r + 1, cols | 1 << col, next_boxes);
    }
}

/* The candidates of `pos` that no template holds (`placed`: the cells holding the digit); -1 out of memory. */
static int no_template(bb pos, bb placed, bb *out) {
    Templates *t = PyMem_Malloc(sizeof *t);
    if (t == NULL) return -1;
    memset(t->fit, -1, sizeof t->fit);
    memset(t->seen, 0, sizeof t->seen);
    t->held = 0;
    for (int r = 0; r < 9; r++) t->row_cells[r] = (placed & UNIT[r]) ? placed & UNIT[r] : pos & UNIT[r];
    gather(t, 0, 0, 0);
    *out = pos & ~t->held;
    PyMem_Free(t);
    return 0;
}

static PyObject *fish_search(PyObject *self, PyObject *args) {
    unsigned long long lo, hi, placed_lo, placed_hi;
    unsigned long base_units, cover_units;
    int k, max_fins, max_endo, kinds_wanted;
    (void)self;
    if (!PyArg_ParseTuple(args, "KKKKkkiiii", &lo, &hi, &placed_lo, &placed_hi, &base_units, &cover_units, &k,
                          &max_fins, &max_endo, &kinds_wanted))
        return NULL;
    if (k < 1 || k > 9 || max_fins < 0 || max_endo < 0) {
        PyErr_SetString(PyExc_ValueError, "fish size 1-9, fin counts >= 0");
        return NULL;
    }
    Search s;
    memset(&s, 0, sizeof s);
    s.pos = (((bb)hi << 64) | lo) & ALL;
    s.k = k;
    s.max_fins = max_fins;
    s.max_endo = max_endo;
    s.kinds = kinds_wanted;
    for (int u = 0; u < 27; u++) {
        s.cand[u] = UNIT[u] & s.pos;
        if (!s.cand[u]) continue;
        if (base_units >> u & 1) s.pool[s.npool++] = u;
        if (cover_units >> u & 1) s.cover_ok |= 1u << u;
    }
    if (no_template(s.pos, (((bb)placed_hi << 64) | placed_lo) & ALL, &s.target) < 0) return PyErr_NoMemory();
    s.out = PyList_New(0);
    if (s.out == NULL) return NULL;
    if (s.target) bases(&s, 0, 0, ALL);
    if (s.failed) {
        Py_DECREF(s.out);
        return NULL;
    }
    return s.out;
}

static PyMethodDef METHODS[] = {
    {"search", fish_search, METH_VARARGS,
     "search(pos_lo, pos_hi, placed_lo, placed_hi, base_units, cover_units, k, max_fins, max_endo, kinds) -> fish"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_fish", "Every fish of one digit (HINT all).", -1,
                                    METHODS, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fish(void) {
    for (int c = 0; c < 81; c++) {
        int r = c / 9, col = c % 9, b = r / 3 * 3 + col / 3;
        UNIT[r] |= bit(c);
        UNIT[9 + col] |= bit(c);
        UNIT[18 + b] |= bit(c);
        CELL_UNITS[c][0] = r;
        CELL_UNITS[c][1] = 9 + col;
        CELL_UNITS[c][2] = 18 + b;
        ALL |= bit(c);
    }
    for (int c = 0; c < 81; c++) {
        bb m = 0;
        for (int i = 0; i < 3; i++) m |= UNIT[CELL_UNITS[c][i]];
        PEER[c] = m & ~bit(c);
    }
    return PyModule_Create(&MODULE);
}
