/* Relation pairs in the 9x9 engine (e9): included by _native_9x9.h before
 * e9_propagate_, which calls e9_pairs once its own rules find nothing more.
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

/* The digits one end of a pair allows on the other when it has candidates
 * m (side: the table's first 9 masks from a to b, or the converse). */
static inline uint32_t
e9_support(const uint32_t *side, uint32_t m)
{
    uint32_t v = 0;
    for (; m; m &= m - 1)
        v |= side[CTZ(m)];
    return v;
}

/* The relation pairs of x->geo to arc consistency on s. Digits removed go
 * to x->dirty. 1, or 0 on a contradiction. */
static int
e9_pairs(Ctx *x, S9 *s)
{
    const Geo *g = x->geo;
    uint16_t m[81], was[81], work[82];
    uint8_t queued[81];
    int head = 0, tail = 0, c, d, b;
    /* the masks of the cells with pairs (the others stay 0, unread) */
    memset(m, 0, sizeof m);
    for (d = 0; d < 9; d++)
        for (b = 0; b < 3; b++) {
            uint32_t f = s->F[3 * d + b] & g->pairs9_cells[b];
            while (f) {
                m[27 * b + CTZ(f)] |= (uint16_t)(1u << d);
                f &= f - 1;
            }
        }
    memset(queued, 0, sizeof queued);
    for (b = 0; b < 3; b++) {
        uint32_t f = g->pairs9_cells[b];
        while (f) {
            c = 27 * b + CTZ(f);
            f &= f - 1;
            if (UNLIKELY(!m[c]))
                return 0;
            was[c] = m[c];
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
            uint32_t end = g->adj[j], k = end >> 1, keep;
            const uint32_t *t = g->tab + g->pair_tab[k];
            int o;
            if (end & 1) { /* c is b: a keeps what some digit of b allows */
                o = g->pair_a[k];
                keep = e9_support(t + 9, mc);
            } else {
                o = g->pair_b[k];
                keep = e9_support(t, mc);
            }
            if (m[o] & ~keep) {
                m[o] &= (uint16_t)keep;
                if (UNLIKELY(!m[o]))
                    return 0;
                if (!queued[o]) {
                    queued[o] = 1;
                    work[tail] = (uint16_t)o;
                    tail = tail + 1 == 82 ? 0 : tail + 1;
                }
            }
        }
    }
    /* the digits gone leave e9's masks */
    for (b = 0; b < 3; b++) {
        uint32_t f = g->pairs9_cells[b];
        while (f) {
            int bit = CTZ(f);
            uint32_t gone;
            f &= f - 1;
            c = 27 * b + bit;
            gone = (uint32_t)(was[c] & ~m[c]);
            if (!gone)
                continue;
            x->dirty |= gone;
            for (; gone; gone &= gone - 1)
                s->F[3 * CTZ(gone) + b] &= ~(1u << bit);
        }
    }
    return 1;
}

/* The root (run9, before its propagation): each cell keeps the digits its
 * pairs to two peers of each other leave it (Geo.pair_keep, as the general
 * engine's root does); a given that loses its digit is found by e9_pairs. */
static void
e9_pairs_root(const Geo *g, S9 *s)
{
    int c, d;
    if (g->pair_keep == NULL)
        return;
    for (c = 0; c < 81; c++)
        for (d = 0; d < 9; d++)
            if (!(g->pair_keep[c] >> d & 1))
                s->F[3 * d + c / 27] &= ~(1u << (c % 27));
}

/* Weight of a cell's relation pairs against the open cells of its units
 * when e9_pairs_choose picks a two-candidate cell (EK_W of the general
 * engine). */
#ifndef E9_PAIR_W
#define E9_PAIR_W 4
#endif

static int e9_cell_branch(const S9 *s, int cell, Branch *br);

/* The branch with relation pairs (the general engine's choice with kinds,
 * eg_choose): the two-candidate cell of a pair with the most open cells in
 * its units plus E9_PAIR_W per pair; else the open cell with the fewest
 * candidates per weight (1 + its pairs). 0 when solved. */
static int
e9_pairs_choose(Ctx *x, const S9 *s, Branch *br)
{
    const Geo *g = x->geo;
    uint8_t count[81];
    int rowc[9], colc[9], boxc[9], c, d, b, best = -1, at = -1;
    long bn = 0, bd = 1;
    (void)x;
    memset(count, 0, sizeof count);
    for (d = 0; d < 9; d++)
        for (b = 0; b < 3; b++) {
            uint32_t f = s->F[3 * d + b] & s->U[b];
            while (f) {
                count[27 * b + CTZ(f)]++;
                f &= f - 1;
            }
        }
    memset(rowc, 0, sizeof rowc);
    memset(colc, 0, sizeof colc);
    memset(boxc, 0, sizeof boxc);
    for (c = 0; c < 81; c++)
        if (count[c]) {
            rowc[c / 9]++;
            colc[c % 9]++;
            boxc[(c / 27) * 3 + (c % 9) / 3]++;
        }
    for (c = 0; c < 81; c++) {
        int w = g->weight[c];
        if (count[c] == 2 && w > 0) {
            int deg = rowc[c / 9] + colc[c % 9] + boxc[(c / 27) * 3 + (c % 9) / 3] + E9_PAIR_W * w;
            if (deg > best) {
                best = deg;
                at = c;
            }
        }
    }
    if (at >= 0)
        return e9_cell_branch(s, at, br);
    for (c = 0; c < 81; c++) {
        long cn = count[c], cd = 1L + g->weight[c];
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
