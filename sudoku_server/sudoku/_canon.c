/* The minlex canonical form of a 9x9 puzzle or solved grid: the native core of
 * sudoku_server/sudoku/canon.py, which holds the Python oracle (minlex9) and the definition.
 * tests/test_canon.py holds the two equal: the same form AND the same transformation, so this file
 * walks the candidates in the same order as the Python code.
 *
 * Convention (dobrichev's patminlex, docs/PROTOCOL.md "CANON"): the smallest pattern first (a
 * given = 1, an empty cell = 0, row-major), then, among the transformations giving it, the
 * smallest string of digits relabelled in order of first appearance.
 *
 * Puzzles: rows are chosen one at a time (transposition and first row, then the rest of the
 * band, then a band...), keeping only the candidates whose pattern row is the smallest; a
 * candidate keeps its stack order and, per target stack, the mask of the 6 column orders still
 * allowed (BESTV/BESTM: the smallest value of a 3-bit triplet over a mask of orders, and the
 * orders giving it). Then the column orders left are walked, the digits compared against the best
 * so far cell by cell (dobrichev's step 3).
 *
 * Solved grids: for each transposition, band and first two rows of the band (a root), the column
 * order is searched cell by cell of the second row: its value at a column is the place, in the
 * first row, of its digit; that place is given the smallest free slot, and each choice is pruned
 * against the best second row so far. The rest of the grid follows by sorting rows on their first
 * column. canon.py walks the same tree; here the starts (a root and its first stack's order) that
 * cannot win are dropped before the walk, on the second row's values they force (the fourth, then
 * all up to the first choice): a dropped start's every leaf is above a kept one's, so the first
 * smallest leaf, the form and the transformation, are canon.py's.
 *
 * Everything runs with the GIL held (static candidate buffers).
 *
 * Module functions:
 *   minlex(cells: bytes[81] of 0..9) -> (form: bytes[81] of 0..9, transpose: int,
 *       rows: bytes[9], cols: bytes[9], digits: bytes[9])  -- digits[d - 1] is what d becomes
 *   minlex_text(line: bytes[81] of '1'-'9' and '.', '0', '_') -> bytes[81] ('.' for empty)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static const int PERM3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
static uint8_t BESTV[8][64]; /* smallest value of a triplet over the orders in a mask */
static uint8_t BESTM[8][64]; /* the orders giving it */

typedef struct {
    uint8_t t, sp;
    uint8_t rows[9];
    uint8_t masks[3];
} Cand;

#define MAXC 15552 /* 2 transpositions x 1296 row orders x 6 stack orders */
static Cand bufA[MAXC], bufB[MAXC];

typedef struct {
    uint8_t form[81];
    int t;
    uint8_t rows[9], cols[9], digits[9];
} Result;

static void init_tables(void) {
    for (int trip = 0; trip < 8; trip++) {
        int bits[3] = {(trip >> 2) & 1, (trip >> 1) & 1, trip & 1};
        for (int mask = 0; mask < 64; mask++) {
            int best = 8, keep = 0;
            for (int p = 0; p < 6; p++) {
                if (!((mask >> p) & 1)) continue;
                int v = (bits[PERM3[p][0]] << 2) | (bits[PERM3[p][1]] << 1) | bits[PERM3[p][2]];
                if (v < best) {
                    best = v;
                    keep = 1 << p;
                } else if (v == best) {
                    keep |= 1 << p;
                }
            }
            BESTV[trip][mask] = (uint8_t)best;
            BESTM[trip][mask] = (uint8_t)keep;
        }
    }
}

static void full_digits(const uint8_t labels[10], uint8_t digits[9]) {
    int used[10] = {0};
    for (int d = 1; d <= 9; d++)
        if (labels[d]) used[labels[d]] = 1;
    int free = 1;
    for (int d = 1; d <= 9; d++) {
        if (labels[d]) {
            digits[d - 1] = labels[d];
        } else {
            while (used[free]) free++;
            digits[d - 1] = (uint8_t)free;
            used[free] = 1;
        }
    }
}

/* -- puzzles --------------------------------------------------------------------------- */

static void puzzle_minlex(uint8_t g[2][9][9], Result *res) {
    uint8_t trip[2][9][3];
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 9; r++)
            for (int s = 0; s < 3; s++)
                trip[t][r][s] = (uint8_t)(((g[t][r][3 * s] != 0) << 2) | ((g[t][r][3 * s + 1] != 0) << 1) |
                                          (g[t][r][3 * s + 2] != 0));
    Cand *cur = bufA, *nxt = bufB;
    int n = 0, top = 512;
    int rows_best[9];
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 9; r++)
            for (int sp = 0; sp < 6; sp++) {
                const int *st = PERM3[sp];
                int v = (BESTV[trip[t][r][st[0]]][63] << 6) | (BESTV[trip[t][r][st[1]]][63] << 3) |
                        BESTV[trip[t][r][st[2]]][63];
                if (v > top) continue;
                if (v < top) {
                    top = v;
                    n = 0;
                }
                Cand *c = &cur[n++];
                c->t = (uint8_t)t;
                c->sp = (uint8_t)sp;
                c->rows[0] = (uint8_t)r;
                c->masks[0] = BESTM[trip[t][r][st[0]]][63];
                c->masks[1] = BESTM[trip[t][r][st[1]]][63];
                c->masks[2] = BESTM[trip[t][r][st[2]]][63];
            }
    rows_best[0] = top;
    for (int i = 1; i < 9; i++) {
        int m = 0;
        top = 512;
        for (int k = 0; k < n; k++) {
            const Cand *c = &cur[k];
            int choices[6], nc = 0;
            if (i % 3 == 0) {
                int used = (1 << (c->rows[0] / 3)) | (i == 6 ? 1 << (c->rows[3] / 3) : 0);
                for (int r = 0; r < 9; r++)
                    if (!((used >> (r / 3)) & 1)) choices[nc++] = r;
            } else {
                int band = c->rows[i - 1] / 3;
                for (int r = band * 3; r < band * 3 + 3; r++) {
                    if (r == c->rows[i - 1] || (i % 3 == 2 && r == c->rows[i - 2])) continue;
                    choices[nc++] = r;
                }
            }
            const int *st = PERM3[c->sp];
            for (int x = 0; x < nc; x++) {
                int r = choices[x];
                const uint8_t *tr = trip[c->t][r];
                int t0 = tr[st[0]], t1 = tr[st[1]], t2 = tr[st[2]];
                int v = (BESTV[t0][c->masks[0]] << 6) | (BESTV[t1][c->masks[1]] << 3) | BESTV[t2][c->masks[2]];
                if (v > top) continue;
                if (v < top) {
                    top = v;
                    m = 0;
                }
                Cand *o = &nxt[m++];
                *o = *c;
                o->rows[i] = (uint8_t)r;
                o->masks[0] = BESTM[t0][c->masks[0]];
                o->masks[1] = BESTM[t1][c->masks[1]];
                o->masks[2] = BESTM[t2][c->masks[2]];
            }
        }
        Cand *swap = cur;
        cur = nxt;
        nxt = swap;
        n = m;
        rows_best[i] = top;
    }
    int spots[81], ns = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++)
            if ((rows_best[i] >> (8 - j)) & 1) spots[ns++] = i * 9 + j;
    uint8_t best[81];
    memset(best, 99, sizeof best);
    int have = 0;
    for (int k = 0; k < n; k++) {
        const Cand *c = &cur[k];
        const int *st = PERM3[c->sp];
        for (int p0 = 0; p0 < 6; p0++) {
            if (!((c->masks[0] >> p0) & 1)) continue;
            for (int p1 = 0; p1 < 6; p1++) {
                if (!((c->masks[1] >> p1) & 1)) continue;
                for (int p2 = 0; p2 < 6; p2++) {
                    if (!((c->masks[2] >> p2) & 1)) continue;
                    int ps[3] = {p0, p1, p2};
                    uint8_t cols[9];
                    for (int j = 0; j < 9; j++) cols[j] = (uint8_t)(st[j / 3] * 3 + PERM3[ps[j / 3]][j % 3]);
                    uint8_t labels[10] = {0};
                    int next = 1, less = !have;
                    for (int x = 0; x < ns; x++) {
                        int spot = spots[x];
                        int d = g[c->t][c->rows[spot / 9]][cols[spot % 9]];
                        int lab = labels[d];
                        if (!lab) lab = labels[d] = (uint8_t)next++;
                        if (!less) {
                            if (lab > best[x]) goto next_order;
                            if (lab < best[x]) less = 1;
                        }
                        if (less) best[x] = (uint8_t)lab;
                    }
                    if (less) {
                        have = 1;
                        res->t = c->t;
                        memcpy(res->rows, c->rows, 9);
                        memcpy(res->cols, cols, 9);
                        full_digits(labels, res->digits);
                    }
                next_order:;
                }
            }
        }
    }
    memset(res->form, 0, 81);
    for (int x = 0; x < ns; x++) res->form[spots[x]] = best[x];
}

/* -- solved grids ---------------------------------------------------------------------- */

typedef struct {
    uint8_t (*g)[9];
    int t, band, r0, r1, r2;
    int f[9];        /* source column -> place of its second-row digit in the first row */
    int tpos[9];     /* source column -> target column, or -1 */
    int src_at[9];   /* target column -> source column, or -1 */
    int spos[3];     /* source stack -> target stack, or -1 */
    int start[3];    /* the source columns of the first stack, in order */
    int nst;         /* target stacks given a source stack: always the first nst */
    int fill[3];     /* columns placed in each target stack: always its first fill[k] */
    int have;        /* a best exists */
    unsigned gen;    /* bumped at each new best */
    uint8_t best[9][9];
    Result *res;
} GridSearch;

static void grid_leaf(GridSearch *s, int eq) {
    uint8_t label[10];
    for (int c = 0; c < 9; c++) label[s->g[s->r0][c]] = (uint8_t)(s->tpos[c] + 1);
    uint8_t first[9];
    for (int r = 0; r < 9; r++) first[r] = label[s->g[r][s->src_at[0]]];
    int order[9] = {s->r0, s->r1, s->r2};
    int bands[2], nb = 0;
    for (int b = 0; b < 3; b++)
        if (b != s->band) bands[nb++] = b;
    int low[2];
    for (int x = 0; x < 2; x++) {
        int b = bands[x], lo = 99;
        for (int r = b * 3; r < b * 3 + 3; r++)
            if (first[r] < lo) lo = first[r];
        low[x] = lo;
    }
    if (low[1] < low[0]) {
        int tmp = bands[0];
        bands[0] = bands[1];
        bands[1] = tmp;
    }
    for (int x = 0; x < 2; x++) {
        int b = bands[x], *o = &order[3 + 3 * x];
        o[0] = b * 3;
        o[1] = b * 3 + 1;
        o[2] = b * 3 + 2;
        for (int a = 0; a < 3; a++) /* sort the band's rows on their first value */
            for (int z = a + 1; z < 3; z++)
                if (first[o[z]] < first[o[a]]) {
                    int tmp = o[a];
                    o[a] = o[z];
                    o[z] = tmp;
                }
    }
    uint8_t cand[9][9];
    int less = !(s->have && eq);
    memcpy(cand[0], s->best[0], 9); /* the first row is always 123456789 */
    for (int i = 1; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            int v = label[s->g[order[i]][s->src_at[j]]];
            if (!less) {
                if (v > s->best[i][j]) return;
                less = v < s->best[i][j];
            }
            cand[i][j] = (uint8_t)v;
        }
    if (!less) return;
    for (int j = 0; j < 9; j++) cand[0][j] = (uint8_t)(j + 1);
    memcpy(s->best, cand, sizeof cand);
    s->have = 1;
    s->gen++;
    Result *res = s->res;
    res->t = s->t;
    for (int i = 0; i < 9; i++) {
        res->rows[i] = (uint8_t)order[i];
        res->cols[i] = (uint8_t)s->src_at[i];
    }
    uint8_t labels[10] = {0};
    for (int d = 1; d <= 9; d++) labels[d] = label[d];
    full_digits(labels, res->digits);
}

/* Place f(c): its target column, the smallest free slot if it has none. Returns 0-based target column. */
static int grid_value(GridSearch *s, int c, int *undo_s, int *undo_c) {
    int target = s->f[c];
    if (s->tpos[target] >= 0) return s->tpos[target];
    int st = target / 3;
    if (s->spos[st] < 0) {
        s->spos[st] = s->nst++;
        *undo_s = st;
    }
    int ts = s->spos[st], j = ts * 3 + s->fill[ts]++;
    s->tpos[target] = j;
    s->src_at[j] = target;
    *undo_c = target;
    return j;
}

static void grid_dfs(GridSearch *s, int j, int eq) {
    if (j == 9) {
        grid_leaf(s, eq);
        return;
    }
    int choices[9], nc = 0, forced = s->src_at[j] >= 0;
    if (forced) {
        choices[nc++] = s->src_at[j];
    } else if (j < 3) {
        choices[nc++] = s->start[j];
    } else if (j % 3 == 0) {
        for (int c = 0; c < 9; c++)
            if (s->spos[c / 3] < 0) choices[nc++] = c;
    } else {
        int st = 0;
        while (s->spos[st] != j / 3) st++;
        for (int c = st * 3; c < st * 3 + 3; c++)
            if (s->tpos[c] < 0) choices[nc++] = c;
    }
    for (int x = 0; x < nc; x++) {
        int c = choices[x];
        int placed_s = -1, placed_c = -1, undo_s = -1, undo_c = -1;
        if (!forced) {
            if (s->spos[c / 3] < 0) {
                s->spos[c / 3] = j / 3; /* j / 3 == nst: the stacks before it are given */
                s->nst++;
                placed_s = c / 3;
            }
            s->tpos[c] = j;
            s->src_at[j] = c;
            s->fill[j / 3]++;
            placed_c = c;
        }
        int v = grid_value(s, c, &undo_s, &undo_c) + 1;
        int now_eq = eq && s->have;
        int skip = 0;
        if (now_eq) {
            if (v > s->best[1][j])
                skip = 1;
            else
                now_eq = v == s->best[1][j];
        }
        if (!skip) {
            unsigned gen = s->gen;
            grid_dfs(s, j + 1, now_eq);
            if (s->gen != gen) eq = 1;
        }
        if (undo_c >= 0) {
            s->fill[s->tpos[undo_c] / 3]--;
            s->src_at[s->tpos[undo_c]] = -1;
            s->tpos[undo_c] = -1;
        }
        if (undo_s >= 0) {
            s->spos[undo_s] = -1;
            s->nst--;
        }
        if (placed_c >= 0) {
            s->fill[s->tpos[placed_c] / 3]--;
            s->src_at[s->tpos[placed_c]] = -1;
            s->tpos[placed_c] = -1;
        }
        if (placed_s >= 0) {
            s->spos[placed_s] = -1;
            s->nst--;
        }
    }
}

static void grid_root(GridSearch *s, uint8_t g[2][9][9], const int *root, const int *f) {
    int t = root[0], band = root[1];
    s->g = g[t];
    s->t = t;
    s->band = band;
    s->r0 = root[2];
    s->r1 = root[3];
    s->r2 = band * 9 + 3 - root[2] - root[3]; /* the band's third row: rows sum to 9 * band + 3 */
    memcpy(s->f, f, sizeof s->f);
}

/* The second row's values a start forces (every choice single, from the first stack's order on), in
 * vals; returns how many: the walk stops at the first column with a choice. */
static int grid_prefix(GridSearch *s, uint8_t *vals, int most) {
    for (int c = 0; c < 9; c++) s->tpos[c] = s->src_at[c] = -1;
    s->spos[0] = s->spos[1] = s->spos[2] = -1;
    s->nst = s->fill[0] = s->fill[1] = s->fill[2] = 0;
    for (int j = 0; j < most; j++) {
        int c;
        if (s->src_at[j] >= 0) {
            c = s->src_at[j];
        } else {
            if (j < 3) {
                c = s->start[j];
            } else {
                if (j % 3 == 0) return j; /* a new stack: a choice */
                int st = 0, n = 0;
                while (s->spos[st] != j / 3) st++;
                c = -1;
                for (int k = st * 3; k < st * 3 + 3; k++)
                    if (s->tpos[k] < 0) {
                        c = k;
                        n++;
                    }
                if (n != 1) return j;
            }
            if (s->spos[c / 3] < 0) {
                s->spos[c / 3] = j / 3;
                s->nst++;
            }
            s->tpos[c] = j;
            s->src_at[j] = c;
            s->fill[j / 3]++;
        }
        int undo_s = -1, undo_c = -1;
        vals[j] = (uint8_t)(grid_value(s, c, &undo_s, &undo_c) + 1);
    }
    return most;
}

/* The fourth value of the second row for the start (c0, c1, c2) (its first three: 456 when pure, else
 * 457): the place of f(f(c0)), f(c0) being at column 3. */
static int grid_fourth(const int *f, const int *start, int pure) {
    int back = f[f[start[0]]];
    for (int k = 0; k < 3; k++)
        if (back == start[k]) return k + 1;
    if (pure) return 7;                    /* the third stack, new: its first column */
    return back == f[start[2]] ? 7 : 8;    /* f(c2) is at column 6; else the next free one */
}

/* The roots (transposition, band, first two rows): the pure ones first (their second row starts 456,
 * the others' 457), the others only when no root is pure; within a root, only the first stack's
 * column orders giving that start (canon.py's _grid_minlex, the same order). */
static void grid_minlex(uint8_t g[2][9][9], Result *res) {
    GridSearch s;
    memset(&s, 0, sizeof s);
    s.res = res;
    int roots[36][5], nr = 0; /* t, band, r0, r1, impure */
    int fs[36][9];
    for (int pass = 0; pass < 2; pass++)
        for (int t = 0; t < 2; t++)
            for (int band = 0; band < 3; band++)
                for (int r0 = band * 3; r0 < band * 3 + 3; r0++)
                    for (int r1 = band * 3; r1 < band * 3 + 3; r1++) {
                        if (r1 == r0) continue;
                        int pos0[10], f[9];
                        for (int c = 0; c < 9; c++) pos0[g[t][r0][c]] = c;
                        for (int c = 0; c < 9; c++) f[c] = pos0[g[t][r1][c]];
                        int pure = 0;
                        for (int k = 0; k < 3; k++)
                            if (f[3 * k] / 3 == f[3 * k + 1] / 3 && f[3 * k] / 3 == f[3 * k + 2] / 3) pure = 1;
                        if (pure != (pass == 0)) continue;
                        roots[nr][0] = t;
                        roots[nr][1] = band;
                        roots[nr][2] = r0;
                        roots[nr][3] = r1;
                        roots[nr][4] = !pure;
                        memcpy(fs[nr], f, sizeof f);
                        nr++;
                    }
    /* every start (root, first stack's order), with its forced prefix of the second row */
    static int starts[36 * 18][4]; /* root, c0, c1, c2 */
    static uint8_t prefix[36 * 18][9];
    static int plen[36 * 18];
    int ns = 0;
    for (int x = 0; x < nr; x++) {
        int impure = roots[x][4];
        if (impure && ns && !roots[0][4]) break; /* a pure root gives 456...: the others give 457... */
        grid_root(&s, g, roots[x], fs[x]);
        for (int c0 = 0; c0 < 9; c0++)
            for (int c1 = c0 / 3 * 3; c1 < c0 / 3 * 3 + 3; c1++) {
                if (c1 == c0 || (impure && s.f[c0] / 3 != s.f[c1] / 3)) continue;
                starts[ns][0] = x;
                starts[ns][1] = s.start[0] = c0;
                starts[ns][2] = s.start[1] = c1;
                starts[ns][3] = s.start[2] = c0 / 3 * 9 + 3 - c0 - c1;
                prefix[ns][3] = (uint8_t)grid_fourth(s.f, starts[ns] + 1, !impure);
                ns++;
            }
    }
    /* the smallest forced prefix, over the length every start has forced: a start above it cannot win;
     * first on the fourth value (the first three are 456 or 457 for all), then on as many as the
     * starts left force */
    int fourth = 99;
    for (int k = 0; k < ns; k++)
        if (prefix[k][3] < fourth) fourth = prefix[k][3];
    int kept = 0;
    for (int k = 0; k < ns; k++) {
        if (prefix[k][3] != fourth) continue;
        memcpy(starts[kept], starts[k], sizeof starts[k]);
        grid_root(&s, g, roots[starts[kept][0]], fs[starts[kept][0]]);
        s.start[0] = starts[kept][1];
        s.start[1] = starts[kept][2];
        s.start[2] = starts[kept][3];
        plen[kept] = grid_prefix(&s, prefix[kept], 9);
        kept++;
    }
    ns = kept;
    int common = 9;
    for (int k = 0; k < ns; k++)
        if (plen[k] < common) common = plen[k];
    int low = 0;
    for (int k = 1; k < ns; k++)
        if (memcmp(prefix[k], prefix[low], (size_t)common) < 0) low = k;
    for (int k = 0; k < ns; k++) {
        if (memcmp(prefix[k], prefix[low], (size_t)common) != 0) continue;
        grid_root(&s, g, roots[starts[k][0]], fs[starts[k][0]]);
        s.start[0] = starts[k][1];
        s.start[1] = starts[k][2];
        s.start[2] = starts[k][3];
        for (int c = 0; c < 9; c++) s.tpos[c] = s.src_at[c] = -1;
        s.spos[0] = s.spos[1] = s.spos[2] = -1;
        s.nst = s.fill[0] = s.fill[1] = s.fill[2] = 0;
        grid_dfs(&s, 0, s.have);
    }
    for (int i = 0; i < 9; i++) memcpy(&res->form[i * 9], s.best[i], 9);
}

/* -- the module ------------------------------------------------------------------------ */

/* Do 81 cells of 1..9 make a solved grid: each row, column and box holding every digit once?
 * grid_minlex reads a row as a permutation; any other full grid goes to puzzle_minlex. */
static int is_solved_grid(const uint8_t *cells) {
    for (int u = 0; u < 9; u++) {
        unsigned row = 0, col = 0, box = 0;
        for (int i = 0; i < 9; i++) {
            row |= 1u << cells[u * 9 + i];
            col |= 1u << cells[i * 9 + u];
            box |= 1u << cells[(u / 3 * 3 + i / 3) * 9 + u % 3 * 3 + i % 3];
        }
        if (row != 0x3FEu || col != 0x3FEu || box != 0x3FEu) return 0;
    }
    return 1;
}

/* cells: 81 values 0..9. Returns 0, or -1 for a value out of range. */
static int run(const uint8_t *cells, Result *res) {
    uint8_t g[2][9][9];
    int givens = 0;
    for (int k = 0; k < 81; k++) {
        if (cells[k] > 9) return -1;
        g[0][k / 9][k % 9] = cells[k];
        g[1][k % 9][k / 9] = cells[k];
        givens += cells[k] != 0;
    }
    if (givens == 0) { /* every transformation gives the empty grid: the first one walked, the identity */
        memset(res->form, 0, 81);
        res->t = 0;
        for (int k = 0; k < 9; k++) {
            res->rows[k] = res->cols[k] = (uint8_t)k;
            res->digits[k] = (uint8_t)(k + 1);
        }
    } else if (givens == 81 && is_solved_grid(cells))
        grid_minlex(g, res);
    else
        puzzle_minlex(g, res);
    return 0;
}

static PyObject *minlex(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    if (buf.len != 81) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "minlex takes 81 cell values");
        return NULL;
    }
    Result res;
    int bad = run((const uint8_t *)buf.buf, &res);
    PyBuffer_Release(&buf);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "cell values are 0 to 9");
        return NULL;
    }
    return Py_BuildValue("(y#iy#y#y#)", (const char *)res.form, (Py_ssize_t)81, res.t, (const char *)res.rows,
                         (Py_ssize_t)9, (const char *)res.cols, (Py_ssize_t)9, (const char *)res.digits,
                         (Py_ssize_t)9);
}

static PyObject *minlex_text(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    uint8_t cells[81];
    int bad = buf.len != 81;
    for (int k = 0; k < 81 && !bad; k++) {
        char ch = ((const char *)buf.buf)[k];
        if (ch >= '1' && ch <= '9')
            cells[k] = (uint8_t)(ch - '0');
        else if (ch == '.' || ch == '0' || ch == '_')
            cells[k] = 0;
        else
            bad = 1;
    }
    PyBuffer_Release(&buf);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "minlex_text takes 81 characters of 1-9 and . 0 _");
        return NULL;
    }
    Result res;
    run(cells, &res);
    char out[81];
    for (int k = 0; k < 81; k++) out[k] = res.form[k] ? (char)('0' + res.form[k]) : '.';
    return PyBytes_FromStringAndSize(out, 81);
}

static PyMethodDef methods[] = {
    {"minlex", minlex, METH_VARARGS,
     "minlex(cells: bytes[81] of 0..9) -> (form, transpose, rows, cols, digits): the minlex form and the "
     "transformation onto it"},
    {"minlex_text", minlex_text, METH_VARARGS,
     "minlex_text(line: bytes[81]) -> bytes[81]: the minlex form of a one-line 9x9 puzzle, '.' for empty"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_canon", "The minlex canonical form of 9x9 puzzles and grids (see canon.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__canon(void) {
    init_tables();
    return PyModule_Create(&module);
}
