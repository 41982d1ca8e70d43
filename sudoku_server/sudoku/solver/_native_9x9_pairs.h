/* Relation pairs in the 9x9 engine (e9): included by _native_9x9.h before
 * e9_propagate_, which calls e9_pairs first (E9_PAIRS_FIRST) and once its
 * own rules find nothing more; and German whispers there (polar pairs):
 * their lines' parts (geo_polar9), the branch on a part's side
 * (e9_polar_branch) and the units' halves (e9_halves).
 *
 * A classic 9x9 geometry whose only constraints are relation pairs (each a
 * table over two cells: thermometers, kropki dots and their negative rule,
 * XV, German whispers, palindromes, non-consecutive, renban lines) and
 * starting candidates is searched by e9 (Geo.mask9, set by geo_constraints
 * in _native_kinds.h). Its pairs are brought to arc consistency here, on the
 * cells' candidate masks gathered from e9's digit masks: a digit of a cell
 * stays only while some candidate of each partner allows it (the table
 * g->tab, without the equal digits when the two cells are peers), from a
 * queue of cells whose masks changed; the digits that go leave e9's masks
 * and are marked dirty, so e9's rules run again, and so on to a fixpoint.
 * A cell left with no digit (a placed one too, which e9 no longer looks at)
 * is a contradiction. Sound (only digits no solution holds go), so the
 * search drivers' answers stay those of the general engine: the
 * row-major-first solution, counts and true candidates; a solved state
 * (every cell single) is one where every pair holds, since the pass ran on
 * it and changed nothing.
 */

/* The sides of the relation tables met so far, process-wide: SUP9[i][m]
 * the digits one end of a pair allows on the other when it has candidates m
 * (the union of SUP9_SIDE[i][d] over the digits d of m). Filled by prepare
 * (under the interpreter lock), an entry never changes once its geometry
 * exists; rules use a few tables (a thermometer one, kropki's per dot kind
 * and value, ...), each in two directions, with and without equal digits.
 * A geometry whose sides do not fit keeps the general engine. */
#define SUP9_MAX 256
static uint32_t SUP9_SIDE[SUP9_MAX][9];
static uint16_t SUP9[SUP9_MAX][512];
static uint8_t SUP9_THR[SUP9_MAX]; /* the most candidates m may have with SUP9[i][m] not every digit */
static int sup9_count;

/* The index in SUP9 of a side (9 masks), added when new; -1 when full. */
static int
sup9_index(const uint32_t *side)
{
    int i, m;
    for (i = 0; i < sup9_count; i++)
        if (!memcmp(SUP9_SIDE[i], side, sizeof SUP9_SIDE[i]))
            return i;
    if (sup9_count == SUP9_MAX)
        return -1;
    memcpy(SUP9_SIDE[i], side, sizeof SUP9_SIDE[i]);
    SUP9[i][0] = 0;
    SUP9_THR[i] = 0;
    for (m = 1; m < 512; m++) {
        SUP9[i][m] = (uint16_t)(SUP9[i][m & (m - 1)] | (side[CTZ((uint32_t)m)] & 0x1FF));
        if (SUP9[i][m] != 0x1FF && POP9[m] > SUP9_THR[i])
            SUP9_THR[i] = POP9[m];
    }
    sup9_count = i + 1;
    return i;
}

/* Is a relation table (18 masks: b's digits per digit of a, then a's per
 * digit of b) polar on 9x9: every allowed pair joins a digit of 1-4 to one
 * of 6-9 (5 allowed with none)? As geo_polar's test. */
static int
e9_table_polar(const uint32_t *t)
{
    int d, some = 0;
    for (d = 0; d < 9; d++) {
        uint32_t side = d < 4 ? 0x1E0u : d > 4 ? 0xFu : 0;
        if ((t[d] & ~side) || (t[9 + d] & ~side))
            return 0;
        some |= t[d] != 0;
    }
    return some;
}

/* Geo.polar9: the connected parts of the polar pairs (Geo.polar, German
 * whispers on 9x9), each split in its two sides by colouring: the two cells
 * of a polar pair take opposite halves (1-4 and 6-9), so along a part the
 * sides alternate and one choice, which side is low, decides the half of
 * every cell of it (e9_polar_side). A part with an odd cycle has both sides
 * all its cells: either choice empties them (no solution). 1, or 0 when out
 * of memory. */
static int
geo_polar9(Geo *g)
{
    int8_t colour[81];
    int stack[81], c, n = 0, last_polar = 0;
    uint32_t last_tab = UINT32_MAX; /* the table looked at last and whether it is polar */
    g->polar9 = PyMem_RawMalloc(sizeof(uint32_t) * 6 * 41);
    if (g->polar9 == NULL)
        return 0;
    memset(colour, -1, sizeof colour);
    for (c = 0; c < 81; c++) {
        uint32_t *p = g->polar9 + 6 * n;
        int top = 0, odd = 0, b;
        if (!g->polar[c] || colour[c] >= 0)
            continue;
        memset(p, 0, sizeof(uint32_t) * 6);
        colour[c] = 0;
        stack[top++] = c;
        while (top) {
            int a = stack[--top];
            uint32_t j;
            p[3 * colour[a] + a / 27] |= 1u << (a % 27);
            for (j = g->adj_start[a]; j < g->adj_start[a + 1]; j++) {
                uint32_t k = g->adj[j] >> 1;
                int o = (g->adj[j] & 1) ? g->pair_a[k] : g->pair_b[k];
                if (g->pair_tab[k] != last_tab) {
                    last_tab = g->pair_tab[k];
                    last_polar = e9_table_polar(g->tab + last_tab);
                }
                if (!last_polar)
                    continue;
                if (colour[o] < 0) {
                    colour[o] = (int8_t)(1 - colour[a]);
                    stack[top++] = o;
                } else if (colour[o] == colour[a]) {
                    odd = 1;
                }
            }
        }
        for (b = 0; odd && b < 3; b++)
            p[b] = p[3 + b] = p[b] | p[3 + b];
        n++;
    }
    g->npolar9 = n;
    /* the units each part meets, with its cells on each side there */
    g->polar9_units = PyMem_RawMalloc(sizeof(uint32_t) * (41 + 1 + 3 * 81));
    if (g->polar9_units == NULL)
        return 0;
    {
        uint32_t *start = g->polar9_units, *at = start + n + 1;
        int k;
        for (k = 0; k < n; k++) {
            const uint32_t *p = g->polar9 + 6 * k;
            uint8_t cnt[2][27];
            uint32_t m;
            int j, u;
            start[k] = (uint32_t)(at - start);
            memset(cnt, 0, sizeof cnt);
            for (j = 0; j < 6; j++) /* the part's cells, side j / 3, band j % 3 */
                for (m = p[j]; m; m &= m - 1) {
                    c = 27 * (j % 3) + CTZ(m);
                    cnt[j / 3][c / 9]++;
                    cnt[j / 3][9 + c % 9]++;
                    cnt[j / 3][18 + 3 * (c / 27) + (c % 9) / 3]++;
                }
            for (u = 0; u < 27; u++)
                if (cnt[0][u] | cnt[1][u])
                    *at++ = (uint32_t)u | (uint32_t)cnt[0][u] << 8 | (uint32_t)cnt[1][u] << 16;
        }
        start[n] = (uint32_t)(at - start);
    }
    return 1;
}

/* Geo.twin9: for each cell of a pair whose table is "equal digits" (the
 * ends of a palindrome's steps) one such partner, into which e9 puts a
 * digit placed in the cell at once (e9_place_twin), in the same round of
 * its per-digit rules rather than after the pairs' pass. 1, or 0 when out
 * of memory (g->twin9 stays NULL when there is no such pair). */
static int
geo_twin9(Geo *g)
{
    int k, d;
    for (k = 0; k < g->npairs; k++) {
        const uint32_t *t = g->tab + g->pair_tab[k];
        int a = g->pair_a[k], b = g->pair_b[k];
        for (d = 0; d < 9 && t[d] == 1u << d && t[9 + d] == 1u << d; d++)
            ;
        if (d < 9 || a == b)
            continue;
        if (g->twin9 == NULL) {
            g->twin9 = PyMem_RawMalloc(81);
            if (g->twin9 == NULL)
                return 0;
            memset(g->twin9, -1, 81);
        }
        if (g->twin9[a] < 0)
            g->twin9[a] = (int8_t)b;
        if (g->twin9[b] < 0)
            g->twin9[b] = (int8_t)a;
    }
    return 1;
}

/* Geo.adj9 for a mask9 geometry with pairs (and Geo.polar9 with polar
 * ones): 1, or 0 when out of memory; g->mask9 goes to 0 when SUP9 is full.
 * Each side of g's tables (4 per table: a to b and b to a, with and
 * without equal digits) is looked up in SUP9 once, when a pair first uses
 * it (side: its offset in g->tab over 9; eleventh session: a list of the
 * last sides seen, searched per pair, was a tenth of a kropki line's
 * prepare). */
static int
geo_sup9(Geo *g)
{
    int16_t local[1024], *at;
    int c, nsides = 4 * g->ntables;
    g->adj9 = PyMem_RawMalloc(sizeof(uint32_t) * 2 * (size_t)g->npairs);
    at = nsides <= 1024 ? local : PyMem_RawMalloc(sizeof(int16_t) * (size_t)nsides);
    if (g->adj9 == NULL || at == NULL) {
        if (at != local)
            PyMem_RawFree(at);
        return 0;
    }
    memset(at, 0xFF, sizeof(int16_t) * (size_t)nsides); /* -1: not looked up yet */
    for (c = 0; c < 81; c++) {
        uint32_t j;
        uint8_t thr = 0;
        for (j = g->adj_start[c]; j < g->adj_start[c + 1]; j++) {
            uint32_t end = g->adj[j], k = end >> 1;
            /* the side from this cell to the other: a to b (the table's first
             * 9 masks) when the cell is a, b to a when it is b */
            uint32_t side = g->pair_tab[k] / 9 + (end & 1);
            int i = at[side];
            if (i < 0)
                i = at[side] = (int16_t)sup9_index(g->tab + 9 * (size_t)side);
            if (i < 0) {
                if (at != local)
                    PyMem_RawFree(at);
                g->mask9 = 0;
                return 1;
            }
            g->adj9[j] = (uint32_t)((end & 1) ? g->pair_a[k] : g->pair_b[k]) << 16 | (uint32_t)i;
            if (SUP9_THR[i] > thr)
                thr = SUP9_THR[i];
        }
        g->thr9[c] = thr;
    }
    if (at != local)
        PyMem_RawFree(at);
    return (!E9_TWINS || geo_twin9(g)) && (g->polar == NULL || geo_polar9(g));
}

/* The candidates of cell c (bit d - 1 for digit d) from e9's digit masks. */
static inline uint32_t
e9_cell_mask(const S9 *s, int c)
{
    const uint32_t *F = s->F + c / 27;
    int bit = c % 27;
    return (F[0] >> bit & 1) | (F[3] >> bit & 1) << 1 | (F[6] >> bit & 1) << 2 | (F[9] >> bit & 1) << 3 |
           (F[12] >> bit & 1) << 4 | (F[15] >> bit & 1) << 5 | (F[18] >> bit & 1) << 6 | (F[21] >> bit & 1) << 7 |
           (F[24] >> bit & 1) << 8;
}

/* Side j of polar part p (Geo.polar9) on s: the cells of its side j keep
 * 1-4, the others 6-9 (and none 5). The digits whose masks shrink go to
 * x->dirty. */
static void
e9_polar_side(Ctx *x, S9 *s, const uint32_t *p, int j)
{
    const uint32_t *low = p + 3 * j, *high = p + 3 * (1 - j);
    uint32_t dirty = 0;
    int d, b;
    for (b = 0; b < 3; b++) {
        uint32_t all = low[b] | high[b];
        for (d = 0; d < 9; d++) {
            uint32_t cut = d < 4 ? high[b] : d > 4 ? low[b] : all, f = s->F[3 * d + b];
            if (f & cut) {
                s->F[3 * d + b] = f & ~cut;
                dirty |= 1u << d;
            }
        }
    }
    x->dirty |= dirty;
}

/* Is polar part p still open on s (at a fixpoint of the pairs, where a
 * part's cells are all confined to a side as soon as one is)? */
static inline int
e9_polar_open(const S9 *s, const uint32_t *p)
{
    int b = p[0] ? 0 : p[1] ? 1 : 2;
    uint32_t m = e9_cell_mask(s, 27 * b + CTZ(p[b]));
    return (m & 0xF) && (m & 0x1E0);
}

/* The relation pairs of x->geo to arc consistency on s. Only the pairs of
 * cells whose masks changed since x->base9 (the last state on this path
 * where every pair was arc consistent: a pair of two unchanged cells still
 * is) are looked at, all of them when it is not valid (x->valid9); the
 * masks are read from e9's as they are needed. Digits removed go to
 * x->dirty; s becomes the new base. 1, or 0 on a contradiction. */
static int
e9_pairs(Ctx *x, S9 *s)
{
    const Geo *g = x->geo;
    uint16_t m[81], was[81], work[82], touched[81];
    uint8_t queued[81];
    uint32_t have[3] = {0, 0, 0}, todo[3];
    int head = 0, tail = 0, ntouched = 0, c, i, b;
    if (x->valid9) {
        uint32_t ch0 = 0, ch1 = 0, ch2 = 0; /* the cells changed per band, digit by digit */
        for (i = 0; i < 27; i += 3) {
            ch0 |= s->F[i] ^ x->base9[i];
            ch1 |= s->F[i + 1] ^ x->base9[i + 1];
            ch2 |= s->F[i + 2] ^ x->base9[i + 2];
        }
        todo[0] = ch0 & g->pairs9_cells[0];
        todo[1] = ch1 & g->pairs9_cells[1];
        todo[2] = ch2 & g->pairs9_cells[2];
    } else {
        for (b = 0; b < 3; b++)
            todo[b] = g->pairs9_cells[b];
    }
    memset(queued, 0, sizeof queued);
    for (b = 0; b < 3; b++) {
        uint32_t f = todo[b];
        have[b] = f;
        while (f) {
            c = 27 * b + CTZ(f);
            f &= f - 1;
            was[c] = m[c] = (uint16_t)e9_cell_mask(s, c);
            if (UNLIKELY(!m[c]))
                return 0;
            if (POP9[m[c]] > g->thr9[c])
                continue; /* it removes nothing */
            work[tail++] = (uint16_t)c;
            queued[c] = 1;
        }
    }
    /* a ring of 82: each cell is queued at most once at a time */
    while (head != tail) {
        uint32_t j, mc;
        c = work[head];
        head = head + 1 == 82 ? 0 : head + 1;
        queued[c] = 0;
        mc = m[c];
        for (j = g->adj_start[c]; j < g->adj_start[c + 1]; j++) {
            uint32_t e = g->adj9[j], keep = SUP9[e & 0xFFFF][mc];
            int o;
            if (keep == 0x1FF)
                continue; /* c's candidates allow every digit on the other cell */
            o = (int)(e >> 16);
            if (!(have[o / 27] >> (o % 27) & 1)) {
                have[o / 27] |= 1u << (o % 27);
                was[o] = m[o] = (uint16_t)e9_cell_mask(s, o);
            }
            if (m[o] & ~keep) {
                if (m[o] == was[o])
                    touched[ntouched++] = (uint16_t)o;
                m[o] &= (uint16_t)keep;
                if (UNLIKELY(!m[o]))
                    return 0;
                if (!queued[o] && POP9[m[o]] <= g->thr9[o]) {
                    queued[o] = 1;
                    work[tail] = (uint16_t)o;
                    tail = tail + 1 == 82 ? 0 : tail + 1;
                }
            }
        }
    }
    /* the digits gone leave e9's masks */
    for (i = 0; i < ntouched; i++) {
        uint32_t gone, bit;
        c = touched[i];
        gone = (uint32_t)(was[c] & ~m[c]);
        bit = 1u << (c % 27);
        x->dirty |= gone;
        for (; gone; gone &= gone - 1)
            s->F[3 * CTZ(gone) + c / 27] &= ~bit;
    }
    memcpy(x->base9, s->F, sizeof x->base9);
    x->valid9 = 1;
    return 1;
}

/* The root (run9, before its propagation): each cell keeps the digits its
 * pairs to two peers of each other leave it (Geo.pair_keep, as the general
 * engine's root does), and the cells of a polar part with an odd cycle
 * (on both its sides, geo_polar9) none; a given that loses its digit is
 * found by e9_pairs. */
static void
e9_pairs_root(Ctx *x, const Geo *g, S9 *s)
{
    int c, d, k;
    x->valid9 = 0;
    memset(x->fails, 0, sizeof(uint16_t) * 81); /* e9_pairs_failed's weights */
    for (k = 0; k < g->npolar9; k++)
        for (c = 0; c < 3; c++) {
            uint32_t both = g->polar9[6 * k + c] & g->polar9[6 * k + 3 + c];
            for (d = 0; both && d < 9; d++)
                s->F[3 * d + c] &= ~both;
        }
    if (g->pair_keep == NULL)
        return;
    for (c = 0; c < 81; c++) {
        uint32_t gone = ~g->pair_keep[c] & 0x1FFu, bit = ~(1u << (c % 27));
        for (; gone; gone &= gone - 1)
            s->F[3 * CTZ(gone) + c / 27] &= bit;
    }
}

/* Weight of a cell's relation pairs against the open cells of its units
 * when e9_pairs_choose picks a two-candidate cell (EK_W of the general
 * engine). */
#ifndef E9_PAIR_W
#define E9_PAIR_W 4
#endif

static int e9_cell_branch(const S9 *s, int cell, Branch *br);
static void e9_counts(const S9 *s, uint32_t *twos_out, uint32_t *threes_out);

/* The two-candidate cell among `pairs` (a cell mask per band of 27) with
 * the most open cells in its units plus E9_PAIR_W per unit of its weight
 * (Geo.weight, and with `fails` the contradictions met after branching on
 * it, x->fails); -1 for no cell. Shared by e9_pairs_choose and
 * e9_sums_choose. */
static int
e9_best_pair_cell(const Ctx *x, const S9 *s, const uint32_t *pairs, int fails)
{
    const Geo *g = x->geo;
    int rowc[9], colc[9], boxc[9], b, best = -1, at = -1;
    e9_open_counts(s, rowc, colc, boxc);
    for (b = 0; b < 3; b++) {
        uint32_t p = pairs[b];
        while (p) {
            int bit = CTZ(p), cell = 27 * b + bit, deg;
            p &= p - 1;
            deg = rowc[3 * b + bit / 9] + colc[bit % 9] + boxc[3 * b + (bit % 9) / 3] +
                  E9_PAIR_W * (g->weight[cell] + (fails ? x->fails[cell] : 0));
            if (deg > best) {
                best = deg;
                at = cell;
            }
        }
    }
    return at;
}

/* The candidates of each open cell (0 for a filled one), 81 counts. */
static void
e9_candidate_counts(const S9 *s, uint8_t *count)
{
    int d, b;
    memset(count, 0, 81);
    for (d = 0; d < 9; d++)
        for (b = 0; b < 3; b++) {
            uint32_t f = s->F[3 * d + b] & s->U[b];
            while (f) {
                count[27 * b + CTZ(f)]++;
                f &= f - 1;
            }
        }
}

/* Polar parts (Geo.polar9: German whispers on 9x9) still open are
 * branched on first, by side (BRANCH_SPLIT, e9_pairs_split): the open part
 * with the most cells plus E9_PAIR_W per contradiction met after branching
 * on it (x->fails of its first cell). One side decides the half of every
 * cell of the part, which the units' halves (e9_halves) and the pairs then
 * reason on. Measured on the 500 stored whispers puzzles (CPU, in the
 * ninth session's form, which probed each polar cell's sides at every
 * propagation and split a polar cell only when no two-candidate cell was
 * left): 53 -> 37 µs a solve with the parts' sides probed at the root
 * only, 35 with no probing at all (4,473 -> 8,131 and 10,091 nodes);
 * choosing the part with the fewest cells 42 µs, the first one 36, the
 * most cells by their imbalance over each unit's two sides the same; the
 * side tried first barely matters (side 1 first, or the side that removes
 * fewer or more candidates first: 8,841-8,964 nodes, the same time). 1
 * with the branch in *br, 0 when every part is decided. */
static int
e9_polar_branch(Ctx *x, const S9 *s, Branch *br)
{
    const Geo *g = x->geo;
    int k, b, best = -1, most = -1;
    for (k = 0; k < g->npolar9; k++) {
        const uint32_t *p = g->polar9 + 6 * k;
        int w;
        if (!e9_polar_open(s, p))
            continue;
        b = p[0] ? 0 : p[1] ? 1 : 2;
        w = POP9[p[0] & 511] + POP9[p[0] >> 9 & 511] + POP9[p[0] >> 18] + POP9[p[1] & 511] + POP9[p[1] >> 9 & 511] +
            POP9[p[1] >> 18] + POP9[p[2] & 511] + POP9[p[2] >> 9 & 511] + POP9[p[2] >> 18] + POP9[p[3] & 511] +
            POP9[p[3] >> 9 & 511] + POP9[p[3] >> 18] + POP9[p[4] & 511] + POP9[p[4] >> 9 & 511] +
            POP9[p[4] >> 18] + POP9[p[5] & 511] + POP9[p[5] >> 9 & 511] + POP9[p[5] >> 18] +
            E9_PAIR_W * x->fails[27 * b + CTZ(p[b])];
        if (w > most) {
            most = w;
            best = k;
        }
    }
    if (best < 0)
        return 0;
    {
        const uint32_t *p = g->polar9 + 6 * best;
        b = p[0] ? 0 : p[1] ? 1 : 2;
        br->cell[0] = br->cell[1] = (uint16_t)(27 * b + CTZ(p[b])); /* e9_failed's weight goes to it */
        br->digit[0] = (uint8_t)best;
        br->count = 2;
        br->next = 0;
        br->kind = BRANCH_SPLIT;
    }
    return 1;
}

/* The branch with relation pairs (the general engine's choice with kinds,
 * eg_choose): an open polar part's side (e9_polar_branch); else the
 * two-candidate cell of a pair with the most open cells in its units plus
 * E9_PAIR_W per pair and per contradiction met after branching on it
 * (x->fails, e9_pairs_failed); else the open cell with the fewest
 * candidates per weight (1 + its pairs + its contradictions: dom/wdeg).
 * 0 when solved. */
static int
e9_pairs_choose(Ctx *x, const S9 *s, Branch *br)
{
    const Geo *g = x->geo;
    uint8_t count[81];
    uint32_t twos[3], threes[3], pairs[3];
    int c, b, at = -1;
    long bn = 0, bd = 1;
    e9_counts(s, twos, threes);
    for (b = 0; b < 3; b++)
        pairs[b] = s->U[b] & twos[b] & ~threes[b] & g->pairs9_cells[b];
    if (g->polar9 != NULL && e9_polar_branch(x, s, br))
        return 1;
    if (pairs[0] | pairs[1] | pairs[2])
        return e9_cell_branch(s, e9_best_pair_cell(x, s, pairs, 1), br);
    e9_candidate_counts(s, count);
    for (c = 0; c < 81; c++) {
        long cn = count[c], cd = 1L + g->weight[c] + x->fails[c];
        if (!cn)
            continue;
        if (at < 0 || cn * bd < bn * cd) {
            at = c;
            bn = cn;
            bd = cd;
        }
    }
    if (at < 0)
        return 0;
    return e9_cell_branch(s, at, br);
}

/* A branch starts from s (its parent, propagated: every pair arc
 * consistent): the base of the next e9_pairs. */
static void
e9_pairs_base(Ctx *x, const S9 *s)
{
    memcpy(x->base9, s->F, sizeof x->base9);
    x->valid9 = 1;
}

/* Alternative k of a split branch (e9_polar_branch): side k of polar part
 * br->digit[0] takes the low half. */
static int
e9_pairs_split(Ctx *x, S9 *s, const Branch *br, int k)
{
    x->dirty = 0;
    e9_polar_side(x, s, x->geo->polar9 + 6 * br->digit[0], k);
    return 1;
}

/* The halves of the units, for polar cells (Geo.polar: German whispers on
 * 9x9, where a line's neighbours take opposite halves and no line cell
 * holds 5): every row, column and box holds exactly four low digits (1-4)
 * and four high ones (6-9). So, for each half and each unit: more than
 * four cells confined to the half is a contradiction, and with four the
 * half's digits leave the unit's other cells (a naked quad of the half);
 * fewer than four cells that can hold the half is a contradiction, and
 * with four they are confined to it (a hidden quad). The cells of an open
 * polar part (Geo.polar9: its side not decided) are counted as the part's
 * two sides (e9_halves_parts). Sound for any classic 9x9 grid. Counted in
 * 4-bit lanes, a unit a lane, so that the units with nothing to do are
 * passed over together. Digits removed go to x->dirty. 1, or 0 on a
 * contradiction. */
static const uint32_t E9_BOXM[3] = {07007007u, 07007007u << 3, 07007007u << 6};

/* A 4-bit lane per unit: 1 in each of the nine lanes of a word. */
#define E9_LANES 0x111111111ULL

/* The cells of m (a cell mask per band) per unit, in 4-bit lanes (each at
 * most 9): w[0] the rows, w[1] the columns, w[2] the boxes (lane k: unit
 * 9 * word + k, as e9_unit_cells numbers them). */
static inline void
e9_unit_lanes(const uint32_t *m, uint64_t *w)
{
    uint64_t rows = 0, cols = 0, boxes = 0;
    int b;
    for (b = 0; b < 3; b++) {
        uint32_t u = m[b], r0 = u & 511, r1 = (u >> 9) & 511, r2 = u >> 18;
        uint64_t band = SPREAD9[r0] + SPREAD9[r1] + SPREAD9[r2]; /* the band's columns */
        uint64_t t = band + (band >> 4) + (band >> 8);          /* lane 3k: box k of the band */
        rows |= (uint64_t)(POP9[r0] | POP9[r1] << 4 | POP9[r2] << 8) << (12 * b);
        cols += band;
        boxes |= ((t & 15) | ((t >> 8) & 0xF0) | ((t >> 16) & 0xF00)) << (12 * b);
    }
    w[0] = rows;
    w[1] = cols;
    w[2] = boxes;
}

/* Lane u % 9 of w[u / 9]. */
static inline int
e9_lane(const uint64_t *w, int u)
{
    return (int)((w[u / 9] >> (4 * (u % 9))) & 15);
}

/* The cells of unit u (rows 0-8, columns 9-17, boxes 18-26) in band b. */
static inline uint32_t
e9_unit_cells(int u, int b)
{
    if (u < 9)
        return u / 3 == b ? 511u << (9 * (u % 3)) : 0;
    if (u < 18)
        return 0x40201u << (u - 9);
    return (u - 18) / 3 == b ? E9_BOXM[(u - 18) % 3] : 0;
}

/* The halves with the open polar parts (open[0..nopen), indices into
 * Geo.polar9): each unit's cells of such a part take, as a whole, its
 * side-0 cells' half or its side-1 cells'. For each unit and half, with
 * the cells outside open parts confined to it (N, lanes) and able to hold
 * it (R), and each open part's fewest and most cells of that half there
 * over its two sides (mn, mx, the same for both halves): every unit holds
 * four of each half, so N + the parts' mn above four, or R + their mx
 * below four, is a contradiction; and a part whose side with mx (mn) would
 * pass the first (second) bound takes its other side (e9_polar_side).
 * What probing each part's sides saw through the halves, and more: every
 * open part's least share at once. 1, or 0 on a contradiction. */
static int
e9_halves_parts(Ctx *x, S9 *s, const uint8_t *open, int nopen, uint64_t (*N)[3], uint64_t (*R)[3])
{
    const Geo *g = x->geo;
    const uint32_t *start = g->polar9_units;
    uint64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, bad = 0;
    int i, h;
    for (i = 0; i < nopen; i++) {
        const uint32_t *e = start + start[open[i]], *end = start + start[open[i] + 1];
        for (; e < end; e++) {
            uint32_t a = *e >> 8 & 255, b = *e >> 16, u = *e & 255, sh = 4 * (u % 9);
            lo[u / 9] += (uint64_t)(a < b ? a : b) << sh;
            hi[u / 9] += (uint64_t)(a < b ? b : a) << sh;
        }
    }
    for (h = 0; h < 2; h++)
        for (i = 0; i < 3; i++)
            bad |= ((N[h][i] + lo[i] + 3 * E9_LANES) | ~(R[h][i] + hi[i] + 4 * E9_LANES)) & 8 * E9_LANES;
    if (bad)
        return 0;
    for (i = 0; i < nopen; i++) {
        const uint32_t *e = start + start[open[i]], *end = start + start[open[i] + 1];
        int force = 0;
        for (; e < end; e++) {
            int a = (int)(*e >> 8 & 255), b = (int)(*e >> 16), u = (int)(*e & 255);
            if (a == b)
                continue;
            for (h = 0; h < 2; h++) {
                /* side 0 puts its a cells in the low half, its b in the high */
                int c0 = h ? b : a, c1 = h ? a : b, mn = c0 < c1 ? c0 : c1, mx = c0 + c1 - mn;
                int least = c0 < c1 ? 0 : 1; /* the side with mn */
                if (e9_lane(N[h], u) + e9_lane(lo, u) - mn + mx > 4)
                    force |= 1 << least;
                if (e9_lane(R[h], u) + e9_lane(hi, u) - mx + mn < 4)
                    force |= 1 << (1 - least);
            }
        }
        if (force == 3)
            return 0;
        if (force)
            e9_polar_side(x, s, g->polar9 + 6 * open[i], force == 1 ? 0 : 1);
    }
    return 1;
}

static int
e9_halves(Ctx *x, S9 *s)
{
    const Geo *g = x->geo;
    uint32_t lo[3], hi[3], openc[3] = {0, 0, 0}, dirty = 0;
    uint64_t N[2][3], R[2][3];
    uint8_t open[41];
    int b, h, i, k, nopen = 0;
    for (b = 0; b < 3; b++) {
        const uint32_t *F = s->F + b;
        lo[b] = F[0] | F[3] | F[6] | F[9];
        hi[b] = F[15] | F[18] | F[21] | F[24];
    }
    for (k = 0; k < g->npolar9; k++) {
        const uint32_t *p = g->polar9 + 6 * k;
        b = p[0] ? 0 : p[1] ? 1 : 2;
        if (!((lo[b] & hi[b]) >> CTZ(p[b]) & 1))
            continue; /* decided (at the pairs' fixpoint, every cell of it) */
        open[nopen++] = (uint8_t)k;
        for (b = 0; b < 3; b++)
            openc[b] |= p[b] | p[3 + b];
    }
    for (h = 0; h < 2; h++) {
        const uint32_t *can = h ? hi : lo, *other = h ? lo : hi;
        uint32_t in[3], rest[3];
        uint64_t C[3], hot[3], bad = 0;
        int first = h ? 5 : 0;
        for (b = 0; b < 3; b++) {
            in[b] = can[b] & ~other[b] & ~s->F[12 + b] & ~openc[b];
            rest[b] = can[b] & ~openc[b];
        }
        e9_unit_lanes(in, N[h]);
        e9_unit_lanes(rest, R[h]);
        if (nopen) {
            uint32_t oc[3] = {can[0] & openc[0], can[1] & openc[1], can[2] & openc[2]};
            e9_unit_lanes(oc, C);
            for (i = 0; i < 3; i++)
                C[i] += R[h][i];
        } else {
            memcpy(C, R[h], sizeof C);
        }
        /* lane by lane: bad, more than four confined or fewer than four
         * able; hot, four confined or four able (or bad) */
        for (i = 0; i < 3; i++) {
            bad |= ((N[h][i] + 3 * E9_LANES) | ~(C[i] + 4 * E9_LANES)) & 8 * E9_LANES;
            hot[i] = ((N[h][i] + 4 * E9_LANES) | ~(C[i] + 3 * E9_LANES)) & 8 * E9_LANES;
        }
        if (bad)
            return 0;
        for (i = 0; i < 3; i++)
            for (k = 0; hot[i] >> (4 * k); k++) {
                uint32_t gone;
                int u = 9 * i + k;
                if (!(hot[i] >> (4 * k + 3) & 1))
                    continue;
                /* four confined: the half's digits leave the unit's other
                 * cells; four that can: they hold nothing else */
                gone = e9_lane(N[h], u) == 4 ? 0xFu << first : 0x1FFu & ~(0xFu << first);
                for (b = 0; b < 3; b++) {
                    uint32_t cut = e9_unit_cells(u, b) & can[b] & ~in[b];
                    int d;
                    if (!cut)
                        continue;
                    for (d = 0; d < 9; d++)
                        if (gone >> d & 1)
                            s->F[3 * d + b] &= ~cut;
                    dirty |= gone;
                }
            }
    }
    x->dirty |= dirty;
    if (nopen && !dirty)
        return e9_halves_parts(x, s, open, nopen, N, R);
    return 1;
}
